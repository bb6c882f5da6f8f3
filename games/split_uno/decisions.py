"""Decisions (RULES.md section 7): counters, truth and dare answers, penalties, streak
bonuses and challenges (section 6), and ``settle``, which picks the next one in order.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import place_block
from .constants import DECISIONS, DRAW_AMOUNT
from .effects import RawEffect
from .errors import IllegalEvent
from .events import Event
from .state import Pending, Table, pending
from .talk import waiting_for


def respond(t: Table, ev: Event, fx: list[RawEffect]) -> None:
    """Check that the named seat may make this choice now, resolve it, then ``settle``."""
    p = t.pending
    if p is None:
        raise IllegalEvent(
            "there is nothing to respond to: the engine is not waiting for a decision; "
            "play a round or an action card, or end the duel"
        )
    i = t.setup.index[ev["seat"]]
    choice = ev["choice"]
    decision = p.decision
    if i != p.seat:
        raise IllegalEvent(f"{t.seats[i]} cannot respond now: {waiting_for(t)}")
    if choice not in DECISIONS[decision]:
        raise IllegalEvent(f"{choice!r} is not a choice for {decision}: {waiting_for(t)}")
    t.pending = None
    _RESOLVE[decision](t, p, choice, fx)
    settle(t, fx)


def settle(t: Table, fx: list[RawEffect]) -> None:
    """After an event and each decision: the next decision in the order of section 7.

    A decision the event raised itself (counter, truth/dare answer, penalty) is already
    pending; otherwise a streak of 2 asks for a bonus; otherwise a seat at 0 number cards is the
    potential winner (section 6), two of them draw the duel.
    """
    if t.finish is not None:
        return
    if t.multi:
        _settle_many(t, fx)
        return
    if t.pending is None:
        # Two seats, named one by one: compiled, a loop or ``in`` over a list of whole numbers
        # costs several times these four comparisons, and every event is settled.
        streak = t.streak
        if streak[0] >= 2:
            t.pending = pending("bonus", 0)
        elif streak[1] >= 2:
            t.pending = pending("bonus", 1)
        else:
            num = t.num
            if num[0] == 0:
                if num[1] == 0:
                    t.end(-1, "double_zero", fx)
                    return
                _potential_winner(t, 0, fx)
            elif num[1] == 0:
                _potential_winner(t, 1, fx)
    p = t.pending
    if p is not None:
        # ``other``: the seat the decision is about, named in its words (two seats: the other).
        fx.append(("await", t.seats[p.seat], t.seats[1 - p.seat], 0, 0, p.decision))


def _settle_many(t: Table, fx: list[RawEffect]) -> None:
    """``settle`` with more than two seats: sides instead of seats (section 11.6)."""
    if t.pending is None:
        streak, out = t.streak, t.out
        # A departed seat's streak of 2 stays frozen with it (section 11.8): no bonus.
        claimant = next((i for i in t.order if streak[i] >= 2 and not out[i]), -1)
        if claimant >= 0:
            t.pending = pending("bonus", claimant)
        else:
            num = t.num
            zeros = [side for side in t.sides() if all(num[j] == 0 for j in side)]
            if len(zeros) > 1:
                t.end(-1, "double_zero", fx, count=len(zeros))
                return
            if zeros:
                w = zeros[0][0]
                fx.append(("zero", t.seats[w]))
                if t.rules.challenge == "none":
                    t.end(w, "shed_all", fx)
                else:
                    _ask_challenger(t, w, w, fx)
    p = t.pending
    if p is not None:
        other = t.seats[p.other] if p.other >= 0 else None
        fx.append(("await", t.seats[p.seat], other, 0, 0, p.decision))


def _ask_challenger(t: Table, w: int, after: int, fx: list[RawEffect]) -> None:
    """Section 11.6: the window asks the next opponent of ``w`` holding an action card, in
    seat order from the seat after ``after`` and wrapping round, stopping before ``w``; when
    none is left, ``w`` wins."""
    n = len(t.seats)
    k = (after + 1) % n
    while k != w:
        if t.act[k] > 0 and t.is_opponent(w, k):
            t.pending = pending("challenge", k, w)
            return
        k = (k + 1) % n
    t.end(w, "shed_all", fx)


def _potential_winner(t: Table, w: int, fx: list[RawEffect]) -> None:
    """Section 6: a challenge window, or the win at once when no challenge can come."""
    fx.append(("zero", t.seats[w]))
    c = t.opponent(w)
    if t.rules.challenge == "none" or t.act[c] == 0:
        t.end(w, "shed_all", fx)
    else:
        t.pending = pending("challenge", c, w)


def lapse(t: Table, fx: list[RawEffect]) -> None:
    """Section 11.8: a side has just left; the pending decision goes on, moves on or lapses."""
    p = t.pending
    if p is None:
        return
    out = t.out
    if out[p.seat] or (p.other >= 0 and out[p.other]):
        t.pending = None
        other = t.seats[p.other] if p.other >= 0 else None
        fx.append(("lapse", t.seats[p.seat], other, 0, 0, p.decision))
        if p.decision == "challenge" and not out[p.other]:
            # A departed challenger counts as a pass: the window moves on.
            _ask_challenger(t, p.other, p.seat, fx)


def _counter(t: Table, p: Pending, choice: str, fx: list[RawEffect]) -> None:
    """The draw battle of section 4: the smaller card's player draws 1 + the difference."""
    seats = t.seats
    target, actor, played = p.seat, p.other, p.card
    fx.append(("respond", seats[target], seats[actor], 0, 0, choice, "counter"))
    if choice == "pass":
        t.draw(target, DRAW_AMOUNT[played], 0, fx, played, actor)
        return
    t.spend_action(target)
    mine, theirs = DRAW_AMOUNT[played], DRAW_AMOUNT[choice]
    if mine == theirs:
        for j in sorted((actor, target)):
            t.draw(j, 1, 0, fx, "draw_battle")
    else:
        loser = actor if mine < theirs else target
        t.draw(loser, 1 + abs(mine - theirs), 0, fx, "draw_battle")


