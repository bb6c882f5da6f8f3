"""Corrections and voids (TOURNAMENT.md "Corrections").

A correction is an override stored on the duel's result — winner (or none), finish, reason,
who — with the event record left as played. Everything downstream is recomputed from results,
never patched.
"""

from django.db import transaction

from accounts.permissions import Action, can
from core.errors import ServiceError
from duels import services as duels
from duels.models import Duel, DuelKind, DuelStatus

from ..models import Phase, RoundStatus, Tournament
from . import audit, lifecycle
from .setup import lock
from .standings import recompute_standings

CORRECTED_FINISH = "adjudicated"


def _check(tournament: Tournament, actor, duel, reason: str) -> str:
    players = [e.user_id for e in (duel.seat_a, duel.seat_b) if e is not None and e.user_id]
    if not can(actor, Action.CORRECT_RESULTS, tournament):
        raise ServiceError("Only the organisers correct results.", code="forbidden")
    if not can(actor, Action.CORRECT_RESULTS, tournament, players=players):
        raise ServiceError(
            "You play in this duel: another organiser must correct it.", code="forbidden"
        )
    reason = " ".join((reason or "").split())
    if not reason:
        raise ServiceError("A correction needs a reason: it is shown with the result.")
    if duel.status != DuelStatus.FINISHED:
        raise ServiceError("Only a finished duel's result can be corrected.")
    frozen = frozen_reason(tournament, duel)
    if frozen:
        raise ServiceError(frozen, code="frozen")
    return reason[:300]


def frozen_reason(tournament: Tournament, duel) -> str:
    """Read-only: why this duel's result can no longer be corrected or voided, in words
    (empty when it can). The results pages ask it before they offer a correction."""
    if duel.kind == DuelKind.PLAYOFF:
        if tournament.phase not in (Phase.PLAYOFFS, Phase.COMPLETE):
            return "Playoff results are corrected while the playoffs run or after."
        return ""
    if tournament.phase == Phase.CANCELLED:
        return "The tournament is cancelled: its results stand as they are."
    if tournament.phase in (Phase.PLAYOFFS, Phase.COMPLETE):
        return (
            "Group-phase and tie-break results froze when the playoffs started: this result "
            "can no longer be corrected or voided."
        )
    return ""


def _locked_duel(tournament: Tournament, duel):
    return (
        Duel.objects.select_for_update(of=("self",))
        .select_related("seat_a", "seat_b", "round", "result")
        .get(pk=duel.pk, tournament=tournament)
    )


def _downstream(tournament: Tournament) -> None:
    """Recompute everything that follows from results."""
    recompute_standings(tournament)
    from . import progression

    progression.sync(tournament)


@transaction.atomic
def correct_result(tournament: Tournament, actor, duel, winner_seat: str | None, reason: str):
    """Override a finished duel's result: `winner_seat` "A", "B" or None (no winner)."""
    tournament = lock(tournament)
    duel = _locked_duel(tournament, duel)
    reason = _check(tournament, actor, duel, reason)
    was_decisive = duel.result.winner is not None
    result = duels.override_result(
        duel, winner_seat=winner_seat, finish=CORRECTED_FINISH, reason=reason, actor=actor
    )
    if was_decisive and result.winner is None:
        # A win corrected to none makes a replay due (played during the tie-breaks when the
        # group phase is over); round n is open again until round n + 1 has started.
        again = lifecycle.replay_due(tournament, duel, actor)
        if duel.kind in lifecycle.GROUP_KINDS and again.status != DuelStatus.FINISHED:
            lifecycle.undecide_round(tournament, duel.round)
    elif not was_decisive and result.winner is not None:
        # A draw corrected to a win voids its replay, played or not, and every replay of it.
        lifecycle.void_replays(duel)
        if duel.kind in lifecycle.GROUP_KINDS and duel.round.status != RoundStatus.DECIDED:
            lifecycle.decide_round(tournament, duel.round)
    audit.record(
        tournament,
        actor,
        "result_corrected",
        reason=reason,
        duel=duel.pk,
        winner=result.winner.pk if result.winner else None,
    )
    _downstream(tournament)
    return result


@transaction.atomic
def void_result(tournament: Tournament, actor, duel, reason: str, *, replay: bool = True):
    """Void a group round's result: replayed by the same two players for the same groups (the
    default; a player no longer active forfeits it), or no result for that round."""
    tournament = lock(tournament)
    duel = _locked_duel(tournament, duel)
    reason = _check(tournament, actor, duel, reason)
    if duel.kind not in lifecycle.GROUP_KINDS:
        raise ServiceError("Only group-round results are voided; correct other results.")
    duels.void([duel.pk])
    duel.status = DuelStatus.VOID
    # A drawn duel's replays follow from it: voiding it voids them too (one of them may hold
    # the round's decisive result, which would otherwise count beside the new replay's).
    lifecycle.void_replays(duel)
    if replay:
        again = lifecycle.replay_due(tournament, duel, actor)
        if again.status != DuelStatus.FINISHED:
            lifecycle.undecide_round(tournament, duel.round)
    else:
        lifecycle.round_not_played(tournament, duel.round)
    audit.record(tournament, actor, "result_voided", reason=reason, duel=duel.pk, replay=replay)
    _downstream(tournament)
