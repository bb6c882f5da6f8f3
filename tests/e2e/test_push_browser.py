"""Live within a second (issue 28), in Chromium against the web process as production runs it
(config/asgi.py under uvicorn: streams and Django together), with push through real Redis.

Every page here polls only every ten minutes (the fast polls of the other browser tests are
off), so whatever the page shows without a reload came by push: a spectator's standings, the
big screen, `/me/` and a second console see a result, a call, a move, a withdrawal and an
organiser's ruling. Without Redis for the streams the same pages poll as before and still
see the news (the fallback).
"""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE
from tests.e2e.test_public_browser import group_phase, sign_in
from tests.factories import UserFactory
from tournaments import services
from tournaments.services import refereeing
from tournaments.views import console as console_views

# Run again under CPU load in CI (`live`): the two where a race would show — a result
# reaching two pages at once, and two consoles and a player's page on one duel. The others
# run once (CI's time: .ci/e2e-under-load).
pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NEVER = 600  # seconds: no poll comes within a test
# The organiser's page was drawn again, at a newer version of the tournament.
NEWER = "v => +document.querySelector('[data-refresh-page]').dataset.version > v"


@pytest.fixture(autouse=True)
def slow_polls(settings, monkeypatch):
    settings.PUBLIC_POLL_SECONDS = NEVER
    settings.PUSH_POLL_SECONDS = NEVER
    monkeypatch.setattr(console_views, "POLL_SECONDS", NEVER)


def stream_up(page) -> None:
    expect(page.locator("html")).to_have_attribute("data-push", "up")


