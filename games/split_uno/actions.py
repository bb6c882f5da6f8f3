"""Action cards (RULES.md section 4) and the start of truth and dare (section 5).

A card is played in its own event, never while a decision is pending; the actor's card is
discarded as it is played (REVERSE under ``reverse_discard: "after"`` excepted). A counter the
target may make is raised here as a pending decision and resolved in ``decisions``.
"""

from __future__ import annotations

from collections.abc import Callable

from .constants import CARDS, DRAW_AMOUNT, TRUTH_DARE
from .effects import RawEffect
from .errors import IllegalEvent
from .events import Event
from .state import Table, pending
from .talk import seat_name, waiting_for

_WITHOUT_TRUTH_DARE = tuple(card for card in CARDS if card not in TRUTH_DARE)


def playable_cards(t: Table, i: int) -> tuple[str, ...]:
    """The card names seat ``i`` may play now (honour system: any name, section 4)."""
    if t.pending is not None or t.finish is not None or t.act[i] < 1:
        return ()
    return CARDS if t.rules.truth_dare else _WITHOUT_TRUTH_DARE


def play_action(t: Table, ev: Event, fx: list[RawEffect]) -> None:
    """Check that seat ``ev["seat"]`` may play ``ev["card"]`` now, then play it."""
    if t.pending is not None:
        raise IllegalEvent(f"an action card cannot be played now: {waiting_for(t)}")
    setup = t.setup
    rules = setup.rules
    i = setup.index[ev["seat"]]
    card = ev["card"]
    if t.multi and t.out[i]:
        raise IllegalEvent(f"{seat_name(t, i)} has left the game and plays nothing")
    if t.act[i] < 1:
        holders = [setup.seats[j] for j in range(len(setup.seats)) if t.act[j] > 0 and not t.out[j]]
        who = f"only {', '.join(holders)} holds one now" if holders else "nobody holds one now"
        raise IllegalEvent(
            f"{seat_name(t, i)} holds no action card and cannot play {card}: an action card "
            f"needs at least one in hand ({who})"
        )
    if card in TRUTH_DARE and not rules.truth_dare:
        raise IllegalEvent(
            f"{card} is not played under this ruleset: truth and dare are switched off "
            f"(truth_dare false); the cards are {', '.join(_WITHOUT_TRUTH_DARE)}"
        )
    target = _target(t, i, ev) if t.multi else t.opponent(i)
    seats = setup.seats
    fx.append(
        (
            "play",
            seats[i],
            None if card == "color_change" else seats[target],
            0,
            0,
            card,
            ev.get("color"),
        )
    )
    if not (card == "reverse" and rules.reverse_discard == "after"):
        t.spend_action(i)
    _PLAY[card](t, i, target, fx)


def _target(t: Table, i: int, ev: Event) -> int:
    """Section 11.4: the opponent in play that ``target`` names; COLOR CHANGE needs none
    (-1, or the nominated seat, which changes nothing)."""
    card = ev["card"]
    target = ev.get("target")
    if target is None:
        if card == "color_change":
            return -1
        names = ", ".join(t.seats[j] for j in t.opponents(i))
        raise IllegalEvent(
            f"action: {card} needs a target with more than two seats: name an opponent ({names})"
        )
    j = t.setup.index[target]
    if t.out[j]:
        names = ", ".join(t.seats[k] for k in t.opponents(i))
        raise IllegalEvent(
            f"action: target {target} has left the game; name an opponent in play ({names})"
        )
    return j


def place_block(t: Table, target: int, fx: list[RawEffect]) -> None:
    """The target is blocked for the next number round; a second block adds nothing."""
    already = t.blocked[target]
    t.blocked[target] = True
    fx.append(("blocked", t.seats[target], None, 0, 0, None, "already" if already else None))


def _block(t: Table, i: int, target: int, fx: list[RawEffect]) -> None:
    # The target's flag stays false while it decides whether to counter.
    if t.rules.block_counter and t.act[target] > 0:
        t.pending = pending("block_counter", target, i, "block")
    else:
        place_block(t, target, fx)


def _reverse(t: Table, i: int, target: int, fx: list[RawEffect]) -> None:
    """Whole hands change seats; streaks and blocks stay where they are."""
    t.num[i], t.num[target] = t.num[target], t.num[i]
    t.act[i], t.act[target] = t.act[target], t.act[i]
    seats = t.seats
    fx.append(("swap", seats[i], seats[target]))
    if t.rules.reverse_discard == "after":
        if t.act[i] > 0:
            t.spend_action(i)
            fx.append(("reverse_discard", seats[i], None, 0, 1))
        else:
            fx.append(("reverse_discard", seats[i]))


def _color_change(t: Table, i: int, target: int, fx: list[RawEffect]) -> None:
    """Every seat in play sheds 1 number card; the colour is only written in the log."""
    out = t.out
    for j in range(len(t.num)):
        if not out[j]:
            t.shed(j, fx, "color_change", i)


def _draw_card(t: Table, i: int, target: int, fx: list[RawEffect], card: str) -> None:
    if t.rules.draw_counter and t.act[target] > 0:
        t.pending = pending("counter", target, i, card)
    else:
        t.draw(target, DRAW_AMOUNT[card], 0, fx, card, i)


def _truth_or_dare(t: Table, i: int, target: int, fx: list[RawEffect], card: str) -> None:
    """Section 5 and 10: the preset's sheds happen at once, then the target answers."""
    if t.rules.truth_dare_shed == "both":
        # The actor and its target (section 11.4: no one else is affected), in seat order.
        for j in range(len(t.num)):
            if j in (i, target):
                t.shed(j, fx, card, i)
    else:
        t.shed(i, fx, card, i)
    t.pending = pending(card, target, i, card)


_PLAY: dict[str, Callable[[Table, int, int, list[RawEffect]], None]] = {
    "block": _block,
    "reverse": _reverse,
    "color_change": _color_change,
    "draw_two": lambda t, i, target, fx: _draw_card(t, i, target, fx, "draw_two"),
    "draw_four": lambda t, i, target, fx: _draw_card(t, i, target, fx, "draw_four"),
    "truth": lambda t, i, target, fx: _truth_or_dare(t, i, target, fx, "truth"),
    "dare": lambda t, i, target, fx: _truth_or_dare(t, i, target, fx, "dare"),
}
