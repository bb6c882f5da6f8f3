"""Scoring of the group phase: +3 to the winner, −2 to the loser, for player and group alike.

TOURNAMENT.md "Group phase" (Scoring, No winner) and "Standings" (group total per round, the
progression). Tie-break and playoff duels never reach these functions ("Standings": they do not
count in these tables).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .groups import GroupId

ROUNDS = 15
WIN_POINTS = 3
LOSS_POINTS = -2


@dataclass(frozen=True)
class GroupDuel:
    """One group-phase duel as it counts (after any correction).

    ``group_a``/``group_b`` are the groups the players *represented in this duel*, which is
    where the points go even if the player changes groups later. ``winner`` is a player id, or
    None for a duel that counts nothing: drawn, void, abandoned or not finished.
    """

    round: int
    player_a: int
    group_a: GroupId
    player_b: int
    group_b: GroupId
    winner: int | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.round <= ROUNDS:
            raise ValueError(f"round {self.round} is not one of 1–{ROUNDS}")
        if self.player_a == self.player_b:
            raise ValueError("a duel needs two different players")
        if self.group_a == self.group_b:
            raise ValueError("a group duel is between the two groups")
        if self.winner not in (None, self.player_a, self.player_b):
            raise ValueError(f"winner {self.winner} did not play round {self.round}")

    @property
    def decisive(self) -> bool:
        return self.winner is not None

    @property
    def loser(self) -> int | None:
        if self.winner is None:
            return None
        return self.player_b if self.winner == self.player_a else self.player_a

    def group_of(self, player: int) -> GroupId:
        return self.group_a if player == self.player_a else self.group_b


@dataclass(frozen=True)
class Tally:
    """Points, decisive duels played, won and lost. Always ``points == 3*won - 2*lost``."""

    points: int = 0
    played: int = 0
    won: int = 0
    lost: int = 0

    def add_win(self) -> Tally:
        return Tally(self.points + WIN_POINTS, self.played + 1, self.won + 1, self.lost)

    def add_loss(self) -> Tally:
        return Tally(self.points + LOSS_POINTS, self.played + 1, self.won, self.lost + 1)


def decisive_by_round(duels: Iterable[GroupDuel]) -> dict[int, GroupDuel]:
    """The decisive duel of each round. Two decisive duels in one round is an error of data."""
    found: dict[int, GroupDuel] = {}
    for duel in duels:
        if not duel.decisive:
            continue
        if duel.round in found and found[duel.round] != duel:
            raise ValueError(f"round {duel.round} has two decisive results")
        found[duel.round] = duel
    return found


def duel_points(duel: GroupDuel) -> dict[int, int]:
    """Points one duel gives: ``{winner: 3, loser: -2}``, or nothing without a winner."""
    if duel.winner is None or duel.loser is None:
        return {}
    return {duel.winner: WIN_POINTS, duel.loser: LOSS_POINTS}


def player_tallies(duels: Iterable[GroupDuel]) -> dict[int, Tally]:
    """Each player's tally over the decisive duels (players without one are absent)."""
    tallies: dict[int, Tally] = {}
    for duel in decisive_by_round(duels).values():
        assert duel.winner is not None and duel.loser is not None
        tallies[duel.winner] = tallies.get(duel.winner, Tally()).add_win()
        tallies[duel.loser] = tallies.get(duel.loser, Tally()).add_loss()
    return tallies


def _group_pair(groups: Sequence[GroupId]) -> tuple[GroupId, GroupId]:
    if len(groups) != 2 or groups[0] == groups[1]:
        raise ValueError(f"exactly two distinct groups are needed, got {groups!r}")
    return groups[0], groups[1]


def group_tallies(duels: Iterable[GroupDuel], groups: Sequence[GroupId]) -> dict[GroupId, Tally]:
    """Each group's tally: what its representatives earned *for it* in decisive duels."""
    pair = _group_pair(groups)
    tallies = {g: Tally() for g in pair}
    for duel in decisive_by_round(duels).values():
        assert duel.winner is not None and duel.loser is not None
        for group in (duel.group_a, duel.group_b):
            if group not in tallies:
                raise ValueError(f"round {duel.round} names group {group!r}, not one of {pair}")
        won, lost = duel.group_of(duel.winner), duel.group_of(duel.loser)
        tallies[won] = tallies[won].add_win()
        tallies[lost] = tallies[lost].add_loss()
    return tallies


def group_totals(duels: Iterable[GroupDuel], groups: Sequence[GroupId]) -> dict[GroupId, int]:
    """Each group's total points."""
    return {g: t.points for g, t in group_tallies(duels, groups).items()}


@dataclass(frozen=True)
class RoundTotals:
    """One round of the progression: what each group gained in it and its total after it.

    ``decided`` is False for a round without a decisive result (not played yet, not played at
    all after an elimination, or voided without replay): it gains nothing.
    """

    round: int
    decided: bool
    winner: int | None
    gained: dict[GroupId, int]
    totals: dict[GroupId, int]


def group_progression(
    duels: Iterable[GroupDuel], groups: Sequence[GroupId], rounds: int = ROUNDS
) -> tuple[RoundTotals, ...]:
    """The group totals round by round, rounds 1..``rounds`` (TOURNAMENT.md "Standings")."""
    pair = _group_pair(groups)
    decided = decisive_by_round(duels)
    group_tallies(decided.values(), pair)  # refuses duels naming a third group
    totals = dict.fromkeys(pair, 0)
    progression: list[RoundTotals] = []
    for number in range(1, rounds + 1):
        gained = dict.fromkeys(pair, 0)
        duel = decided.get(number)
        if duel is not None:
            assert duel.winner is not None and duel.loser is not None
            gained[duel.group_of(duel.winner)] += WIN_POINTS
            gained[duel.group_of(duel.loser)] += LOSS_POINTS
            for group in pair:
                totals[group] += gained[group]
        progression.append(
            RoundTotals(
                number, duel is not None, duel.winner if duel else None, gained, dict(totals)
            )
        )
    return tuple(progression)
