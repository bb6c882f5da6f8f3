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
    duel = services.name_representatives(
        tournament, referee, 2, entrants[1].pk, entrants[16].pk, table=table
    )
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


@pytest.mark.live
def test_standings_update_live_when_a_referee_ends_a_duel(page, browser, live_server):
    tournament, referee, entrants, duel = group_phase()
    polls: list[int] = []
    page.on(
        "response",
        lambda r: (
            polls.append(r.status)
            if "/standings/" in r.url and r.request.headers.get("hx-request")
            else None
        ),
    )
    page.goto(f"/t/{tournament.slug}/standings/")
    page.evaluate("window.__marker = 'same page'")  # survives only if nothing reloads
    winner = page.locator("#standings-table tbody tr", has_text=entrants[1].name)
    expect(winner.locator("td.num").first).to_have_text("0")
    page.locator("#standings-scroll").focus()  # a keyboard user reading the table
    with page.expect_response(lambda r: "/standings/" in r.url and r.status == 304):
        pass  # nothing changed yet: the polls cost a 304

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
        expect(console.locator("#console.is-finished")).to_have_count(1)
    finally:
        other.close()

    expect(winner.locator("td.num").first).to_have_text("3")
    assert 200 in polls[polls.index(304) :]  # the change came with the next poll
    assert page.evaluate("window.__marker") == "same page"
    assert (
        page.evaluate("document.activeElement && document.activeElement.id") == "standings-scroll"
    )
    # Nothing in a live part is announced to a screen reader on its own.
    assert page.locator("#live [aria-live], #live [role=status], #live [role=alert]").count() == 0


def test_finishing_a_seeded_tournament_shows_the_bracket_and_the_champion(
    page, quick, artifacts_dir
):
    tournament = quick(12, "playoffs", "e2e-bracket")
    page.goto(f"/t/{tournament.slug}/bracket/")
    for stage in ("Qualifier 1", "Eliminator", "Qualifier 2", "Grand Final"):
        expect(page.get_by_role("heading", name=stage)).to_be_visible()
    expect(page.locator("#champion")).to_have_count(0)
    seeds = page.locator(".stage-Q1 .seat-name")
    expect(seeds).to_have_count(2)

    # The referees play the four duels (seat A wins each); the automation moves the bracket on.
    for _ in range(4):
        ready = Duel.objects.filter(tournament=tournament, kind="playoff", status="ready").order_by(
            "pk"
        )
        for duel in ready:
            duel_services.append_event(
                duel,
                tournament.roles.get().user,
                {"type": "forfeit", "seat": "B", "reason": "retired"},
                0,
            )
        sync(tournament)
    tournament.refresh_from_db()
    assert tournament.phase == "complete"
    champion = Entrant.objects.get(
        pk=next(int(k) for k, v in tournament.placings.items() if v == 1)
    ).name
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

    services.name_representatives(
        tournament, referee, 2, entrants[1].pk, entrants[16].pk, table="5"
    )
    upcoming = page.locator(".my-duels .is-next")
    expect(upcoming).to_contain_text(entrants[16].name)  # the poll brings it in
    expect(upcoming).to_contain_text("Table 5")
    page.goto("/me/")
    expect(page.locator(".next-duel")).to_contain_text(f"v {entrants[16].name}, Table 5")


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
    # The cycling screen shows one panel at a time (the turns: the test below).
    page.set_viewport_size(DESKTOP)
    page.goto(f"/t/{running.slug}/screen/")
    assert shown(page) == ["standings"]
    page.get_by_label("Pause").check()
    expect(page.get_by_label("Pause")).to_be_checked()
    shot(page, artifacts_dir / "public-screen-desktop.png")

    # Printing: the bracket on one landscape page, a referee's score sheet on one A4 page.
    duel = tournament.duels.filter(kind="playoff", stage="GF").get()
    for url, name, landscape in (
        (f"/t/{tournament.slug}/bracket/", "bracket", True),
        (f"/t/{tournament.slug}/sheets/{duel.pk}/", "sheet", False),
    ):
        page.goto(url)
        page.emulate_media(media="print")
        pdf = page.pdf(prefer_css_page_size=True)
        (artifacts_dir / f"public-print-{name}.pdf").write_bytes(pdf)
        assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1, name
        box = [float(x) for x in re.search(rb"/MediaBox\s*\[([^\]]*)\]", pdf)[1].split()]
        assert (box[2] > box[3]) == landscape, (name, box)
        page.emulate_media(media="screen")


