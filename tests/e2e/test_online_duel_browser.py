"""A whole online tournament duel (issue 31; ONLINE.md 6) in Chromium, two independent browser
contexts at 390 × 844: Alice's phone and Bob's. Each opens My duels and follows "Open your
online duel" to the ready screen; Alice says she is ready, Bob's screen learns it by its poll,
Bob says he is ready, and both screens load the card table by themselves. Each then plays from
their own phone, waiting for their own turn on their own page (it comes by the poll), never
for time, until the duel ends; both see the result and follow "Standings", where the result is
counted. A short deal (three number cards a seat: a switch of the duel's options) and a poll
every half second keep it to seconds."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from duels.models import Duel, DuelStatus
from duels.services import record_of
from play.adapters.base import Viewer
from play.models import Game
from play.selectors import view_of
from tests.e2e.conftest import PHONE
from tests.e2e.test_card_table_browser import settled
from tests.e2e.test_console_browser import no_accessibility_violations, sign_in, watch
from tests.e2e.test_online_table_browser import MY_TURN, RESULT, tap
from tests.play.test_page_noninterference import dealt_from
from tests.tournaments.test_online_duels import online_duel
from tournaments.views import online as online_views

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def standing(page, name: str):
    """The standings' row of ``name``."""
    return page.locator("#standings-table tbody tr").filter(
        has=page.get_by_role("rowheader", name=name, exact=True)
    )


def test_two_players_play_their_online_duel_from_the_ready_screen_to_the_standings(
    browser, live_server, monkeypatch, artifacts_dir
):
    dealt_from(monkeypatch, 0)  # the same deal at every run
    # The pages ask for news every half second rather than every 2: the same polls, sooner.
    monkeypatch.setattr(online_views, "POLL_SECONDS", 0.5)
    duel, _referee, _alice, _bob = online_duel()
    # The factory's tournament is not published: its players see its pages all the same.
    phones, errors = {}, []
    for seat, username in (("A", "alice"), ("B", "bob")):
        context = browser.new_context(viewport=PHONE, base_url=live_server.url)
        context.set_default_timeout(10_000)
        phone = context.new_page()
        errors.append(watch(phone))
        sign_in(phone, username)
        phone.goto("/me/duels/")
        phone.get_by_role("link", name="Open your online duel").click()
        phones[seat] = phone
    alice, bob = phones["A"], phones["B"]
    expect(alice.get_by_role("heading", name="Alice against Bob")).to_be_visible()
    expect(bob.get_by_role("heading", name="Bob against Alice")).to_be_visible()
    expect(bob.get_by_text("Alice is not ready yet.")).to_be_visible()
    no_accessibility_violations(alice)

    alice.get_by_role("button", name="I'm ready").click()
    expect(alice.get_by_text("You are ready.")).to_be_visible()
    expect(alice.get_by_role("button", name="I'm ready")).to_have_count(0)
    # Bob's screen learns it by its poll.
    expect(bob.get_by_text("Alice is ready.")).to_be_visible()
    bob.get_by_role("button", name="I'm ready").click()
    # Both screens turn into the card table by themselves: Bob's by the answer to his tap,
    # Alice's by her screen's poll.
    for phone in (bob, alice):
        expect(phone.locator("#card-table")).to_be_visible()
        # The ready screen became the table: the focus is on its headline, which says whose
        # turn it is (a keyboard or screen-reader user is not left at the top of the page).
        expect(phone.locator("#practice-headline")).to_be_focused()
        assert phone.evaluate("document.activeElement.id") == "practice-headline"
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING
    settled(alice)
    no_accessibility_violations(alice)

    moves = 0
    for _ in range(200):
        game = Game.objects.get(pk=duel.game_id)
        if game.status != "playing":
            break
        public = view_of(game.pk, Viewer("public"))
        awaited = [a["seat"] for a in public["awaiting"]]
        assert awaited, ("the duel goes on but waits for nobody", public)
        phone = phones[awaited[0]]
        # The player whose turn it is waits until their own page says so (its poll brings
        # the table as it is now), then taps.
        expect(phone.locator(f'{MY_TURN}[data-revision="{game.revision}"]')).to_be_visible()
        settled(phone)
        tap(phone, game.revision)
        moves += 1
    else:
        raise AssertionError("the duel did not end")
    for phone in (alice, bob):
        expect(phone.locator(".turn-cue")).to_have_text(RESULT)
    settled(bob)
    no_accessibility_violations(bob)
    bob.screenshot(path=str(artifacts_dir / "online-duel-end.png"))
    # Now that it is over, Bob steps through the whole deal (ONLINE.md 5): Alice's hand too.
    bob.get_by_role("link", name="Step through the whole deal").click()
    expect(bob.get_by_role("heading", name="The whole deal")).to_be_visible()
    total = int(re.search(r"of (\d+)", bob.locator(".stepper .step").inner_text()).group(1))
    bob.get_by_role("link", name="Previous").click()  # htmx: the replay's part, address kept
    expect(bob.locator(".stepper .step")).to_have_text(f"After move {total - 1} of {total}")
    expect(bob).to_have_url(re.compile(rf"\?step={total - 1}$"))
    bob.locator(".replay-moves a").first.click()
    expect(bob.locator(".stepper .step")).to_have_text(re.compile(r"After move 1 of \d+"))
    expect(bob.locator(".replay-moves")).to_contain_text("Alice was dealt")
    no_accessibility_violations(bob)
    bob.screenshot(path=str(artifacts_dir / "online-duel-whole-deal.png"), full_page=True)
    bob.go_back()
    bob.go_back()
    bob.go_back()
    expect(bob.locator(".turn-cue")).to_have_text(RESULT)

    duel = Duel.objects.select_related("result").get(pk=duel.pk)
    assert duel.status == DuelStatus.FINISHED
    result = duel.result
    for phone in (alice, bob):
        phone.get_by_role("link", name="Standings").click()
        expect(phone.get_by_role("heading", name="Standings", exact=True)).to_be_visible()
        for name in ("Alice", "Bob"):
            expect(standing(phone, name).locator("td.num").nth(1)).to_have_text("1")  # played
        if result.winner_id is not None:
            winner, loser = (
                ("Alice", "Bob") if result.winner_id == duel.seat_a_id else ("Bob", "Alice")
            )
            expect(standing(phone, winner).locator("td.num").nth(2)).to_have_text("1")  # won
            expect(standing(phone, loser).locator("td.num").nth(3)).to_have_text("1")  # lost
    # Seals and a decision answered, all by taps (deal 0: seven taps, one of them an answer).
    answered = [e for e in record_of(duel)["events"] if e["type"] == "respond"]
    assert moves >= 6 and answered, (moves, answered)
    for phone in (alice, bob):
        phone.context.close()
    assert errors == [[], []], errors


