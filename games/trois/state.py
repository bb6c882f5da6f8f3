"""The state of a Trois game: plain data, copied before every move so a refusal changes nothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Player always starts (seed: "Player always start the game"), then the three bots in order.
SEATS = 4
NAMES = ("Player", "Bot 1", "Bot 2", "Bot 3")
HAND_SIZE = 8


@dataclass
class State:
    """``deck`` and ``pile`` have their top card last. ``winners`` is empty while the game
    is on; one seat is a win, several a tie (after the time limit). ``ending`` says how it
    ended: "emptied" (a hand ran out) or "time" (the time limit)."""

    seed: int
    names: tuple[str, ...]
    hands: list[list[str]]
    deck: list[str]
    pile: list[str]
    wild_pile: list[str] = field(default_factory=list)
    turn: int = 0
    winners: tuple[int, ...] = ()
    ending: str | None = None
    reshuffles: int = 0
    moves: int = 0

    @property
    def finished(self) -> bool:
        return self.ending is not None

    @property
    def top(self) -> str:
        return self.pile[-1]

    def copy(self) -> State:
        return State(
            self.seed,
            self.names,
            [list(h) for h in self.hands],
            list(self.deck),
            list(self.pile),
            list(self.wild_pile),
            self.turn,
            self.winners,
            self.ending,
            self.reshuffles,
            self.moves,
        )

    def as_dict(self) -> dict[str, Any]:
        """Everything, hidden cards included: what ``replay`` prints, never sent to a page
        during a game."""
        return {
            "seed": self.seed,
            "names": list(self.names),
            "turn": None if self.finished else self.turn,
            "top": self.top,
            "hands": [list(h) for h in self.hands],
            "hand_sizes": [len(h) for h in self.hands],
            "deck": list(self.deck),
            "pile": list(self.pile),
            "wild_pile": list(self.wild_pile),
            "moves": self.moves,
            "reshuffles": self.reshuffles,
            "finished": self.finished,
            "ending": self.ending,
            "winners": list(self.winners),
        }
