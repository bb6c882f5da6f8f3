"""A practice game of Trois as it was stored before issue 27: the seed and the person's
accepted moves (and the dealer's ``time``), the bots' turns played again by ``replay`` from one
random stream.

Kept only for the data migration (practice/migrations/0005), which replays every game stored
that way once with this code and stores its events in the table core; the pages play through
``play`` (practice/game_services.py). The adapter's tests compare against it too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.common.errors import GameError
from games.common.words import Effect
from games.trois import Game, HeuristicBot
from games.trois.bots import view_for

from .game import Entry, Refused

PERSON = 0
BOT_NAMES = ("Bot 1", "Bot 2", "Bot 3")


class TroisTable:
    def __init__(self, seed: int, name: str) -> None:
        self.game = Game(seed, (name, *BOT_NAMES))
        self.bot = HeuristicBot()
        self.rng = random.Random(f"practice-trois:{seed}")
        self.log: list[Entry] = []
        self._bot_turns()

    @property
    def finished(self) -> bool:
        return self.game.finished

    @property
    def state(self):
        return self.game.state

    def my_turn(self) -> bool:
        return not self.finished and self.state.turn == PERSON

    def play(self, move: Mapping[str, Any]) -> None:
        """The person's move (or the dealer's ``time``), then the bots until the person's turn;
        Refused changes nothing."""
        if self.finished:
            raise Refused("This game is over: start a new one.")
        if move.get("kind") != "time" and not self.my_turn():
            raise Refused("It is not your turn.")
        self._apply(move, by_bot=False)
        self._bot_turns()

    def _apply(self, move: Mapping[str, Any], by_bot: bool) -> None:
        try:
            effects = self.game.apply(dict(move))
        except GameError as refused:
            raise Refused(_sentence(str(refused))) from None
        self.log.append(Entry(len(self.game.moves), by_bot, _seen(effects)))

    def _bot_turns(self) -> None:
        while not self.finished and self.state.turn != PERSON:
            state = self.state
            self._apply(self.bot.choose(view_for(state, self.game.legal()), self.rng), True)


def _seen(effects: Sequence[Effect]) -> tuple[str, ...]:
    return tuple(e.seen_by(PERSON) for e in effects)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def replay(seed: int, name: str, moves: Sequence[Mapping[str, Any]]) -> TroisTable:
    table = TroisTable(seed, name)
    for move in moves:
        table.play(move)
    return table
