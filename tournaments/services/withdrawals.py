"""Undoing a withdrawal made by mistake (TOURNAMENT.md "Corrections").

A withdrawal can be undone while the tournament is still as it left it: nothing has happened
since but what the app did by itself because of it (the forfeit and the round it decided, the
next round opened, a change window, tie-breaks re-planned, a walkover, a notice sent). Undoing
makes the player active again in the same group, marks the forfeit undone (the duel goes on
where it stood), takes back what followed automatically and tells whoever was notified. A
withdrawal that eliminated a group cannot be undone; after anything else it is final.

`groups.withdraw` takes a `snapshot` before it changes anything and `record`s the withdrawal
after; `undo_blocker` says in words why an undo is no longer possible; `undo_withdrawal`
applies it. The rounds and phases are put back by `lifecycle.take_back`, the one owner.
"""

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.permissions import Action, can
from core.errors import ServiceError
from duels.models import Duel, DuelStatus
from duels.selectors import moves_of

from .. import presentation
from ..models import (
    AuditEntry,
    Entrant,
    EntrantStatus,
    Membership,
    Phase,
    Round,
    SharedCard,
    SharedCardStatus,
    Tournament,
    Withdrawal,
)
from . import audit, lifecycle
from .setup import lock
from .shared_cards import restore_gifts
from .standings import recompute_standings


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def snapshot(tournament: Tournament, entrant: Entrant) -> dict[str, Any]:
    """What a withdrawal finds, read under the tournament's lock before it changes anything."""
    return {
        "started_at": timezone.now().isoformat(),
        "phase": tournament.phase,
        "group_phase_ended_at": _iso(tournament.group_phase_ended_at),
        "top_four_settled_at": _iso(tournament.top_four_settled_at),
        "placings": tournament.placings,
        "duels": {
            str(pk): [status, seq]
            for pk, status, seq in Duel.objects.filter(tournament=tournament).values_list(
                "pk", "status", "seq"
            )
        },
        "rounds": {
            str(pk): status
            for pk, status in Round.objects.filter(tournament=tournament).values_list(
                "pk", "status"
            )
        },
        "gifts": list(
            SharedCard.objects.filter(
                tournament=tournament, status=SharedCardStatus.PENDING
            ).values_list("pk", flat=True)
        ),
        "memberships": [
            [group, since]
            for group, since in entrant.memberships.order_by("since_round", "pk").values_list(
                "group_id", "since_round"
            )
        ],
        "audit": _last_audit(tournament),
    }


def _last_audit(tournament: Tournament) -> int:
    return AuditEntry.objects.filter(tournament=tournament).aggregate(m=Max("pk"))["m"] or 0


def record(
    tournament: Tournament, actor, entrant: Entrant, group_id: int | None, before: dict
) -> Withdrawal:
    """The withdrawal is done: keep what it needs to be undone. Its forfeits are the duels it
    finished; an elimination it caused makes it final."""
    was_open = [
        int(pk) for pk, (status, _rest) in before["duels"].items() if status != DuelStatus.FINISHED
    ]
    forfeits = list(
        Duel.objects.filter(pk__in=was_open, status=DuelStatus.FINISHED).values_list(
            "pk", flat=True
        )
    )
    eliminated = AuditEntry.objects.filter(
        tournament=tournament, pk__gt=before["audit"], action="group_eliminated"
    ).exists()
    entrant.refresh_from_db()  # the change of membership wrote it through another instance
    return Withdrawal.objects.create(
        tournament=tournament,
        entrant=entrant,
        group_id=group_id,
        actor=actor,
        created_at=datetime.fromisoformat(before["started_at"]),
        before=before,
        audit_upto=_last_audit(tournament),
        forfeits=forfeits,
        eliminated=eliminated,
    )


def latest(tournament: Tournament) -> Withdrawal | None:
    """The latest withdrawal not undone: the only one an undo could still concern (any later
    withdrawal is something that happened since)."""
    return (
        Withdrawal.objects.filter(tournament=tournament, undone_at__isnull=True)
        .select_related("entrant", "group", "actor")
        .first()
    )


