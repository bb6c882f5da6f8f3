"""The words of the game, spelled as RULES.md spells them in records, states and APIs."""

from __future__ import annotations

#: The seven action cards (RULES.md section 4), snake_case everywhere.
CARDS: tuple[str, ...] = (
    "block",
    "reverse",
    "color_change",
    "draw_two",
    "draw_four",
    "truth",
    "dare",
)

#: The cards a preset with ``truth_dare`` false rejects (section 5).
TRUTH_DARE: tuple[str, ...] = ("truth", "dare")

#: The colours a COLOR CHANGE may name (section 4).
COLORS: tuple[str, ...] = ("red", "yellow", "green", "blue")

#: Decisions and their choices, in the order of the table of section 7.
DECISIONS: dict[str, tuple[str, ...]] = {
    "counter": ("draw_two", "draw_four", "pass"),
    "block_counter": ("block", "pass"),
    "truth": ("answer", "refuse"),
    "dare": ("complete", "refuse"),
    "penalty": ("actions", "five"),
    "bonus": ("action_card", "opponents_draw"),
    "challenge": ("draw_two", "draw_four", "pass"),
}

#: How a duel may end (section 8, ``finish``).
FINISHES: tuple[str, ...] = (
    "shed_all",
    "forfeit",
    "dare_refused",
    "time_limit",
    "adjudicated",
    "double_zero",
)

#: The referee's endings (section 6), legal at any point until the end.
ENDINGS: tuple[str, ...] = ("forfeit", "time_limit", "adjudicate")

EVENT_TYPES: tuple[str, ...] = ("round", "action", "respond", *ENDINGS)

#: Seat letters in seating order (section 8): the record's seats are the first n of these.
SEAT_LETTERS: tuple[str, ...] = ("A", "B", "C", "D", "E", "F")

#: How the engine's texts name cards and choices for a referee.
CARD_LABELS: dict[str, str] = {
    "block": "BLOCK",
    "reverse": "REVERSE",
    "color_change": "COLOR CHANGE",
    "draw_two": "+2",
    "draw_four": "+4",
    "truth": "TRUTH",
    "dare": "DARE",
}

#: How the engine's texts word an ending's reason that is a key rather than a referee's own
#: words: "no_show" marks a forfeit by a player who did not turn up (a playoff walkover).
REASON_LABELS: dict[str, str] = {
    "no_show": "did not show up",
}

#: How much a +2 or +4 makes its target draw (section 4).
DRAW_AMOUNT: dict[str, int] = {"draw_two": 2, "draw_four": 4}
