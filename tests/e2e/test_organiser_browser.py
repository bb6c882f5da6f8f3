"""The organiser pages in Chromium, as a new organiser uses them: create a tournament, paste 21
players, split them 15/6 by hand, invite a referee, start the group phase, name round 1's
representatives; the referee ends round 1's duel at the console; between rounds the organiser
tries to move a player into the full group (refused on the spot, the reason on screen) and
drags one the other way. Also: a CSV with two bad rows, the same transfer without JavaScript,
and axe on every organiser page."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from accounts.models import Role
from duels.models import Duel
from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.test_htmx_browser import sign_in
from tests.factories import RoleFactory, TournamentFactory, UserFactory
from tournaments import services
from tournaments.models import Tournament
from tournaments.services import refereeing as duel_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Distinct names, none inside another, so that a row can be found by its text.
NAMES = [
    "Ada",
    "Bea",
    "Cy",
    "Dov",
    "Eli",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jo",
    "Kai",
    "Lea",
    "Max",
    "Ned",
    "Oda",
    "Pim",
    "Quin",
    "Rae",
    "Sol",
    "Tea",
    "Uma",
]


def sign_out(page) -> None:
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("link", name="Sign in", exact=True)).to_be_visible()


def settled(page) -> None:
    """Wait until htmx has finished swapping and settling: a change made to content htmx has
    not processed yet sends no request (a race seen on a loaded machine)."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def member(page, name: str):
    """A player's row on a board (the select inside it moves them)."""
    return page.locator("li[data-member]", has_text=name)


