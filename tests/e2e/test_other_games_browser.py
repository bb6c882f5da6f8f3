"""Trois and CPT-113 against the bots as card tables (issue 30), tapped through in Chromium on a
phone (390 × 844).

After every tap the tests check what the person must see without scrolling: the turn cue and
every seat's last play face-up on the tiles (the person's own among them). Nothing is scrolled
to: a card the page would have put below the fold fails the test. They wait for what a person
waits for (the log's newest entry changing), never for time; Trois's countdown runs on an
injected clock (Playwright's), moved by the test. Axe checks each state the first time it
appears."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from play import clock
from play.models import GameEvent
from practice.models import PracticeGame
from tests.e2e.test_card_table_browser import outside_viewport, settled
from tests.e2e.test_console_browser import (
    no_accessibility_violations,
    phone_signed_in,
    shot,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RESULT = re.compile(r"You win!|wins\.|A tie")
#: Everything the person must see after a tap, inside the 390 × 844 viewport.
MUST_SEE = ".face-up .playing-card, .turn-cue"


@pytest.fixture
def phone(browser, live_server):
    with phone_signed_in(browser, live_server) as page:
        page.goto("/practice/")
        page.get_by_role("link", name="Trois and CPT-113").click()
        yield page


def newest(page) -> str:
    seq = page.locator(".log-seq")
    return seq.first.inner_text() if seq.count() else ""


def state_of(page) -> str:
    if RESULT.search(page.locator(".turn-cue").inner_text()):
        return "end"
    if page.locator(".play-button").count():
        return "take"
    return "hand" if page.locator(".card-button, .colour-button").count() else "waiting"


def trois_turn(page, turn: int) -> None:
    """A matching card (now and then another than the first), else Take a card: one tap."""
    take = page.get_by_role("button", name="Take a card")
    if take.count():
        assert not outside_viewport(page, ".play-button")
        take.click()
        return
    cards = page.locator("#card-table .card-button")
    assert not outside_viewport(page, "#card-table .card-button")
    cards.nth(turn % cards.count()).click()


def cpt113_turn(page, turn: int) -> None:
    """A playable card or a wild's colour, else Draw: one tap."""
    draw = page.get_by_role("button", name="Draw", exact=True)
    if draw.count():
        assert not outside_viewport(page, ".play-button")
        draw.click()
        return
    cards = page.locator("#card-table .card-button, #card-table .colour-button")
    assert not outside_viewport(page, "#card-table .card-button, #card-table .colour-button")
    cards.nth(turn % cards.count()).click()


def play_until_the_end(page, turn_of, checked: set[str]) -> None:
    """The person's turns, each by a tap, waiting for the log to move on, until a result;
    after each, everything that must be seen is in view, and axe passes in each state once."""
    for turn in range(300):
        state = state_of(page)
        if state not in checked:
            checked.add(state)
            settled(page)
            no_accessibility_violations(page)
        if state == "end":
            return
        before = newest(page)
        turn_of(page, turn)
        expect(page.locator(".log-seq").first).not_to_have_text(before)
        assert page.evaluate("scrollY") == 0
        missing = outside_viewport(page, MUST_SEE)
        assert not missing, f"after tap {turn}: {missing}"
        # The person's own tile is there, with their last play face-up once they laid one.
        expect(page.locator(".seat.is-mine")).to_have_count(1)
    raise AssertionError("the game did not end")


def test_a_whole_game_of_trois_against_three_bots(phone, artifacts_dir):
    page = phone
    page.get_by_role("button", name="Start Trois").click()
    expect(page.locator(".turn-cue")).to_have_text(re.compile("Your turn: match"))
    expect(page.locator("[data-seat]")).to_have_count(4)
    expect(page.get_by_text("Time left:")).to_be_visible()
    checked: set[str] = set()
    trois_turn(page, 0)
    expect(page.locator("#table-log")).to_contain_text("Bot 3")
    # htmx swapped the table: the focus is on the headline, which says whose turn it is.
    expect(page.locator(".turn-cue")).to_be_focused()
    settled(page)
    shot(page, artifacts_dir / "trois-phone.png", full_page=False)
    play_until_the_end(page, trois_turn, checked)
    expect(page.locator(".turn-cue")).to_have_text(RESULT)
    game = PracticeGame.objects.get()
    assert game.finished and game.outcome in ("won", "lost", "drawn")
    page.get_by_role("button", name="Play again (Trois)").click()
    expect(page.locator(".turn-cue")).to_have_text(re.compile("Your turn: match"))
    assert PracticeGame.objects.count() == 2


