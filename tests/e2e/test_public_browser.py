"""The public, player and live pages in Chromium (issue 9).

- public standings open in one browser update, without a reload, while a referee ends a duel
  in the referee console of another browser context; unchanged polls were 304s, the page
  was not reloaded and the keyboard focus stayed where it was;
- finishing a seeded tournament shows the bracket filling in and the champion;
- the player sees their next duel and its table appear;
- screenshots of standings, bracket and the big screen at phone and desktop sizes; the
  bracket and a score sheet each print on one page;
- axe, with no rule disabled, finds no serious or critical violation on any public page.
"""

import re
import time

import pytest
from playwright.sync_api import expect

from duels.models import Duel
from tests.e2e.conftest import DESKTOP, PHONE
from tests.factories import PASSWORD, UserFactory
from tests.tournaments.test_group_services import make, play_round
from tournaments import services, simulation
from tournaments.models import Entrant
from tournaments.services import refereeing as duel_services
from tournaments.services.progression import sync

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def fast_polls(settings):
    settings.PUBLIC_POLL_SECONDS = 1  # the pages poll every 5 s; the tests need not wait


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(simulation, "FORFEIT_RATE", 1.0)  # every duel one move: fast

    def run(players, until, seed):
        return simulation.simulate_tournament(players=players, seed=seed, until=until)[0]

    return run


def group_phase(table="3"):
    """Round 1 decided, round 2's duel named at a table, published."""
    tournament, organiser, referee, entrants = make()
    services.start_group_phase(tournament, organiser)
    play_round(tournament, referee, 1, entrants[0], entrants[15])
    duel = services.name_representatives(tournament, referee, 2, entrants[1].pk,
                                         entrants[16].pk, table=table)
    services.set_published(tournament, True, organiser)
    return tournament, referee, entrants, duel


def sign_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="My dashboard")).to_be_visible()


def shot(page, path) -> None:
    page.screenshot(path=str(path), full_page=True, caret="initial")


