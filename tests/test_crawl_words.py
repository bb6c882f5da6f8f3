"""No page shows an internal key or a Python repr (the presentation issue).

Two simulated tournaments — one played to the end with a correction, a void and its replay, a
withdrawal, tie-breaks and the whole playoff; one whose group is eliminated — and a crawl of
every page reachable from their pages, as the organiser, a referee, a player and anonymously:
links (href and hx-get) inside the site, GET only, no /api/, no logout, a bounded count. Each
page must answer sensibly (never a 500) and its visible text (tags, scripts and attributes
stripped) must hold no internal key or repr. The API and the CSV keep their keys by design.
"""

import random
import re
import time
from collections import defaultdict, deque
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from duels.models import Duel, DuelKind, DuelStatus
from tournaments import services
from tournaments.models import EntrantStatus, Phase
from tournaments.services import corrections
from tournaments.services import groups as group_services
from tournaments.services.progression import start_playoffs
from tournaments.simulation import TournamentSimulation, simulate_tournament

pytestmark = pytest.mark.django_db

MAX_PAGES_PER_ROLE = 400
MAX_QUERY_VARIANTS = 4  # of one path (the audit log's filters and pages)
SENSIBLE = {200, 302, 403, 404}

# Each pattern names what leaked. Matched against the visible text only.
LEAKS = [
    (re.compile(r"\bK[0-9a-f]{6,}(?:-r\d+-m\d+)?\b|\b\S+-r\d+-m\d+\b"), "a tie-break stage key"),
    (re.compile(r"(?<![\w-])(?:Q1|Q2|E1|GF)(?![\w-])"), "a raw playoff stage code"),
    (re.compile(r"\bshed_?all\b|\b(?:double_zero|time_limit|dare_refused|no_show|"
                r"tie_break|group_phase|tie_breaks|not_played|playoff_duels)\b"),
     "a raw key in snake_case"),
    (re.compile(r"\b[a-z]+(?:_[a-z]+)+\b"), "a snake_case key"),
    (re.compile(r"\{\s*['\"][^'\"]*['\"]\s*:|\{\s*\d+\s*:"), "a Python dict repr"),
    (re.compile(r"\[\s*(?:\d+|'[^']*'|\"[^\"]*\")(?:\s*,\s*(?:\d+|'[^']*'|\"[^\"]*\"))*\s*\]|\[\]"),
     "a Python list repr"),
    (re.compile(r"\b(?:None|True|False)\b"), "a Python None/True/False"),
    (re.compile(r"<[A-Z]\w*(?:\.\w+)?:\s[^>]*>"), "an object or enum repr"),
    (re.compile(r"\b[A-Z]\w*\.[A-Z][A-Z_]+\b"), "an enum member"),
    (re.compile(r"object at 0x[0-9a-f]+"), "an object repr"),
]


