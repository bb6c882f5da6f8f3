"""The referee's path at 390 x 844 (issue 26, "The referee's path" and "A paper result in three
taps"): from the dashboard to their duel in one tap; the duel played to its end on the console
with *Play round* on the first screen at every step; from its end on to their next duel in one
tap; their tournament page leading with their duel; a round's paper result from the dashboard
in three taps once its players are named, one more per player still to name. Taps are counted
as a person makes them (a click, a tick, a choice in a select); axe on each page changed."""

import pytest
from playwright.sync_api import expect

from duels.models import Duel, DuelStatus
from tests.e2e.conftest import PHONE
from tests.e2e.test_console_browser import (
    Referee,
    no_accessibility_violations,
    sign_in,
    watch,
)
from tests.factories import EntrantFactory, group_phase_duel
from tournaments import services
from tournaments.services import refereeing

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# A short duel (three number cards each) through the states a two-seat console shows: a round,
# a round undone (Redo offered above the keys), a streak bonus to choose, an action card, a
# blocked seat's round, a challenge to decide, the end.
SHORT = {"truth_dare": False, "starting_number_cards": 3}
MOVES = [
    {"type": "round", "cards": {"A": 7, "B": 3}},
    {"type": "round", "cards": {"A": 9, "B": 1}},  # Alice's second win: the streak bonus
    {"type": "respond", "seat": "A", "choice": "action_card"},
    {"type": "action", "seat": "A", "card": "block"},
    {"type": "round", "cards": {"A": 5}},  # Bob is blocked; Alice at 0: does Bob challenge?
    {"type": "respond", "seat": "B", "choice": "pass"},
]
MISTAKE = {"type": "round", "cards": {"A": 4, "B": 4}}  # after the first round, then undone


class Taps:
    """The person's taps, counted as they are made."""

    def __init__(self) -> None:
        self.count = 0

    def click(self, locator) -> None:
        locator.click()
        self.count += 1

    def check(self, locator) -> None:
        locator.check()
        self.count += 1

    def choose(self, locator, label: str) -> None:
        locator.select_option(label=label)
        self.count += 1


def play_round_on_first_screen(page) -> None:
    """*Play round* wholly inside the viewport, and wholly inside the page's first screen:
    in view without any scroll, whatever console.js does after a swap."""
    button = page.locator("#round-form button[type=submit]")
    box = button.bounding_box()
    assert box is not None
    scrolled = page.evaluate("window.scrollY")
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    assert box["y"] + scrolled + box["height"] <= PHONE["height"], (box, scrolled)