def wait_for(page, predicate, timeout=8.0) -> None:
    """Wait on a condition; Playwright's own wait lets the page's events come in meanwhile."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(100)


def test_standings_update_live_when_a_referee_ends_a_duel(page, browser, live_server):
    tournament, referee, entrants, duel = group_phase()
    polls: list[int] = []
    page.on("response", lambda r: polls.append(r.status)
            if "/standings/" in r.url and r.request.headers.get("hx-request") else None)
    page.goto(f"/t/{tournament.slug}/standings/")
    page.evaluate("window.__marker = 'same page'")  # survives only if nothing reloads
    winner = page.locator("#standings-table tbody tr", has_text=entrants[1].name)
    expect(winner.locator("td.num").first).to_have_text("0")
    page.locator("#standings-scroll").focus()  # a keyboard user reading the table
    wait_for(page, lambda: 304 in polls)  # nothing changed yet: the polls cost a 304

    # A referee, in another browser context, ends round 2 in the console: a forfeit.
    other = browser.new_context(viewport=PHONE, base_url=live_server.url)
    try:
        console = other.new_page()
        sign_in(console, referee.username)
        console.goto(f"/t/{tournament.slug}/duels/{duel.pk}/")
        console.get_by_text("End the duel: forfeit, time limit or adjudication").click()
        # Round 2 is even: seat A is the second group's player (entrants[16]).
        console.get_by_label(f"{entrants[16].name} forfeits: {entrants[1].name} wins").check()
        console.get_by_label("Reason or note").fill("no show")
        console.get_by_label("Yes, end the duel now").check()
        console.get_by_role("button", name="End the duel").click()
        wait_for(console, lambda: Duel.objects.get(pk=duel.pk).status == "finished")
    finally:
        other.close()

    expect(winner.locator("td.num").first).to_have_text("3")
    assert 200 in polls[polls.index(304):]  # the change came with the next poll
    assert page.evaluate("window.__marker") == "same page"
    assert page.evaluate("document.activeElement && document.activeElement.id") \
        == "standings-scroll"
    # Nothing in a live part is announced to a screen reader on its own.
    assert page.locator("#live [aria-live], #live [role=status], #live [role=alert]").count() \
        == 0


def test_finishing_a_seeded_tournament_shows_the_bracket_and_the_champion(
        page, quick, artifacts_dir):
    tournament = quick(12, "playoffs", "e2e-bracket")
    page.goto(f"/t/{tournament.slug}/bracket/")
    for stage in ("Qualifier 1", "Eliminator", "Qualifier 2", "Grand Final"):
        expect(page.get_by_role("heading", name=stage)).to_be_visible()
    expect(page.locator("#champion")).to_have_count(0)
    seeds = page.locator(".stage-Q1 .seat-name")
    expect(seeds).to_have_count(2)

    # The referees play the four duels (seat A wins each); the automation moves the bracket on.
    for _ in range(4):
        ready = Duel.objects.filter(tournament=tournament, kind="playoff",
                                    status="ready").order_by("pk")
        for duel in ready:
            duel_services.append_event(duel, tournament.roles.get().user,
                                       {"type": "forfeit", "seat": "B", "reason": "retired"},
                                       0)
        sync(tournament)
    tournament.refresh_from_db()
    assert tournament.phase == "complete"
    champion = Entrant.objects.get(pk=next(int(k) for k, v in tournament.placings.items()
                                           if v == 1)).name
    expect(page.locator("#champion")).to_contain_text(champion)  # without a reload
    expect(page.locator(".placings-card .place-1")).to_contain_text(champion)
    shot(page, artifacts_dir / "public-bracket-desktop.png")
    page.set_viewport_size(PHONE)
    shot(page, artifacts_dir / "public-bracket-phone.png")


def test_the_player_sees_their_next_duel(page):
    tournament, organiser, referee, entrants = make()
    services.start_group_phase(tournament, organiser)
    services.set_published(tournament, True, organiser)
    player = UserFactory(username="pat")
    Entrant.objects.filter(pk=entrants[1].pk).update(user=player)
    play_round(tournament, referee, 1, entrants[1], entrants[15])  # Pat wins round 1
    sign_in(page, "pat")
    page.goto("/me/duels/")
    expect(page.get_by_text("No duel is waiting for you.")).to_be_visible()
    played = page.get_by_role("region", name="My results, latest first")
    expect(played.get_by_role("row", name=entrants[15].name)).to_contain_text("Won")

    services.name_representatives(tournament, referee, 2, entrants[1].pk, entrants[16].pk,
                                  table="5")
    upcoming = page.locator(".my-duels .is-next")
    expect(upcoming).to_contain_text(entrants[16].name)  # the poll brings it in
    expect(upcoming).to_contain_text("Table 5")
    page.goto("/me/")
    expect(page.locator(".next-duel")).to_contain_text(f"v {entrants[16].name}, table 5")


def test_screenshots_of_standings_and_the_big_screen(page, quick, artifacts_dir):
    tournament = quick(30, "complete", "e2e-shots")
    running = group_phase()[0]
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.goto(f"/t/{running.slug}/standings/")
        expect(page.get_by_role("heading", name="If it ended now")).to_be_visible()
        shot(page, artifacts_dir / f"public-standings-{size}.png")
        page.goto(f"/t/{tournament.slug}/standings/")
        expect(page.get_by_role("heading", name="Final table")).to_be_attached()
        shot(page, artifacts_dir / f"public-final-table-{size}.png")
        page.goto(f"/t/{running.slug}/groups/")
        shot(page, artifacts_dir / f"public-groups-{size}.png")
        for panel in ("standings", "stage", "now"):
            page.goto(f"/t/{tournament.slug}/screen/?show={panel}")
            shot(page, artifacts_dir / f"public-screen-{panel}-{size}.png")
    # The cycling screen shows one panel at a time, and the pause box stops the turns.
    page.set_viewport_size(DESKTOP)
    page.goto(f"/t/{running.slug}/screen/")
    visible = page.locator(".screen-panel").evaluate_all(
        "panels => panels.filter(p => getComputedStyle(p).visibility === 'visible').length")
    assert visible == 1
    page.get_by_label("Pause").check()
    state = page.locator(".panel-1").evaluate("p => getComputedStyle(p).animationPlayState")
    assert state == "paused"
    shot(page, artifacts_dir / "public-screen-desktop.png")

    # Printing: the bracket on one landscape page, a referee's score sheet on one A4 page.
    duel = tournament.duels.filter(kind="playoff", stage="GF").get()
    for url, name, landscape in ((f"/t/{tournament.slug}/bracket/", "bracket", True),
                                 (f"/t/{tournament.slug}/sheets/{duel.pk}/", "sheet", False)):
        page.goto(url)
        page.emulate_media(media="print")
        pdf = page.pdf(prefer_css_page_size=True)
        (artifacts_dir / f"public-print-{name}.pdf").write_bytes(pdf)
        assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1, name
        box = [float(x) for x in re.search(rb"/MediaBox\s*\[([^\]]*)\]", pdf)[1].split()]
        assert (box[2] > box[3]) == landscape, (name, box)
        page.emulate_media(media="screen")


def serious(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def test_no_serious_accessibility_violation_on_any_public_page(page, quick):
    finished = quick(12, "complete", "e2e-axe")
    running, referee, entrants, duel = group_phase()
    duel_services.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    found = {}
    pages = [f"/t/{t.slug}/{p}" for t in (finished, running)
             for p in ("live/", "standings/", "groups/", "rounds/", "tiebreaks/", "bracket/",
                       "screen/", "screen/?show=stage", "screen/?show=now")]
    pages.append(f"/t/{running.slug}/sheets/{duel.pk}/")
    for url in pages:
        page.goto(url)
        found[url] = serious(page)
    Entrant.objects.filter(pk=entrants[16].pk).update(user=UserFactory(username="sam"))
    sign_in(page, "sam")
    for url in ("/me/", "/me/duels/"):
        page.goto(url)
        found[url] = serious(page)
    assert {url: v for url, v in found.items() if v} == {}
