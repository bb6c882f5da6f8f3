"""The two fluid groups: naming, splitting, starting the group phase, changes of membership
and withdrawals (TOURNAMENT.md "Phases" and "Group phase")."""

import re
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction

from accounts.permissions import Action, can
from core.errors import ServiceError
from duels.models import Duel

from .. import format as fmt
from ..models import (
    Entrant,
    EntrantStatus,
    Group,
    Membership,
    Phase,
    Round,
    RoundStatus,
    Tournament,
    Withdrawal,
)
from . import audit, lifecycle, withdrawals
from .names import check_group_names
from .setup import lock
from .shared_cards import lapse_gifts
from .standings import recompute_standings

SET_UP_PHASES = (Phase.DRAFT, Phase.REGISTRATION)


def _require(actor, action: Action, tournament: Tournament, what: str) -> None:
    if not can(actor, action, tournament):
        raise ServiceError(f"Only the organisers {what}.", code="forbidden")


def _groups(tournament: Tournament) -> tuple[Group, Group]:
    first, second = tournament.groups.order_by("order")
    return first, second


def _active(tournament: Tournament) -> dict[int, Entrant]:
    return {e.pk: e for e in tournament.entrants.filter(status=EntrantStatus.ACTIVE)}


def _with_names(message: str, names: Mapping[int, str], groups: tuple[Group, Group]) -> str:
    """The format rules speak in ids; people read names."""
    group_names = {str(g.pk): g.name for g in groups}
    message = re.sub(r"Group (\d+)\b", lambda m: group_names.get(m[1], m[0]), message)
    return re.sub(
        r"\[(\d+(?:, \d+)*)\]",
        lambda m: ", ".join(names.get(int(pk), pk) for pk in m[1].split(", ")),
        message,
    )


@transaction.atomic
def name_groups(tournament: Tournament, actor, first: str, second: str) -> None:
    tournament = lock(tournament)
    _require(actor, Action.MANAGE_GROUPS, tournament, "name the groups")
    names = check_group_names((first, second))
    groups = _groups(tournament)
    # The two may swap names: free both keys first, or the first save meets the other's key.
    for group in groups:
        Group.objects.filter(pk=group.pk).update(name_key=f"#{group.pk}")
    for group, name in zip(groups, names, strict=True):
        group.name = name
        group.save(update_fields=["name"])
    audit.record(tournament, actor, "groups_named", names=names)
    audit.bump_version(tournament)


def round_one_started(tournament: Tournament) -> bool:
    return Duel.objects.filter(tournament=tournament, round__number=1, seq__gt=0).exists()


def round_one_blocked(tournament: Tournament) -> str:
    """Why round 1's duel cannot start yet, in words (empty when it can).

    TOURNAMENT.md "Split": until round 1's duel starts the split is still set-up, so a
    withdrawal that leaves a group at 4 blocks round 1 until the organiser rebalances, and
    eliminates nobody. With fewer than 10 active players no split can be rebalanced: the
    event cannot go on, and the words say so (cancelling is the organiser's way out).
    """
    if tournament.phase != Phase.GROUP_PHASE or round_one_started(tournament):
        return ""
    groups = _groups(tournament)
    active = _active(tournament)
    membership = {pk: e.group_id for pk, e in active.items() if e.group_id}
    if not fmt.check_split(membership, [g.pk for g in groups]):
        return ""
    sizes = fmt.group_sizes(membership, [g.pk for g in groups])
    words = "; ".join(
        f"{g.name} has {sizes[g.pk]} member{'s' if sizes[g.pk] != 1 else ''}"
        for g in groups
        if not fmt.GROUP_MIN <= sizes[g.pk] <= fmt.GROUP_MAX
    )
    if len(active) < 2 * fmt.GROUP_MIN:
        return (
            f"Round 1 cannot start: {words}, and with {len(active)} active players no split "
            f"gives both groups {fmt.GROUP_MIN}. The event cannot go on; the organiser may "
            "cancel it."
        )
    return (
        f"Round 1 cannot start: {words}; each group needs {fmt.GROUP_MIN} to "
        f"{fmt.GROUP_MAX}. Rebalance the split on the groups page (it can be edited until "
        "round 1's duel starts)."
    )


