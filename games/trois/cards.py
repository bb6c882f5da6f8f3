"""Trois's cards (seed 003, "All game cards"): seven colours of 0–9, and the two wildcards."""

from __future__ import annotations

#: The seven colours in the seed's order, by the letter the cards carry.
COLOURS = {
    "B": "blue",
    "G": "green",
    "Y": "yellow",
    "P": "purple",
    "O": "orange",
    "R": "red",
    "M": "magenta",
}
#: The wildcards: how many extra cards each makes its taker take. The seed lists one of each,
#: as it lists each numbered card once (docs/games-trois.md, reading 1).
WILDCARDS = {"+2": 2, "+4": 4}
NUMBERED = tuple(f"{colour}{number}" for colour in COLOURS for number in range(10))
#: The whole deck, 72 cards, every card once.
DECK = NUMBERED + tuple(WILDCARDS)


def is_wild(card: str) -> bool:
    return card in WILDCARDS


def colour_of(card: str) -> str:
    return card[0]


def number_of(card: str) -> int:
    return int(card[1])


def label(card: str) -> str:
    """``B7`` reads "blue 7"; a wildcard reads "the +2 wildcard"."""
    if is_wild(card):
        return f"the {card} wildcard"
    return f"{COLOURS[card[0]]} {card[1]}"


def sort_key(card: str) -> tuple[int, int]:
    """Hands show colour by colour in the seed's order, then by number."""
    return (list(COLOURS).index(card[0]), int(card[1]))