def test_both_players_ready_at_the_same_moment_both_get_the_table_at_its_headline(
    browser, live_server, monkeypatch
):
    """Issue 31's outside test: both players tapped "I'm ready" at the same moment and one
    got a 503 ("database is locked", on SQLite). Both taps go at once here (each phone's
    tap sent before the other's answer): both phones get the card table, focused on its
    headline, the duel dealt once, and no answer of the server is an error."""
    monkeypatch.setattr(online_views, "POLL_SECONDS", 0.5)
    duel, _referee, _alice, _bob = online_duel()
    phones, errors = [], []
    for username in ("alice", "bob"):
        context = browser.new_context(viewport=PHONE, base_url=live_server.url)
        context.set_default_timeout(10_000)
        phone = context.new_page()
        phone.on("response", lambda r: errors.append(r.url) if r.status >= 500 else None)
        sign_in(phone, username)
        phone.goto(f"/me/duels/{duel.pk}/online/")
        expect(phone.get_by_role("button", name="I'm ready")).to_be_visible()
        phones.append(phone)
    for phone in phones:
        phone.get_by_role("button", name="I'm ready").click(no_wait_after=True)
    for phone in phones:
        expect(phone.locator("#card-table")).to_be_visible()
        expect(phone.locator("#practice-headline")).to_be_focused()
        assert phone.evaluate("document.activeElement.id") == "practice-headline"
    assert errors == []
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING and Game.objects.count() == 1
    for phone in phones:
        phone.context.close()
