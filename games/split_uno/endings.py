"""The referee's endings (RULES.md section 6): forfeit, time limit, adjudication.

Legal at any point until the end, a pending decision included; the decision is dropped. With
more than two seats (section 11.7) a forfeit takes the seat's side out and play goes on until
one side is left, and a time limit compares the sides in play.
"""

from __future__ import annotations

from .decisions import lapse, settle
from .effects import RawEffect
from .errors import IllegalEvent
from .events import Event
from .state import Table


def forfeit(t: Table, ev: Event, fx: list[RawEffect]) -> None:
    """``seat`` concedes or does not show: the other seat wins (more seats: its side leaves)."""
    i = t.setup.index[ev["seat"]]
    if not t.multi:
        t.end(t.opponent(i), "forfeit", fx, other=i, reason=ev.get("reason"))
        return
    _in_play(t, i, "forfeit: seat")
    side = t.team_of[i]
    t.out = tuple(out or t.team_of[j] == side for j, out in enumerate(t.out))
    for j in t.order:
        if t.team_of[j] == side:
            fx.append(("leave", t.seats[j], None, 0, 0, ev.get("reason")))
    sides = t.sides()
    if len(sides) == 1:
        t.end(sides[0][0], "forfeit", fx, other=i, reason=ev.get("reason"))
        return
    lapse(t, fx)
    settle(t, fx)


def time_limit(t: Table, ev: Event, fx: list[RawEffect]) -> None:
    """Fewest number cards wins; equal counts draw the duel (more seats: per side in play)."""
    if t.multi:
        counts = [(sum(t.num[j] for j in side), side[0]) for side in t.sides()]
        fewest = min(count for count, _lead in counts)
        leaders = [lead for count, lead in counts if count == fewest]
    else:
        fewest = min(t.num)
        leaders = [i for i, n in enumerate(t.num) if n == fewest]
    winner = leaders[0] if len(leaders) == 1 else -1
    t.end(winner, "time_limit", fx, reason=ev.get("reason"))


def adjudicate(t: Table, ev: Event, fx: list[RawEffect]) -> None:
    """The referee names the winner (in a team game its team wins: its first seat)."""
    w = t.setup.index[ev["winner"]]
    if t.multi:
        _in_play(t, w, "adjudicate: winner")
        w = t.team_of[w]
    t.end(w, "adjudicated", fx, reason=ev.get("reason"))


def _in_play(t: Table, i: int, what: str) -> None:
    if t.out[i]:
        playing = ", ".join(t.seats[j] for j in t.order if not t.out[j])
        raise IllegalEvent(
            f"{what} {t.seats[i]} has left the game; name a seat in play ({playing})"
        )
