"""The final table of a tournament, and the table while the playoffs run.

TOURNAMENT.md "Standings": the final table lists placings 1–4, then everyone else by
group-phase rank, inactive players last. While the playoffs run the placings come from the
bottom (4th after the Eliminator, 3rd after Qualifier 2, 1st and 2nd after the Grand Final),
so the four qualifiers are listed in the order of the places still open to them
(`places_open`): the two finalists first once Qualifier 2 is decided, not 3rd and 4th.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .bracket import E1, GF, Q1, Q2, Bracket
from .standings import StandingRow

# The worst place a qualifier still in can finish, by the stage they play next (or wait for):
# the loser of Qualifier 1 goes on to Qualifier 2, the loser of the Eliminator is 4th.
_WORST = {Q1: 3, E1: 4, Q2: 3, GF: 2}


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


def places_open(bracket: Bracket) -> dict[int, tuple[int, ...]]:
    """Each qualifier still in the playoffs → the places they can still finish, best first;
    in seeding order.

    A player can still win every duel left (1st) and finish no lower than the place the loser
    of their next stage gets; places already given (a vacant one too) are taken. Placed
    players and vacant seeds are not listed; an empty answer before the seeding or after the
    Grand Final."""
    taken = set(bracket.placings)
    placed = {p for p in bracket.placings.values() if p is not None}
    q1, e1, q2, gf = (bracket.match(s) for s in (Q1, E1, Q2, GF))
    stage_of: dict[int, str] = {}
    if gf.known and not gf.decided:
        stage_of.update({p: GF for p in (gf.seat_a, gf.seat_b) if p is not None})
    if q1.decided and q1.winner is not None:
        stage_of.setdefault(q1.winner, GF)
    if q2.decided and q2.winner is not None:
        stage_of.setdefault(q2.winner, GF)
    for p in (q1.loser, e1.winner):
        if p is not None and not q2.decided:
            stage_of.setdefault(p, Q2)
    for match in (q1, e1):
        if not match.decided:
            stage_of.update({p: match.stage for p in (match.seat_a, match.seat_b) if p is not None})
    return {
        player: tuple(
            place for place in range(1, _WORST[stage_of[player]] + 1) if place not in taken
        )
        for player in bracket.seeding
        if player in stage_of and player not in placed
    }


def final_table(
    rows: Iterable[StandingRow],
    placings: Mapping[int, int | None],
    still_in: Mapping[int, Sequence[int]] | None = None,
) -> tuple[FinalRow, ...]:
    """Placings 1–4 (``place -> player``, the bracket's ``placings``), then the other active
    players in standings order (group-phase rank, alphabetical inside a level block), then the
    inactive players in standings order.

    ``still_in`` (while the playoffs run, `places_open`): the qualifiers not yet placed, with
    the places open to them, in seeding order. The qualifiers then come first in the order of
    the worst place each can still finish (a placed one at their place; level ones in the
    order given), so
    the table's first lines match the places: the finalists before 3rd and 4th.

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
    open_to = {p: places for p, places in (still_in or {}).items() if p not in placed}
    strangers = sorted(set(open_to) - set(by_player))
    if strangers:
        raise ValueError(f"qualifiers still in are not in the standings: {strangers}")
    head = {p: (place, 0) for p, place in placed.items()}
    head.update(
        {p: (max(places, default=4), i) for i, (p, places) in enumerate(open_to.items(), 1)}
    )
    ordered = sorted(head, key=lambda p: head[p])
    ordered += [r.player for r in rows if r.active and r.player not in head]
    ordered += [r.player for r in rows if not r.active and r.player not in head]
    table: list[FinalRow] = []
    for line, player in enumerate(ordered, start=1):
        r = by_player[player]
        table.append(
            FinalRow(line, player, r.name, r.status, r.points, placed.get(player), r.rank, r.shared)
        )
    return tuple(table)