@transaction.atomic
def split_groups(
    tournament: Tournament,
    actor,
    method: str,
    assignment: Mapping[int, int | None] | None = None,
    seed: str | None = None,
) -> dict[int, int]:
    """Split the active entrants: by hand (`assignment`: entrant id → group order 1 or 2, or
    None for no group), at random (a stored seed) or alternating (registration order).

    Until round 1's duel starts the split is still set-up and may be edited.
    """
    tournament = lock(tournament)
    _require(actor, Action.MANAGE_GROUPS, tournament, "split the groups")
    if tournament.phase not in SET_UP_PHASES and not (
        lifecycle.group_phase_open(tournament) and not round_one_started(tournament)
    ):
        raise ServiceError(
            "The split can be edited only until round 1's duel starts; after "
            "that, players move between groups by transfers."
        )
    first, second = _groups(tournament)
    by_order = {1: first.pk, 2: second.pk}
    active = _active(tournament)
    if method == "random":
        tournament.split_seed = seed or fmt.new_seed()
        tournament.save(update_fields=["split_seed"])
        split = fmt.random_split(sorted(active), [first.pk, second.pk], tournament.split_seed)
    elif method == "alternating":
        order = [e.pk for e in sorted(active.values(), key=lambda e: (e.created_at, e.pk))]
        split = fmt.alternating_split(order, [first.pk, second.pk])
    elif method == "hand":
        unknown = [pk for pk in (assignment or {}) if pk not in active]
        if unknown:
            raise ServiceError("Only active players of this tournament can be put in a group.")
        bad = [v for v in (assignment or {}).values() if v not in (1, 2, None)]
        if bad:
            raise ServiceError("Each player goes to group 1, group 2 or no group.")
        split = {pk: by_order[order] for pk, order in (assignment or {}).items() if order}
        split = {
            **{
                pk: e.group_id
                for pk, e in active.items()
                if e.group_id and pk not in (assignment or {})
            },
            **split,
        }
    else:
        raise ServiceError("Split by hand, at random or alternating.")
    moved = set()
    for pk, entrant in active.items():
        target = split.get(pk)
        if entrant.group_id != target:
            entrant.group_id = target
            entrant.save(update_fields=["group"])
            moved.add(pk)
    if tournament.phase == Phase.GROUP_PHASE:
        # Round 1's duel may be named already: a player the new split moves no longer
        # represents the group they were named for, so the nomination goes (as on a transfer).
        lifecycle.clear_nominations(tournament, moved)
        Membership.objects.filter(entrant__tournament=tournament).delete()
        Membership.objects.bulk_create(
            [Membership(entrant_id=pk, group_id=g, since_round=1) for pk, g in split.items()]
        )
    audit.record(
        tournament,
        actor,
        "groups_split",
        method=method,
        seed=tournament.split_seed if method == "random" else "",
        sizes=fmt.group_sizes(split, [first.pk, second.pk]),
    )
    audit.bump_version(tournament)
    return split


@transaction.atomic
def start_group_phase(tournament: Tournament, actor) -> Tournament:
    tournament = lock(tournament)
    _require(actor, Action.START_PHASES, tournament, "start the group phase")
    if tournament.phase not in SET_UP_PHASES:
        raise ServiceError("The group phase has already started.")
    first, second = _groups(tournament)
    active = _active(tournament)
    membership = {pk: e.group_id for pk, e in active.items() if e.group_id}
    problems = fmt.check_start(list(active), membership, [first.pk, second.pk])
    if problems:
        names = {pk: e.name for pk, e in active.items()}
        raise ServiceError(
            "The group phase cannot start: "
            + " ".join(_with_names(p.message, names, (first, second)) for p in problems)
        )
    Round.objects.bulk_create(
        [
            Round(
                tournament=tournament,
                number=n,
                status=RoundStatus.OPEN if n == 1 else RoundStatus.PENDING,
            )
            for n in range(1, fmt.ROUNDS + 1)
        ]
    )
    Membership.objects.bulk_create(
        [Membership(entrant_id=pk, group_id=g, since_round=1) for pk, g in membership.items()]
    )
    tournament.phase = Phase.GROUP_PHASE
    tournament.save(update_fields=["phase"])
    audit.record(
        tournament,
        actor,
        "group_phase_started",
        sizes={
            first.name: len(fmt.members_of(membership, first.pk)),
            second.name: len(fmt.members_of(membership, second.pk)),
        },
    )
    recompute_standings(tournament)
    return tournament


