"""Trois and CPT-113 against the bots, clicked through in Chromium at phone size."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from play import clock
from play.models import GameEvent
from practice.models import PracticeGame
from tests.e2e.test_console_browser import (
    no_accessibility_violations,
    phone_signed_in,
    shot,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RESULT = re.compile(r"You win!|wins\.|A tie")


@pytest.fixture
def phone(browser, live_server):
    with phone_signed_in(browser, live_server) as page:
        page.goto("/practice/")
        page.get_by_role("link", name="Trois and CPT-113").click()
        yield page


def play_until_the_end(page, choose) -> None:
    """The person's turns, each by a tap, waiting for the log to move on, until a result."""
    headline = page.get_by_role("heading", level=1)
    for _ in range(300):
        if RESULT.search(headline.inner_text()):
            return
        last = (
            page.locator(".log-seq").first.inner_text() if page.locator(".log-seq").count() else "0"
        )
        choose(page)
        expect(page.locator(".log-seq").first).not_to_have_text(last)
    raise AssertionError("the game did not end")


def trois_turn(page) -> None:
    take = page.get_by_role("button", name="Take a card")
    if take.count():
        take.click()
    else:
        page.locator("form.hand button.uno").first.click()


def cpt113_turn(page) -> None:
    draw = page.get_by_role("button", name="Draw", exact=True)
    if draw.count():
        draw.click()
    elif page.locator("form.inline button.uno").count():
        page.locator("form.inline button.uno").first.click()
    else:
        page.locator("form.wild button").first.click()


def test_a_whole_game_of_trois_against_three_bots(phone, artifacts_dir):
    page = phone
    page.get_by_role("button", name="Start Trois").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Your turn: match"))
    expect(page.get_by_text("Time left:")).to_be_visible()
    no_accessibility_violations(page)
    trois_turn(page)
    expect(page.locator(".log-list")).to_contain_text("Bot 3")
    shot(page, artifacts_dir / "trois-phone.png")
    play_until_the_end(page, trois_turn)
    expect(page.get_by_role("heading", level=1)).to_have_text(RESULT)
    game = PracticeGame.objects.get()
    assert game.finished and game.outcome in ("won", "lost", "drawn")
    no_accessibility_violations(page)
    page.get_by_role("button", name="Play again (Trois)").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Your turn: match"))
    assert PracticeGame.objects.count() == 2


def test_a_whole_game_of_cpt113_with_a_bot_partner(phone, artifacts_dir):
    page = phone
    page.get_by_label("Groups of two").select_option("3")
    page.get_by_role("button", name="Start CPT-113").click()
    expect(page.get_by_text("you (ada) and Partner (a bot) are group A")).to_be_visible()
    no_accessibility_violations(page)
    shot(page, artifacts_dir / "cpt113-phone.png")
    play_until_the_end(page, cpt113_turn)
    expect(page.get_by_role("heading", level=1)).to_have_text(RESULT)
    assert "Partner " in page.locator(".log-list").inner_text()
    game = PracticeGame.objects.get()
    assert game.finished and game.groups == 3
    page.get_by_role("button", name="Play again (CPT-113, 3 groups)").click()
    expect(page.get_by_text("3 groups of two")).to_be_visible()


def test_the_trois_clock_runs_out_on_the_server(phone, monkeypatch):
    page = phone
    page.get_by_role("button", name="Start Trois").click()
    expect(page.get_by_text("Time left:")).to_be_visible()
    trois_turn(page)
    expect(page.locator(".log-list")).to_contain_text("Bot 3")
    later = timezone.now() + timedelta(minutes=25, seconds=1)
    monkeypatch.setattr(clock, "_now", lambda: later)
    page.reload()  # the next request finds the deadline passed: the server calls time
    expect(page.get_by_text("Time is up", exact=False).first).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text(RESULT)
    expect(page.locator("form.hand")).to_have_count(0)
    game = PracticeGame.objects.get()
    last = GameEvent.objects.filter(game_id=game.game_id).latest("seq")
    assert game.finished and last.by == "clock" and last.public["move"] == {"kind": "time"}