@pytest.mark.parametrize("groups", ["3", "4"])
def test_a_whole_game_of_cpt113_with_a_bot_partner(phone, artifacts_dir, groups):
    page = phone
    page.get_by_label("Groups of two").select_option(groups)
    page.get_by_role("button", name="Start CPT-113").click()
    expect(page.get_by_text("you (ada) and Partner (a bot) are group A")).to_be_visible()
    expect(page.locator("[data-seat]")).to_have_count(int(groups))
    settled(page)
    shot(page, artifacts_dir / f"cpt113-{groups}-phone.png", full_page=False)
    play_until_the_end(page, cpt113_turn, set())
    expect(page.locator(".turn-cue")).to_have_text(RESULT)
    assert "Partner " in page.locator("#table-log").inner_text()
    game = PracticeGame.objects.get()
    assert game.finished and game.groups == int(groups)
    page.get_by_role("button", name=f"Play again (CPT-113, {groups} groups)").click()
    expect(page.get_by_text(f"{groups} groups of two")).to_be_visible()


def test_the_trois_clock_counts_down_and_the_server_calls_time(phone, monkeypatch):
    """The page's clock is Playwright's (installed before the page loads, moved by the test);
    the server's is play.clock's, moved by the test too. Nothing sleeps."""
    page = phone
    page.clock.install()
    page.get_by_role("button", name="Start Trois").click()
    figure = page.locator("[data-countdown] [data-left]")
    expect(figure).to_have_text(re.compile(r"^2[45]:\d\d$"))
    # The page's script counts down from the moment it runs (a deferred script, late on a busy
    # machine): the clock is moved only once it counts, as a person sees it ticking.
    expect(page.locator("[data-countdown][data-running]")).to_have_count(1)
    page.clock.run_for("01:00")
    expect(figure).to_have_text(re.compile(r"^2[34]:\d\d$"))
    page.clock.run_for("10:00")
    expect(figure).to_have_text(re.compile(r"^1[34]:\d\d$"))
    # The server's deadline passes; the page counts down to zero, says so in the server's
    # words and asks for the table, which the server ends.
    later = timezone.now() + timedelta(minutes=25, seconds=1)
    monkeypatch.setattr(clock, "_now", lambda: later)
    page.clock.run_for("15:00")
    expect(page.locator(".turn-cue")).to_have_text(RESULT)
    expect(page.get_by_text("Time is up: the fewest cards wins.")).to_be_visible()
    expect(page.locator(".card-button")).to_have_count(0)
    game = PracticeGame.objects.get()
    last = GameEvent.objects.filter(game_id=game.game_id).latest("seq")
    assert game.finished and last.by == "clock" and last.public["move"] == {"kind": "time"}


def test_a_tap_after_the_deadline_is_answered_in_words(phone, monkeypatch):
    page = phone
    page.get_by_role("button", name="Start Trois").click()
    expect(page.get_by_text("Time left:")).to_be_visible()
    later = timezone.now() + timedelta(minutes=25, seconds=1)
    monkeypatch.setattr(clock, "_now", lambda: later)
    trois_turn(page, 0)  # the page still shows the time left: the server's clock has passed
    expect(page.locator(".notice")).to_have_text(
        "Time was up: the game ended before your move, which was not played."
    )
    expect(page.locator(".turn-cue")).to_have_text(RESULT)
    expect(page.locator("#table-news")).to_contain_text("Time was up")
    no_accessibility_violations(page)
