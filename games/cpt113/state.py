"""The state of a CPT-113 game: plain data, copied before every move so a refusal changes
nothing.

Groups hold one hand each, shared by the group's two players (docs/games-cpt113.md, reading
1). The seats go round the table group by group — A1, B1, C1, A2, B2, C2 for three groups —
so seat ``s`` plays for group ``s % groups``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MIN_GROUPS, MAX_GROUPS = 2, 4
HAND_SIZE = 5
#: A group holding this many cards drops out at once (seed: "as soon it reaches 11 cards").
DROP_OUT = 11
LETTERS = "ABCD"


def default_names(groups: int) -> tuple[str, ...]:
    """A1, B1, …, A2, B2, …: a seat's group letter and its player number."""
    return tuple(f"{LETTERS[s % groups]}{s // groups + 1}" for s in range(2 * groups))


def group_name(group: int, capital: bool = False) -> str:
    """ "group B", or "Group B" to begin a sentence."""
    return f"{'Group' if capital else 'group'} {LETTERS[group]}"


@dataclass
class State:
    """``deck`` (the draw pile) and ``discard`` have their top card last. ``colour`` is the
    colour in play (a wild's named colour), ``number`` the number of the last number card.
    ``winners`` is empty while the game is on; ``ending`` is "emptied", "last_group" or
    "pile_empty"."""

    seed: int
    groups: int
    names: tuple[str, ...]
    hands: list[list[str]]
    deck: list[str]
    discard: list[str]
    colour: str
    number: int
    seat: int = 0
    direction: int = 1
    out: list[int] = field(default_factory=list)
    set_aside: list[list[str]] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    ending: str | None = None
    moves: int = 0

    @property
    def finished(self) -> bool:
        return self.ending is not None

    @property
    def group(self) -> int:
        """The group of the seat on turn."""
        return self.seat % self.groups

    @property
    def top(self) -> str:
        return self.discard[-1]

    def playing(self) -> list[int]:
        """The groups still in the game, in seat order."""
        return [g for g in range(self.groups) if g not in self.out]

    def copy(self) -> State:
        return State(
            self.seed,
            self.groups,
            self.names,
            [list(h) for h in self.hands],
            list(self.deck),
            list(self.discard),
            self.colour,
            self.number,
            self.seat,
            self.direction,
            list(self.out),
            [list(c) for c in self.set_aside],
            self.winners,
            self.ending,
            self.moves,
        )

    def as_dict(self) -> dict[str, Any]:
        """Everything, hidden cards included: what ``replay`` prints, never sent to a page
        during a game."""
        return {
            "seed": self.seed,
            "groups": self.groups,
            "names": list(self.names),
            "seat": None if self.finished else self.seat,
            "direction": "clockwise" if self.direction == 1 else "anticlockwise",
            "top": self.top,
            "colour": self.colour,
            "number": self.number,
            "hands": [list(h) for h in self.hands],
            "hand_sizes": [len(h) for h in self.hands],
            "deck": list(self.deck),
            "discard": list(self.discard),
            "out": list(self.out),
            "set_aside": [list(c) for c in self.set_aside],
            "moves": self.moves,
            "finished": self.finished,
            "ending": self.ending,
            "winners": list(self.winners),
        }
