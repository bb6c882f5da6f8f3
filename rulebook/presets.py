"""The four rule sets side by side, in players' words, read from the engine's own switches
(games.split_uno.PRESETS): a preset that changes changes the table with it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, pgettext

from duels.words import ruleset_label
from games.split_uno import PRESETS


def _yes_no(value: object) -> str:
    return pgettext("rule set table", "yes") if value else pgettext("rule set table", "no")


def _players(value: object) -> str:
    if value == 2:
        return "2"
    # Translators: how many players a rule set allows, e.g. "2 to 6".
    return gettext("2 to %(most)s") % {"most": value}


def _count(value: object) -> str:
    return str(value)


def _worded(words: dict[object, Promise]) -> Callable[[object], str]:
    def say(value: object) -> str:
        return str(words[value]) if value in words else str(value)

    return say


@dataclass(frozen=True)
class Row:
    switch: str
    label: Promise
    say: Callable[[object], str]
    #: Only read where TRUTH and DARE are played; elsewhere the cell says they are not.
    truth_dare_only: bool = False


NOT_PLAYED = gettext_lazy("not played")

ROWS: tuple[Row, ...] = (
    Row("max_seats", gettext_lazy("Players"), _players),
    Row("starting_number_cards", gettext_lazy("Number cards each at the start"), _count),
    Row("action_pool", gettext_lazy("Action cards in the deck"), _count),
    Row(
        "truth_dare",
        gettext_lazy("TRUTH and DARE"),
        _worded({True: gettext_lazy("played"), False: NOT_PLAYED}),
    ),
    Row(
        "loser_discards_revealed",
        gettext_lazy("Losing a round"),
        _worded(
            {
                False: gettext_lazy("keep your card, draw 1"),
                True: gettext_lazy("discard your card, draw 1"),
            }
        ),
    ),
    Row(
        "blocked_seat",
        gettext_lazy("When you are blocked"),
        _worded(
            {
                "draws": gettext_lazy("you lose the round and draw 1"),
                "sits_out": gettext_lazy("you sit the round out, no draw"),
            }
        ),
    ),
    Row("block_counter", gettext_lazy("Answer a BLOCK with a BLOCK"), _yes_no),
    Row(
        "reverse_discard",
        gettext_lazy("Your REVERSE leaves"),
        _worded(
            {
                "before": gettext_lazy("before the swap"),
                "after": gettext_lazy("after the swap, from your new hand"),
            }
        ),
    ),
    Row(
        "truth_dare_shed",
        gettext_lazy("Who sheds 1 for a TRUTH or DARE"),
        _worded(
            {
                "both": gettext_lazy("both players"),
                "actor": gettext_lazy("only the player of the card"),
            }
        ),
        truth_dare_only=True,
    ),
    Row(
        "dare_refused",
        gettext_lazy("Refusing a DARE"),
        _worded(
            {
                "penalty": gettext_lazy("a penalty"),
                "forfeit": gettext_lazy("loses the whole game"),
            }
        ),
        truth_dare_only=True,
    ),
    Row(
        "challenge",
        gettext_lazy("Challenging a player at 0"),
        _worded(
            {
                "two_cards": gettext_lazy("needs 2 action cards"),
                "any_card": gettext_lazy("any one +2 or +4"),
                "none": gettext_lazy("no challenge"),
            }
        ),
    ),
    Row("draw_counter", gettext_lazy("Counter a +2 or +4"), _yes_no),
)


def table() -> dict[str, object]:
    """The header (each preset's key and name) and the rows (a label, then one cell per
    preset), in the engine's order of presets."""
    presets = list(PRESETS)
    rows = []
    for row in ROWS:
        cells = []
        for name in presets:
            switches = PRESETS[name]
            if row.truth_dare_only and not switches["truth_dare"]:
                cells.append(str(NOT_PLAYED))
            else:
                cells.append(row.say(switches[row.switch]))
        rows.append({"label": str(row.label), "cells": cells})
    return {"presets": [(name, ruleset_label(name)) for name in presets], "rows": rows}
