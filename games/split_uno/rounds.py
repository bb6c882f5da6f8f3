"""A number round (RULES.md section 3): reveal, 0 and 7 effects, compare, ties, blocked rounds.

The streak bonus the round may earn is raised afterwards by ``decisions.settle`` (section 3.6
and the order of section 7).
"""

from __future__ import annotations

from collections.abc import Sequence

from .effects import RawEffect
from .errors import IllegalEvent
from .events import Event
from .state import Table
from .talk import waiting_for


def play_round(t: Table, ev: Event, fx: list[RawEffect]) -> None:
    """Check that a round may be played with these cards, then play it (section 3)."""
    if t.pending is not None:
        raise IllegalEvent(f"a round cannot be played now: {waiting_for(t)}")
    if t.multi:
        _round_of_many(t, ev, fx)
        return
    seats = t.seats
    blocked = t.blocked
    cards: dict[str, int] = ev["cards"]
    if not blocked[0] and not blocked[1]:
        # The usual round of a two-seat duel, both seats reveal (most events of a duel).
        _round_of_two(t, cards, fx)
        return
    values: Sequence[int]
    free: Sequence[int]
    order = t.order
    # -1 stands for "revealed nothing"; the event's seats were checked when it was read.
    values = [cards.get(s, -1) for s in seats]
    # Exactly the seats that are not blocked reveal a card.
    free = [i for i in order if not blocked[i]]
    if [i for i in order if values[i] >= 0] != free:
        raise IllegalEvent(_which_seats(t))
    t.rounds += 1
    if not free:
        _all_blocked(t, fx)
        return
    for i in free:
        fx.append(("reveal", seats[i], None, 0, 0, values[i]))
    if len(free) < len(seats):
        for i in order:
            if blocked[i]:
                fx.append(("blocked_out", seats[i], None, 0, 0, None, t.rules.blocked_seat))
    if 0 in values or 7 in values:
        _zeros_then_sevens(t, free, values, fx)
    if len(free) == 1:
        _blocked_round(t, free[0], fx)
    else:
        _compare(t, free, values, fx)


def _round_of_two(t: Table, cards: dict[str, int], fx: list[RawEffect]) -> None:
    """Sections 3.1–3.4 for two seats that both reveal: the steps of the general code below
    on two named values, without its lists and loops (compiled, a list or a sequence read
    item by item costs several times a plain whole number)."""
    a_seat, b_seat = t.seats
    a: int = cards.get(a_seat, -1)
    b: int = cards.get(b_seat, -1)
    if a < 0 or b < 0:
        raise IllegalEvent(_which_seats(t))
    t.rounds += 1
    # The shared reveal effects (``Table.reveals``): the event was read, so 0 <= a, b <= 9.
    reveals = t.reveals
    fx.append(reveals[0][a])
    fx.append(reveals[1][b])
    # Section 3.2: every 0, then every 7, in seat order. Both revealed, so a 0 never takes
    # the card on the table: it needs the opponent to hold two.
    if a == 0:
        _steal_of_two(t, 0, 1, fx)
    if b == 0:
        _steal_of_two(t, 1, 0, fx)
    if a == 7:
        t.draw(1, 2, 1, fx, "seven", 0)
    if b == 7:
        t.draw(0, 2, 1, fx, "seven", 1)
    streak = t.streak
    if a != b:
        w, loser, high = (0, 1, a) if a > b else (1, 0, b)
        t.shed(w, fx, "round_won")
        streak[w] = streak[w] + 1  # compiled, ``+=`` on an item is a generic add
        fx.append(("win_round", t.seats[w], None, streak[w], 0, high))
        _lose(t, loser, fx)
    else:
        # A tie: shed before draw, seat by seat in seat order (a short deck serves A first).
        fx.append(("tie", None, None, 0, 0, a))
        t.shed(0, fx, "tie")
        t.draw(0, 1, 0, fx, "tie")
        streak[0] = 0
        t.shed(1, fx, "tie")
        t.draw(1, 1, 0, fx, "tie")
        streak[1] = 0


def _steal_of_two(t: Table, i: int, j: int, fx: list[RawEffect]) -> None:
    """``_steal`` when both seats revealed: ``j``'s revealed card stays on the table."""
    num = t.num
    if num[j] > 1:
        num[j] = num[j] - 1
        num[i] = num[i] + 1
        fx.append(("steal", t.seats[i], t.seats[j], 1))
    else:
        fx.append(("steal", t.seats[i], t.seats[j], 0, 0, None, "revealed"))


