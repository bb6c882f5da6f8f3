"""Individual and group standings of the group phase.

TOURNAMENT.md "Standings" (individual: points, played, won, lost; positions, level blocks and
ranks among active players only; standard competition ranking by points alone; alphabetical
order inside a level block) and "Group phase" (Group winner).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .groups import GroupId, members_of
from .scoring import GroupDuel, Tally, group_tallies, player_tallies

# Entrant statuses (the same words as the Entrant model's).
ACTIVE = "active"
WITHDRAWN = "withdrawn"
ELIMINATED = "eliminated"
STATUSES = (ACTIVE, WITHDRAWN, ELIMINATED)

# Group statuses. A group that lost on points after round 15 stays "active": TOURNAMENT.md
# lists no other word for it.
GROUP_ACTIVE = "active"
GROUP_ELIMINATED = "eliminated"
GROUP_WINNER = "winner"
GROUP_JOINT_WINNER = "joint_winner"

TOP = 4


@dataclass(frozen=True)
class Entrant:
    """An entrant as the standings need it."""

    id: int
    name: str
    status: str = ACTIVE

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}")


@dataclass(frozen=True)
class StandingRow:
    """One line of the individual standings.

    ``position`` is the line's place among active players (1, 2, 3… in display order) and
    ``rank`` its standard competition rank (1, 2, 2, 4); both are None for an inactive player,
    who is listed with ``status`` instead. ``shared`` marks a rank held by several players.
    """

    player: int
    name: str
    status: str
    points: int
    played: int
    won: int
    lost: int
    position: int | None
    rank: int | None
    shared: bool = False

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    @property
    def rank_label(self) -> str:
        """``"1"``, ``"=2"``, or the status of an inactive player."""
        if self.rank is None:
            return self.status
        return f"={self.rank}" if self.shared else str(self.rank)


def _alphabetical(name: str, player: int) -> tuple[str, str, int]:
    return (name.casefold(), name, player)


def individual_standings(
    entrants: Iterable[Entrant], duels: Iterable[GroupDuel]
) -> tuple[StandingRow, ...]:
    """The individual table (TOURNAMENT.md "Standings").

    Active players first, by points then alphabetically, ranked among themselves; then inactive
    players (withdrawn, eliminated) in the same order, without rank. Players who never played
    sit at 0 and are ranked like anyone else.
    """
    people = {e.id: e for e in entrants}
    if len(people) == 0:
        return ()
    tallies = player_tallies(duels)
    strangers = sorted(set(tallies) - set(people))
    if strangers:
        raise ValueError(f"duels name players who are not entrants: {strangers}")

    def order(e: Entrant) -> tuple[int, str, str, int]:
        return (-tallies.get(e.id, Tally()).points, *_alphabetical(e.name, e.id))

    active = sorted((e for e in people.values() if e.status == ACTIVE), key=order)
    inactive = sorted((e for e in people.values() if e.status != ACTIVE), key=order)
    count: dict[int, int] = {}
    for e in active:
        pts = tallies.get(e.id, Tally()).points
        count[pts] = count.get(pts, 0) + 1
    rows: list[StandingRow] = []
    rank = 0
    previous: int | None = None
    for position, e in enumerate(active, start=1):
        t = tallies.get(e.id, Tally())
        if t.points != previous:
            rank, previous = position, t.points
        rows.append(
            StandingRow(
                e.id,
                e.name,
                e.status,
                t.points,
                t.played,
                t.won,
                t.lost,
                position,
                rank,
                count[t.points] > 1,
            )
        )
    for e in inactive:
        t = tallies.get(e.id, Tally())
        rows.append(
            StandingRow(
                e.id,
                e.name,
                e.status,
                t.points,
                t.played,
                t.won,
                t.lost,
                None,
                None,
            )
        )
    return tuple(rows)


def active_points(rows: Iterable[StandingRow]) -> dict[int, int]:
    """``player -> points`` of the active players: the tie-break planner's input."""
    return {r.player: r.points for r in rows if r.active}


@dataclass(frozen=True)
class LevelBlock:
    """Active players level on points, and the positions ``first``–``last`` they cover."""

    points: int
    players: tuple[int, ...]  # display (alphabetical) order
    first: int
    last: int

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def tied(self) -> bool:
        return len(self.players) > 1


def level_blocks(rows: Iterable[StandingRow]) -> tuple[LevelBlock, ...]:
    """Every block of active players level on points, best first."""
    active = sorted((r for r in rows if r.active), key=lambda r: r.position or 0)
    blocks: list[LevelBlock] = []
    start = 0
    while start < len(active):
        end = start
        while end + 1 < len(active) and active[end + 1].points == active[start].points:
            end += 1
        blocks.append(
            LevelBlock(
                active[start].points,
                tuple(r.player for r in active[start : end + 1]),
                start + 1,
                end + 1,
            )
        )
        start = end + 1
    return tuple(blocks)


def blocks_covering(
    rows: Iterable[StandingRow], last_position: int = TOP
) -> tuple[LevelBlock, ...]:
    """The level blocks that cover any of positions 1–``last_position`` (TOURNAMENT.md
    "Tie-breaks": blocks of two or more among them play a knockout)."""
    return tuple(b for b in level_blocks(rows) if b.first <= last_position)


@dataclass(frozen=True)
class GroupRow:
    """One group's line: its total, decisive duels won and lost for it, status, members now."""

    group: GroupId
    total: int
    won: int
    lost: int
    status: str
    members: tuple[int, ...]


def group_phase_winners(
    groups: Sequence[GroupId],
    duels: Iterable[GroupDuel],
    *,
    phase_over: bool,
    eliminated: GroupId | None = None,
) -> tuple[GroupId, ...]:
    """The group phase's winner(s): empty while it runs, two groups for a shared title.

    TOURNAMENT.md "Group winner": the group with the higher total after round 15, or the group
    left standing after an elimination (whatever the totals); equal totals share the title.
    """
    if eliminated is not None:
        if eliminated not in groups:
            raise ValueError(f"{eliminated!r} is not one of {tuple(groups)}")
        return tuple(g for g in groups if g != eliminated)
    if not phase_over:
        return ()
    totals = {g: t.points for g, t in group_tallies(duels, groups).items()}
    best = max(totals.values())
    return tuple(g for g in groups if totals[g] == best)


def group_standings(
    groups: Sequence[GroupId],
    duels: Iterable[GroupDuel],
    *,
    phase_over: bool,
    eliminated: GroupId | None = None,
    membership: Mapping[int, GroupId] | None = None,
) -> tuple[GroupRow, ...]:
    """Both groups' lines, first-named group first (TOURNAMENT.md "Standings", "Group winner").

    ``membership`` (player -> group, active players) fills ``members``; the members at each
    past round are the caller's stored history.
    """
    duels = tuple(duels)
    tallies = group_tallies(duels, groups)
    winners = group_phase_winners(groups, duels, phase_over=phase_over, eliminated=eliminated)
    rows: list[GroupRow] = []
    for group in groups:
        if group == eliminated:
            status = GROUP_ELIMINATED
        elif group in winners:
            status = GROUP_WINNER if len(winners) == 1 else GROUP_JOINT_WINNER
        else:
            status = GROUP_ACTIVE
        t = tallies[group]
        rows.append(
            GroupRow(
                group,
                t.points,
                t.won,
                t.lost,
                status,
                members_of(membership, group) if membership is not None else (),
            )
        )
    return tuple(rows)
