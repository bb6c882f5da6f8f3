"""Practice at more than two seats, clicked through in Chromium at phone size: a four-seat
game against three bots played to the end, and a team game with a bot partner played a few
rounds, then resigned for the team.

The page does not change by itself (every move is a form post), so nothing here is ``live``:
after each tap the test waits for the log to show the new event — the person's move and the
bots' turns after it — never for time."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from practice.models import PracticeDuel
from tests.e2e.test_console_browser import (
    no_accessibility_violations,
    phone_signed_in,
    shot,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RESULT = re.compile(r"(You win|Your team wins|Bot [B-F].* wins?|Drawn) — ")


@pytest.fixture
def phone(browser, live_server):
    with phone_signed_in(browser, live_server) as page:
        page.goto("/practice/")
        yield page


def person_turn(page, turn: int) -> None:
    """One tap of a person who plays whatever the page offers them, choosing targets in turn:
    a decision or a card to give up first (each its own form), else a card to seal or, now
    and then, an action card."""
    decision = page.locator(".decision-form button")
    if decision.count():
        decision.first.click()
        return
    targets = page.get_by_role("radio")
    if targets.count():
        targets.nth(turn % targets.count()).check()
    cards = page.locator(".action-list button")
    if cards.count() and turn % 4 == 3:
        cards.first.click()
    else:
        keys = page.locator("button.key")
        keys.nth(turn % keys.count()).click()


def play_to_the_end(page) -> str:
    headline = page.get_by_role("heading", level=1)
    for turn in range(400):
        text = headline.inner_text()
        if RESULT.search(text):
            return text
        seq = page.locator(".log-seq")
        last = seq.first.inner_text() if seq.count() else "0"
        person_turn(page, turn)
        # What a person waits for: the move, and the bots' answers, appearing in the log.
        expect(page.locator(".log-seq").first).not_to_have_text(last)
    raise AssertionError("the game did not end")


def test_a_four_seat_game_against_three_bots_to_the_end(phone, artifacts_dir):
    page = phone
    no_accessibility_violations(page)  # the start form, with its new fields
    page.get_by_label("Rules").select_option("official")
    page.get_by_label("Bot opponents").select_option("3")
    page.get_by_role("button", name="Start a duel").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        re.compile("Round 1: reveal a card|Your decision|Choose")
    )
    expect(page.locator("[data-seat]")).to_have_count(4)
    for bot in ("Bot B", "Bot C", "Bot D"):
        expect(page.get_by_role("heading", name=bot, exact=True)).to_be_visible()
    expect(page.get_by_role("group", name="Target of your 0, 7 or action card")).to_be_visible()
    expect(page.get_by_role("radio")).to_have_count(3)
    no_accessibility_violations(page)
    person_turn(page, 0)
    expect(page.locator(".log-list")).to_contain_text("Bot D reveals")
    shot(page, artifacts_dir / "practice-4-seats-phone.png")
    result = play_to_the_end(page)
    practice = PracticeDuel.objects.get()
    assert practice.seats == 4 and practice.finished
    assert ("You win" in result) == (practice.outcome == "won")
    no_accessibility_violations(page)
    expect(page.get_by_role("button", name="Play again (official rules, 4 seats)")).to_be_visible()


def test_a_team_game_with_a_bot_partner_then_resigned_for_the_team(phone, artifacts_dir):
    page = phone
    page.get_by_label("Rules").select_option("tournament")
    page.get_by_label("Bot opponents").select_option("3")
    page.get_by_label("Teams (4 to 6 seats)").select_option(
        label="4 seats: You + Bot C against Bot B + Bot D"
    )
    page.get_by_role("button", name="Start a duel").click()
    expect(page.get_by_role("heading", name="Bot C (your partner)")).to_be_visible()
    # The partner is never a target: only the two opponents are offered.
    expect(page.get_by_role("radio")).to_have_count(2)
    expect(page.get_by_role("radio", name="Bot C")).to_have_count(0)
    no_accessibility_violations(page)
    # A few rounds with the partner, then the team resigns: the four-seat game above is
    # played to its end already (and a whole team game through the views, in
    # tests/practice); played out here too it cost 30 s of a CI worker.
    for turn in range(6):
        seq = page.locator(".log-seq")
        last = seq.first.inner_text() if seq.count() else "0"
        person_turn(page, turn)
        expect(page.locator(".log-seq").first).not_to_have_text(last)
        if RESULT.search(page.get_by_role("heading", level=1).inner_text()):
            break
    else:
        page.get_by_text("Resign", exact=True).click()
        page.get_by_role("button", name="Resign for your team").click()
    headline = page.get_by_role("heading", level=1)
    expect(headline).to_have_text(RESULT)
    result = headline.inner_text()
    shot(page, artifacts_dir / "practice-team-phone.png")
    practice = PracticeDuel.objects.get()
    assert practice.teams == [["A", "C"], ["B", "D"]] and practice.finished
    assert ("Your team wins" in result) == (practice.outcome == "won")
    if practice.outcome == "lost":
        assert "Bot B + Bot D win" in result
    no_accessibility_violations(page)
    page.get_by_role("button", name="Play again (tournament rules, 4 seats)").click()
    expect(page.get_by_role("heading", name="Bot C (your partner)")).to_be_visible()
    assert PracticeDuel.objects.count() == 2
