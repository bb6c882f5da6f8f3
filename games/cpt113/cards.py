"""CPT-113's 40 cards (seed 004): 20 number cards, four each of skip, reverse, draw two,
wild and wild draw four; and what each is worth when the draw pile runs out."""

from __future__ import annotations

COLOURS = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
#: Which numbers each colour carries: every colour five, every number 0–9 in two colours
#: (docs/games-cpt113.md, reading 2).
NUMBERS = {"R": range(0, 5), "B": range(0, 5), "Y": range(5, 10), "G": range(5, 10)}
ACTIONS = {"S": "skip", "R": "reverse", "D": "draw two"}
WILD, WILD_FOUR = "W", "W4"

NUMBER_CARDS = tuple(f"{c}{n}" for c in COLOURS for n in NUMBERS[c])
ACTION_CARDS = tuple(f"{c}{a}" for c in COLOURS for a in ACTIONS)
#: The deck: each card name once, the wilds four times over (40 cards).
DECK = NUMBER_CARDS + ACTION_CARDS + (WILD,) * 4 + (WILD_FOUR,) * 4
KNOWN = frozenset(DECK)


def is_wild(card: str) -> bool:
    return card in (WILD, WILD_FOUR)


def is_number(card: str) -> bool:
    return not is_wild(card) and card[1].isdigit()


def colour_of(card: str) -> str | None:
    return None if is_wild(card) else card[0]


def action_of(card: str) -> str | None:
    """ "S", "R", "D" for the coloured action cards, the card itself for a wild, None for a
    number card."""
    if is_wild(card):
        return card
    return None if card[1].isdigit() else card[1]


def points(card: str) -> int:
    """Face value for a number card, 20 for skip, reverse and draw two, 50 for the wilds."""
    if is_wild(card):
        return 50
    return int(card[1]) if card[1].isdigit() else 20


def label(card: str) -> str:
    """``R3`` reads "red 3", ``BS`` "blue skip", ``W4`` "wild draw four"."""
    if card == WILD:
        return "wild"
    if card == WILD_FOUR:
        return "wild draw four"
    colour = COLOURS[card[0]]
    return f"{colour} {card[1]}" if card[1].isdigit() else f"{colour} {ACTIONS[card[1]]}"


def sort_key(card: str) -> tuple[int, int, str]:
    if is_wild(card):
        return (len(COLOURS), 0, card)
    return (list(COLOURS).index(card[0]), 0 if card[1].isdigit() else 1, card[1])
