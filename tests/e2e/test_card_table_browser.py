"""The practice card table (issue 30) in Chromium on a phone (390 × 844): two seats, four,
six and a team game, tapped as a person taps — a card selected, then played.

After every tap the test checks what the person must see without scrolling: their own card
and every seat's card of the round face-up on the tiles, the round's outcome and, when it is
their turn again, the hand's Play button. It never scrolls: a card the page would have put
below the fold fails the test instead of being scrolled to. It waits for what a person waits
for (the log's newest entry changing), never for time. Axe checks each state the first time
it appears (the hand, each kind of decision, a card to choose, the end). One two-seat game is
played to its end with the keyboard only."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from practice import services as practice_services
from practice.models import PracticeDuel
from tests.e2e.test_console_browser import no_accessibility_violations, phone_signed_in, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RESULT = re.compile(r"(You win|Your team wins|The bot wins|Bot [B-F].* wins?|Drawn) — ")
#: Everything the person must see after a tap, inside the 390 × 844 viewport.
MUST_SEE = ".face-up .playing-card, .round-outcome, .turn-cue"


def outside_viewport(page, selector: str) -> list[str]:
    """The elements matching ``selector`` not wholly inside the viewport (as text), with the
    page scrolled where it is."""
    return page.evaluate(
        """(selector) => {
            const out = [];
            for (const el of document.querySelectorAll(selector)) {
                const r = el.getBoundingClientRect();
                if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
                    out.push(`${el.textContent.trim()} @${r.top | 0}-${r.bottom | 0}`);
                }
            }
            return out;
        }""",
        selector,
    )


def moved(page, before: str) -> None:
    """Wait for what a person waits for after a tap: the log's newest entry changing, or a
    choice that ends the game asking to be confirmed (nothing played yet)."""
    newer = page.locator(".log-seq").first.filter(has_not_text=re.compile(f"^{before}$"))
    expect(page.locator(".confirm-form").or_(newer)).to_be_visible()


def newest(page) -> str:
    seq = page.locator(".log-seq")
    return seq.first.inner_text() if seq.count() else ""


class Checked:
    """The states axe has checked in this game."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def once(self, page, state: str) -> None:
        if state not in self.seen:
            self.seen.add(state)
            settled(page)
            no_accessibility_violations(page)


def settled(page) -> None:
    """Wait until the cards dealt in and the lines faded in have finished moving (what a
    person sees once the table is still; a line half faded in is not yet readable)."""
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")


def state_of(page) -> str:
    decision = page.locator(".decision-form[data-decision]")
    if decision.count():
        return "decision:" + decision.get_attribute("data-decision")
    if page.locator(".choose-form").count():
        return "choose"
    if page.locator(".confirm-form").count():
        return "confirm"
    if page.locator("#hand").count():
        return "hand"
    return "end" if RESULT.search(page.locator(".turn-cue").inner_text()) else "waiting"


def tap(page, turn: int) -> None:
    """One move as a person makes it: a decision's or a choice's button, else a target (now
    and then another), a card (now and then an action card) and Play. Nothing is scrolled
    to: what is tapped must already be in view."""
    state = state_of(page)
    if state == "confirm":
        # A choice that ends the game, asked once: confirmed.
        page.locator(".confirm-form button").click()
        return
    if state.startswith("decision") or state == "choose":
        buttons = page.locator(".decision-form button")
        # Never the forfeit: it asks to confirm (tested on its own).
        button = buttons.first
        assert not outside_viewport(page, ".decision-form button"), state
        button.click()
        return
    targets = page.locator('input[name="target"]')
    if targets.count() and turn % 3 == 2:
        targets.nth(turn % targets.count()).check()
    actions = page.locator(".hand-actions .card-pick:not(.is-idle)")
    numbers = page.locator(".hand-numbers .card-pick")
    if actions.count() and (turn % 4 == 3 or not numbers.count()):
        card = actions.nth(turn % actions.count())
    else:
        card = numbers.nth(turn % numbers.count())
    assert not outside_viewport(page, "#hand .card-pick, .play-button")
    card.click()
    play_selected(page)


def play_selected(page) -> None:
    """Play: the button, or for COLOR CHANGE the colour's button in its place."""
    colours = page.locator(".colour-play button")
    button = colours.first if colours.first.is_visible() else page.locator(".play-button")
    assert not outside_viewport(page, ".colour-play button, .play-button")
    button.click()


def play(page, taps: int, checked: Checked, *, to_the_end: bool = False) -> str:
    """Up to ``taps`` moves (or to the end), checking after each what must be in view."""
    for turn in range(taps if not to_the_end else 600):
        state = state_of(page)
        checked.once(page, state.split(":")[0] if state == "hand" else state)
        if state == "end":
            return page.locator(".turn-cue").inner_text()
        before = newest(page)
        tap(page, turn)
        moved(page, before)
        assert page.evaluate("scrollY") == 0
        missing = outside_viewport(page, MUST_SEE)
        assert not missing, f"after tap {turn}: {missing}"
    if to_the_end:
        raise AssertionError("the game did not end")
    return page.locator(".turn-cue").inner_text()