def fragment_requests(page) -> list[str]:
    """The live parts' own requests (htmx), from now on."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.headers.get("hx-request") else None)
    return asked


def forfeit(duel, referee, seat="A") -> None:
    refereeing.append_event(duel, referee, {"type": "forfeit", "seat": seat}, duel.seq)


@pytest.mark.live
def test_a_spectator_and_the_big_screen_see_a_result_pushed(push_page, browser, asgi_server):
    tournament, referee, entrants, duel = group_phase()
    push_page.goto(f"/t/{tournament.slug}/standings/")
    stream_up(push_page)
    row = push_page.locator("#standings-table tbody tr", has_text=entrants[1].name)
    expect(row.locator("td.num").first).to_have_text("0")
    projector = browser.new_context(base_url=asgi_server.url)
    try:
        screen = projector.new_page()
        screen.goto(f"/t/{tournament.slug}/screen/?show=standings")
        stream_up(screen)
        board = screen.locator("#panel-standings tr", has_text=entrants[1].name)
        expect(board).not_to_contain_text("3")
        push_page.evaluate("window.__marker = 'same page'")
        asked = fragment_requests(push_page)

        forfeit(duel, referee, seat="A")  # round 2: seat A is entrants[16]; entrants[1] wins

        expect(row.locator("td.num").first).to_have_text("3")
        expect(board).to_contain_text("3")
        assert push_page.evaluate("window.__marker") == "same page"
        assert asked == [], "the result came by push, not by a request of the page"
    finally:
        projector.close()


@pytest.mark.live
def test_a_player_sees_their_call_and_a_second_console_a_move(push_page, browser, asgi_server):
    tournament, referee, entrants, duel = group_phase(table="")
    player = entrants[1]
    user = UserFactory()
    player.user = user
    player.save(update_fields=["user"])
    sign_in(push_page, user.username)
    push_page.goto("/me/")
    stream_up(push_page)
    called = push_page.locator("#live .next-duel.is-called")
    expect(called).to_have_count(0)

    refereeing.call_duel(duel, referee, "7")
    expect(called).to_contain_text("called to")
    expect(called).to_contain_text("7")

    # Two devices on one duel's console: a move entered on one shows on the other, and an
    # organiser's ruling (an adjudication) ends the duel on both.
    contexts = []
    try:
        consoles = []
        for _ in range(2):
            context = browser.new_context(viewport=PHONE, base_url=asgi_server.url)
            contexts.append(context)
            console = context.new_page()
            sign_in(console, referee.username)
            console.goto(f"/t/{tournament.slug}/duels/{duel.pk}/")
            stream_up(console)
            consoles.append(console)
        refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
        for console in consoles:
            expect(console.locator(".poller")).to_have_attribute("hx-get", re.compile(r"rev=1\b"))
        duel.refresh_from_db()
        forfeit(duel, tournament.created_by, seat="B")  # the organiser's ruling
        for console in consoles:
            expect(console.locator("#console.is-finished")).to_have_count(1)
    finally:
        for context in contexts:
            context.close()


def test_a_withdrawal_reaches_the_spectators(push_page):
    tournament, referee, entrants, duel = group_phase()
    push_page.goto(f"/t/{tournament.slug}/standings/")
    stream_up(push_page)
    row = push_page.locator("#standings-table tbody tr", has_text=entrants[5].name)
    expect(row).not_to_contain_text("withdrawn", ignore_case=True)
    services.withdraw(tournament, tournament.created_by, entrants[5].pk, "ill", confirm=True)
    expect(row).to_contain_text("withdrawn", ignore_case=True)


def test_the_organisers_rounds_page_is_redrawn_unless_a_form_is_in_use(push_page):
    tournament, referee, entrants, duel = group_phase()
    organiser = tournament.created_by
    sign_in(push_page, organiser.username)
    push_page.goto(f"/t/{tournament.slug}/manage/rounds/")
    stream_up(push_page)
    push_page.evaluate("window.__marker = 'same page'")
    version = push_page.locator("[data-refresh-page]")
    shown = int(version.get_attribute("data-version"))

    forfeit(duel, referee, seat="A")  # a result entered elsewhere

    push_page.wait_for_function(NEWER, arg=shown)
    assert push_page.evaluate("window.__marker") == "same page"
    shown = int(version.get_attribute("data-version"))

    # A form in use is kept: the page says the tournament changed and offers to redraw.
    field = push_page.locator("main form").first.locator("select, input:not([type=hidden])").first
    field.focus()
    services.withdraw(tournament, organiser, entrants[6].pk, "ill", confirm=True)
    news = push_page.locator("#messages .push-news")
    expect(news).to_contain_text("changed since this page was drawn")
    expect(version).to_have_attribute("data-version", str(shown))
    news.get_by_role("button", name="Show the latest").click()
    push_page.wait_for_function(NEWER, arg=shown)


def test_a_proxy_that_holds_the_stream_back_leaves_the_page_polling(push_page, settings):
    """Nothing of the stream arrives (a buffering proxy holds it): within PUSH_READY_SECONDS
    the page gives it up and polls at its usual pace, and still sees a result."""
    settings.PUBLIC_POLL_SECONDS = 1
    settings.PUSH_READY_SECONDS = 2
    held = []
    push_page.route("**/push/stream*", lambda route: held.append(route))  # never answered
    tournament, referee, entrants, duel = group_phase()
    push_page.goto(f"/t/{tournament.slug}/standings/")
    expect(push_page.locator("html")).to_have_attribute("data-push", "buffered")
    row = push_page.locator("#standings-table tbody tr", has_text=entrants[1].name)
    forfeit(duel, referee, seat="A")
    expect(row.locator("td.num").first).to_have_text("3")
    assert held, "the page asked for its stream"


def test_a_phone_on_the_watch_page_sees_each_move_pushed(push_page):
    tournament, referee, entrants, duel = group_phase()
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    push_page.set_viewport_size(PHONE)
    push_page.goto(f"/t/{tournament.slug}/duels/{duel.pk}/watch/")
    stream_up(push_page)
    table = push_page.locator("#live")
    expect(table).to_contain_text("Duel round 1:")
    asked = fragment_requests(push_page)
    duel.refresh_from_db()
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 2, "B": 9}}, duel.seq)
    expect(table).to_contain_text("Duel round 2:")
    duel.refresh_from_db()
    forfeit(duel, referee, seat="B")
    expect(push_page.locator(f"#watch-{duel.pk}")).to_have_class(re.compile(r"\bwatch-over\b"))
    assert asked == [], "the moves came by push"


def test_the_hosts_lobby_sees_a_friend_join_and_leave_pushed(push_page, monkeypatch):
    """An online table's lobby (issue 31) follows the table's topic: a friend joining and
    leaving shows without a poll (the lobby's poll is off here)."""
    from practice import online
    from practice import online_views as online_table_views

    monkeypatch.setattr(online_table_views, "POLL_SECONDS", NEVER)
    host, friend = UserFactory(username="hostess"), UserFactory(username="friend")
    table = online.open_table(host=host, ruleset="tournament", seats=3)
    sign_in(push_page, host.username)
    push_page.set_viewport_size(PHONE)
    push_page.goto(f"/practice/online/{table.pk}/")
    stream_up(push_page)
    seats = push_page.locator(".lobby-seats")
    expect(seats).not_to_contain_text("friend")
    asked = fragment_requests(push_page)
    online.join(token=table.join_token, user=friend)
    expect(seats).to_contain_text("friend")
    online.leave(table_id=table.pk, user=friend)
    expect(seats).not_to_contain_text("friend")
    # Each change was asked for once, on the news (no poll came).
    assert len(asked) == 2 and all("version=" in url for url in asked), asked