def _block_counter(t: Table, p: Pending, choice: str, fx: list[RawEffect]) -> None:
    """BLOCK answered by BLOCK: both cards go, both seats shed 1, this block is void."""
    seats = t.seats
    target, actor = p.seat, p.other
    fx.append(("respond", seats[target], seats[actor], 0, 0, choice, "counter"))
    if choice == "pass":
        place_block(t, target, fx)
        return
    t.spend_action(target)
    for j in sorted((actor, target)):
        t.shed(j, fx, "block_battle")
    fx.append(("block_void", seats[target]))


def _truth_or_dare(t: Table, p: Pending, choice: str, fx: list[RawEffect]) -> None:
    """Section 5: a refusal asks the actor for a penalty, or forfeits a dare where so set."""
    seats = t.seats
    target, actor = p.seat, p.other
    fx.append(("respond", seats[target], seats[actor], 0, 0, choice, p.decision))
    if choice != "refuse":
        return
    if p.decision == "dare" and t.rules.dare_refused == "forfeit":
        # The actor's side wins (in a team game: its first seat, section 11.9).
        t.end(t.team_of[actor], "dare_refused", fx, other=target)
    else:
        t.pending = pending("penalty", actor, target, p.decision)


def _penalty(t: Table, p: Pending, choice: str, fx: list[RawEffect]) -> None:
    """``actions``: the actor draws 2 action cards, the refuser 2 number cards; ``five``: the
    refuser draws 5 number cards."""
    seats = t.seats
    actor, target = p.seat, p.other
    fx.append(("penalty", seats[actor], seats[target], 0, 0, choice))
    if choice == "actions":
        t.draw(actor, 0, 2, fx, "penalty", actor)
        t.draw(target, 2, 0, fx, "penalty", actor)
    else:
        t.draw(target, 5, 0, fx, "penalty", actor)


def _bonus(t: Table, p: Pending, choice: str, fx: list[RawEffect]) -> None:
    """Section 3.6: 1 action card, or every opponent draws 2 number cards; streak back to 0."""
    i = p.seat
    t.streak[i] = 0
    fx.append(("bonus", t.seats[i], None, 0, 0, choice))
    if choice == "action_card":
        t.draw(i, 0, 1, fx, "bonus", i)
    elif t.multi:
        # Section 11.5: every opponent, in seat order, each its full 2; team-mates draw none.
        for j in t.opponents(i):
            t.draw(j, 2, 0, fx, "bonus", i)
    else:
        for j in t.order:
            if j != i:
                t.draw(j, 2, 0, fx, "bonus", i)


def _challenge(t: Table, p: Pending, choice: str, fx: list[RawEffect]) -> None:
    """Section 6: the challenger's +2/+4 makes the potential winner draw, or the win stands."""
    seats = t.seats
    c, w = p.seat, p.other
    if choice == "pass":
        fx.append(("respond", seats[c], seats[w], 0, 0, choice, "challenge"))
        if t.multi:
            _ask_challenger(t, w, c, fx)  # the next opponent, or the win stands
        else:
            t.end(w, "shed_all", fx)
    elif t.rules.challenge == "two_cards" and t.act[c] == 1:
        # Seed 000: a lone action card cannot challenge; the challenger draws 1 and keeps it.
        fx.append(("one_card_challenge", seats[c], seats[w], 0, 0, choice))
        t.draw(c, 1, 0, fx, "one_card_challenge")
        t.end(w, "shed_all", fx)
    else:
        fx.append(("respond", seats[c], seats[w], 0, 0, choice, "challenge"))
        t.spend_action(c)
        t.draw(w, DRAW_AMOUNT[choice], 0, fx, "challenge", c)


_RESOLVE: dict[str, Callable[[Table, Pending, str, list[RawEffect]], None]] = {
    "counter": _counter,
    "block_counter": _block_counter,
    "truth": _truth_or_dare,
    "dare": _truth_or_dare,
    "penalty": _penalty,
    "bonus": _bonus,
    "challenge": _challenge,
}
