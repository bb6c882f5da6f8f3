"""Bots for Trois, beside the rules: each sees its own hand, the top card and the hand sizes.

A bot returns a move; the rules check it like anyone's. ``random`` plays any legal move;
``heuristic`` lays the biggest combination it can and leaves on top the card whose colour
(or number) it holds most of afterwards, so that its next turn is likely to match again.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Protocol

from .cards import colour_of, number_of
from .rules import Legal
from .state import State


@dataclass(frozen=True)
class View:
    """What a seat may know: its hand, the top card and everyone's hand size."""

    seat: int
    hand: tuple[str, ...]
    top: str
    hand_sizes: tuple[int, ...]
    legal: Legal


def view_for(state: State, legal: Legal) -> View:
    seat = state.turn
    return View(
        seat, tuple(state.hands[seat]), state.top, tuple(len(h) for h in state.hands), legal
    )


class Bot(Protocol):
    def choose(self, view: View, rng: random.Random) -> dict[str, Any]: ...


class RandomBot:
    """Any legal move, each combination size and order as likely as the random source makes."""

    def choose(self, view: View, rng: random.Random) -> dict[str, Any]:
        legal = view.legal
        if legal.can_take:
            return {"kind": "take"}
        groups = [g for g in (legal.by_colour, legal.by_number) if g]
        group = list(rng.choice(groups))
        rng.shuffle(group)
        return {"kind": "play", "cards": group[: rng.randint(1, len(group))]}


class HeuristicBot:
    """The biggest combination, ending on the card that keeps the most of its hand playable."""

    def choose(self, view: View, rng: random.Random) -> dict[str, Any]:
        legal = view.legal
        if legal.can_take:
            return {"kind": "take"}
        group = max((g for g in (legal.by_colour, legal.by_number) if g), key=len)
        rest = [c for c in view.hand if c not in group]
        colours = Counter(colour_of(c) for c in rest)
        numbers = Counter(number_of(c) for c in rest)
        # The top card decides what matches next: the one sharing most with what is left.
        ordered = sorted(group, key=lambda c: (colours[colour_of(c)] + numbers[number_of(c)], c))
        return {"kind": "play", "cards": ordered}


BOTS: dict[str, type[RandomBot] | type[HeuristicBot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}
