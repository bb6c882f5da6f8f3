"""Group limits, membership changes, the split and the start check.

TOURNAMENT.md "Group phase: 15 rounds, two fluid groups" (Split, Fluid membership, Withdrawals)
and "Phases" (what starting the group phase needs).

Data shapes: a *membership* is a mapping ``player id -> group id`` of the players who are in the
group phase now (active players only). Group ids are whatever the caller uses for its two groups
(the Group rows' primary keys, say); the pair ``groups`` always lists them first-named first.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .draws import Seed, seeded_order

GroupId = int | str
Membership = Mapping[int, GroupId]

GROUP_MIN = 5
GROUP_MAX = 15
ENTRANTS_MIN = 10
ENTRANTS_MAX = 30

# Outcomes of a change.
OK = "ok"
NEEDS_CONFIRMATION = "needs_confirmation"
REFUSED = "refused"


@dataclass(frozen=True)
class Problem:
    """One reason why something cannot go ahead: a stable ``code`` and words for a person."""

    code: str
    message: str
    # The numbers and ids the message names, for words in another language
    # (tournaments.presentation.rule_text): this package imports nothing of Django.
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Move:
    """One player's part of a change. ``target`` None is a withdrawal."""

    player: int
    source: GroupId
    target: GroupId | None


@dataclass(frozen=True)
class ChangeVerdict:
    """What the limits say about a change (TOURNAMENT.md "Fluid membership").

    ``outcome`` is ``ok``, ``needs_confirmation`` (one group below 5: it will be eliminated) or
    ``refused``. ``code`` names the rule: ``ok``, ``above_limit``, ``both_below``,
    ``elimination``, ``unknown_player``, ``unknown_group``.
    """

    outcome: str
    code: str
    message: str
    sizes: dict[GroupId, int] = field(default_factory=dict)
    moves: tuple[Move, ...] = ()
    eliminated_group: GroupId | None = None
    eliminated_players: tuple[int, ...] = ()
    phase_winner: GroupId | None = None
    params: dict[str, Any] = field(default_factory=dict)  # as Problem's

    @property
    def refused(self) -> bool:
        return self.outcome == REFUSED

    @property
    def needs_confirmation(self) -> bool:
        return self.outcome == NEEDS_CONFIRMATION


def _check_pair(groups: Sequence[GroupId]) -> tuple[GroupId, GroupId]:
    if len(groups) != 2 or groups[0] == groups[1]:
        raise ValueError(f"exactly two distinct groups are needed, got {groups!r}")
    return groups[0], groups[1]


def group_sizes(membership: Membership, groups: Sequence[GroupId]) -> dict[GroupId, int]:
    """Members per group, both groups present even when empty."""
    first, second = _check_pair(groups)
    sizes: dict[GroupId, int] = {first: 0, second: 0}
    for group in membership.values():
        if group in sizes:
            sizes[group] += 1
    return sizes


def members_of(membership: Membership, group: GroupId) -> tuple[int, ...]:
    """The group's members, by id."""
    return tuple(sorted(p for p, g in membership.items() if g == group))


def end_state(before: Membership, changes: Mapping[int, GroupId | None]) -> dict[int, GroupId]:
    """The membership after ``changes`` (``player -> new group``, None for a withdrawal).

    A convenience for callers that collect a change as a list of moves; ``check_change`` takes
    the end state itself.
    """
    after = dict(before)
    for player, target in changes.items():
        if target is None:
            after.pop(player, None)
        else:
            after[player] = target
    return after


def check_change(before: Membership, after: Membership, groups: Sequence[GroupId]) -> ChangeVerdict:
    """Check one change of the group phase on its end state only.

    TOURNAMENT.md "Fluid membership": any set of moves is one change, applied atomically. A
    group above 15 refuses it (checked first); both groups below 5 refuse it; one group below 5
    needs the organiser's confirmation, and that group is eliminated at once: the members it
    has *after* the change are out, and the other group wins the phase. A player missing from
    ``after`` withdraws ("a withdrawal counts as leaving the group").

    The limits apply only while the group phase is open, after round 1's duel has started
    (before that the split is still set-up: use ``check_split``); the caller decides that.
    """
    first, second = _check_pair(groups)
    unknown_players = sorted(set(after) - set(before))
    if unknown_players:
        # No late entries and no re-entry once the group phase has started ("Phases").
        return ChangeVerdict(
            REFUSED,
            "unknown_player",
            f"Players {unknown_players} are not in the group phase and cannot join a group.",
            params={"players": unknown_players},
        )
    unknown_groups = sorted({str(g) for g in after.values() if g not in (first, second)})
    if unknown_groups:
        return ChangeVerdict(
            REFUSED,
            "unknown_group",
            f"Groups {unknown_groups} are not in this tournament.",
            params={"groups": unknown_groups},
        )
    moves = tuple(
        Move(player, before[player], after.get(player))
        for player in sorted(before)
        if after.get(player) != before[player]
    )
    sizes = group_sizes(after, groups)
    over = [g for g in (first, second) if sizes[g] > GROUP_MAX]
    if over:
        return ChangeVerdict(
            REFUSED,
            "above_limit",
            f"A group may have at most {GROUP_MAX} members; this change leaves "
            f"{sizes[over[0]]} in one group.",
            sizes,
            moves,
            params={"max": GROUP_MAX, "size": sizes[over[0]]},
        )
    below = [g for g in (first, second) if sizes[g] < GROUP_MIN]
    if len(below) == 2:
        return ChangeVerdict(
            REFUSED,
            "both_below",
            f"This change leaves both groups below {GROUP_MIN} members "
            f"({sizes[first]} and {sizes[second]}).",
            sizes,
            moves,
            params={"min": GROUP_MIN, "first": sizes[first], "second": sizes[second]},
        )
    if below:
        sinking = below[0]
        standing = second if sinking == first else first
        return ChangeVerdict(
            NEEDS_CONFIRMATION,
            "elimination",
            f"This change leaves a group with {sizes[sinking]} members: once confirmed, that "
            f"group is eliminated at once and its members are out of the tournament.",
            sizes,
            moves,
            sinking,
            members_of(after, sinking),
            standing,
            params={"size": sizes[sinking]},
        )
    return ChangeVerdict(OK, "ok", "The change keeps both groups within the limits.", sizes, moves)