def test_an_organiser_runs_set_up_and_the_first_transfers(page, artifacts_dir):
    UserFactory(username="olga")
    UserFactory(username="rex")
    sign_in(page, "olga")

    # Create: name and settings.
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Tournament name").fill("Harbour Cup")
    page.get_by_label("Duel rules").select_option("tournament")
    page.get_by_label("Minimal: only who qualifies").check()
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", name="Harbour Cup", level=1)).to_be_visible()
    slug = Tournament.objects.get().slug

    # Paste 21 players.
    organiser_nav = page.get_by_role("navigation", name="Organiser")
    organiser_nav.get_by_role("link", name="Players").click()
    page.get_by_label("Names, one per line").fill("\n".join(NAMES))
    page.get_by_role("button", name="Register these names").click()
    expect(page.locator("#report-heading")).to_have_text("Line by line: 21 registered, 0 refused")
    expect(page.locator("#players-news")).to_contain_text("21 registered, 0 refused")

    # Split 15/6 by hand: each select moves its row, and the sizes follow live.
    organiser_nav.get_by_role("link", name="Groups").click()
    for i, name in enumerate(NAMES):
        page.get_by_label(name, exact=True).select_option(label="Group 1" if i < 15 else "Group 2")
    status = page.locator("#split-status")
    expect(status).to_contain_text("Group 1: 15")
    expect(status).to_contain_text("Group 2: 6")
    expect(status).to_contain_text("Both groups are within 5 to 15")
    expect(page.locator('[data-column="2"] li[data-member]')).to_have_count(6)
    page.get_by_role("button", name="Save this split").click()
    expect(page.get_by_role("status")).to_contain_text("The split is saved.")

    # Invite the referee, start the group phase.
    organiser_nav.get_by_role("link", name="Referees & organisers").click()
    page.get_by_label("Username").fill("rex")
    page.get_by_role("button", name="Grant role").click()
    expect(page.get_by_role("status")).to_contain_text("rex is now a referee.")
    organiser_nav.get_by_role("link", name="Overview").click()
    expect(page.get_by_text("Everything is in place")).to_be_visible()
    page.get_by_role("button", name="Start the group phase").click()
    expect(page.get_by_role("status")).to_contain_text("round 1 is open")

    # Round 1: the representatives, a table, the referee.
    page.get_by_role("link", name="Rounds: name the representatives").click()
    page.get_by_label("Representative of Group 1").select_option(label="Ada")
    page.get_by_label("Representative of Group 2").select_option(label="Uma")
    page.get_by_label("Table", exact=True).fill("Table 1")
    page.get_by_label("Referee", exact=True).select_option(label="rex")
    page.get_by_role("button", name="Name them and open the duel").click()
    expect(page.get_by_role("status")).to_contain_text("Round 1: Ada v Uma is ready")
    expect(page.locator("#next-up-heading + .duel-cards")).to_contain_text("Table 1")

    # The referee ends round 1's duel at the console: Uma does not show.
    sign_out(page)
    sign_in(page, "rex")
    page.goto(f"/t/{slug}/")
    page.get_by_role("link", name="Rounds", exact=True).click()
    page.get_by_role("link", name="Console for Group round 1").first.click()
    page.get_by_text("End the duel: forfeit").click()
    page.get_by_label("Uma forfeits: Ada wins").check()
    page.get_by_label("Reason or note").fill("no show")
    page.get_by_label("Yes, end the duel now").check()
    page.get_by_role("button", name="End the duel").click()
    # Finished: the console no longer offers to end it. (The test reads nothing from the
    # database while the server may be writing: SQLite's shared in-memory test database
    # refuses a read during a write with "table is locked".)
    expect(page.get_by_role("button", name="End the duel")).to_have_count(0)

    # Between rounds: a move into the full group is refused on the spot.
    sign_out(page)
    sign_in(page, "olga")
    page.goto(f"/t/{slug}/manage/transfers/")
    expect(page.get_by_text("Round 1 is decided")).to_be_visible()
    check = page.locator("#transfer-check")
    expect(check).to_contain_text("Group 1: 15")
    member(page, "Uma").locator("select").select_option(label="Group 1")
    expect(check).to_contain_text(
        "Refused: Group 1 would have 16 members, and a group may have at most 15."
    )
    expect(check).to_contain_text("Group 1: 16 of at most 15 (now 15)")
    # caret="initial": hiding the caret injects a style sheet, which the strict CSP refuses.
    page.screenshot(
        path=str(artifacts_dir / "organiser-transfers-desktop.png"), full_page=True, caret="initial"
    )
    page.set_viewport_size(PHONE)
    page.screenshot(
        path=str(artifacts_dir / "organiser-transfers-phone.png"), full_page=True, caret="initial"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(DESKTOP)
    # A refused change cannot be applied: the button is disabled, the reason beside it.
    expect(page.get_by_role("button", name="Apply the change")).to_be_disabled()
    expect(page.locator("#transfer-why")).to_contain_text("a group may have at most 15")

    # The other way, by dragging: Ada leaves Group 1 for Group 2.
    member(page, "Uma").locator("select").select_option(label="Group 2")
    expect(check).to_contain_text("No change yet")
    # Onto the other column's heading: level with Ada's row, so the page does not scroll
    # in the middle of the drag.
    page.locator("[data-board]").scroll_into_view_if_needed()
    member(page, "Ada").drag_to(page.locator('[data-column="2"] h2'))
    expect(member(page, "Ada").locator("select")).to_have_value("2")
    expect(check).to_contain_text("1 change, within the limits")
    expect(check).to_contain_text("Ada → Group 2")
    page.get_by_role("button", name="Apply the change").click()
    expect(page.get_by_role("status")).to_contain_text("Applied: Ada → Group 2.")
    expect(check).to_contain_text("Group 1: 14")
    expect(check).to_contain_text("Group 2: 7")
    assert Tournament.objects.get(slug=slug).entrants.get(name="Ada").group.order == 2


def test_a_csv_with_two_bad_rows_is_reported_line_by_line(page):
    organiser = UserFactory(username="olga")
    TournamentFactory(created_by=organiser, slug="cup", name="Cup")
    sign_in(page, "olga")
    page.goto("/t/cup/manage/players/")
    page.get_by_label("Names, one per line").fill("Ada")
    page.get_by_role("button", name="Register these names").click()
    expect(page.locator("#report-heading")).to_contain_text("1 registered")
    page.get_by_label("CSV file").set_input_files(
        files=[
            {
                "name": "players.csv",
                "mimeType": "text/csv",
                "buffer": b"name,club\nBea,North\n,South\nCy,East\nADA,West\nDov,\n",
            }
        ]
    )
    page.get_by_role("button", name="Import the CSV file").click()
    expect(page.locator("#report-heading")).to_have_text("Line by line: 3 registered, 2 refused")
    report = page.locator("#report tbody")
    expect(report.get_by_role("row", name=re.compile(r"^3 "))).to_contain_text(
        "Refused: A player needs a name."
    )
    expect(report.get_by_role("row", name=re.compile(r"^5 "))).to_contain_text(
        "Refused: “ADA” is already registered as “Ada”"
    )
    players = page.get_by_role("table", name=re.compile("^Players"))
    expect(players.get_by_role("cell", name="Dov", exact=True)).to_be_visible()
    expect(players.get_by_role("cell", name="ADA", exact=True)).to_have_count(0)


def group_phase_after_round_one(sizes=(15, 6)) -> Tournament:
    """A tournament in its group phase with round 1 decided (set up through the services)."""
    organiser = UserFactory(username="olga")
    tournament = services.create_tournament(name="Cup", created_by=organiser)
    services.register_list(tournament, "\n".join(NAMES[: sum(sizes)]), organiser)
    entrants = list(tournament.entrants.order_by("created_at", "pk"))
    services.split_groups(
        tournament,
        organiser,
        "hand",
        {e.pk: 1 if i < sizes[0] else 2 for i, e in enumerate(entrants)},
    )
    RoleFactory(tournament=tournament, role=Role.REFEREE, user=UserFactory(username="rex"))
    services.start_group_phase(tournament, organiser)
    duel = services.name_representatives(
        tournament, organiser, 1, entrants[0].pk, entrants[-1].pk, "Table 1"
    )
    duel_services.append_event(duel, organiser, {"type": "forfeit", "seat": "B"}, 0)
    return tournament


def test_a_transfer_works_without_javascript(browser, live_server):
    tournament = group_phase_after_round_one()
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    try:
        sign_in(page, "olga")
        page.goto(f"/t/{tournament.slug}/manage/transfers/")
        member(page, "Bea").locator("select").select_option(label="Group 2")
        page.get_by_role("button", name="Apply the change").click()
        expect(page.get_by_role("status")).to_contain_text("Applied: Bea → Group 2.")
        expect(page.locator("#transfer-check")).to_contain_text("Group 2: 7")
    finally:
        context.close()


PAGES = [
    "",
    "settings/",
    "players/",
    "groups/",
    "transfers/",
    "rounds/",
    "results/",
    "people/",
    "audit/",
]


def test_no_serious_accessibility_violation_on_the_organiser_pages(page):
    tournament = group_phase_after_round_one()
    duel = Duel.objects.get(tournament=tournament, round__number=1)
    sign_in(page, "olga")
    axe = Axe()
    found = {}
    for path in [*PAGES, f"results/{duel.pk}/"]:
        page.goto(f"/t/{tournament.slug}/manage/{path}")
        expect(page.locator("h1")).to_be_visible()
        results = axe.run(page)  # every rule on: nothing is disabled
        serious = [
            v["id"]
            for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        if serious:
            found[path or "overview"] = serious
    # The set-up pages before the group phase look different: check them too.
    page.goto("/t/new/")
    results = axe.run(page)
    found.update(
        {
            "create": [
                v["id"]
                for v in results.response["violations"]
                if v["impact"] in ("serious", "critical")
            ]
        }
        if any(v["impact"] in ("serious", "critical") for v in results.response["violations"])
        else {}
    )
    assert found == {}
