"""Every word a person reads comes through the catalogue, in every language (issue 29).

The pages of three tournaments (one played to the end with a correction, a void and its
replay, a withdrawal, tie-breaks and the playoffs; one in its playoffs with a duel half
played; one in registration), practice (Split UNO at two seats and in teams, Trois, CPT-113),
a casual table with moves, the rules pages, the accounts' pages and the error pages are crawled
as the organiser, a referee, a player and anonymously, in the pseudo-language of
tests/i18n/pseudo.py.
A visible word outside its markers is a word that skipped the catalogue, unless it is a
person's, a tournament's or a table's name, or one of the glossary's exceptions
(docs/translating.md); and no page shows an internal key or a repr (the patterns of
tests/test_crawl_words.py, which this crawl runs for it). Then every message the crawl looked
up must have a translation in each real language: a new string left untranslated in any
language fails here.
"""

from __future__ import annotations

import random
import re
import time
import zoneinfo
from collections import defaultdict, deque
from urllib.parse import urldefrag, urlsplit

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.utils import translation
from django.utils.translation import trans_real

from accounts.models import User
from duels.models import Duel, DuelKind, DuelStatus
from games.split_uno.simulate import play_duel
from practice import game_services
from practice import services as practice_services
from tables import selectors as table_selectors
from tables import services as table_services
from tables.models import CasualTable
from tests.test_crawl_words import (
    MAX_AUDIT_VARIANTS,
    MAX_VARIANTS,
    a_player,
    build_eliminated_tournament,
    build_full_tournament,
    build_open_tournament,
    leaks_in,
    visible,
)
from tournaments.models import AuditEntry, Entrant, EntrantStatus, Group, Phase, Tournament
from tournaments.simulation import BOTS

from .pseudo import CLOSE, OPEN, PSEUDO, pseudo_language, stray_words

pytestmark = pytest.mark.django_db

MAX_PAGES_PER_ROLE = 700
SENSIBLE = {200, 204, 301, 302, 400, 403, 404}

# Words that stay as they are in every language (docs/translating.md, the glossary): the
# game's and the site's names, the card names as printed, the languages each named in its
# own, and units and marks that are the same everywhere.
GLOSSARY_EXCEPTIONS = {
    "Split",
    "UNO",
    "Trois",
    "CPT",
    "REVERSE",
    "BLOCK",
    "COLOR",
    "CHANGE",
    "TRUTH",
    "DARE",
    "English",
    "Español",
    "Français",
    "Bahasa",
    "Melayu",
    "UTC",
    "QR",
}


def test_the_pseudo_language_finds_a_word_left_out():
    assert stray_words("⟦Standings⟧ Ada ⟦won⟧", {"Ada"}) == []
    assert stray_words("⟦Standings⟧ Round 3", set()) == ["Round"]
    assert stray_words("⟦⟦Qualifier 1⟧ won by ⟦shed all⟧⟧", set()) == []


def names_in_the_database() -> set[str]:
    """Everything people typed that a page shows as they typed it."""
    found: set[str] = set()
    for values in (
        Tournament.objects.values_list("name", flat=True),
        Group.objects.values_list("name", flat=True),
        Entrant.objects.values_list("name", flat=True),
        Entrant.objects.values_list("withdrawal_reason", flat=True),
        User.objects.values_list("username", flat=True),
        User.objects.values_list("display_name", flat=True),
        AuditEntry.objects.values_list("reason", flat=True),
    ):
        found.update(v for v in values if v)
    from duels.models import Result

    found.update(v for v in Result.objects.values_list("correction_reason", flat=True) if v)
    for table in CasualTable.objects.all():
        record = table_services.record_of(table)
        found.update(str(name) for name in (record.get("seats") or {}).values())
    # The automation's own reasons are words to translate, not a person's.
    from tournaments.presentation import SYSTEM_REASONS

    found -= set(SYSTEM_REASONS)
    # A name is also shown word by word (initials, a sort key): allow its parts.
    for value in list(found):
        found.update(re.findall(r"[^\W\d_]+", value))
    return found