@dataclass(frozen=True)
class Window:
    """Whether a change of membership may be made now, why (not), and after which round it
    takes effect (TOURNAMENT.md "Fluid membership")."""

    open: bool
    reason: str
    after_round: int


def change_window(tournament: Tournament) -> Window:
    """Read-only: the change window as `change_groups` will judge it (pages show it first)."""
    if tournament.phase != Phase.GROUP_PHASE or tournament.group_phase_ended_at:
        return Window(False, "Transfers happen only while the group phase is open.", 0)
    decided = lifecycle.last_decided_round(tournament)
    started = Duel.objects.filter(
        tournament=tournament, round__number=decided + 1, seq__gt=0
    ).exists()
    if fmt.change_window_open(decided, started):
        return Window(
            True,
            f"Round {decided} is decided: changes take effect from round "
            f"{decided + 1}, and the window closes when round {decided + 1}'s "
            "duel starts.",
            decided,
        )
    if decided == 0:
        return Window(
            False,
            "Transfers open once round 1 has a decisive result; until round "
            "1's duel starts, edit the split instead.",
            0,
        )
    if decided >= fmt.ROUNDS:
        return Window(False, "There are no transfers after round 15.", decided)
    return Window(
        False,
        f"Round {decided + 1}'s duel has started: transfers wait until it has a decisive result.",
        decided,
    )


def _window(tournament: Tournament) -> int:
    """The round after which the change takes effect, or a ServiceError if no window."""
    window = change_window(tournament)
    if not window.open:
        raise ServiceError(window.reason)
    return window.after_round


@transaction.atomic
def change_groups(
    tournament: Tournament,
    actor,
    changes: Mapping[int, int | None],
    *,
    confirm: bool = False,
    reason: str = "",
    withdrawal_reasons: Mapping[int, str] | None = None,
) -> fmt.ChangeVerdict:
    """Apply one change of membership between rounds: moves (entrant id → group order 1 or 2)
    and withdrawals (→ None), checked together on the end state.

    A change that leaves one group below 5 needs `confirm`; that group is then eliminated.
    Withdrawals may also be made outside a window (a running duel is forfeited first).
    """
    tournament = lock(tournament)
    moving = {pk for pk, target in changes.items() if target is not None}
    withdrawing = {pk for pk, target in changes.items() if target is None}
    if moving:
        _require(actor, Action.MANAGE_GROUPS, tournament, "move players between groups")
    if withdrawing:
        _require(actor, Action.WITHDRAW_PLAYERS, tournament, "withdraw players")
    if tournament.phase != Phase.GROUP_PHASE or tournament.group_phase_ended_at:
        raise ServiceError("Group limits and transfers apply only while the group phase is open.")
    if not moving and not round_one_started(tournament):
        # TOURNAMENT.md "Split": until round 1's duel starts the split is set-up, and a
        # withdrawal that leaves a group at 4 blocks round 1 and eliminates nobody — `withdraw`
        # does that, one player at a time. (Moves are refused by the window below.)
        raise ServiceError(
            "Until round 1's duel starts the split is still set-up: withdraw each player on "
            "their own, or edit the split. A group left at 4 then waits for the split to be "
            "rebalanced; nobody is eliminated."
        )
    after_round = _window(tournament) if moving else lifecycle.last_decided_round(tournament)
    first, second = _groups(tournament)
    by_order = {1: first.pk, 2: second.pk}
    active = _active(tournament)
    if not set(changes) <= set(active):
        raise ServiceError("Only active players of the group phase can move or withdraw.")
    if any(t not in (1, 2, None) for t in changes.values()):
        raise ServiceError("Each player moves to group 1 or group 2.")
    before = {pk: e.group_id for pk, e in active.items()}
    after = fmt.end_state(before, {pk: (by_order[t] if t else None) for pk, t in changes.items()})
    verdict = fmt.check_change(before, after, [first.pk, second.pk])
    names = {pk: e.name for pk, e in active.items()}
    if verdict.refused:
        raise ServiceError(_with_names(verdict.message, names, (first, second)))
    if verdict.needs_confirmation and not confirm:
        sinking = first if verdict.eliminated_group == first.pk else second
        raise ServiceError(
            f"This change leaves {sinking.name} with {verdict.sizes[sinking.pk]} members: "
            f"{sinking.name} would be eliminated at once and its members would be out of the "
            "tournament. Confirm to go ahead.",
            code="confirm",
        )
    # Order matters (TOURNAMENT.md "Fluid membership"): a playing representative who
    # withdraws first forfeits the running duel, which decides that round; the change, and an
    # elimination it causes, take effect after that round.
    lifecycle.players_leave(tournament, actor, withdrawing)
    if withdrawing and not moving:
        after_round = lifecycle.last_decided_round(tournament)
    since = after_round + 1
    for move in verdict.moves:
        entrant = active[move.player]
        entrant.refresh_from_db(fields=["status"])
        if move.target is None:
            entrant.status = EntrantStatus.WITHDRAWN
            why = (withdrawal_reasons or {}).get(move.player) or reason
            entrant.withdrawal_reason = why[:200]
        entrant.group_id = move.target
        entrant.save(update_fields=["status", "group", "withdrawal_reason"])
    Membership.objects.bulk_create(
        [
            Membership(entrant_id=m.player, group_id=m.target, since_round=since)
            for m in verdict.moves
        ]
    )
    changed = {m.player for m in verdict.moves}
    lifecycle.clear_nominations(tournament, changed)
    lapse_gifts(tournament, receivers=changed)
    audit.record(
        tournament,
        actor,
        "membership_changed",
        reason=reason,
        moves=[[m.player, m.source, m.target] for m in verdict.moves],
        after_round=after_round,
        sizes={str(k): v for k, v in verdict.sizes.items()},
    )
    if verdict.needs_confirmation and lifecycle.group_phase_open(tournament):
        # (A forfeit that decided round 15 ended the phase: the limits no longer apply.)
        sinking = first if verdict.eliminated_group == first.pk else second
        lifecycle.eliminate(
            tournament, actor, sinking, list(verdict.eliminated_players), after_round
        )
    recompute_standings(tournament)
    audit.bump_version(tournament)  # membership is state too, even when no point moved
    return verdict


