"""Bots for CPT-113, beside the rules: each sees its group's hand, the discard pile's top, the
colour and number in play, and the groups' hand sizes.

``random`` plays any legal card (a random colour for a wild); ``heuristic`` sheds its most
valuable matching card first — points count against it if the pile runs out — keeps wilds
for when nothing else matches, and names the colour it holds most of.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Protocol

from .cards import COLOURS, colour_of, is_wild, points
from .rules import Legal
from .state import State


@dataclass(frozen=True)
class View:
    seat: int
    group: int
    hand: tuple[str, ...]
    top: str
    colour: str
    number: int
    hand_sizes: tuple[int, ...]
    legal: Legal


def view_for(state: State, legal: Legal) -> View:
    return View(
        state.seat,
        state.group,
        tuple(state.hands[state.group]),
        state.top,
        state.colour,
        state.number,
        tuple(len(h) for h in state.hands),
        legal,
    )


class Bot(Protocol):
    def choose(self, view: View, rng: random.Random) -> dict[str, Any]: ...


def _play(card: str, colour: str | None) -> dict[str, Any]:
    move: dict[str, Any] = {"kind": "play", "card": card}
    if is_wild(card):
        move["colour"] = colour
    return move


class RandomBot:
    def choose(self, view: View, rng: random.Random) -> dict[str, Any]:
        if view.legal.can_draw:
            return {"kind": "draw"}
        return _play(rng.choice(view.legal.playable), rng.choice(list(COLOURS)))


class HeuristicBot:
    def choose(self, view: View, rng: random.Random) -> dict[str, Any]:
        legal = view.legal
        if legal.can_draw:
            return {"kind": "draw"}
        plain = [c for c in legal.playable if not is_wild(c)]
        card = max(plain, key=lambda c: (points(c), c)) if plain else max(legal.playable)
        rest = list(view.hand)
        rest.remove(card)
        held = Counter(colour_of(c) for c in rest if not is_wild(c))
        colour = held.most_common(1)[0][0] if held else rng.choice(list(COLOURS))
        return _play(card, colour)


BOTS: dict[str, type[RandomBot] | type[HeuristicBot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}
