"""What the old replays of Trois and CPT-113 (practice/trois_table.py, practice/cpt113_table.py)
share: a game stored before issue 27 as its seed and the person's moves, played again with the
bots' turns drawn from one random stream, the log as the person saw it. Kept only for the data
migration 0005 and the adapters' tests; the pages play through ``play``."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from games.common.errors import GameError

from .game import Entry, Refused

#: The person's seat (and, in CPT-113, their group): the first.
PERSON = 0


class ReplayedTable:
    """One game set out again: ``game`` the engine's, ``bot`` playing every seat but the
    person's from ``random.Random(stream)``, ``view_for`` the bot's view of a state. A
    subclass says who is on turn (``on_turn``) and which moves any turn takes (``any_turn``:
    Trois's dealer's ``time``)."""

    any_turn: tuple[str, ...] = ()

    def __init__(self, game: Any, bot: Any, view_for: Callable[..., Any], stream: str) -> None:
        self.game = game
        self.bot = bot
        self._view_for = view_for
        self.rng = random.Random(stream)
        self.log: list[Entry] = []
        self._bot_turns()

    @property
    def finished(self) -> bool:
        return self.game.finished

    @property
    def state(self) -> Any:
        return self.game.state

    def on_turn(self) -> int:
        raise NotImplementedError

    def my_turn(self) -> bool:
        return not self.finished and self.on_turn() == PERSON

    def play(self, move: Mapping[str, Any]) -> None:
        """The person's move (or one ``any_turn`` takes), then the bots until the person's
        turn; Refused changes nothing."""
        if self.finished:
            raise Refused("This game is over: start a new one.")
        if move.get("kind") not in self.any_turn and not self.my_turn():
            raise Refused("It is not your turn.")
        self._apply(move, by_bot=False)
        self._bot_turns()

    def _apply(self, move: Mapping[str, Any], by_bot: bool) -> None:
        try:
            effects = self.game.apply(dict(move))
        except GameError as refused:
            raise Refused(_sentence(str(refused))) from None
        seen = tuple(e.seen_by(PERSON) for e in effects)
        self.log.append(Entry(len(self.game.moves), by_bot, seen))

    def _bot_turns(self) -> None:
        """Bots play every seat but the person's — CPT-113's partner too — until the person
        is on turn or the game is over (also when CPT-113's group A has dropped out)."""
        while not self.finished and self.on_turn() != PERSON:
            view = self._view_for(self.state, self.game.legal())
            self._apply(self.bot.choose(view, self.rng), True)


def _sentence(text: str) -> str:
    """The engine's refusal as a sentence: a capital first, one full stop last."""
    return text[:1].upper() + text[1:].rstrip(".") + "."
