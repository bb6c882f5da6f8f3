"""The two fluid groups: naming, splitting, starting the group phase, changes of membership
and withdrawals (TOURNAMENT.md "Phases" and "Group phase")."""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

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


# Who may, in whole sentences: the key is what the refused person tried to do.
_ONLY_ORGANISERS = {
    "name the groups": gettext_lazy("Only the organisers name the groups."),
    "split the groups": gettext_lazy("Only the organisers split the groups."),
    "start the group phase": gettext_lazy("Only the organisers start the group phase."),
    "move players between groups": gettext_lazy("Only the organisers move players between groups."),
    "withdraw players": gettext_lazy("Only the organisers withdraw players."),
}


def _require(actor, action: Action, tournament: Tournament, what: str) -> None:
    if not can(actor, action, tournament):
        raise ServiceError(str(_ONLY_ORGANISERS[what]), code="forbidden")


def _groups(tournament: Tournament) -> tuple[Group, Group]:
    first, second = tournament.groups.order_by("order")
    return first, second


def _active(tournament: Tournament) -> dict[int, Entrant]:
    return {e.pk: e for e in tournament.entrants.filter(status=EntrantStatus.ACTIVE)}


def _ids(message: str) -> list[int]:
    """The ids a format rule's words name ("Players [3, 7] are in no group.")."""
    found = re.search(r"\[(\d+(?:, \d+)*)\]", message)
    return [int(pk) for pk in found[1].split(", ")] if found else []


def problem_text(
    problem: fmt.Problem, names: Mapping[int, str], groups: Sequence[Group], active: int
) -> str:
    """A format rule's reason, in words and names, translated: the pure rules speak English
    and ids; `code` says which rule it is (`tournaments.format.groups`). `active`: how many
    active players there are."""
    who = ", ".join(names.get(pk, str(pk)) for pk in _ids(problem.message))
    if problem.code == "entrant_count":
        return _("The group phase needs %(min)s–%(max)s active entrants; there are %(n)s.") % {
            "min": fmt.ENTRANTS_MIN,
            "max": fmt.ENTRANTS_MAX,
            "n": active,
        }
    if problem.code == "not_in_group":
        return _("Not in a group yet: %(names)s.") % {"names": who}
    if problem.code == "inactive_member":
        return _("In a group but not active: %(names)s.") % {"names": who}
    if problem.code == "unknown_group":
        return _("In an unknown group: %(names)s.") % {"names": who}
    if problem.code in ("group_too_small", "group_too_large"):
        found = re.match(r"Group (\d+) has (\d+)", problem.message)
        group_names = {g.pk: g.name for g in groups}
        group = group_names.get(int(found[1]), found[1]) if found else ""
        size = int(found[2]) if found else 0
        if problem.code == "group_too_small":
            return ngettext(
                "%(group)s has %(n)s member; it needs at least %(min)s.",
                "%(group)s has %(n)s members; it needs at least %(min)s.",
                size,
            ) % {"group": group, "n": size, "min": fmt.GROUP_MIN}
        return ngettext(
            "%(group)s has %(n)s member; it may have at most %(max)s.",
            "%(group)s has %(n)s members; it may have at most %(max)s.",
            size,
        ) % {"group": group, "n": size, "max": fmt.GROUP_MAX}
    return problem.message