def undo_blocker(tournament: Tournament, withdrawal: Withdrawal) -> str:
    """Why this withdrawal can no longer be undone, in words; empty when it can."""
    name = withdrawal.entrant.name
    words = presentation.withdrawal_undo_blocker
    if withdrawal.undone_at:
        return words(name, "undone")
    if withdrawal.eliminated:
        return words(name, "eliminated")
    if tournament.phase == Phase.CANCELLED:
        return words(name, "cancelled")
    later = (
        AuditEntry.objects.filter(
            tournament=tournament, pk__gt=withdrawal.audit_upto, actor__isnull=False
        )
        .order_by("pk")
        .first()
    )
    if later is not None:
        return words(name, "later", detail=presentation.action_text(later.action))
    moves = moves_of({"tournament": tournament}, after=withdrawal.created_at)
    for move in moves:
        automatic = move.event.get("type") == "forfeit" and move.undone_at is None
        by_the_withdrawal = move.duel_id in withdrawal.forfeits or not move.actor
        if not (automatic and by_the_withdrawal):
            duel = Duel.objects.select_related("round").get(pk=move.duel_id)
            return words(name, "moved", detail=presentation.duel_title(duel))
    status = Entrant.objects.filter(pk=withdrawal.entrant_id).values_list("status", flat=True)
    if status.first() != EntrantStatus.WITHDRAWN:
        return words(name, "active")
    return ""


@transaction.atomic
def undo_withdrawal(tournament: Tournament, actor, *, withdrawal_id: int) -> Withdrawal:
    """Undo a mistaken withdrawal, or say in words why it can no longer be undone. The same
    undo sent twice changes nothing the second time, and says so."""
    tournament = lock(tournament)
    if not can(actor, Action.WITHDRAW_PLAYERS, tournament):
        raise ServiceError(_("Only the organisers undo a withdrawal."), code="forbidden")
    withdrawal = (
        Withdrawal.objects.select_for_update(of=("self",))
        .select_related("entrant", "group")
        .filter(pk=withdrawal_id, tournament=tournament)
        .first()
    )
    if withdrawal is None:
        raise ServiceError(_("There is no such withdrawal in this tournament."))
    blocker = undo_blocker(tournament, withdrawal)
    if blocker:
        raise ServiceError(blocker, code="done" if withdrawal.undone_at else "final")
    before = withdrawal.before
    entrant = Entrant.objects.select_for_update().get(pk=withdrawal.entrant_id)
    entrant.status = EntrantStatus.ACTIVE
    entrant.group_id = withdrawal.group_id
    entrant.withdrawal_reason = ""
    entrant.save(update_fields=["status", "group", "withdrawal_reason"])
    # The player's membership history is as it was: in the same group, never out of it.
    Membership.objects.filter(entrant=entrant).delete()
    Membership.objects.bulk_create(
        [
            Membership(entrant=entrant, group_id=group, since_round=since)
            for group, since in before["memberships"]
        ]
    )
    taken = lifecycle.take_back(tournament, actor, before)
    restore_gifts(tournament, before["gifts"])
    withdrawal.undone_at = timezone.now()
    withdrawal.undone_by = actor
    withdrawal.save(update_fields=["undone_at", "undone_by"])
    audit.record(
        tournament,
        actor,
        "withdrawal_undone",
        entrant=entrant.pk,
        group=withdrawal.group_id,
        duels=taken["restored"],
        duels_voided=taken["voided"],
    )
    recompute_standings(tournament)
    audit.bump_version(tournament)
    if tournament.phase in (Phase.TIE_BREAKS, Phase.PLAYOFFS, Phase.COMPLETE):
        from .progression import sync

        sync(tournament)  # the plan and the bracket follow from the results as they are again
    from ..tasks import advance_tournament, enqueue_on_commit, notify_withdrawal_undone

    # A phase given back with its end already recorded (the tie-breaks not yet planned when
    # the withdrawal came) is the automation's next step, as after any result.
    enqueue_on_commit(advance_tournament, tournament.pk)
    enqueue_on_commit(notify_withdrawal_undone, withdrawal.pk, taken["restored"], taken["voided"])
    return withdrawal
