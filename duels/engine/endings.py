"""The referee's endings (RULES.md section 6): forfeit, time limit, adjudication.

Legal at any point until the end, a pending decision included; the decision is dropped.
"""

from __future__ import annotations

from .effects import RawEffect
from .events import Event
from .state import Table


def forfeit(t: Table, ev: Event, fx: list[RawEffect]) -> None:
    """``seat`` concedes or does not show: the other seat wins."""
    i = t.setup.index[ev["seat"]]
    t.end(t.opponent(i), "forfeit", fx, other=i, reason=ev.get("reason"))


def time_limit(t: Table, ev: Event, fx: list[RawEffect]) -> None:
    """Fewest number cards wins; equal counts draw the duel."""
    fewest = min(t.num)
    leaders = [i for i, n in enumerate(t.num) if n == fewest]
    winner = leaders[0] if len(leaders) == 1 else -1
    t.end(winner, "time_limit", fx, reason=ev.get("reason"))


def adjudicate(t: Table, ev: Event, fx: list[RawEffect]) -> None:
    """The referee names the winner."""
    t.end(t.setup.index[ev["winner"]], "adjudicated", fx, reason=ev.get("reason"))
