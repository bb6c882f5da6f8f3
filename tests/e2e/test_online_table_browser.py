"""An online table with a friend (issue 31) in Chromium, two independent browser contexts at
390 × 844: the host opens a table of three seats, a friend opens the join link (signs in,
comes back to it, takes a seat), the host starts with a bot at the third seat, and both play
from their own phone until the end; the host sees the result. Each waits for what a person
waits for — their turn, which comes by the page's poll — never for time. A short deal (two
number cards a seat: a switch of the rules the form does not offer) keeps it to seconds."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from play.adapters.base import Viewer
from play.models import Game
from play.selectors import view_of
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

RESULT = re.compile(r"(You win|Your team wins|\w+ wins?|Drawn) — ")
MY_TURN = "#card-table.is-your-turn"


def tap(page, revision: int) -> None:
    """The move a person makes when it is their turn: a decision's or a choice's first
    button (a choice that ends the game is asked once: confirmed), else a number card and
    Play; then wait for the table the move brought."""
    if page.locator(".decision-form button").count():
        page.locator(".decision-form button").first.click()
    else:
        cards = page.locator(".hand-numbers .card-pick")
        if cards.count():
            cards.first.click()
        else:
            page.locator(".hand-actions .card-pick:not(.is-idle)").first.click()
        colours = page.locator(".colour-play button")
        (colours.first if colours.first.is_visible() else page.locator(".play-button")).click()
    moved = page.locator(f'#card-table:not([data-revision="{revision}"])')
    asked = page.locator(".confirm-form")
    expect(moved.or_(asked)).to_be_visible()
    if asked.count():
        asked.locator("button").click()
        expect(moved).to_be_visible()


def test_two_friends_and_a_bot_play_an_online_table_to_its_end(
    browser, live_server, monkeypatch, artifacts_dir
):
    chosen = online.choose

    def short_deal(*args, **kwargs):
        seating = chosen(*args, **kwargs)
        seating.options["starting_number_cards"] = 2
        return seating

    monkeypatch.setattr(online, "choose", short_deal)
    # The pages ask for news every half second rather than every 2: the same polls, sooner.
    monkeypatch.setattr(online_views, "POLL_SECONDS", 0.5)
    UserFactory(username="bo")
    with phone_signed_in(browser, live_server, "ada") as host:
        host.goto("/practice/")
        host.get_by_role("link", name="Open an online table").click()
        host.get_by_label("Seats", exact=True).select_option("3")
        host.get_by_label("Seat clock").select_option("0")
        host.get_by_role("button", name="Open the table").click()
        expect(host.get_by_role("heading", name="Your table: waiting for people")).to_be_visible()
        link = host.get_by_role("textbox", name="Join link").input_value()
        expect(host.locator(".qr-figure svg")).to_be_visible()

        friend_context = browser.new_context(viewport=PHONE, base_url=live_server.url)
        friend_context.set_default_timeout(10_000)
        friend = friend_context.new_page()
        errors = watch(friend)
        # The link first, signed out: sign in, and back to the join page.
        friend.goto(link)
        friend.get_by_label("Username").fill("bo")
        friend.get_by_label("Password", exact=True).fill(PASSWORD)
        friend.get_by_role("button", name="Sign in").click()
        expect(friend.get_by_role("heading", name="Join ada's table")).to_be_visible()
        friend.get_by_role("button", name="Take a seat").click()
        expect(friend.get_by_text("ada's table: waiting for the start")).to_be_visible()

        # The host's lobby learns of bo by its poll; the third seat will be a bot.
        expect(host.locator('.lobby-seats li[data-seat="B"]')).to_contain_text("bo")
        expect(host.get_by_text("Bots take the empty seats: Bot C.")).to_be_visible()
        no_accessibility_violations(host)
        host.get_by_role("button", name="Start the game").click()
        expect(host.locator("#card-table")).to_be_visible()
        # bo's lobby follows by itself to the table.
        expect(friend.locator("#card-table")).to_be_visible()
        settled(friend)
        no_accessibility_violations(friend)

        table = OnlineTable.objects.latest("pk")
        pages = {"A": host, "B": friend}
        for _ in range(200):
            game = Game.objects.get(pk=table.game_id)
            if game.status != "playing":
                break
            public = view_of(game.pk, Viewer("public"))
            awaited = [a["seat"] for a in public["awaiting"] if a["seat"] in pages]
            assert awaited, ("the game goes on but waits for no person", public, game.status)
            page = pages[awaited[0]]
            # The person whose turn it is waits until their page says so (its poll brings the
            # table as it is now), then taps.
            expect(page.locator(f'{MY_TURN}[data-revision="{game.revision}"]')).to_be_visible()
            settled(page)
            tap(page, game.revision)
        else:
            raise AssertionError("the game did not end")
        expect(host.locator(".turn-cue")).to_have_text(RESULT)
        expect(friend.locator(".turn-cue")).to_have_text(RESULT)
        settled(host)
        no_accessibility_violations(host)
        host.screenshot(path=str(artifacts_dir / "online-table-end.png"))
        expect(host.get_by_role("button", name="Rematch with the same people")).to_be_visible()
        friend_context.close()
        assert errors == []


def test_a_spectator_with_the_watch_link_sees_the_table_change_without_reloading(
    browser, live_server, monkeypatch
):
    """ONLINE.md 5: the host issues a watch link; a third context, signed out, opens it and
    sees the public table; a seat's move reaches it by the page's poll, the page never
    reloaded, and it shows no hand and no form."""
    monkeypatch.setattr(online_views, "POLL_SECONDS", 0.5)
    UserFactory(username="bo")
    with phone_signed_in(browser, live_server, "ada") as host:
        host.goto("/practice/")
        host.get_by_role("link", name="Open an online table").click()
        host.get_by_label("Seats", exact=True).select_option("3")
        host.get_by_label("Seat clock").select_option("0")
        host.get_by_role("button", name="Open the table").click()
        host.get_by_role("button", name="Issue a watch link").click()
        watch_link = host.get_by_role("textbox", name="Watch link").input_value()
        table = OnlineTable.objects.latest("pk")
        bo = UserFactory._meta.model.objects.get(username="bo")
        online.join(token=table.join_token, user=bo)
        host.reload()
        host.get_by_role("button", name="Start the game").click()
        expect(host.locator(MY_TURN)).to_be_visible()

        spectator_context = browser.new_context(viewport=PHONE, base_url=live_server.url)
        spectator_context.set_default_timeout(10_000)
        spectator = spectator_context.new_page()
        errors = watch(spectator)
        spectator.goto(watch_link)
        expect(spectator.locator("#card-table")).to_be_visible()
        expect(spectator.locator('.seat[data-seat="A"] .seat-name')).to_have_text("ada")
        settled(spectator)
        no_accessibility_violations(spectator)
        spectator.evaluate("window.stillThisPage = true")
        assert spectator.locator("#card-table form, #card-table .card-pick").count() == 0
        table.refresh_from_db()
        game = Game.objects.get(pk=table.game_id)
        drawn = spectator.locator("#card-table").get_attribute("data-revision")
        # ada seals on her phone; the spectator's table changes by itself.
        settled(host)
        tap(host, game.revision)
        expect(spectator.locator(f'#card-table:not([data-revision="{drawn}"])')).to_be_visible()
        expect(spectator.locator('.seat[data-seat="A"] .sealed-card')).to_be_visible()
        assert spectator.evaluate("window.stillThisPage === true")
        assert spectator.locator("#card-table form, #card-table .card-pick").count() == 0
        spectator_context.close()
        assert errors == []
