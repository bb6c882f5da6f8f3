"""A practice game of CPT-113 as it was stored before issue 27: the seed, the number of groups
and the person's moves, the rest played again by ``replay`` (the person and a bot partner as
group A, heuristic bots elsewhere; practice/replayed_table.py).

Kept only for the data migration (practice/migrations/0005), which replays every game stored
that way once with this code and stores its events in the table core; the pages play through
``play`` (practice/game_services.py). The adapter's tests compare against it too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.common.errors import GameError
from games.cpt113 import Game, HeuristicBot
from games.cpt113.bots import view_for
from games.cpt113.state import default_names

from .game import Refused
from .replayed_table import ReplayedTable

PARTNER = "Partner"


def seat_names(name: str, groups: int) -> tuple[str, ...]:
    """The person at A1, "Partner" at A2, the others by seat (B1, C2, …)."""
    names = list(default_names(groups))
    names[0], names[groups] = name, PARTNER
    return tuple(names)


class Cpt113Table(ReplayedTable):
    def __init__(self, seed: int, groups: int, name: str) -> None:
        if groups not in (2, 3, 4):
            raise Refused("Choose 2, 3 or 4 groups.")
        try:
            game = Game(seed, groups, seat_names(name, groups))
        except GameError:
            raise Refused("Choose 2, 3 or 4 groups.") from None
        super().__init__(game, HeuristicBot(), view_for, f"practice-cpt113:{seed}")

    def on_turn(self) -> int:
        return self.state.seat


def replay(seed: int, groups: int, name: str, moves: Sequence[Mapping[str, Any]]) -> Cpt113Table:
    table = Cpt113Table(seed, groups, name)
    for move in moves:
        table.play(move)
    return table