def shown(page) -> list[str]:
    """The big screen's panels a person sees now."""
    return page.locator(".screen-panel").evaluate_all(
        "panels => panels.filter(p => getComputedStyle(p).visibility === 'visible')"
        ".map(p => p.dataset.panel)"
    )


@pytest.mark.live
def test_the_big_screen_shows_exactly_one_panel_whatever_the_order_of_turns_and_polls(page):
    """The race of issue 14, forced: the page's first moment (before its first frame, where
    three offset CSS animations showed two panels), polls answered after a turn, turns with
    polls in flight, and the pause box. The page's clock is Playwright's: time moves only
    when the test says, so the order is the test's, not the machine's."""
    tournament, referee, entrants, duel = group_phase()
    page.add_init_script("""document.addEventListener("DOMContentLoaded", () => {
        window.__firstShown = [...document.querySelectorAll(".screen-panel")]
            .filter(p => getComputedStyle(p).visibility === "visible").length;
    });""")
    page.clock.install(time=0)
    page.clock.pause_at(1000)
    page.goto(f"/t/{tournament.slug}/screen/")
    assert page.evaluate("window.__firstShown") == 1
    # Whatever time any CSS animation on the page is at (none now: three offset ones showed
    # two panels at their first frame and for 24 ms at every turn).
    for ms in (0, 11_990, 12_010, 24_010):
        page.evaluate(
            "ms => document.getAnimations().forEach(a => { a.pause(); a.currentTime = ms; })", ms
        )
        assert len(shown(page)) == 1, ms
    assert shown(page) == ["standings"]

    # The polls leave while the standings show; the duel ends; the turn comes; then the
    # answers (all three panels changed) land on the next panel's turn.
    held: list = []
    holding = [True]
    page.route(
        "**/screen/?panel=*",
        lambda route: held.append(route) if holding[0] else route.continue_(),
    )
    with page.expect_request("**/screen/?panel=now"):
        # Each part polls once within 1.15 × its interval (static/js/app.js spreads them).
        page.clock.run_for(1150)
    duel_services.append_event(
        duel, referee, {"type": "forfeit", "seat": "A", "reason": "no show"}, 0
    )
    page.clock.run_for(11_000)
    assert shown(page) == ["stage"]
    # The venue strip (issue 16) polls too, outside the panels.
    held_parts = {r.request.url.rsplit("=", 1)[1] for r in held}
    assert held_parts == {"standings", "stage", "now", "call"}
    holding[0] = False
    for route in held:
        route.continue_()
    expect(page.locator("#panel-now")).to_contain_text("Last result")
    winner = page.locator("#panel-standings tr", has_text=entrants[1].name)
    expect(winner.locator("td.num")).to_have_text("3")
    assert shown(page) == ["stage"]

    # Turns with polls swapping in between, round the cycle and back.
    for name in ("now", "standings", "stage"):
        page.clock.run_for(6000)
        page.clock.run_for(6000)
        assert shown(page) == [name]
    # The pause box holds the turn; unticked, the turns go on from there.
    page.get_by_label("Pause").check()
    page.clock.run_for(36_000)
    assert shown(page) == ["stage"]
    page.get_by_label("Pause").uncheck()
    page.clock.run_for(12_000)
    assert shown(page) == ["now"]


def serious(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_no_serious_accessibility_violation_on_any_public_page(page, quick):
    finished = quick(12, "complete", "e2e-axe")
    running, referee, entrants, duel = group_phase()
    duel_services.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    found = {}
    pages = [
        f"/t/{t.slug}/{p}"
        for t in (finished, running)
        for p in (
            "live/",
            "standings/",
            "groups/",
            "rounds/",
            "tiebreaks/",
            "bracket/",
            "screen/",
            "screen/?show=stage",
            "screen/?show=now",
        )
    ]
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


def test_each_browser_polls_at_its_own_pace_around_the_interval(page):
    """Issue 15: the live part's interval is redrawn around the page's (here 1 s) in every
    browser, so a crowd does not poll in step; the big screen's panels too."""
    tournament, *_ = group_phase()
    page.goto(f"/t/{tournament.slug}/standings/")
    live = page.locator("#live")
    expect(live).to_have_attribute("data-poll-base", "1")
    expect(live).to_have_attribute(
        "hx-trigger", re.compile(r"^every (0\.(8[5-9]|9\d)|1\.(0\d|1[0-5]))s, push$")
    )
    page.goto(f"/t/{tournament.slug}/screen/")
    for panel in ("standings", "stage", "now"):
        expect(page.locator(f"#panel-{panel}")).to_have_attribute(
            "hx-trigger", re.compile(r"^every (0\.(8[5-9]|9\d)|1\.(0\d|1[0-5]))s, push$")
        )
