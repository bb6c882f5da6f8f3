"""A practice game of CPT-113 as it was stored before issue 27: the seed, the number of groups
and the person's moves, the rest played again by ``replay`` (the person and a bot partner as
group A, heuristic bots elsewhere).

Kept only for the data migration (practice/migrations/0005), which replays every game stored
that way once with this code and stores its events in the table core; the pages play through
``play`` (practice/game_services.py). The adapter's tests compare against it too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.common.errors import GameError
from games.cpt113 import Game, HeuristicBot
from games.cpt113.bots import view_for
from games.cpt113.state import default_names

from .game import Entry, Refused

PERSON = 0
GROUP = 0
PARTNER = "Partner"


def seat_names(name: str, groups: int) -> tuple[str, ...]:
    """The person at A1, "Partner" at A2, the others by seat (B1, C2, …)."""
    names = list(default_names(groups))
    names[0], names[groups] = name, PARTNER
    return tuple(names)


class Cpt113Table:
    def __init__(self, seed: int, groups: int, name: str) -> None:
        if groups not in (2, 3, 4):
            raise Refused("Choose 2, 3 or 4 groups.")
        try:
            self.game = Game(seed, groups, seat_names(name, groups))
        except GameError:
            raise Refused("Choose 2, 3 or 4 groups.") from None
        self.bot = HeuristicBot()
        self.rng = random.Random(f"practice-cpt113:{seed}")
        self.log: list[Entry] = []
        self._bot_turns()

    @property
    def finished(self) -> bool:
        return self.game.finished

    @property
    def state(self):
        return self.game.state

    def my_turn(self) -> bool:
        return not self.finished and self.state.seat == PERSON

    def play(self, move: Mapping[str, Any]) -> None:
        if self.finished:
            raise Refused("This game is over: start a new one.")
        if not self.my_turn():
            raise Refused("It is not your turn.")
        self._apply(move, by_bot=False)
        self._bot_turns()

    def _apply(self, move: Mapping[str, Any], by_bot: bool) -> None:
        try:
            effects = self.game.apply(dict(move))
        except GameError as refused:
            text = str(refused)
            raise Refused(text[:1].upper() + text[1:].rstrip(".") + ".") from None
        self.log.append(
            Entry(len(self.game.moves), by_bot, tuple(e.seen_by(GROUP) for e in effects))
        )

    def _bot_turns(self) -> None:
        """Bots play every seat but the person's — the partner too — until the person is on
        turn or the game is over (also when group A has dropped out)."""
        while not self.finished and self.state.seat != PERSON:
            state = self.state
            self._apply(self.bot.choose(view_for(state, self.game.legal()), self.rng), True)


def replay(seed: int, groups: int, name: str, moves: Sequence[Mapping[str, Any]]) -> Cpt113Table:
    table = Cpt113Table(seed, groups, name)
    for move in moves:
        table.play(move)
    return table
