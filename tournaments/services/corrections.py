"""Corrections and voids (TOURNAMENT.md "Corrections").

A correction is an override stored on the duel's result — winner (or none), finish, reason,
who — with the event record left as played. Everything downstream is recomputed from results,
never patched.
"""

from django.db import transaction

from accounts.permissions import Action, can

from ..errors import ServiceError
from ..models import EntrantStatus, Phase, RoundStatus, Tournament
from . import audit
from .setup import lock
from .standings import recompute_standings

CORRECTED_FINISH = "adjudicated"


def _check(tournament: Tournament, actor, duel, reason: str) -> str:
    from duels.models import DuelKind, DuelStatus

    players = [e.user_id for e in (duel.seat_a, duel.seat_b) if e is not None and e.user_id]
    if not can(actor, Action.CORRECT_RESULTS, tournament):
        raise ServiceError("Only the organisers correct results.", code="forbidden")
    if not can(actor, Action.CORRECT_RESULTS, tournament, players=players):
        raise ServiceError("You play in this duel: another organiser must correct it.",
                           code="forbidden")
    reason = " ".join((reason or "").split())
    if not reason:
        raise ServiceError("A correction needs a reason: it is shown with the result.")
    if duel.status != DuelStatus.FINISHED:
        raise ServiceError("Only a finished duel's result can be corrected.")
    if duel.kind == DuelKind.PLAYOFF:
        if tournament.phase not in (Phase.PLAYOFFS, Phase.COMPLETE):
            raise ServiceError("Playoff results are corrected while the playoffs run or after.")
    elif tournament.phase in (Phase.PLAYOFFS, Phase.COMPLETE, Phase.CANCELLED):
        raise ServiceError("Group-phase and tie-break results froze when the playoffs started.")
    return reason[:300]


def _locked_duel(tournament: Tournament, duel):
    from duels.models import Duel

    return (Duel.objects.select_for_update(of=("self",))
            .select_related("seat_a", "seat_b", "round", "result").get(pk=duel.pk,
                                                                      tournament=tournament))


def _downstream(tournament: Tournament) -> None:
    """Recompute everything that follows from results."""
    recompute_standings(tournament)
    from . import progression

    progression.sync(tournament)


@transaction.atomic
def correct_result(tournament: Tournament, actor, duel, winner_seat: str | None,
                   reason: str):
    """Override a finished duel's result: `winner_seat` "A", "B" or None (no winner)."""
    from duels.models import DuelKind, DuelStatus
    from duels.services import create_replay, decide_round, undecide_round

    tournament = lock(tournament)
    duel = _locked_duel(tournament, duel)
    reason = _check(tournament, actor, duel, reason)
    if winner_seat not in ("A", "B", None):
        raise ServiceError("The winner is seat A, seat B or nobody.")
    result = duel.result
    seats = {"A": duel.seat_a, "B": duel.seat_b}
    winner = seats[winner_seat] if winner_seat else None
    if winner == result.winner:
        raise ServiceError("That is already the result.")
    was_decisive = result.winner is not None
    result.winner = winner
    result.loser = seats["B" if winner_seat == "A" else "A"] if winner else None
    result.finish = CORRECTED_FINISH
    result.corrected = True
    result.correction_reason = reason
    result.corrected_by = actor
    result.save()
    if was_decisive and winner is None:
        create_replay(duel)  # a win corrected to none makes a replay due
        if duel.kind in (DuelKind.GROUP, DuelKind.REPLAY):
            undecide_round(tournament, duel.round)
    elif not was_decisive and winner is not None:
        # A draw corrected to a win voids its replay, played or not.
        duel.replays.update(status=DuelStatus.VOID)
        if duel.kind in (DuelKind.GROUP, DuelKind.REPLAY) and \
                duel.round.status != RoundStatus.DECIDED:
            decide_round(tournament, duel.round)
    audit.record(tournament, actor, "result_corrected", reason=reason, duel=duel.pk,
                 winner=winner.pk if winner else None)
    _downstream(tournament)
    return result


@transaction.atomic
def void_result(tournament: Tournament, actor, duel, reason: str, *, replay: bool = True):
    """Void a group round's result: replayed by the same two players for the same groups (the
    default; a withdrawn player forfeits it), or no result for that round."""
    from duels.models import DuelKind, DuelStatus
    from duels.services import create_replay, forfeit_for_withdrawal, undecide_round

    tournament = lock(tournament)
    duel = _locked_duel(tournament, duel)
    reason = _check(tournament, actor, duel, reason)
    if duel.kind not in (DuelKind.GROUP, DuelKind.REPLAY):
        raise ServiceError("Only group-round results are voided; correct other results.")
    duel.status = DuelStatus.VOID
    duel.save(update_fields=["status"])
    if replay:
        again = create_replay(duel)
        gone = [seat for seat, e in (("A", duel.seat_a), ("B", duel.seat_b))
                if e.status != EntrantStatus.ACTIVE]
        if gone:
            forfeit_for_withdrawal(again, actor, gone[0])
        else:
            undecide_round(tournament, duel.round)
    else:
        duel.round.status = RoundStatus.NOT_PLAYED
        duel.round.save(update_fields=["status"])
    audit.record(tournament, actor, "result_voided", reason=reason, duel=duel.pk,
                 replay=replay)
    _downstream(tournament)
