"""The running duel shown to the room (issue 28), in Chromium.

- a spectator's phone (390×844) on a duel's watch page sees the referee's next move — the new
  counts, the last round's cards and who won it, the decision now open — without reloading:
  the table polls, and the test waits for the new count as a person would;
- the big screen pinned to "now playing" at 1920×1080 draws the same table with nothing
  outside the screen, and the live page draws it in "Now playing";
- axe on the watch page, the live page and the big screen: no violation of any impact.
"""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE
from tests.e2e.test_screen_browser import OUTSIDE, PROJECTOR
from tests.tournaments.test_group_services import make, play_round
from tournaments import services
from tournaments.services import refereeing as duel_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def fast_polls(settings):
    settings.PUBLIC_POLL_SECONDS = 1  # the pages poll every 5 s; the tests need not wait


def running_duel():
    """Round 2's duel at Table 3, its first round played (A's 7 against B's 3), published.
    Round 2 is even: seat A is the second group's player, entrants[16]."""
    tournament, organiser, referee, entrants = make()
    services.start_group_phase(tournament, organiser)
    play_round(tournament, referee, 1, entrants[0], entrants[15])
    duel = services.name_representatives(
        tournament, referee, 2, entrants[1].pk, entrants[16].pk, table="3"
    )
    services.set_published(tournament, True, organiser)
    duel_services.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    return tournament, referee, entrants, duel


def no_violations(page) -> None:
    result = Axe().run(page)
    assert result.violations_count == 0, result.generate_report()


def seat(page, name: str):
    return page.locator(".watch-seat", has=page.locator(".watch-name", has_text=name))


@pytest.mark.live
def test_a_phone_sees_the_referees_move_on_the_watch_page_without_reloading(page, artifacts_dir):
    tournament, referee, entrants, duel = running_duel()
    a, b = entrants[16].name, entrants[1].name
    page.set_viewport_size(PHONE)
    page.goto(f"/t/{tournament.slug}/duels/{duel.pk}/watch/")
    page.evaluate("window.__marker = 'same page'")  # survives only if nothing reloads
    expect(seat(page, b).locator(".watch-number dd")).to_have_text("23")
    expect(seat(page, b).locator(".watch-card")).to_have_text("3")
    expect(page.locator(".watch-round")).to_have_text(f"Duel round 1: {a} won it.")
    no_violations(page)

    # The referee enters the next round (the console's service); the phone only polls.
    duel_services.append_event(duel, referee, {"type": "round", "cards": {"A": 9, "B": 5}}, 1)

    expect(seat(page, b).locator(".watch-number dd")).to_have_text("24")
    expect(seat(page, a).locator(".watch-number dd")).to_have_text("18")
    expect(seat(page, a).locator(".watch-card")).to_have_text("9")
    expect(seat(page, a)).to_contain_text("Won the round")
    expect(page.locator(".watch-window")).to_have_text(
        f"Decision {a} won two rounds in a row: choose the streak bonus"
    )
    expect(page.locator(".watch-moves li").first).to_contain_text("Move 2")
    assert page.evaluate("window.__marker") == "same page"
    # The table fits the phone: nothing scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    no_violations(page)
    page.screenshot(path=str(artifacts_dir / "watch-phone.png"), full_page=True, caret="initial")


def test_the_big_screen_and_the_live_page_draw_the_running_duel(page, artifacts_dir):
    tournament, referee, entrants, duel = running_duel()
    b = entrants[1].name
    # More moves: a streak bonus claimed, a BLOCK, a round B sits out blocked.
    for seq, event in enumerate(
        [
            {"type": "round", "cards": {"A": 9, "B": 5}},
            {"type": "respond", "seat": "A", "choice": "action_card"},
            {"type": "action", "seat": "A", "card": "block"},
            {"type": "round", "cards": {"A": 4}},
        ],
        start=1,
    ):
        duel_services.append_event(duel, referee, event, seq)
    page.set_viewport_size(PROJECTOR)
    page.goto(f"/t/{tournament.slug}/screen/?show=now")
    expect(seat(page, b).locator(".watch-number dd")).to_have_text("25")
    expect(seat(page, b)).to_contain_text("Revealed nothing")
    assert page.evaluate(OUTSIDE) == []
    page.screenshot(path=str(artifacts_dir / "watch-screen-1080p.png"), caret="initial")
    no_violations(page)

    page.goto(f"/t/{tournament.slug}/live/")
    now = page.locator("section[aria-labelledby=now-heading]")
    expect(now.locator(".watch-seat")).to_have_count(2)
    now.get_by_role("link", name="Watch").click()
    expect(page).to_have_url(re.compile(rf"/t/{tournament.slug}/duels/{duel.pk}/watch/$"))
    page.go_back()
    page.set_viewport_size(PHONE)
    page.screenshot(
        path=str(artifacts_dir / "watch-live-phone.png"), full_page=True, caret="initial"
    )
    no_violations(page)
