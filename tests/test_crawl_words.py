"""No page shows an internal key or a Python repr (the presentation issue).

The crawl itself runs once for both checks, in tests/i18n/test_every_page_translated.py (every
word through the catalogue, and these patterns); this module holds the patterns, the
tournaments it crawls and their own tests.

Three tournaments — one simulated to the end with a correction, a void and its replay, a
withdrawal, tie-breaks and the whole playoff; one simulated whose group is eliminated, now in
its playoffs with a duel half played; one in registration — and a crawl of every page
reachable from their pages, as the organiser, a referee, a player and anonymously: links
(href, hx-get with the HX-Request header, a GET form's choices) inside the site, GET only, no
/api/, no logout, a bounded count. Each page must answer sensibly (never a 500) and its visible
text (tags, scripts and attributes stripped) must hold no internal key or repr. The API and
the CSV keep their keys by design.
"""

import random
import re
from html.parser import HTMLParser
from urllib.parse import urlencode, urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model

from duels.models import Duel, DuelKind, DuelStatus
from games.split_uno.simulate import play_duel
from tournaments import services
from tournaments.models import EntrantStatus, Phase
from tournaments.services import corrections, refereeing
from tournaments.services import groups as group_services
from tournaments.services.progression import start_playoffs
from tournaments.services.shared_cards import start_options
from tournaments.simulation import BOTS, TournamentSimulation, simulate_tournament

pytestmark = pytest.mark.django_db

# Pages alike in shape (ids aside) are asked a bounded number of times with a query (a
# replay's steps, a screen's panels) or by htmx; the audit log's filters each once.
MAX_VARIANTS = 3
MAX_AUDIT_VARIANTS = 40

# Each pattern names what leaked. Matched against the visible text only.
LEAKS = [
    (re.compile(r"\bK[0-9a-f]{6,}(?:-r\d+-m\d+)?\b|\b\S+-r\d+-m\d+\b"), "a tie-break stage key"),
    (re.compile(r"(?<![\w-])(?:Q1|Q2|E1|GF)(?![\w-])"), "a raw playoff stage code"),
    (
        re.compile(
            r"\bshed_?all\b|\b(?:double_zero|time_limit|dare_refused|no_show|"
            r"tie_break|group_phase|tie_breaks|not_played|playoff_duels)\b"
        ),
        "a raw key in snake_case",
    ),
    (re.compile(r"\b[a-z]+(?:_[a-z]+)+\b"), "a snake_case key"),
    (re.compile(r"\{\s*['\"][^'\"]*['\"]\s*:|\{\s*\d+\s*:"), "a Python dict repr"),
    (
        re.compile(
            r"\[\s*(?:\d+|'[^']*'|\"[^\"]*\")(?:\s*,\s*(?:\d+|'[^']*'|\"[^\"]*\"))*\s*\]|\[\]"
        ),
        "a Python list repr",
    ),
    (re.compile(r"\b(?:None|True|False)\b"), "a Python None/True/False"),
    (re.compile(r"<[A-Z]\w*(?:\.\w+)?:\s[^>]*>"), "an object or enum repr"),
    (re.compile(r"\b[A-Z]\w*\.[A-Z][A-Z_]+\b"), "an enum member"),
    (re.compile(r"object at 0x[0-9a-f]+"), "an object repr"),
    (re.compile(r"(?<=\w)\.\.(?!\.)"), "a doubled full stop"),
    (re.compile(r"\b(?:RULES|TOURNAMENT|DESIGN)\.md\b"), "a developers' document"),
]