def check_split(membership: Membership, groups: Sequence[GroupId]) -> tuple[Problem, ...]:
    """Why this split cannot be played (empty when it can): both groups at 5–15.

    TOURNAMENT.md "Split": until round 1's duel starts the split is set-up; a group at 4 then
    blocks round 1 until the organiser rebalances, and eliminates nobody.
    """
    first, second = _check_pair(groups)
    problems: list[Problem] = []
    strays = sorted(p for p, g in membership.items() if g not in (first, second))
    if strays:
        problems.append(
            Problem(
                "unknown_group",
                f"Players {strays} are in an unknown group.",
                {"players": strays},
            )
        )
    for group, size in group_sizes(membership, groups).items():
        if size < GROUP_MIN:
            problems.append(
                Problem(
                    "group_too_small",
                    f"Group {group} has {size} members; it needs at least {GROUP_MIN}.",
                    {"group": group, "size": size, "min": GROUP_MIN},
                )
            )
        elif size > GROUP_MAX:
            problems.append(
                Problem(
                    "group_too_large",
                    f"Group {group} has {size} members; it may have at most {GROUP_MAX}.",
                    {"group": group, "size": size, "max": GROUP_MAX},
                )
            )
    return tuple(problems)


def check_start(
    active_players: Collection[int], membership: Membership, groups: Sequence[GroupId]
) -> tuple[Problem, ...]:
    """Why the group phase cannot start (empty when it can).

    TOURNAMENT.md "Phases": starting needs 10–30 active entrants, every one in a group, both
    groups at 5–15.
    """
    active = set(active_players)
    problems: list[Problem] = []
    if not ENTRANTS_MIN <= len(active) <= ENTRANTS_MAX:
        problems.append(
            Problem(
                "entrant_count",
                f"The group phase needs {ENTRANTS_MIN}–{ENTRANTS_MAX} active entrants; "
                f"there are {len(active)}.",
                {"min": ENTRANTS_MIN, "max": ENTRANTS_MAX, "count": len(active)},
            )
        )
    missing = sorted(active - set(membership))
    if missing:
        problems.append(
            Problem("not_in_group", f"Players {missing} are in no group.", {"players": missing})
        )
    inactive = sorted(set(membership) - active)
    if inactive:
        problems.append(
            Problem(
                "inactive_member",
                f"Players {inactive} are in a group but not active.",
                {"players": inactive},
            )
        )
    problems.extend(check_split({p: g for p, g in membership.items() if p in active}, groups))
    return tuple(problems)


def _deal(order: Iterable[int], groups: Sequence[GroupId]) -> dict[int, GroupId]:
    first, second = _check_pair(groups)
    # Alternating dealing gives the first-named group the extra player of an odd count.
    return {player: (first if i % 2 == 0 else second) for i, player in enumerate(order)}


def random_split(
    players: Iterable[int], groups: Sequence[GroupId], seed: Seed
) -> dict[int, GroupId]:
    """A random split with a stored seed (TOURNAMENT.md "Split").

    The players are put in seeded order (``draws.seeded_order``) and dealt alternately: sizes
    differ by at most one and the extra player goes to the first-named group.
    """
    return _deal(seeded_order(players, seed), groups)


def alternating_split(
    players_in_registration_order: Sequence[int], groups: Sequence[GroupId]
) -> dict[int, GroupId]:
    """The alternating split by registration order (TOURNAMENT.md "Split").

    1st, 3rd, 5th… registered to the first-named group, 2nd, 4th… to the other.
    """
    if len(set(players_in_registration_order)) != len(players_in_registration_order):
        raise ValueError("a player is listed twice")
    return _deal(players_in_registration_order, groups)
