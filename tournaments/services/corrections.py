"""Corrections and voids (TOURNAMENT.md "Corrections").

A correction is an override stored on the duel's result — winner (or none), finish, reason,
who — with the event record left as played. Everything downstream is recomputed from results,
never patched.
"""

from collections.abc import Callable

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.permissions import Action, can
from core.errors import ServiceError
from duels import services as duels
from duels.models import Duel, DuelKind, DuelStatus, Result

from .. import presentation
from ..models import AuditEntry, Phase, RoundStatus, Tournament
from . import audit, lifecycle
from .setup import lock
from .standings import recompute_standings

CORRECTED_FINISH = "adjudicated"
RULINGS = ("result_corrected", "result_voided")


def _may(tournament: Tournament, actor, duel) -> None:
    players = [e.user_id for e in (duel.seat_a, duel.seat_b) if e is not None and e.user_id]
    if not can(actor, Action.CORRECT_RESULTS, tournament):
        raise ServiceError(_("Only the organisers correct results."), code="forbidden")
    if not can(actor, Action.CORRECT_RESULTS, tournament, players=players):
        raise ServiceError(
            _("You play in this duel: another organiser must correct it."), code="forbidden"
        )


def _check_intent(
    tournament: Tournament,
    actor,
    duel,
    *,
    intent: str,
    expected_version: int | None,
    already: Callable[[], bool],
) -> None:
    """DESIGN.md's order after the lock and who may: the form's key (this ruling sent again),
    then the tournament's version (the preview the organiser saw must still be true). A
    ruling the tournament already holds, sent from a page drawn earlier (a second organiser,
    a second tab), is told as recorded, with who and when; any other change since the page
    asks for a fresh preview. Nothing is written either way."""
    rulings = AuditEntry.objects.filter(
        tournament=tournament, action__in=RULINGS, detail__duel=duel.pk
    ).select_related("actor")
    if intent:
        done = rulings.filter(actor=actor, detail__intent=intent).order_by("-pk").first()
        if done is not None:
            raise _recorded(tournament, duel, done, repeat=True)
    if already():
        done = rulings.order_by("-pk").first()
        if done is not None:
            raise _recorded(tournament, duel, done, repeat=False)
    if expected_version is not None and expected_version != tournament.standings_version:
        raise ServiceError(presentation.ruling_stale(), code="conflict")


def _recorded(tournament: Tournament, duel, entry: AuditEntry, *, repeat: bool) -> ServiceError:
    """This ruling, recorded: sent again with its key (`repeat`, its stored outcome), or
    from another page (refused)."""
    from .refereeing import AlreadyRecorded, venue_time

    duel = Duel.objects.select_related("round", "result__winner").get(pk=duel.pk)
    if entry.action == "result_voided":
        ruling = _("void, replayed") if entry.detail.get("replay") else _("void, no result")
    else:
        winner = getattr(getattr(duel, "result", None), "winner", None)
        ruling = presentation.outcome_text(winner.name if winner else None)
    return AlreadyRecorded(
        presentation.ruling_already_recorded(
            presentation.duel_title(duel),
            presentation.person_label(entry.actor),
            venue_time(tournament, entry.created_at),
            ruling,
        ),
        repeat=repeat,
    )


def _check(tournament: Tournament, actor, duel, reason: str) -> str:
    _may(tournament, actor, duel)
    reason = " ".join((reason or "").split())
    if not reason:
        raise ServiceError(_("A correction needs a reason: it is shown with the result."))
    if duel.status != DuelStatus.FINISHED:
        raise ServiceError(_("Only a finished duel's result can be corrected."))
    frozen = frozen_reason(tournament, duel)
    if frozen:
        raise ServiceError(frozen, code="frozen")
    return reason[:300]


def frozen_reason(tournament: Tournament, duel) -> str:
    """Read-only: why this duel's result can no longer be corrected or voided, in words
    (empty when it can). The results pages ask it before they offer a correction."""
    if duel.kind == DuelKind.PLAYOFF:
        if tournament.phase not in (Phase.PLAYOFFS, Phase.COMPLETE):
            return presentation.FROZEN_PLAYOFF
        return ""
    if tournament.phase == Phase.CANCELLED:
        return presentation.FROZEN_CANCELLED
    if tournament.phase in (Phase.PLAYOFFS, Phase.COMPLETE):
        return presentation.FROZEN_BY_PLAYOFFS
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
def correct_result(
    tournament: Tournament,
    actor,
    duel,
    winner_seat: str | None,
    reason: str,
    *,
    expected_version: int | None = None,
    intent: str = "",
) -> Result:
    """Override a finished duel's result: `winner_seat` "A", "B" or None (no winner).

    `expected_version` is the tournament's version the page (its preview) showed, `intent`
    the form's key: a repeat or a stale page is refused in words, nothing written."""
    tournament = lock(tournament)
    duel = _locked_duel(tournament, duel)
    _may(tournament, actor, duel)

    def already() -> bool:
        result = getattr(duel, "result", None)
        seats = {"A": duel.seat_a_id, "B": duel.seat_b_id}
        return (
            duel.status == DuelStatus.FINISHED
            and result is not None
            and result.corrected
            and result.winner_id == (seats[winner_seat] if winner_seat else None)
        )

    _check_intent(
        tournament,
        actor,
        duel,
        intent=intent,
        expected_version=expected_version,
        already=already,
    )
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
        **({"intent": intent} if intent else {}),
    )
    _downstream(tournament)
    return result


@transaction.atomic
def void_result(
    tournament: Tournament,
    actor,
    duel,
    reason: str,
    *,
    replay: bool = True,
    expected_version: int | None = None,
    intent: str = "",
) -> None:
    """Void a group round's result: replayed by the same two players for the same groups (the
    default; a player no longer active forfeits it), or no result for that round. A repeat
    or a stale page: as `correct_result`."""
    tournament = lock(tournament)
    duel = _locked_duel(tournament, duel)
    _may(tournament, actor, duel)
    _check_intent(
        tournament,
        actor,
        duel,
        intent=intent,
        expected_version=expected_version,
        already=lambda: duel.status == DuelStatus.VOID,
    )
    reason = _check(tournament, actor, duel, reason)
    if duel.kind not in lifecycle.GROUP_KINDS:
        raise ServiceError(_("Only group-round results are voided; correct other results."))
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
    audit.record(
        tournament,
        actor,
        "result_voided",
        reason=reason,
        duel=duel.pk,
        replay=replay,
        **({"intent": intent} if intent else {}),
    )
    _downstream(tournament)