def time_zone_words() -> set[str]:
    """Time zones keep their IANA names in every language (docs/translating.md)."""
    return {w for zone in zoneinfo.available_timezones() for w in re.findall(r"[^\W\d_]+", zone)}


def in_scope(url: str, slugs: set[str]) -> bool:
    parts = urlsplit(url)
    path = parts.path
    if parts.scheme or parts.netloc or not path.startswith("/"):
        return False
    if path.startswith(("/api/", "/static/", "/media/", "/admin/", "/push/")):
        return False
    if path.endswith((".json", ".csv", ".svg", ".png")) or "/csv" in path:
        return False
    if "logout" in path:
        return False
    if path.startswith("/t/"):
        slug = path.split("/")[2]
        return slug in slugs or slug == "new"
    return path in ("/", "/dashboard/") or path.startswith(
        ("/me/", "/practice/", "/tables/", "/accounts/", "/rules/")
    )


def crawl(client: Client, seeds: list[str], slugs: set[str], check) -> tuple[int, list[str]]:
    """Breadth first from `seeds`, GET only; each page's visible text goes to `check`."""
    seen: set[tuple[str, bool]] = set()
    variants: dict[tuple[str, bool], int] = defaultdict(int)
    queue = deque((seed, False) for seed in seeds)
    problems: list[str] = []
    while queue and len(seen) < MAX_PAGES_PER_ROLE:
        url, htmx = queue.popleft()
        url = urldefrag(url)[0]
        if (url, htmx) in seen or not in_scope(url, slugs):
            continue
        path = urlsplit(url).path
        if url != path or htmx:
            shape = re.sub(r"\d+", "N", path), htmx
            cap = MAX_AUDIT_VARIANTS if path.endswith("/audit/") else MAX_VARIANTS
            if variants[shape] >= cap:
                continue
            variants[shape] += 1
        seen.add((url, htmx))
        response = client.get(url, headers={"HX-Request": "true"} if htmx else {})
        name = f"{url} (htmx)" if htmx else url
        if response.status_code not in SENSIBLE:
            problems.append(f"{name}: answered {response.status_code}")
            continue
        if response.status_code in (301, 302):
            queue.append((response["Location"], False))
            continue
        if not response.get("Content-Type", "").startswith("text/html"):
            continue
        text, links = visible(response.content.decode(), url)
        problems += [f"{name}: {p}" for p in check(text)]
        queue.extend(links)
    return len(seen), problems


def casual_table(owner) -> CasualTable:
    """A two-seat table a few rounds in, with a referee's moves."""
    table = table_services.open_table(owner=owner, ruleset="tournament", names=["Ann", "Bo"])
    played = play_duel("tournament", {"A": "Ann", "B": "Bo"}, BOTS, random.Random("i18n"))
    for event in played.events[:12]:
        table_services.append_event(
            table_id=table.pk,
            actor=owner,
            event=event,
            expected_revision=table_selectors.revision_of(table.pk),
        )
    return table


def practice_games(user) -> None:
    practice_services.start_practice(user, "tournament")
    practice_services.start_practice(user, "official", seats=4, layout="AC,BD")
    game_services.start_game(user, "trois")
    game_services.start_game(user, "cpt113", groups=3)


def error_pages() -> list[tuple[str, str]]:
    """The error pages as the site renders them, in the active language."""
    request = RequestFactory().get("/")
    pages = []
    for name in ("400.html", "403.html", "403_csrf.html", "404.html", "500.html", "503.html"):
        pages.append((name, render_to_string(name, {"request_path": "/x/"}, request=request)))
    return pages


