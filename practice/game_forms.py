"""The move forms of Trois and CPT-113 (practice/game_views.py): strings in, a move out,
bounded before anything is asked of the game (the adapter and the rules check the rest)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext

from games.cpt113 import COLOURS

from .game import Refused

MAX_CARDS_IN_A_MOVE = 72


def parse_trois(kind: str, cards: Sequence[str], top: str) -> dict[str, Any]:
    """A move from a submitted form, bounded: strings in, a move out (checked when played).
    ``top`` names the card to lay last, so that it ends on top."""
    if kind == "take":
        return {"kind": "take"}
    if kind != "play":
        raise Refused(gettext("Choose a card to play, or take a card."))
    chosen = [c[:3] for c in cards[:MAX_CARDS_IN_A_MOVE]]
    if len(cards) > MAX_CARDS_IN_A_MOVE or not chosen:
        raise Refused(gettext("Choose the cards to play."))
    if top:
        if top not in chosen:
            raise Refused(gettext("The card to end on top must be one of the cards you play."))
        chosen.remove(top)
        chosen.append(top)
    return {"kind": "play", "cards": chosen}


def parse_cpt113(kind: str, card: str, colour: str) -> dict[str, Any]:
    """A move from a submitted form, bounded: strings in, a move out (checked when played)."""
    if kind == "draw":
        return {"kind": "draw"}
    if kind != "play" or not card:
        raise Refused(gettext("Choose a card to play, or draw."))
    move: dict[str, Any] = {"kind": "play", "card": card[:2]}
    if colour:
        if colour not in COLOURS:
            raise Refused(gettext("Name red, yellow, green or blue."))
        move["colour"] = colour
    return move
