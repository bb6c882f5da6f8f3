"""Practice against the bot, clicked through in Chromium at phone size."""

import pytest
from playwright.sync_api import expect

from practice.models import PracticeDuel
from tests.e2e.test_console_browser import (
    no_accessibility_violations,
    phone_signed_in,
    shot,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_duel_against_the_bot_from_the_menu_to_the_result(browser, live_server, artifacts_dir):
    with phone_signed_in(browser, live_server) as page:
        page.goto("/practice/")
        page.get_by_label("Rules").select_option("tournament")
        page.get_by_role("button", name="Start a duel").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Round 1: reveal a card")
        no_accessibility_violations(page)

        # Reveal a few cards by tapping them; each round shows in the log with the bot's card.
        for _ in range(3):
            seq = page.locator(".log-seq")
            last = seq.first.inner_text() if seq.count() else "0"
            # A decision, or a card to choose (a shed the rules leave to its owner), comes
            # before the next seal: answered with its first button.
            if page.locator(".decision-form").count():
                page.locator(".decision-form button").first.click()
            else:
                page.locator("button.key").first.click()
            expect(page.locator(".log-seq").first).not_to_have_text(last)
        assert "Bot reveals" in page.locator(".log-list").inner_text()
        shot(page, artifacts_dir / "practice-phone.png")
        no_accessibility_violations(page)

        page.get_by_text("Resign", exact=True).click()
        page.get_by_role("button", name="Resign this duel").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("The bot wins — forfeit.")
        practice = PracticeDuel.objects.get()
        assert practice.finished and practice.outcome == "lost"
        page.get_by_role("button", name="Play again (tournament rules)").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Round 1: reveal a card")
        assert PracticeDuel.objects.count() == 2