def verdict_text(verdict: fmt.ChangeVerdict) -> str:
    """A change's verdict from the format rules, in words, translated (by its `code`)."""
    sizes = list(verdict.sizes.values())
    if verdict.code == "above_limit":
        return _(
            "A group may have at most %(max)s members; this change leaves %(n)s in one group."
        ) % {"max": fmt.GROUP_MAX, "n": max(sizes)}
    if verdict.code == "both_below":
        return _("This change leaves both groups below %(min)s members (%(a)s and %(b)s).") % {
            "min": fmt.GROUP_MIN,
            "a": sizes[0],
            "b": sizes[1],
        }
    if verdict.code == "elimination":
        n = verdict.sizes.get(verdict.eliminated_group, 0)
        return ngettext(
            "This change leaves a group with %(n)s member: once confirmed, that group is "
            "eliminated at once and its members are out of the tournament.",
            "This change leaves a group with %(n)s members: once confirmed, that group is "
            "eliminated at once and its members are out of the tournament.",
            n,
        ) % {"n": n}
    if verdict.code == "unknown_player":
        return _("Some of these players are not in the group phase and cannot join a group.")
    if verdict.code == "unknown_group":
        return _("That group is not in this tournament.")
    return _("The change keeps both groups within the limits.")


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
    """Round 1's duel has started: a move stands, or, online, it is dealt (`UNSTARTED`)."""
    return (
        Duel.objects.filter(tournament=tournament, round__number=1)
        .exclude(lifecycle.UNSTARTED)
        .exists()
    )


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
        ngettext("%(group)s has %(n)s member", "%(group)s has %(n)s members", sizes[g.pk])
        % {"group": g.name, "n": sizes[g.pk]}
        for g in groups
        if not fmt.GROUP_MIN <= sizes[g.pk] <= fmt.GROUP_MAX
    )
    if len(active) < 2 * fmt.GROUP_MIN:
        return _(
            "Round 1 cannot start: %(sizes)s, and with %(n)s active players no split gives "
            "both groups %(min)s. The event cannot go on; the organiser may cancel it."
        ) % {"sizes": words, "n": len(active), "min": fmt.GROUP_MIN}
    return _(
        "Round 1 cannot start: %(sizes)s; each group needs %(min)s to %(max)s. Rebalance the "
        "split on the groups page (it can be edited until round 1's duel starts)."
    ) % {"sizes": words, "min": fmt.GROUP_MIN, "max": fmt.GROUP_MAX}


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
            _(
                "The split can be edited only until round 1's duel starts; after "
                "that, players move between groups by transfers."
            )
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
            raise ServiceError(_("Only active players of this tournament can be put in a group."))
        bad = [v for v in (assignment or {}).values() if v not in (1, 2, None)]
        if bad:
            raise ServiceError(_("Each player goes to group 1, group 2 or no group."))
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
        raise ServiceError(_("Split by hand, at random or alternating."))
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
        raise ServiceError(_("The group phase has already started."))
    first, second = _groups(tournament)
    active = _active(tournament)
    membership = {pk: e.group_id for pk, e in active.items() if e.group_id}
    problems = fmt.check_start(list(active), membership, [first.pk, second.pk])
    if problems:
        names = {pk: e.name for pk, e in active.items()}
        raise ServiceError(
            _("The group phase cannot start: %(problems)s")
            % {
                "problems": " ".join(
                    problem_text(p, names, (first, second), len(active)) for p in problems
                )
            }
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
        return Window(False, _("Transfers happen only while the group phase is open."), 0)
    decided = lifecycle.last_decided_round(tournament)
    started = (
        Duel.objects.filter(tournament=tournament, round__number=decided + 1)
        .exclude(lifecycle.UNSTARTED)
        .exists()
    )
    if fmt.change_window_open(decided, started):
        return Window(
            True,
            _(
                "Round %(decided)s is decided: changes take effect from round %(next)s, and "
                "the window closes when round %(next)s's duel starts."
            )
            % {"decided": decided, "next": decided + 1},
            decided,
        )
    if decided == 0:
        return Window(
            False,
            _(
                "Transfers open once round 1 has a decisive result; until round 1's duel "
                "starts, edit the split instead."
            ),
            0,
        )
    if decided >= fmt.ROUNDS:
        return Window(False, _("There are no transfers after round 15."), decided)
    return Window(
        False,
        _("Round %(next)s's duel has started: transfers wait until it has a decisive result.")
        % {"next": decided + 1},
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
        raise ServiceError(
            _("Group limits and transfers apply only while the group phase is open.")
        )
    if not moving and not round_one_started(tournament):
        # TOURNAMENT.md "Split": until round 1's duel starts the split is set-up, and a
        # withdrawal that leaves a group at 4 blocks round 1 and eliminates nobody — `withdraw`
        # does that, one player at a time. (Moves are refused by the window below.)
        raise ServiceError(
            _(
                "Until round 1's duel starts the split is still set-up: withdraw each player on "
                "their own, or edit the split. A group left at 4 then waits for the split to be "
                "rebalanced; nobody is eliminated."
            )
        )
    after_round = _window(tournament) if moving else lifecycle.last_decided_round(tournament)
    first, second = _groups(tournament)
    by_order = {1: first.pk, 2: second.pk}
    active = _active(tournament)
    if not set(changes) <= set(active):
        raise ServiceError(_("Only active players of the group phase can move or withdraw."))
    if any(t not in (1, 2, None) for t in changes.values()):
        raise ServiceError(_("Each player moves to group 1 or group 2."))
    before = {pk: e.group_id for pk, e in active.items()}
    after = fmt.end_state(before, {pk: (by_order[t] if t else None) for pk, t in changes.items()})
    verdict = fmt.check_change(before, after, [first.pk, second.pk])
    if verdict.refused:
        raise ServiceError(verdict_text(verdict))
    if verdict.needs_confirmation and not confirm:
        sinking = first if verdict.eliminated_group == first.pk else second
        raise ServiceError(
            ngettext(
                "This change leaves %(name)s with %(n)s member: %(name)s would be eliminated "
                "at once and its members would be out of the tournament. Confirm to go ahead.",
                "This change leaves %(name)s with %(n)s members: %(name)s would be eliminated "
                "at once and its members would be out of the tournament. Confirm to go ahead.",
                verdict.sizes[sinking.pk],
            )
            % {"name": sinking.name, "n": verdict.sizes[sinking.pk]},
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
        raise ServiceError(_("That player is not registered in this tournament."))
    if entrant.status == EntrantStatus.WITHDRAWN:
        raise ServiceError(
            _("%(name)s is already withdrawn: nothing changed.") % {"name": entrant.name},
            code="done",
        )
    if entrant.status != EntrantStatus.ACTIVE:
        raise ServiceError(_("%(name)s is not active in this tournament.") % {"name": entrant.name})
    if tournament.phase in (Phase.COMPLETE, Phase.CANCELLED):
        raise ServiceError(_("This tournament is over."))
    if expected_version is not None and expected_version != tournament.standings_version:
        raise ServiceError(
            _(
                "The tournament changed since you were asked: check again what withdrawing "
                "%(name)s does now. Nothing was changed."
            )
            % {"name": entrant.name},
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
            raise ServiceError(_("This tournament is over."))  # rolls the catch-up back too
        if entrant.status != EntrantStatus.ACTIVE:
            raise ServiceError(
                _("%(name)s is not active in this tournament.") % {"name": entrant.name}
            )
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
        if duel.kind == "group" and lifecycle.unstarted(duel):
            nominations.append(duel)
        else:
            walkover = duel.kind in ("tie_break", "playoff") and lifecycle.unstarted(duel)
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
            if verdict.refused:
                refusal = verdict_text(verdict)
            elif verdict.needs_confirmation:
                eliminates = next(g.name for g in groups if g.pk == verdict.eliminated_group)
        else:
            sizes = fmt.group_sizes(after, [g.pk for g in groups])
            blocks = any(size < fmt.GROUP_MIN for size in sizes.values())
    return WithdrawalPreview(
        entrant, forfeits, nominations, eliminates, refusal, blocks, tournament.standings_version
    )