class _Page(HTMLParser):
    """The visible text of a page and the links it holds."""

    SKIP = {"script", "style"}

    def __init__(self, url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.url = url
        self.text: list[str] = []
        self.links: list[tuple[str, bool]] = []
        self._skipping = 0
        self._form: str | None = None  # the action of the GET form being read
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in self.SKIP:
            self._skipping += 1
        # A link is (address, asked by htmx); "?step=3" is relative to the page.
        for name in ("href", "hx-get"):
            if attrs.get(name):
                self.links.append((urljoin(self.url, attrs[name]), name == "hx-get"))
        # A GET form's choices are pages too (the audit log's filters): one link per option.
        if tag == "form" and (attrs.get("method") or "get").lower() == "get":
            self._form = attrs.get("action") or urlsplit(self.url).path
        elif tag == "select" and self._form:
            self._select = attrs.get("name")
        elif tag == "option" and self._form and self._select and attrs.get("value"):
            query = urlencode({self._select: attrs["value"]})
            self.links.append((urljoin(self.url, f"{self._form}?{query}"), False))

    def handle_endtag(self, tag):
        if tag in self.SKIP and self._skipping:
            self._skipping -= 1
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None

    def handle_data(self, data):
        if not self._skipping:
            self.text.append(data)


def visible(html: str, url: str = "/") -> tuple[str, list[tuple[str, bool]]]:
    page = _Page(url)
    page.feed(html)
    return " ".join(" ".join(page.text).split()), page.links


def leaks_in(text: str) -> list[str]:
    """Each offending span once, named by the first pattern that finds it."""
    found, spans = [], set()
    for pattern, what in LEAKS:
        for match in pattern.finditer(text):
            if any(match.start() < end and start < match.end() for start, end in spans):
                continue
            spans.add(match.span())
            start, end = max(0, match.start() - 40), match.end() + 40
            found.append(f"{what}: {match[0]!r} in …{text[start:end]}…")
    return found


@pytest.mark.parametrize(
    "text",
    [
        "Tie-break K513c7d9c15868167-r1-m1",
        "Stage Q1",
        "GF: Ada",
        "finish shed_all",
        "shedall",
        "double_zero",
        "{'1': [59]}",
        "[3, 4]",
        "None",
        "True",
        "<Entrant: Ada>",
        "<Phase.COMPLETE: 'complete'>",
        "Phase.COMPLETE",
        "<object object at 0x7f3a>",
        "Jun is absent and forfeits..",
        "68 stay in the deck (RULES.md 11.1)",
    ],
)
def test_the_crawl_sees_a_leak(text):
    assert leaks_in(f"Group round 3 · {text} · Ada won (shed all cards)")


def test_the_crawl_reads_words_as_words():
    assert not leaks_in(
        "Group round 3 (replay) · Tie-break round 1, match 2 · Qualifier 1 · "
        "Grand Final · Ada won (shed all cards) · No winner (double zero) · "
        "Positions 1–4 settled · 3rd: Bao · E-mail"
    )


# -- the tournaments ---------------------------------------------------------------------------


def _continue(sim: TournamentSimulation, first_round: int, *, until: str = "complete") -> None:
    """Play a tournament on from `first_round` to `until` ("complete" or "playoffs": just
    begun), as `simulation.run` does."""
    t = sim.tournament
    for number in range(first_round, 16):
        t.refresh_from_db()
        if t.phase != Phase.GROUP_PHASE or t.group_phase_ended_at:
            break
        sim.play_round(number)
    sim._settle_tiebreaks("complete")
    t.refresh_from_db()
    if t.phase == Phase.TIE_BREAKS:
        start_playoffs(t, sim.organiser)
        sim.advance()
    if until == "playoffs":
        return
    for _ in range(8):
        duels = sim.open_duels(DuelKind.PLAYOFF)
        if not duels:
            break
        for duel in duels:
            sim.play(duel)
        sim.advance()
    t.refresh_from_db()


def _group_duel(tournament, number):
    return Duel.objects.get(
        tournament=tournament, round__number=number, kind=DuelKind.GROUP, status=DuelStatus.FINISHED
    )


def build_full_tournament():
    """Twelve players to the end: a correction, a void replayed, a withdrawal, tie-breaks."""
    t, _ = simulate_tournament(players=12, seed="crawl", until="round:4", name="Crawl Cup")
    users = get_user_model().objects
    organiser, referee = users.get(username="sim-organiser"), users.get(username="sim-referee")
    sim = TournamentSimulation(t, organiser, referee, random.Random("crawl-on"))
    third = _group_duel(t, 3)
    corrections.correct_result(
        t,
        organiser,
        third,
        "B" if third.result.winner_id == third.seat_a_id else "A",
        "The cards were miscounted",
    )
    corrections.void_result(t, organiser, _group_duel(t, 4), "Wrong deck", replay=True)
    sim.play(Duel.objects.get(tournament=t, kind=DuelKind.REPLAY, status=DuelStatus.READY))
    larger = max(
        t.groups.all(), key=lambda g: g.members.filter(status=EntrantStatus.ACTIVE).count()
    )
    leaving = larger.members.filter(status=EntrantStatus.ACTIVE).order_by("pk").last()
    group_services.withdraw(t, organiser, leaving.pk, "Feeling unwell")
    _continue(sim, 5)
    return t, organiser, referee


def build_eliminated_tournament():
    """Ten players, 5 and 5: a withdrawal after round 2 eliminates a group; then the playoffs
    begin and a qualifier is half played: the pages of a live event too (a running console
    with its pending decision, the bracket under way)."""
    t, _ = simulate_tournament(
        players=10, seed="crawl-out", until="round:2", name="Elimination Cup"
    )
    users = get_user_model().objects
    organiser, referee = users.get(username="sim-organiser"), users.get(username="sim-referee")
    first = t.groups.order_by("order").first()
    leaving = first.members.filter(status=EntrantStatus.ACTIVE).order_by("pk").first()
    group_services.withdraw(t, organiser, leaving.pk, "Had to leave", confirm=True)
    _continue(
        TournamentSimulation(t, organiser, referee, random.Random("crawl-out-on")),
        3,
        until="playoffs",
    )
    duel = (
        Duel.objects.filter(tournament=t, kind=DuelKind.PLAYOFF, status=DuelStatus.READY)
        .order_by("pk")
        .first()
    )
    played = play_duel(
        duel.ruleset,
        {"A": duel.seat_a.name, "B": duel.seat_b.name},
        BOTS,
        random.Random("crawl-live"),
        duel.variants,
        start_options(duel),
    )
    for seq, event in enumerate(played.events[: len(played.events) // 2]):
        refereeing.append_event(duel, referee, event, seq)
    return t


def build_open_tournament(organiser):
    """Registration open, players in, no groups yet: the set-up pages (paper rules, speed)."""
    t = services.create_tournament(name="Open Cup", created_by=organiser)
    services.configure(
        t, organiser, duel_preset="paper", variants=["speed"], tiebreak_mode="minimal"
    )
    services.open_registration(t, organiser)
    services.register_list(t, "\n".join(["Ada", "Bao", "Cleo", "Dev"]), organiser)
    services.set_published(t, True, organiser)
    return t


def a_player(tournament):
    entrant = tournament.entrants.filter(status=EntrantStatus.ACTIVE).order_by("pk").first()
    user = get_user_model().objects.create_user(username="player-ada", password="x")
    token = services.issue_claim_link(entrant)
    services.claim_entry(tournament, token, user)
    return user


def test_the_audit_log_words_settings_seats_and_splits():
    from tournaments.presentation import audit_text, rules_text

    def words(detail):
        return audit_text(
            detail, entrants={1: "Ada", 2: "Bao", 3: "Cleo"}, groups={}, duels={}, users={}
        )

    assert words(
        {
            "changes": {
                "duel_preset": ["tournament", "paper"],
                "variants": [[], ["speed"]],
                "shared_cards": [True, False],
            }
        }
    ) == ("duel rules: Tournament → Paper; variants: none → Speed; shared cards: on → off")
    assert words({"round": 3, "seat_a": 1, "seat_b": 2}) == "round: 3; seat A: Ada; seat B: Bao"
    assert words({"method": "hand", "names": ["Ada", "Bao", "Cleo"]}) == (
        "split: by hand; names: Ada, Bao and Cleo"
    )
    assert rules_text("paper", ["speed", "hardcore"]) == "Paper + Speed, Hardcore"