def test_every_word_on_every_page_comes_through_the_catalogue(monkeypatch):
    started = time.monotonic()
    monkeypatch.setattr("tournaments.simulation.FORFEIT_RATE", 0.7)
    full, organiser, referee = build_full_tournament()
    out = build_eliminated_tournament()
    opening = build_open_tournament(organiser)
    player = a_player(full)
    practice_games(player)
    casual_table(organiser)
    allowed = names_in_the_database() | GLOSSARY_EXCEPTIONS | time_zone_words()

    # The data have what the crawl is meant to see.
    assert full.phase == Phase.COMPLETE
    assert set(
        Duel.objects.filter(
            tournament=full, kind=DuelKind.PLAYOFF, status=DuelStatus.FINISHED
        ).values_list("stage", flat=True)
    ) == {"Q1", "E1", "Q2", "GF"}
    for kind in (DuelKind.TIE_BREAK, DuelKind.REPLAY):
        assert Duel.objects.filter(tournament=full, kind=kind).exists()
    assert Duel.objects.filter(tournament=full, status=DuelStatus.VOID).exists()
    assert full.entrants.filter(status=EntrantStatus.WITHDRAWN).exists()
    assert out.groups.filter(eliminated_at_round__isnull=False).exists()
    assert Duel.objects.filter(tournament=out, status=DuelStatus.RUNNING).exists()

    slugs = {full.slug, out.slug, opening.slug}
    seeds = ["/", "/dashboard/", "/me/", "/me/duels/", "/practice/", "/tables/"]
    seeds += ["/rules/", "/rules/trois/", "/rules/cpt113/"]  # the rules pages (issue 30)
    seeds += [
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password_reset/",
        "/accounts/password_reset/done/",
        "/accounts/password_change/",
        "/accounts/notifications/",
        "/no-such-page/",
    ]
    for t in (full, out, opening):
        seeds += [
            f"/t/{t.slug}/",
            f"/t/{t.slug}/live/",
            f"/t/{t.slug}/screen/",
            f"/t/{t.slug}/duels/",
            f"/t/{t.slug}/manage/",
            f"/t/{t.slug}/manage/audit/",
            f"/t/{t.slug}/entrants/",
            f"/t/{t.slug}/people/",
        ]
        seeds += [
            f"/t/{t.slug}/sheets/{pk}/"
            for pk in Duel.objects.filter(tournament=t).values_list("pk", flat=True)
        ]

    def check(text: str) -> list[str]:
        stray = stray_words(text, allowed)
        found = [f"not translated: {' '.join(dict.fromkeys(stray))}"] if stray else []
        # No internal key or repr either (tests/test_crawl_words.py's patterns), read in the
        # words as a person reads them: the markers out.
        return found + leaks_in(text.replace(OPEN, "").replace(CLOSE, ""))

    report, problems = [], []
    with pseudo_language() as pseudo:
        for role, user in (
            ("organiser", organiser),
            ("referee", referee),
            ("player", player),
            ("anonymous", None),
        ):
            client = Client()
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = PSEUDO
            if user is not None:
                client.force_login(user)
            count, found = crawl(client, seeds, slugs, check)
            report.append(f"{role}: {count} pages")
            problems += [f"[{role}] {p}" for p in found]
            assert count > 20, f"{role} reached only {count} pages"
        with translation.override(PSEUDO):
            for name, html in error_pages():
                problems += [f"[error page] {name}: {p}" for p in check(visible(html)[0])]
        looked_up = set(pseudo.seen)
    print(f"\ni18n crawl: {time.monotonic() - started:.1f}s; " + "; ".join(report))
    unique = list(dict.fromkeys(problems))
    assert not unique, f"{len(unique)} words left out or bad answers:\n" + "\n".join(unique[:300])

    # Every message the pages looked up has its translation in every language.
    missing = []
    for code, _name in settings.LANGUAGES:
        if code == settings.LANGUAGE_CODE:
            continue
        catalog = trans_real.translation(code)._catalog
        for message in sorted(looked_up, key=str):
            if catalog.get(message) in (None, ""):
                missing.append(f"{code}: {message!r}")
    assert not missing, f"{len(missing)} messages without a translation:\n" + "\n".join(
        missing[:300]
    )