def _which_seats(t: Table) -> str:
    seats = t.seats
    blocked = [s for i, s in enumerate(seats) if t.blocked[i]]
    free = [s for i, s in enumerate(seats) if not t.blocked[i]]
    if not free:
        return (
            'every seat is blocked: the round is played with no cards ("cards": {}), '
            "which lifts every block"
        )
    need = ", ".join(free)
    text = f"a round needs exactly one card 0–9 from each seat that is not blocked ({need})"
    if blocked:
        text += f"; {', '.join(blocked)} is blocked and must be left out"
    return text


def _all_blocked(t: Table, fx: list[RawEffect]) -> None:
    """Section 3.5: nothing happens but that every block is lifted."""
    fx.append(("all_blocked",))
    for i, seat in enumerate(t.seats):
        t.blocked[i] = False
        fx.append(("unblock", seat))


def _zeros_then_sevens(
    t: Table, free: Sequence[int], values: Sequence[int], fx: list[RawEffect]
) -> None:
    """Section 3.2: every 0, then every 7, each in the seat order of the seat revealing it."""
    for i in free:
        if values[i] == 0:
            _steal(t, i, t.opponent(i), values, fx)
    for i in free:
        if values[i] == 7:
            t.draw(t.opponent(i), 2, 1, fx, "seven", i)


def _blocked_round(t: Table, w: int, fx: list[RawEffect]) -> None:
    """Section 3.5: the one free seat wins alone; blocked seats draw or sit out."""
    seats = t.seats
    t.shed(w, fx, "round_won")
    t.streak[w] += 1
    fx.append(("win_round", seats[w], None, t.streak[w], 0, None, "alone"))
    draws = t.rules.blocked_seat == "draws"
    for i in range(len(seats)):
        if t.blocked[i]:
            if draws:
                # A blocked seat revealed nothing, so the paper loser rule has nothing to
                # discard: it only draws.
                t.draw(i, 1, 0, fx, "blocked_round", w)
                t.streak[i] = 0
                fx.append(("lose_round", seats[i]))
            t.blocked[i] = False
            fx.append(("unblock", seats[i]))


def _compare(t: Table, free: Sequence[int], values: Sequence[int], fx: list[RawEffect]) -> None:
    """Sections 3.3 and 3.4: the single highest card wins; a tie for highest sheds and draws."""
    seats = t.seats
    streak = t.streak
    if len(free) == 2:
        i, j = free
        if values[i] != values[j]:
            # Two cards, one higher: the usual round, without the loops below.
            w, loser = (i, j) if values[i] > values[j] else (j, i)
            t.shed(w, fx, "round_won")
            streak[w] += 1
            fx.append(("win_round", seats[w], None, streak[w], 0, values[w]))
            _lose(t, loser, fx)
            return
    # The highest card, by hand: the built-in max costs several times more on short lists.
    high = -1
    for v in values:
        if v > high:
            high = v
    if values.count(high) == 1:
        w = values.index(high)
        t.shed(w, fx, "round_won")
        streak[w] += 1
        fx.append(("win_round", seats[w], None, streak[w], 0, high))
    else:
        fx.append(("tie", None, None, 0, 0, high))
        # Shed before draw, and seats served in seat order when the deck runs short.
        for i in free:
            if values[i] == high:
                t.shed(i, fx, "tie")
                t.draw(i, 1, 0, fx, "tie")
                streak[i] = 0
    for i in free:
        if values[i] != high:
            _lose(t, i, fx)


def _lose(t: Table, i: int, fx: list[RawEffect]) -> None:
    """Seat ``i`` lost the round: under ``loser_discards_revealed`` its card goes to the
    discard pile; it draws 1 and its streak goes back to 0."""
    if t.rules.loser_discards_revealed:
        num = t.num
        num[i] = num[i] - 1
        t.disc_n += 1
        fx.append(("shed", t.seats[i], None, 1, 0, None, "revealed_discarded"))
    t.draw(i, 1, 0, fx, "round_lost")
    t.streak[i] = 0
    fx.append(t.losses[i])


# -- more than two seats (section 11.3) -------------------------------------------------------


def revealing_seats(t: Table) -> list[int]:
    """Section 11.3.1: the seats in play, not blocked, holding at least one number card."""
    out, blocked, num = t.out, t.blocked, t.num
    return [i for i in t.order if not out[i] and not blocked[i] and num[i] > 0]


