"""A casual table in Chromium at phone size: three seats opened from the form, refereed
through a challenge passed from seat to seat and two forfeits, its record downloaded and
replayed by the engine's command line, then replayed in a fresh browser through its replay
link. Axe checks every new page."""

import json
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from play.models import GameStatus
from tables import selectors, services
from tables.models import CasualTable
from tests.e2e.conftest import PHONE
from tests.e2e.test_console_browser import (
    no_accessibility_violations,
    phone_signed_in,
    shot,
    sign_in,
    watch,
)
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def tap_round(page, cards: dict[str, int]) -> None:
    for seat, card in cards.items():
        page.get_by_role("group", name=f"{seat} reveals").get_by_text(str(card), exact=True).click()
    page.get_by_role("button", name="Play round").click()


def end_game(page, ending: str, reason: str) -> None:
    page.get_by_text("End the game: forfeit, time limit or adjudication…").click()
    page.get_by_label(ending).check()
    page.get_by_label("Reason or note").fill(reason)
    page.get_by_label("Yes, end the game now").check()
    page.get_by_role("button", name="End the game").click()


def test_a_three_seat_table_refereed_on_a_phone_then_replayed(browser, live_server, artifacts_dir):
    UserFactory(username="ada")
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, accept_downloads=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors = watch(page)
    sign_in(page, "ada")
    page.get_by_role("link", name="Tables").click()
    expect(page.get_by_text("You keep your latest 50 tables")).to_be_visible()
    shot(page, artifacts_dir / "tables-index-phone.png")
    no_accessibility_violations(page)

    for row, name in enumerate(("Ann", "Bo", "Cy"), start=1):
        page.get_by_label(f"Seat {row} name").fill(name)
    page.get_by_label("Rules", exact=True).select_option("official")
    page.get_by_label("Number cards each").fill("1")
    page.get_by_label("Action cards each at the start").fill("1")
    page.get_by_role("button", name="Open the table").click()
    headline = page.get_by_role("heading", level=1)
    expect(headline).to_have_text("Round 1: every seat reveals a number card")
    shot(page, artifacts_dir / "table-round-phone.png")
    no_accessibility_violations(page)

    # Ann wins the round alone and reaches 0: the challenge window opens at Bo, the seat
    # after her, and passes on to Cy (RULES.md 11.6).
    tap_round(page, {"Ann (A)": 9, "Bo (B)": 1, "Cy (C)": 2})
    expect(headline).to_have_text("Ann is at 0 number cards: does Bo challenge?")
    no_accessibility_violations(page)
    shot(page, artifacts_dir / "table-challenge-phone.png")
    page.get_by_role("button", name="No challenge").click()
    expect(headline).to_have_text("Ann is at 0 number cards: does Cy challenge?")
    page.get_by_role("button", name="Challenge with +2").click()
    expect(headline).to_have_text("Round 2: every seat reveals a number card")
    expect(page.locator("#log-list > li").first).to_contain_text("Ann draws 2")

    # Bo forfeits: he is out, and the game goes on between Ann and Cy.
    end_game(page, "Bo forfeits", "left the table")
    expect(headline).to_have_text("Round 2: Ann and Cy reveal a card")
    expect(page.get_by_role("article", name="Seat B: Bo")).to_contain_text("Out of the game")
    end_game(page, "Cy forfeits", "called away")
    expect(headline).to_have_text("Ann wins — forfeit")
    # Each answer brought only its own line (issue 27): five moves, five lines, latest first.
    expect(page.locator("#log-list > li")).to_have_count(5)
    expect(page.locator("#log-list > li").first).to_contain_text("Cy forfeits")
    shot(page, artifacts_dir / "table-finished-phone.png")
    no_accessibility_violations(page)

    table = CasualTable.objects.select_related("game").get()
    assert table.game.status == GameStatus.FINISHED and selectors.console(table).seq == 5

    # The downloaded record replays with the engine's command line to the state shown.
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the record").click()
    path = download.value.path()
    done = subprocess.run(
        [sys.executable, "-m", "duels.engine", "replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == selectors.console(table).state

    page.get_by_role("link", name="Record link and co-referees").click()
    page.get_by_role("button", name="Make a record link").click()
    link = page.get_by_label("The record link").input_value()
    shot(page, artifacts_dir / "table-sharing-phone.png")
    no_accessibility_violations(page)
    context.close()
    assert errors == []

    # Someone who was sent the link, not signed in, on their own phone.
    guest = browser.new_context(viewport=PHONE, base_url=live_server.url)
    guest.set_default_timeout(10_000)
    replay = guest.new_page()
    guest_errors = watch(replay)
    replay.goto(link)
    expect(replay.get_by_role("heading", level=1)).to_have_text("Record: Ann v Bo v Cy")
    expect(replay.locator(".stepper")).to_contain_text("After move 5 of 5")
    expect(replay.locator(".replay-status")).to_have_text("Ann wins — forfeit")
    no_accessibility_violations(replay)
    replay.get_by_role("link", name="Start: the deal").click()
    expect(replay.locator(".stepper")).to_contain_text("After move 0 of 5")
    replay.get_by_role("link", name="Next ›").click()
    expect(replay.locator(".replay-status")).to_have_text("Waiting for Bo: a challenge")
    replay.get_by_role("link", name="Next ›").click()
    expect(replay.locator(".replay-status")).to_have_text("Waiting for Cy: a challenge")
    shot(replay, artifacts_dir / "table-replay-phone.png")
    guest.close()
    assert guest_errors == []


@pytest.mark.live
def test_a_co_referee_invited_by_link_follows_and_moves(browser, live_server):
    """Two phones on one table: the co-referee accepts the invitation, each console redraws
    with the other's move by itself, and a revoked co-referee's open console reloads into
    "not found"."""
    owner = UserFactory(username="ada")
    UserFactory(username="bob")
    table = services.open_table(
        owner=owner, ruleset="official", names=["Ann", "Bo", "Cy"], number_cards=1, action_cards=1
    )
    phones = []
    for who in ("ada", "bob"):
        context = browser.new_context(viewport=PHONE, base_url=live_server.url)
        context.set_default_timeout(10_000)
        page = context.new_page()
        phones.append((context, page, watch(page)))
        sign_in(page, who)
    (_, ada, ada_errors), (_, bob, bob_errors) = phones

    ada.goto(f"/tables/{table.pk}/sharing/")
    ada.get_by_role("button", name="Make an invitation link").click()
    link = ada.get_by_label("The invitation link").input_value()
    bob.goto(link)
    no_accessibility_violations(bob)
    bob.get_by_role("button", name="Referee this table").click()
    bob_headline = bob.get_by_role("heading", level=1)
    expect(bob_headline).to_have_text("Round 1: every seat reveals a number card")
    ada.goto(f"/tables/{table.pk}/sharing/")
    expect(ada.get_by_text("bob, co-referee since")).to_be_visible()

    ada.goto(f"/tables/{table.pk}/")
    tap_round(ada, {"Ann (A)": 9, "Bo (B)": 1, "Cy (C)": 2})
    expect(ada.get_by_role("heading", level=1)).to_have_text(
        "Ann is at 0 number cards: does Bo challenge?"
    )
    # Bob's phone catches up by itself, then Bob enters the next move; Ada's follows.
    expect(bob_headline).to_have_text("Ann is at 0 number cards: does Bo challenge?")
    bob.get_by_role("button", name="No challenge").click()
    expect(bob_headline).to_have_text("Ann is at 0 number cards: does Cy challenge?")
    expect(ada.get_by_role("heading", level=1)).to_have_text(
        "Ann is at 0 number cards: does Cy challenge?"
    )
    # Each console's log took the other's line from its poll, once.
    for phone in (ada, bob):
        expect(phone.locator("#log-list > li")).to_have_count(2)

    ada.goto(f"/tables/{table.pk}/sharing/")
    ada.get_by_role("button", name="Revoke bob").click()
    expect(ada.get_by_text("No co-referee and no open invitation.")).to_be_visible()
    # Bob's console, still open, finds out at its next check and reloads into "not found".
    expect(bob_headline).to_have_text("Page not found")
    for context, _, _ in phones:
        context.close()
    assert ada_errors == [] and bob_errors == []


def test_the_same_table_without_javascript(browser, live_server, artifacts_dir):
    """Every tap posts the form and the page reloads: a round with a 7 and its target, an
    action card against a chosen seat, and the undo."""
    owner = UserFactory(username="ada")
    table = services.open_table(
        owner=owner, ruleset="official", names=["Ann", "Bo", "Cy"], action_cards=1
    )
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, java_script_enabled=False
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    sign_in(page, "ada")
    page.goto(f"/tables/{table.pk}/")
    headline = page.get_by_role("heading", level=1)
    page.get_by_role("group", name="Ann (A) reveals").get_by_text("7", exact=True).click()
    page.get_by_label("If Ann reveals a 0 or a 7, it targets").select_option(label="Cy")
    page.get_by_role("group", name="Bo (B) reveals").get_by_text("3", exact=True).click()
    page.get_by_role("group", name="Cy (C) reveals").get_by_text("5", exact=True).click()
    page.get_by_role("button", name="Play round 1").click()
    expect(headline).to_have_text("Round 2: every seat reveals a number card")
    expect(page.locator("#log-list > li").first).to_contain_text("Cy draws 2")
    bo_plays = page.get_by_role("group", name="Bo plays an action card")
    bo_plays.get_by_label("Against").select_option(label="Cy")
    bo_plays.get_by_role("button", name="BLOCK").click()
    # Official rules let Cy, who holds action cards, counter the BLOCK.
    expect(headline).to_have_text("Cy may counter Bo's BLOCK")
    shot(page, artifacts_dir / "table-no-js-phone.png")
    page.get_by_role("button", name="Undo last move").click()
    expect(headline).to_have_text("Round 2: every seat reveals a number card")
    expect(page.locator("#log-list > li").first).to_contain_text("undone")
    context.close()
    assert [event["type"] for event in services.record_of(table)["events"]] == ["round"]


def test_undoing_the_only_move_by_keyboard_leaves_the_focus_in_the_console(browser, live_server):
    # The Undo button goes with the move it undid: the focus must not fall back to the top
    # of the page, where a keyboard or screen-reader user would start again.
    with phone_signed_in(browser, live_server) as page:
        page.goto("/tables/")
        for row, name in enumerate(("Ann", "Bo"), start=1):
            page.get_by_label(f"Seat {row} name").fill(name)
        page.get_by_role("button", name="Open the table").click()
        headline = page.get_by_role("heading", level=1)
        expect(headline).to_have_text("Round 1: both reveal a number card")
        tap_round(page, {"Ann (A)": 9, "Bo (B)": 1})
        expect(headline).to_have_text("Round 2: both reveal a number card")

        page.get_by_role("button", name="Undo last move").focus()
        page.keyboard.press("Enter")
        expect(headline).to_have_text("Round 1: both reveal a number card")
        expect(page.get_by_role("button", name="Undo last move")).to_have_count(0)
        # The undo's answer struck its line through in place: one line, marked undone.
        expect(page.locator("#log-list > li")).to_have_count(1)
        expect(page.locator("#log-list > li.undone del").first).to_have_text("Ann reveals 9")
        focused = page.locator("#console :focus")
        expect(focused).to_have_count(1)
        # The first pad: the move can be entered again at once, from the keyboard.
        expect(page.get_by_role("group", name="Ann (A) reveals").locator(":focus")).to_have_count(1)