# Not `live`: the console's swaps while it polls are the console tests' (run again under
# load); this one counts taps and measures the layout.
def test_the_referees_path_on_a_phone(browser, live_server):
    duel, referee = group_phase_duel(published=True, slug="club")
    tournament = duel.tournament
    organiser = tournament.created_by
    Duel.objects.filter(pk=duel.pk).update(referee=referee, table="2", options=SHORT)
    # Their next duel, already assigned (the tie-breaks run several at once).
    reds, blues = tournament.groups.order_by("order")
    after = Duel.objects.create(
        tournament=tournament,
        kind="tie_break",
        stage="Reds-r1-m1",
        seat_a=EntrantFactory(tournament=tournament, group=reds, name="Cy"),
        seat_b=EntrantFactory(tournament=tournament, group=blues, name="Di"),
        status=DuelStatus.READY,
        referee=referee,
        options=SHORT,
    )
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors = watch(page)
    sign_in(page, referee.username)  # lands on the dashboard

    # The dashboard leads with their duel: one tap to its console.
    desk = page.locator(".desk")
    expect(desk).to_contain_text("Your duel · Cup")
    expect(desk).to_contain_text("Group round 1: Alice v Bob · Table 2")
    no_accessibility_violations(page)
    taps = Taps()
    taps.click(page.get_by_role("link", name="Open the console for Group round 1"))
    expect(page.locator("#console-headline")).to_have_text(
        "Duel round 1: both reveal a number card"
    )
    assert taps.count == 1

    # The duel to its end: Play round on the first screen at every step it is offered.
    ref = Referee(page, {"A": "Alice", "B": "Bob"})
    play_round_on_first_screen(page)
    for n, move in enumerate(MOVES, start=1):
        ref.play(move)
        if n == 1:
            ref.play(MISTAKE)
            ref.undo()
            expect(page.locator(".redo-form")).to_contain_text("Undone: move 2")
        if page.locator("#round-form").count():
            play_round_on_first_screen(page)
        elif n < len(MOVES):
            expect(page.locator("#console .decision-form")).to_be_in_viewport()
        if n == 4:
            expect(page.locator(".seat.is-blocked")).to_contain_text("Bob")
    expect(page.locator("#console-headline")).to_have_text("Alice wins — shed all cards")

    # From its end on to the next duel: one tap.
    result = page.locator("#console .desk")
    expect(result).to_contain_text("Your next duel")
    expect(result).to_contain_text("Tie-break round 1, match 1: Cy v Di")
    no_accessibility_violations(page)
    taps = Taps()
    taps.click(result.get_by_role("link", name="Open the console for Tie-break round 1, match 1"))
    expect(page).to_have_url(f"{live_server.url}/t/club/duels/{after.pk}/")
    expect(page.locator(".duel-heading")).to_contain_text("Tie-break round 1, match 1")
    assert taps.count == 1
    play_round_on_first_screen(page)

    # The tournament page leads with it too: one tap.
    page.goto("/t/club/")
    expect(page.locator("main .desk")).to_contain_text("Your duel")
    no_accessibility_violations(page)
    taps = Taps()
    taps.click(page.get_by_role("link", name="Open the console for Tie-break round 1, match 1"))
    expect(page.locator(".duel-heading")).to_contain_text("Tie-break round 1, match 1")
    assert taps.count == 1
    after.delete()  # reached: the rest of the walk is the group phase's paper sheets

    # A round whose players are not named yet, from paper: open the sheet, one choice per
    # player, the winner (the player chosen for a group), Record: five taps.
    page.goto("/dashboard/")
    expect(page.locator(".desk")).to_contain_text(
        "No duel is assigned to you yet. Next: Group round 2 — each group names its player"
    )
    taps = Taps()
    taps.click(page.get_by_role("link", name="Played on paper? Record Group round 2"))
    form = page.locator("#paper-form")
    taps.choose(form.get_by_label("Played for Reds"), "Reds 2")
    taps.choose(form.get_by_label("Played for Blues"), "Blues 2")
    taps.check(form.get_by_label("The player chosen for Blues won"))
    taps.click(form.get_by_role("button", name="Record the paper result"))
    expect(page.get_by_text("Group round 2 played on paper: Blues 2 won.")).to_be_visible()
    assert taps.count == 5

    # Its players named (and called to a table) by the organisers: three taps.
    named = services.name_representatives(
        tournament,
        organiser,
        3,
        tournament.entrants.get(name="Reds 3").pk,
        tournament.entrants.get(name="Blues 3").pk,
    )
    refereeing.assign_referee(named, organiser, referee)
    refereeing.call_duel(named, organiser, "4")
    page.goto("/dashboard/")
    expect(page.locator(".desk")).to_contain_text("Group round 3: Reds 3 v Blues 3 · Table 4")
    taps = Taps()
    taps.click(page.get_by_role("link", name="Played on paper? Record Group round 3"))
    form = page.locator("#paper-form")
    expect(form.get_by_label("Played for Reds")).to_have_count(0)  # named: nothing to choose
    no_accessibility_violations(page)
    taps.check(form.get_by_label("Reds 3 won"))
    taps.click(form.get_by_role("button", name="Record the paper result"))
    expect(page.get_by_text("Group round 3 played on paper: Reds 3 won.")).to_be_visible()
    assert taps.count == 3
    played = Duel.objects.get(tournament=tournament, round__number=3)
    assert played.status == DuelStatus.FINISHED and played.result.winner.name == "Reds 3"
    context.close()
    assert errors == []