def _round_of_many(t: Table, ev: Event, fx: list[RawEffect]) -> None:
    """A round with more than two seats: the steps of section 3 as section 11.3 reads them."""
    seats = t.seats
    cards: dict[str, int] = ev["cards"]
    values = [cards.get(s, -1) for s in seats]
    free = revealing_seats(t)
    if [i for i in t.order if values[i] >= 0] != free:
        raise IllegalEvent(_which_of_many(t, free))
    targets: dict[str, str] = ev.get("targets", {})
    for seat, target in targets.items():
        j = t.setup.index[target]
        if t.out[j]:
            raise IllegalEvent(
                f"round: {seat}'s target {target} has left the game; name an opponent in play "
                f"({', '.join(seats[k] for k in t.opponents(t.setup.index[seat]))})"
            )
    t.rounds += 1
    for i in free:
        fx.append(("reveal", seats[i], None, 0, 0, values[i]))
    draws = t.rules.blocked_seat == "draws"
    for i in t.order:
        if t.blocked[i] and not t.out[i]:
            fx.append(("blocked_out", seats[i], None, 0, 0, None, t.rules.blocked_seat))
    if not free:
        # Section 11.3.5: nobody reveals, nothing happens but that blocks are lifted.
        if all(t.blocked[i] for i in t.order if not t.out[i]):
            fx.append(("all_blocked",))
        _lift_blocks(t, fx)
        return
    index = t.setup.index
    for value in (0, 7):
        for i in free:
            if values[i] == value:
                j = index[targets[seats[i]]]
                if value == 0:
                    _steal(t, i, j, values, fx)
                else:
                    t.draw(j, 2, 1, fx, "seven", i)
    high = max(values)
    top = [i for i in free if values[i] == high]
    winner = top[0] if len(top) == 1 else -1
    if winner >= 0:
        t.shed(winner, fx, "round_won")
        t.streak[winner] += 1
        alone = "alone" if len(free) == 1 else None
        fx.append(("win_round", seats[winner], None, t.streak[winner], 0, high, alone))
    else:
        fx.append(("tie", None, None, 0, 0, high))
        for i in top:
            t.shed(i, fx, "tie")
    # Section 11.3.6: the round's draws are one step, served in seat order from A.
    for i in t.order:
        if t.out[i]:
            continue
        if values[i] >= 0:
            if i == winner:
                continue
            if values[i] == high:
                t.draw(i, 1, 0, fx, "tie")
                t.streak[i] = 0
            else:
                _lose(t, i, fx)
        elif t.blocked[i] and draws:
            # Revealed nothing: the paper loser rule has nothing to discard.
            t.draw(i, 1, 0, fx, "blocked_round", winner)
            t.streak[i] = 0
            fx.append(("lose_round", seats[i]))
    _lift_blocks(t, fx)


def _steal(t: Table, i: int, j: int, values: Sequence[int], fx: list[RawEffect]) -> None:
    """Seat ``i``'s 0 takes a number card from ``j`` unless only its revealed card is left."""
    # A revealed card lies on the table (seed 002 §7): it is never stolen.
    keep = 1 if values[j] >= 0 else 0
    seats = t.seats
    if t.num[j] > keep:
        t.num[j] -= 1
        t.num[i] += 1
        fx.append(("steal", seats[i], seats[j], 1))
    else:
        fx.append(("steal", seats[i], seats[j], 0, 0, None, "revealed" if keep else "empty"))


def _lift_blocks(t: Table, fx: list[RawEffect]) -> None:
    """After a round the block of every seat in play is lifted (a departed seat keeps its)."""
    for i in t.order:
        if t.blocked[i] and not t.out[i]:
            t.blocked[i] = False
            fx.append(("unblock", t.seats[i]))


def _which_of_many(t: Table, free: list[int]) -> str:
    seats = t.seats
    if not free:
        return (
            "no seat in play can reveal a card (blocked, or at 0 in a team game): the round is "
            'played with no cards ("cards": {}), which lifts the blocks'
        )
    text = (
        "a round needs exactly one card 0–9 from each seat in play that is not blocked and "
        f"holds a number card ({', '.join(seats[i] for i in free)})"
    )
    left = [seats[i] for i in t.order if i not in free]
    if left:
        text += f"; {', '.join(left)} must be left out (blocked, out of the game or at 0)"
    return text
