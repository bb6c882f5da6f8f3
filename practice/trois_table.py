"""A practice game of Trois as it was stored before issue 27: the seed and the person's
accepted moves (and the dealer's ``time``), the bots' turns played again by ``replay`` from one
random stream (practice/replayed_table.py).

Kept only for the data migration (practice/migrations/0005), which replays every game stored
that way once with this code and stores its events in the table core; the pages play through
``play`` (practice/game_services.py). The adapter's tests compare against it too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.trois import Game, HeuristicBot
from games.trois.bots import view_for

from .replayed_table import ReplayedTable

BOT_NAMES = ("Bot 1", "Bot 2", "Bot 3")


class TroisTable(ReplayedTable):
    #: The dealer calls time whoever's turn it is.
    any_turn = ("time",)

    def __init__(self, seed: int, name: str) -> None:
        game = Game(seed, (name, *BOT_NAMES))
        super().__init__(game, HeuristicBot(), view_for, f"practice-trois:{seed}")

    def on_turn(self) -> int:
        return self.state.turn


def replay(seed: int, name: str, moves: Sequence[Mapping[str, Any]]) -> TroisTable:
    table = TroisTable(seed, name)
    for move in moves:
        table.play(move)
    return table
