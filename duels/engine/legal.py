"""What is legal now: the console builds its buttons from this and bots pick from it."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Any

from .actions import playable_cards
from .constants import COLORS, ENDINGS
from .state import Table


@dataclass(slots=True)
class Legal:
    """The legal moves of one moment of a duel.

    ``round_seats`` must each reveal a card if a round is played; ``can_play_round`` is also
    true when every seat is blocked and the round is played with ``"cards": {}``.
    ``actions`` maps every seat to the action card names it may play (empty when none).
    """

    status: str
    awaiting: dict[str, Any] | None
    round_seats: tuple[str, ...]
    can_play_round: bool
    actions: dict[str, tuple[str, ...]]
    endings: tuple[str, ...]
    seats: tuple[str, ...] = field(default=(), repr=False)

    def events(self, include_endings: bool = False) -> list[dict[str, Any]]:
        """Every concrete legal event: rounds with each combination of 0–9 per revealing
        seat, each action card (each colour for color_change), each offered choice, and with
        ``include_endings`` every referee ending."""
        out: list[dict[str, Any]] = []
        if self.awaiting is not None:
            seat = self.awaiting["seat"]
            out.extend(
                {"type": "respond", "seat": seat, "choice": c} for c in self.awaiting["choices"]
            )
        if self.can_play_round:
            for combo in product(range(10), repeat=len(self.round_seats)):
                out.append(
                    {"type": "round", "cards": dict(zip(self.round_seats, combo, strict=True))}
                )
        for seat, cards in self.actions.items():
            for card in cards:
                if card == "color_change":
                    out.extend(
                        {"type": "action", "seat": seat, "card": card, "color": color}
                        for color in COLORS
                    )
                else:
                    out.append({"type": "action", "seat": seat, "card": card})
        if include_endings and self.endings:
            out.extend({"type": "forfeit", "seat": seat} for seat in self.seats)
            out.append({"type": "time_limit"})
            out.extend({"type": "adjudicate", "winner": seat} for seat in self.seats)
        return out


def legal_now(t: Table) -> Legal:
    """The legal moves of table ``t`` (sections 3, 4, 6 and 7)."""
    seats = t.setup.seats
    status = t.status
    playing = status == "playing"
    round_seats = tuple(s for i, s in enumerate(seats) if not t.blocked[i]) if playing else ()
    return Legal(
        status=status,
        awaiting=t.awaiting(),
        round_seats=round_seats,
        can_play_round=playing,
        actions={s: playable_cards(t, i) for i, s in enumerate(seats)},
        endings=() if status == "finished" else ENDINGS,
        seats=seats,
    )
