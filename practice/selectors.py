"""Reads for the practice pages that are not a single game: a person's record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .models import OnlineTable, PracticeRecord
from .words import bot_level_label, ruleset_label


@dataclass(frozen=True)
class RecordRow:
    """One kind of table in a person's practice record, as the page shows it."""

    rules: str
    seats: int
    bots: str
    played: int
    won: int
    drawn: int
    lost: int
    #: Number rounds a duel, on average (one decimal), or None before any.
    average_rounds: float | None


def record_of(user) -> list[RecordRow]:
    """The person's practice record (PracticeRecord) by rule set, seats and bots' level."""
    return [
        RecordRow(
            rules=ruleset_label(r.ruleset),
            seats=r.seats,
            bots=bot_level_label(r.bot),
            played=r.played,
            won=r.won,
            drawn=r.drawn,
            lost=r.played - r.won - r.drawn,
            average_rounds=round(r.rounds / r.played, 1) if r.played else None,
        )
        for r in PracticeRecord.objects.filter(user=user, played__gt=0)
    ]


def online_tables_of(user: Any, limit: int = 20) -> list[Any]:
    """The person's online tables (issue 31), latest first, for the practice page's list."""
    return list(
        OnlineTable.objects.filter(players__user=user)
        .select_related("host")
        .order_by("-updated_at", "-pk")[:limit]
    )
