"""Truth and dare at an online table (issue 31; ONLINE.md 2) in Chromium, two phones at
390 × 844: the host ticks "Truth and dare", a friend takes the other seat; the host plays a
DARE and types it (markup included), both shed a card, the friend reads the dare as text with
the decision and answers "I did the dare"; the host's log says so. Each waits for what a
person waits for (their turn, by the page's poll). The deal is chosen (its seed) so that the
host holds a DARE from the start."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from play.adapters.split_uno_dealt import ADAPTER, commands
from play.models import Game
from practice import online, online_views
from practice.models import OnlineTable
from tests.e2e.conftest import PHONE
from tests.e2e.test_card_table_browser import settled
from tests.e2e.test_console_browser import (
    PASSWORD,
    no_accessibility_violations,
    phone_signed_in,
    watch,
)
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MY_TURN = "#card-table.is-your-turn"
DARE = "<b>Hop</b> on one foot"


def test_a_dare_typed_on_one_phone_is_read_and_answered_on_the_other(
    browser, live_server, monkeypatch, artifacts_dir
):
    chosen = online.choose

    def with_actions(*args, **kwargs):
        seating = chosen(*args, **kwargs)
        seating.options["starting_number_cards"] = 6
        seating.options["starting_action_cards"] = {"A": 6, "B": 6}
        return seating

    monkeypatch.setattr(online, "choose", with_actions)
    monkeypatch.setattr(online_views, "POLL_SECONDS", 0.5)
    bo = UserFactory(username="bo")
    with phone_signed_in(browser, live_server, "ada") as host:
        host.goto("/practice/online/new/")
        host.get_by_label("Rules").select_option("arbiter")
        host.get_by_label("Seats", exact=True).select_option("2")
        host.get_by_label("Seat clock").select_option("0")
        host.get_by_label("Truth and dare").check()
        host.get_by_role("button", name="Open the table").click()
        table = OnlineTable.objects.latest("pk")
        assert table.truth_dare
        online.join(token=table.join_token, user=bo)
        # The seed of a deal at which ada holds a DARE she may play at once.
        config = online._config(
            table.ruleset,
            table.seating,
            {"A": "ada", "B": "bo"},
            table.bot,
            None,
            "forfeit",
            truth_dare=True,
        )
        for k in range(400):
            seed = k.to_bytes(2, "big") * 8
            game, _ = ADAPTER.start(config, ("A", "B"), seed)
            if "dare" in commands(game, "A").get("play", {}).get("cards", ()):
                break
        monkeypatch.setattr(
            "play.services.random_source", SimpleNamespace(token_bytes=lambda n: seed)
        )
        host.reload()
        host.get_by_role("button", name="Start the game").click()
        expect(host.locator(MY_TURN)).to_be_visible()

        friend_context = browser.new_context(viewport=PHONE, base_url=live_server.url)
        friend_context.set_default_timeout(10_000)
        friend = friend_context.new_page()
        errors = watch(friend)
        friend.goto("/accounts/login/")
        friend.get_by_label("Username").fill("bo")

        friend.get_by_label("Password", exact=True).fill(PASSWORD)
        friend.get_by_role("button", name="Sign in").click()
        friend.goto(f"/practice/online/{table.pk}/")
        expect(friend.locator("#card-table")).to_be_visible()

        # ada selects her DARE: the field for the dare appears; she types it and plays.
        settled(host)
        field = host.locator("#said-text")
        expect(field).to_be_hidden()
        host.locator(".hand-actions .card-pick.kind-dare").first.click()
        expect(field).to_be_visible()
        expect(field).to_have_attribute("required", "")
        field.fill(DARE)
        no_accessibility_violations(host)
        host.screenshot(path=str(artifacts_dir / "online-dare-typed.png"))
        drawn = host.locator("#card-table").get_attribute("data-revision")
        host.locator(".play-button").click()
        expect(host.locator(f'#card-table:not([data-revision="{drawn}"])')).to_be_visible()
        # Both shed a card (arbiter): each taps the first card offered when asked.
        for page in (host, friend):
            # The page as the game is now (a page drawn before the other's choice would be
            # told the game moved on: a person taps again; this one waits for its poll).
            revision = Game.objects.get().revision
            asked = page.locator(f'{MY_TURN}[data-revision="{revision}"] .choose-form')
            expect(asked).to_be_visible()
            settled(page)
            page.locator(".choose-form button").first.click()
            expect(page.locator(f'#card-table:not([data-revision="{revision}"])')).to_be_visible()
        # bo reads the dare as ada typed it (text, not markup) with the two answers.
        quote = friend.locator(".decision-form blockquote.said")
        expect(quote).to_have_text(DARE)
        assert friend.locator(".decision-form b").count() == 0
        settled(friend)
        no_accessibility_violations(friend)
        friend.screenshot(path=str(artifacts_dir / "online-dare-asked.png"))
        friend.get_by_role("button", name="I did the dare").click()
        expect(host.locator("#table-log")).to_contain_text("bo completes the dare")
        expect(host.locator("#table-log")).to_contain_text(f"You dare bo: “{DARE}”")
        friend_context.close()
        assert errors == []