@transaction.atomic
def withdraw(
    tournament: Tournament,
    actor,
    entrant_id: int,
    reason: str = "",
    *,
    confirm: bool = False,
    expected_version: int | None = None,
) -> Withdrawal:
    """Withdraw a player. In the group phase this is a change of membership (the limits apply);
    before it, the player simply leaves; later phases re-plan from results.

    `expected_version` is the standings version the confirmation the organiser saw was drawn
    from: if the tournament changed since, nothing is done and the organiser is asked again
    (what the withdrawal forfeits may have changed). Returns the withdrawal, kept so that a
    mistaken one can be undone (services/withdrawals.py)."""
    tournament = lock(tournament)
    _require(actor, Action.WITHDRAW_PLAYERS, tournament, "withdraw players")
    entrant = tournament.entrants.filter(pk=entrant_id).first()
    if entrant is None:
        raise ServiceError("That player is not registered in this tournament.")
    if entrant.status == EntrantStatus.WITHDRAWN:
        raise ServiceError(f"{entrant.name} is already withdrawn: nothing changed.", code="done")
    if entrant.status != EntrantStatus.ACTIVE:
        raise ServiceError(f"{entrant.name} is not active in this tournament.")
    if tournament.phase in (Phase.COMPLETE, Phase.CANCELLED):
        raise ServiceError("This tournament is over.")
    if expected_version is not None and expected_version != tournament.standings_version:
        raise ServiceError(
            f"The tournament changed since you were asked: check again what withdrawing "
            f"{entrant.name} does now. Nothing was changed.",
            code="stale",
        )
    if tournament.phase in (Phase.TIE_BREAKS, Phase.PLAYOFFS) or tournament.group_phase_ended_at:
        # The automation first takes any step it owes (idempotent), so that what the
        # withdrawal leaves to be undone is only what follows from it (withdrawals.py).
        from .progression import sync

        sync(tournament)
        tournament.refresh_from_db()
        entrant.refresh_from_db()
        if tournament.phase in (Phase.COMPLETE, Phase.CANCELLED):
            raise ServiceError("This tournament is over.")  # rolls the catch-up back too
        if entrant.status != EntrantStatus.ACTIVE:
            raise ServiceError(f"{entrant.name} is not active in this tournament.")
    before = withdrawals.snapshot(tournament, entrant)
    group_id = entrant.group_id
    if (
        tournament.phase == Phase.GROUP_PHASE
        and not tournament.group_phase_ended_at
        and round_one_started(tournament)
    ):
        change_groups(tournament, actor, {entrant_id: None}, confirm=confirm, reason=reason)
        return withdrawals.record(tournament, actor, entrant, group_id, before)
    lifecycle.players_leave(tournament, actor, {entrant_id})
    entrant.refresh_from_db()
    entrant.status = EntrantStatus.WITHDRAWN
    entrant.withdrawal_reason = (reason or "")[:200]
    entrant.group = None
    entrant.save(update_fields=["status", "withdrawal_reason", "group"])
    if tournament.phase == Phase.GROUP_PHASE and not tournament.group_phase_ended_at:
        # Before round 1's duel the split is still set-up (split_groups rebuilds these rows):
        # a player who leaves now was never in a group for round 1.
        Membership.objects.filter(entrant=entrant).delete()
    lapse_gifts(tournament, receivers=[entrant_id])
    audit.record(tournament, actor, "player_withdrawn", reason=reason, entrant=entrant_id)
    recompute_standings(tournament)
    audit.bump_version(tournament)
    if tournament.phase in (Phase.TIE_BREAKS, Phase.PLAYOFFS):
        from .progression import sync

        sync(tournament)  # the plan and the bracket are recomputed from results
    return withdrawals.record(tournament, actor, entrant, group_id, before)


