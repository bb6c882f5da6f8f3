"""The 15 rounds of the group phase: seats, the next round, the change window, the phase's end.

TOURNAMENT.md "Group phase: 15 rounds, two fluid groups" (Rounds, Fluid membership) and
"Phases" (the group phase ends by itself after round 15's decisive result or an elimination).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from .groups import GroupId
from .scoring import ROUNDS, GroupDuel, decisive_by_round

__all__ = ["ROUNDS", "change_window_open", "group_phase_over", "next_round", "seat_a_group"]


def seat_a_group(round_number: int, groups: Sequence[GroupId]) -> GroupId:
    """The group whose representative sits in seat A.

    TOURNAMENT.md "Rounds": the first-named group's player in odd rounds, the other group's in
    even rounds.
    """
    if not 1 <= round_number <= ROUNDS:
        raise ValueError(f"round {round_number} is not one of 1–{ROUNDS}")
    return groups[0] if round_number % 2 == 1 else groups[1]


def _closed(duels: Iterable[GroupDuel], not_played: Collection[int]) -> set[int]:
    # A round is closed by its decisive result, or by being voided "with no result for that
    # round" (TOURNAMENT.md "Corrections"); the caller passes the latter as ``not_played``.
    return set(decisive_by_round(duels)) | set(not_played)


def next_round(duels: Iterable[GroupDuel], not_played: Collection[int] = ()) -> int | None:
    """The round to open now: the first round not closed; None once round 15 is closed.

    TOURNAMENT.md "Rounds": round n + 1 opens when round n has a decisive result. Rounds are
    played one at a time, so this is the lowest round neither decided nor marked not played.
    """
    closed = _closed(duels, not_played)
    for number in range(1, ROUNDS + 1):
        if number not in closed:
            return number
    return None


def group_phase_over(
    duels: Iterable[GroupDuel],
    *,
    eliminated: GroupId | None = None,
    not_played: Collection[int] = (),
) -> bool:
    """True after round 15's decisive result (or its voiding without replay) or an elimination.

    TOURNAMENT.md "Phases".
    """
    return eliminated is not None or next_round(duels, not_played) is None


def change_window_open(last_decided_round: int, next_duel_started: bool) -> bool:
    """Whether a membership change may be made now.

    TOURNAMENT.md "Fluid membership": a window opens when round n (n ≥ 1) has a decisive result
    and closes at the first event of round n + 1's duel; there is none after round 15. The
    caller also checks that the group phase is still open (an elimination ends it).
    ``last_decided_round`` is 0 before round 1 is decided.
    """
    return 1 <= last_decided_round < ROUNDS and not next_duel_started
