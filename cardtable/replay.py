"""The whole deal after the end (ONLINE.md 5: "every seat (and the organiser) sees the whole
deal in the replay"): a finished dealt game stepped through event by event, every seat's hand
beside the table at each step and every seat's private facts in the log. The table core gives
the data only for a finished game (``play.selectors.whole_deal``); the product decides who may
ask (an online table's seats; an online tournament duel's players and organisers). Drawn the
same for both products; links work without JavaScript and htmx swaps only the stepper's part.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from games.split_uno.constants import CARD_LABELS
from play.selectors import WholeDeal

from . import words
from .table_view import Tile, table_of


@dataclass(frozen=True)
class SeatDeal:
    """One seat at a step of the replay: its tile (counts, face-up cards) and its hand."""

    tile: Tile
    numbers: tuple[str, ...]
    actions: tuple[str, ...]
    sealed: str


@dataclass(frozen=True)
class Move:
    """One event of the game: its number (the step it leads to), the public words, and what
    each seat alone saw of it then."""

    seq: int
    lines: tuple[str, ...]
    private: tuple[str, ...]


def label(card: int | str) -> str:
    """A card as printed on it (card names stay English: docs/translating.md)."""
    return str(card) if isinstance(card, int) else CARD_LABELS.get(card, card)


def _cards(cards: list[Any]) -> str:
    return ", ".join(label(c) for c in cards) or words.deal_nothing()


def private_lines(facts: Mapping[str, Any], seat: str, names: Mapping[str, str]) -> list[str]:
    """One seat's private facts of an event, said of that seat by name. A card taken is said
    once, by the seat that took it (the other seat's ``lost`` is the same card)."""
    name = names.get(seat, seat)
    lines = []
    if facts.get("numbers") or facts.get("actions"):
        dealt = [*sorted(facts.get("numbers", ())), *facts.get("actions", ())]
        lines.append(words.deal_dealt(name, _cards(dealt)))
    if facts.get("drew"):
        lines.append(words.deal_drew(name, _cards(facts["drew"])))
    if facts.get("sealed") is not None:
        lines.append(words.deal_sealed(name, label(facts["sealed"])))
    for other, card in facts.get("stole", ()):
        lines.append(words.deal_took(name, label(card), names.get(other, other)))
    if facts.get("hand"):
        hand = facts["hand"]
        lines.append(words.deal_hand(name, _cards([*hand["numbers"], *hand["actions"]])))
    return lines


def moves_of(log: list[dict[str, Any]], names: Mapping[str, str]) -> list[Move]:
    """Every event of the whole game's log (its owner's view after the end), numbered from 1."""
    return [
        Move(
            seq=n,
            lines=tuple(entry.get("lines", ())),
            private=tuple(
                line
                for seat, facts in sorted((entry.get("private") or {}).items())
                for line in private_lines(facts, seat, names)
            ),
        )
        for n, entry in enumerate(log, start=1)
    ]


def seats_of(
    deal: WholeDeal, names: Mapping[str, str], team_of: Mapping[str, tuple[str, ...]]
) -> list[SeatDeal]:
    """Each seat at the replay's step: the public tile (nobody's seat: no "You") and the hand."""
    labels = {letter: names.get(letter, letter) for letter in deal.view["state"]["seats"]}
    table = table_of(deal.view, labels, labels, team_of, (), "")
    hands = deal.deal["hands"]
    sealed = deal.deal.get("sealed", {})
    return [
        SeatDeal(
            tile=tile,
            numbers=tuple(label(c) for c in hands[tile.letter]["numbers"]),
            actions=tuple(label(c) for c in hands[tile.letter]["actions"]),
            sealed=label(sealed[tile.letter]) if tile.letter in sealed else "",
        )
        for tile in table.tiles
    ]


def replay_page(
    request: HttpRequest,
    deal: WholeDeal,
    *,
    names: dict[str, str],
    team_of: Mapping[str, tuple[str, ...]],
    context: dict[str, Any],
) -> HttpResponse:
    """The replay page at ``deal``'s step; ``context`` the product's keys (``title``,
    ``home_url``, ``home_label``, ``back_url``). An htmx request gets the stepper's part only."""
    moves = moves_of(deal.log, names)
    context = {
        **context,
        "deal": deal,
        "seats": seats_of(deal, names, team_of),
        "moves": moves,
        "now": moves[deal.step - 1] if moves else None,
        "previous": deal.step - 1 if deal.step > 1 else None,
        "next": deal.step + 1 if deal.step < deal.total else None,
        "decks": deal.deal.get("decks_left", {}),
    }
    template = "cardtable/replay.html" + ("#replay" if request.htmx else "")
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response