@dataclass(frozen=True)
class Forfeit:
    """A duel a withdrawal would forfeit, and who would win it."""

    duel: Duel
    winner: str  # the opponent's name ("" for a vacant seat)
    walkover: bool  # a tie-break or playoff duel not started: the plan gives the walkover


@dataclass(frozen=True)
class WithdrawalPreview:
    """What withdrawing a player would do, read before anything changes (the confirmation
    names it): the duels forfeited, the nominations cleared, an elimination or a refusal."""

    entrant: Entrant
    forfeits: list[Forfeit]
    nominations: list[Duel]
    eliminates: str  # the name of the group an elimination would put out, else ""
    refusal: str  # why the withdrawal would be refused, else ""
    blocks_round_one: bool  # a set-up withdrawal leaving a group below 5
    version: int  # the standings version this preview was drawn from


def withdrawal_preview(tournament: Tournament, entrant: Entrant) -> WithdrawalPreview:
    """Read-only: what `withdraw` would do now to `entrant` (the same queries as
    `lifecycle.players_leave` and the same check of the end state as `change_groups`)."""
    from django.db.models import Q

    theirs = Q(seat_a_id=entrant.pk) | Q(seat_b_id=entrant.pk)
    forfeits, nominations = [], []
    for duel in Duel.objects.filter(
        theirs, tournament=tournament, status__in=lifecycle.OPEN
    ).select_related("seat_a", "seat_b", "round"):
        other = duel.seat_b if duel.seat_a_id == entrant.pk else duel.seat_a
        if duel.kind == "group" and duel.seq == 0:
            nominations.append(duel)
        else:
            walkover = duel.kind in ("tie_break", "playoff") and duel.seq == 0
            forfeits.append(Forfeit(duel, other.name if other else "", walkover))
    eliminates = refusal = ""
    blocks = False
    if lifecycle.group_phase_open(tournament) and entrant.group_id:
        groups = _groups(tournament)
        active = _active(tournament)
        before = {pk: e.group_id for pk, e in active.items()}
        after = fmt.end_state(before, {entrant.pk: None})
        if round_one_started(tournament):
            verdict = fmt.check_change(before, after, [g.pk for g in groups])
            names = {pk: e.name for pk, e in active.items()}
            if verdict.refused:
                refusal = _with_names(verdict.message, names, groups)
            elif verdict.needs_confirmation:
                eliminates = next(g.name for g in groups if g.pk == verdict.eliminated_group)
        else:
            sizes = fmt.group_sizes(after, [g.pk for g in groups])
            blocks = any(size < fmt.GROUP_MIN for size in sizes.values())
    return WithdrawalPreview(
        entrant, forfeits, nominations, eliminates, refusal, blocks, tournament.standings_version
    )