def start(page, rules: str, opponents: str, *, teams: str = "", variants=()) -> None:
    page.goto("/practice/")
    page.get_by_label("Rules").select_option(rules)
    page.get_by_label("Bot opponents").select_option(opponents)
    for variant in variants:
        page.get_by_label(variant, exact=True).check()
    if teams:
        page.get_by_label("Teams (4 to 6 seats)").select_option(label=teams)
    page.get_by_role("button", name="Start a duel").click()
    expect(page.locator(".turn-cue")).to_be_visible()


@pytest.mark.parametrize(
    ("rules", "opponents", "teams"),
    [
        ("tournament", "1", ""),
        ("official", "3", ""),
        ("official", "5", ""),
        ("tournament", "3", "4 seats: You + Bot C against Bot B + Bot D"),
    ],
    ids=["2-seats", "4-seats", "6-seats", "team"],
)
def test_each_tap_shows_every_seat_s_card_and_the_outcome_in_view(
    browser, live_server, artifacts_dir, rules, opponents, teams
):
    with phone_signed_in(browser, live_server) as page:
        start(page, rules, opponents, teams=teams)
        seats = int(opponents) + 1
        expect(page.locator("[data-seat]")).to_have_count(seats)
        if teams:
            expect(page.get_by_role("heading", name="Bot C (your partner)")).to_be_visible()
            # The partner is never a target; the team's cards are counted together.
            expect(page.locator('input[name="target"]')).to_have_count(2)
            expect(page.locator(".team-totals")).to_contain_text("You + Bot C")
        checked = Checked()
        play(page, 8, checked)
        # The round is on the table: the person's own card and every revealing seat's.
        expect(page.locator(".round-outcome")).to_be_visible()
        assert page.locator(".face-up .playing-card").count() >= 1
        settled(page)
        shot(
            page,
            artifacts_dir / f"card-table-{seats}-seats{'-team' if teams else ''}.png",
            full_page=False,
        )
        practice = PracticeDuel.objects.get()
        assert practice.seats == seats


def test_a_target_stays_chosen_from_move_to_move(browser, live_server):
    with phone_signed_in(browser, live_server) as page:
        start(page, "official", "3")
        page.locator('input[name="target"][value="D"]').check()
        for _ in range(3):
            if state_of(page) != "hand":
                break
            before = newest(page)
            # A card other than a 0 or a 7 where there is one: its move records no target, so
            # only the page can keep the one chosen (it once fell back to the first opponent).
            picks = page.locator(".hand-numbers .card-pick")
            aiming = page.locator('input[value="seal:0"], input[value="seal:7"]')
            plain = picks.filter(has_not=aiming)
            (plain if plain.count() else picks).first.click()
            expect(page.locator(".play-button")).to_have_text(re.compile(r"^Reveal \d"))
            page.locator(".play-button").click()
            moved(page, before)
            if state_of(page) == "hand":
                expect(page.locator('input[name="target"][value="D"]')).to_be_checked()


def test_a_whole_duel_with_the_keyboard_only(browser, live_server, artifacts_dir, monkeypatch):
    """Tab to a card, the arrows to choose, Tab to Play, Enter; a decision's button by Tab and
    Enter. After each move the focus is on the headline, which says whose turn it is. A short
    deal (six number cards each, a switch of the rules the form does not offer) keeps the whole
    duel to a few dozen moves; what is pressed is the same as with fifteen."""
    chosen = practice_services.choose

    def short_deal(*args, **kwargs):
        seating = chosen(*args, **kwargs)
        seating.options["starting_number_cards"] = 6
        return seating

    monkeypatch.setattr(practice_services, "choose", short_deal)
    with phone_signed_in(browser, live_server) as page:
        start(page, "tournament", "1", variants=("speed",))
        checked = Checked()
        headline = page.locator(".turn-cue")
        for turn in range(600):
            state = state_of(page)
            checked.once(page, state)
            if state == "end":
                break
            before = newest(page)
            page.locator(".turn-cue").focus()
            if state == "hand":
                tab_to(page, "input[name='play']")
                page.keyboard.press("Space")  # the card in focus, selected
                for _ in range(turn % 5):
                    page.keyboard.press("ArrowRight")
                tab_to(page, ".play-button, .colour-play button")
            else:
                tab_to(page, ".decision-form button, .choose-form button")
            page.keyboard.press("Enter")
            moved(page, before)
            expect(headline).to_be_focused()
        else:
            raise AssertionError("the duel did not end")
        assert RESULT.search(headline.inner_text())
        practice = PracticeDuel.objects.get()
        assert practice.finished and "speed" in practice.variants
        settled(page)
        shot(page, artifacts_dir / "card-table-keyboard-end.png", full_page=False)
        # Play again keeps the whole set-up (the variant too).
        page.get_by_role("button", name="Play again with the same set-up").click()
        expect(page.locator(".turn-cue")).to_contain_text("Your turn")
        assert PracticeDuel.objects.latest("pk").variants == ["speed"]


def tab_to(page, selector: str) -> None:
    """Press Tab until the focus is on an element matching ``selector`` (at most 40 times)."""
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")
