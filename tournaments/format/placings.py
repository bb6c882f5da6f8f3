"""The final table of a tournament.

TOURNAMENT.md "Standings": the final table lists placings 1–4, then everyone else by
group-phase rank, inactive players last.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .standings import StandingRow


@dataclass(frozen=True)
class FinalRow:
    """One line of the final table.

    ``placing`` is 1–4 for the playoff placings, None for everyone else; ``rank`` is the
    group-phase rank (None for an inactive player); ``line`` numbers the table's lines.
    """

    line: int
    player: int
    name: str
    status: str
    points: int
    placing: int | None
    rank: int | None
    shared: bool


def final_table(
    rows: Iterable[StandingRow], placings: Mapping[int, int | None]
) -> tuple[FinalRow, ...]:
    """Placings 1–4 (``place -> player``, the bracket's ``placings``), then the other active
    players in standings order (group-phase rank, alphabetical inside a level block), then the
    inactive players in standings order.

    A qualifier keeps the placing the bracket gives them even after withdrawing in the
    playoffs (TOURNAMENT.md "Playoffs": placings follow the bracket).
    """
    rows = tuple(rows)
    by_player = {r.player: r for r in rows}
    placed = {p: place for place, p in placings.items() if p is not None}
    strangers = sorted(set(placed) - set(by_player))
    if strangers:
        raise ValueError(f"placings name players not in the standings: {strangers}")
    if len(placed) != len([p for p in placings.values() if p is not None]):
        raise ValueError("a player holds two placings")
    ordered = sorted(placed, key=lambda p: placed[p])
    ordered += [r.player for r in rows if r.active and r.player not in placed]
    ordered += [r.player for r in rows if not r.active and r.player not in placed]
    table: list[FinalRow] = []
    for line, player in enumerate(ordered, start=1):
        r = by_player[player]
        table.append(
            FinalRow(line, player, r.name, r.status, r.points, placed.get(player), r.rank, r.shared)
        )
    return tuple(table)
