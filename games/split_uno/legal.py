"""What is legal now: the console builds its buttons from this and bots pick from it."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Any

from .actions import playable_cards
from .constants import COLORS, ENDINGS
from .rounds import revealing_seats
from .state import Table


@dataclass(slots=True)
class Legal:
    """The legal moves of one moment of a duel, described per seat.

    ``round_seats`` must each reveal a card if a round is played; ``can_play_round`` is also
    true when every seat is blocked and the round is played with ``"cards": {}``.
    ``actions`` maps every seat to the action card names it may play (empty when none).
    ``targets`` maps every seat in play to the seats it may name as a target — of an action
    card, or in a round's ``targets`` for its 0 or 7 — in seat order: with two seats, the
    opponent, which may be left out. ``in_play`` are the seats whose side has not left
    (section 11.7); ``forfeit`` and ``adjudicate`` may name these only.
    """

    status: str
    awaiting: dict[str, Any] | None
    round_seats: tuple[str, ...]
    can_play_round: bool
    actions: dict[str, tuple[str, ...]]
    endings: tuple[str, ...]
    seats: tuple[str, ...] = field(default=(), repr=False)
    targets: dict[str, tuple[str, ...]] = field(default_factory=dict)
    in_play: tuple[str, ...] = ()

    def events(self, include_endings: bool = False) -> list[dict[str, Any]]:
        """Every concrete legal event: each offered choice, each action card (each colour for
        color_change; with more than two seats each target), with two seats every round (each
        combination of 0–9 per revealing seat), and with ``include_endings`` every referee
        ending.

        With more than two seats rounds are not listed: their combinations of cards and
        targets run to millions; ``round_seats`` and ``targets`` describe them."""
        out: list[dict[str, Any]] = []
        many = len(self.seats) > 2
        if self.awaiting is not None:
            seat = self.awaiting["seat"]
            out.extend(
                {"type": "respond", "seat": seat, "choice": c} for c in self.awaiting["choices"]
            )
        if self.can_play_round and not many:
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
                elif many:
                    out.extend(
                        {"type": "action", "seat": seat, "card": card, "target": target}
                        for target in self.targets.get(seat, ())
                    )
                else:
                    out.append({"type": "action", "seat": seat, "card": card})
        if include_endings and self.endings:
            playing = self.in_play or self.seats
            out.extend({"type": "forfeit", "seat": seat} for seat in playing)
            out.append({"type": "time_limit"})
            out.extend({"type": "adjudicate", "winner": seat} for seat in playing)
        return out


def legal_now(t: Table) -> Legal:
    """The legal moves of table ``t`` (sections 3, 4, 6, 7 and 11)."""
    seats = t.setup.seats
    status = t.status
    playing = status == "playing"
    if t.multi:
        round_seats = tuple(seats[i] for i in revealing_seats(t)) if playing else ()
    else:
        round_seats = tuple(s for i, s in enumerate(seats) if not t.blocked[i]) if playing else ()
    in_play = tuple(s for i, s in enumerate(seats) if not t.out[i])
    return Legal(
        status=status,
        awaiting=t.awaiting(),
        round_seats=round_seats,
        can_play_round=playing,
        actions={s: () if t.out[i] else playable_cards(t, i) for i, s in enumerate(seats)},
        endings=() if status == "finished" else ENDINGS,
        seats=seats,
        targets={
            s: tuple(seats[j] for j in t.opponents(i)) for i, s in enumerate(seats) if not t.out[i]
        },
        in_play=in_play,
    )
