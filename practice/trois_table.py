"""A practice game of Trois: the person in Player's seat against three heuristic bots.

Like the Split UNO practice duel (practice/game.py), nothing is stored but the seed and the
person's accepted moves (and the dealer's ``time`` when the limit passed): ``replay`` plays the
game again, the bots' turns included, so the browser is trusted with nothing but its next move.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.common.errors import GameError
from games.common.words import Effect
from games.trois import Game, HeuristicBot
from games.trois.bots import view_for
from games.trois.cards import label, sort_key

from .game import Entry, Refused

PERSON = 0
BOT_NAMES = ("Bot 1", "Bot 2", "Bot 3")
#: The seed's time limit; the server stores the deadline (docs/games-trois.md, reading 5).
TIME_LIMIT_MINUTES = 25
MAX_CARDS_IN_A_MOVE = 72


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

    def hand(self) -> list[dict[str, Any]]:
        """The person's cards, colour by colour, each saying whether it may be laid now."""
        playable = set(self.game.legal().playable) if self.my_turn() else set()
        return [
            {"card": c, "label": label(c), "colour": c[0], "playable": c in playable}
            for c in sorted(self.state.hands[PERSON], key=sort_key)
        ]

    def can_take(self) -> bool:
        return self.my_turn() and self.game.legal().can_take

    def groups(self) -> list[list[str]]:
        """The combinations on offer: the matching colour and number groups of two or more."""
        if not self.my_turn():
            return []
        legal = self.game.legal()
        return [sorted(g, key=sort_key) for g in (legal.by_colour, legal.by_number) if len(g) > 1]

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


def parse_move(kind: str, cards: Sequence[str], top: str) -> dict[str, Any]:
    """A move from a submitted form, bounded: strings in, a move out (checked when played).
    ``top`` names the card to lay last, so that it ends on top."""
    if kind == "take":
        return {"kind": "take"}
    if kind != "play":
        raise Refused("Choose a card to play, or take a card.")
    chosen = [c[:3] for c in cards[:MAX_CARDS_IN_A_MOVE]]
    if len(cards) > MAX_CARDS_IN_A_MOVE or not chosen:
        raise Refused("Choose the cards to play.")
    if top:
        if top not in chosen:
            raise Refused("The card to end on top must be one of the cards you play.")
        chosen.remove(top)
        chosen.append(top)
    return {"kind": "play", "cards": chosen}