class _Page(HTMLParser):
    """The visible text of a page and the links it holds."""

    SKIP = {"script", "style", "template"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.links: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self._skipping += 1
        for name, value in attrs:
            if name in ("href", "hx-get") and value:
                self.links.append(value)

    def handle_endtag(self, tag):
        if tag in self.SKIP and self._skipping:
            self._skipping -= 1

    def handle_data(self, data):
        if not self._skipping:
            self.text.append(data)


def visible(html: str) -> tuple[str, list[str]]:
    page = _Page()
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


# -- the tournaments ---------------------------------------------------------------------------

def _continue(sim: TournamentSimulation, first_round: int) -> None:
    """Play a tournament on from `first_round` to complete, as `simulation.run` does."""
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
    for _ in range(8):
        duels = sim.open_duels(DuelKind.PLAYOFF)
        if not duels:
            break
        for duel in duels:
            sim.play(duel)
        sim.advance()
    t.refresh_from_db()


def _group_duel(tournament, number):
    return Duel.objects.get(tournament=tournament, round__number=number,
                            kind=DuelKind.GROUP, status=DuelStatus.FINISHED)


def build_full_tournament():
    """Twelve players to the end: a correction, a void replayed, a withdrawal, tie-breaks."""
    t, _ = simulate_tournament(players=12, seed="crawl", until="round:4", name="Crawl Cup")
    users = get_user_model().objects
    organiser, referee = users.get(username="sim-organiser"), users.get(username="sim-referee")
    sim = TournamentSimulation(t, organiser, referee, random.Random("crawl-on"))
    third = _group_duel(t, 3)
    corrections.correct_result(t, organiser, third,
                               "B" if third.result.winner_id == third.seat_a_id else "A",
                               "The cards were miscounted")
    corrections.void_result(t, organiser, _group_duel(t, 4), "Wrong deck", replay=True)
    sim.play(Duel.objects.get(tournament=t, kind=DuelKind.REPLAY, status=DuelStatus.READY))
    larger = max(t.groups.all(), key=lambda g: g.members.filter(
        status=EntrantStatus.ACTIVE).count())
    leaving = larger.members.filter(status=EntrantStatus.ACTIVE).order_by("pk").last()
    group_services.withdraw(t, organiser, leaving.pk, "Feeling unwell")
    _continue(sim, 5)
    return t, organiser, referee


def build_eliminated_tournament():
    """Ten players, 5 and 5: a withdrawal after round 2 eliminates a group."""
    t, _ = simulate_tournament(players=10, seed="crawl-out", until="round:2",
                               name="Elimination Cup")
    users = get_user_model().objects
    organiser, referee = users.get(username="sim-organiser"), users.get(username="sim-referee")
    first = t.groups.order_by("order").first()
    leaving = first.members.filter(status=EntrantStatus.ACTIVE).order_by("pk").first()
    group_services.withdraw(t, organiser, leaving.pk, "Had to leave", confirm=True)
    _continue(TournamentSimulation(t, organiser, referee, random.Random("crawl-out-on")), 3)
    return t


def a_player(tournament):
    entrant = tournament.entrants.filter(status=EntrantStatus.ACTIVE).order_by("pk").first()
    user = get_user_model().objects.create_user(username="player-ada", password="x")
    token = services.issue_claim_link(entrant)
    services.claim_entry(tournament, token, user)
    return user


# -- the crawl ---------------------------------------------------------------------------------

def in_scope(url: str, slugs: set[str]) -> bool:
    parts = urlsplit(url)
    path = parts.path
    if parts.scheme or parts.netloc or not path.startswith("/"):
        return False
    if path.startswith(("/api/", "/static/", "/media/", "/admin/", "/accounts/")):
        return False
    if path.endswith((".json", ".csv")) or "/csv" in path:
        return False
    if path.startswith("/t/"):
        slug = path.split("/")[2]
        return slug in slugs or slug == "new"
    return path in ("/", "/dashboard/") or path.startswith("/me/")


def crawl(client: Client, seeds: list[str], slugs: set[str]):
    seen: set[str] = set()
    variants: dict[str, int] = defaultdict(int)
    queue = deque(seeds)
    problems: list[str] = []
    statuses: dict[int, int] = defaultdict(int)
    while queue and len(seen) < MAX_PAGES_PER_ROLE:
        url = urldefrag(queue.popleft())[0]
        if url in seen or not in_scope(url, slugs):
            continue
        path = urlsplit(url).path
        if url != path:
            if variants[path] >= MAX_QUERY_VARIANTS:
                continue
            variants[path] += 1
        seen.add(url)
        response = client.get(url)
        statuses[response.status_code] += 1
        if response.status_code not in SENSIBLE:
            problems.append(f"{url}: answered {response.status_code}")
            continue
        if response.status_code == 302:
            queue.append(response["Location"])
            continue
        if not response["Content-Type"].startswith("text/html"):
            continue
        text, links = visible(response.content.decode())
        problems += [f"{url}: {leak}" for leak in leaks_in(text)]
        queue.extend(links)
    return seen, statuses, problems


def test_no_page_shows_an_internal_key_or_a_repr(monkeypatch):
    started = time.monotonic()
    # Most duels end by a no-show (fast); the rest are played out by the bots, so the pages
    # still show every kind of finish the simulation reaches.
    monkeypatch.setattr("tournaments.simulation.FORFEIT_RATE", 0.7)
    full, organiser, referee = build_full_tournament()
    out = build_eliminated_tournament()
    player = a_player(full)
    built = time.monotonic() - started

    # The data have what the crawl is meant to see.
    assert full.phase == Phase.COMPLETE
    assert Duel.objects.filter(tournament=full, kind=DuelKind.TIE_BREAK,
                               status=DuelStatus.FINISHED).exists()
    assert set(Duel.objects.filter(tournament=full, kind=DuelKind.PLAYOFF,
                                   status=DuelStatus.FINISHED)
               .values_list("stage", flat=True)) == {"Q1", "E1", "Q2", "GF"}
    assert Duel.objects.filter(tournament=full, kind=DuelKind.REPLAY).exists()
    assert Duel.objects.filter(tournament=full, status=DuelStatus.VOID).exists()
    assert full.entrants.filter(status=EntrantStatus.WITHDRAWN).exists()
    assert out.groups.filter(eliminated_at_round__isnull=False).exists()

    slugs = {full.slug, out.slug}
    seeds = ["/", "/dashboard/", "/me/", "/me/duels/"]
    for t in (full, out):
        seeds += [f"/t/{t.slug}/", f"/t/{t.slug}/live/", f"/t/{t.slug}/duels/",
                  f"/t/{t.slug}/manage/", f"/t/{t.slug}/manage/audit/"]
    report, problems = [], []
    for role, user in (("organiser", organiser), ("referee", referee), ("player", player),
                       ("anonymous", None)):
        client = Client()
        if user is not None:
            client.force_login(user)
        seen, statuses, found = crawl(client, seeds, slugs)
        report.append(f"{role}: {len(seen)} pages {dict(statuses)}")
        problems += [f"[{role}] {p}" for p in found]
        assert len(seen) > 20, f"{role} reached only {sorted(seen)}"
    print(f"\ncrawl: built in {built:.1f}s, {time.monotonic() - started:.1f}s in all; "
          + "; ".join(report))
    unique = list(dict.fromkeys(problems))
    assert not unique, f"{len(unique)} leaks or bad answers:\n" + "\n".join(unique[:200])
