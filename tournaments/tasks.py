"""Celery tasks: a thin API over the services. Each takes an id and recomputes from committed
data, so a duplicated, late or out-of-order delivery changes nothing."""

import logging
from functools import partial

from celery import shared_task
from django.db import transaction

logger = logging.getLogger(__name__)


def enqueue_on_commit(task, *args, **options) -> None:
    """Send `task` once the transaction commits; a broker failure is logged, never raised.

    Like Celery's `delay_on_commit`, but robust: tasks never fail a request (DESIGN.md), and
    the beat sweep repairs what a lost task left stale.
    """
    transaction.on_commit(partial(task.apply_async, args, **options), robust=True)


def _tournament(tournament_id: int):
    from .models import Tournament

    return Tournament.objects.filter(pk=tournament_id).first()


@shared_task(acks_late=True)
def recompute_standings(tournament_id: int) -> int | None:
    from .services.standings import recompute_standings as recompute

    tournament = _tournament(tournament_id)
    return recompute(tournament) if tournament else None


@shared_task(acks_late=True)
def advance_tournament(tournament_id: int) -> bool:
    from .services.progression import sync

    tournament = _tournament(tournament_id)
    return bool(tournament and sync(tournament))


@shared_task
def sweep() -> dict[str, int]:
    """Beat: repair whatever a lost task left stale. Every step is idempotent.

    Rebuilds standings whose materialised rows are missing, takes every tournament's next step,
    and sends overdue time-limit warnings and endings.
    """
    from django.utils import timezone

    from duels.models import Duel, DuelStatus

    from .models import FINAL_PHASES, Tournament
    from .services.lifecycle import GROUP_KINDS, OPEN, repair
    from .services.progression import sync
    from .services.refereeing import enforce_time_limit, warn_time_limit
    from .services.standings import recompute_standings as recompute

    done = {"advanced": 0, "recomputed": 0, "warned": 0, "timed_out": 0, "repaired": 0}
    now = timezone.now()
    for duel in Duel.objects.filter(status=DuelStatus.RUNNING, deadline__isnull=False):
        done["warned"] += warn_time_limit(duel, now)
        done["timed_out"] += enforce_time_limit(duel, now)
    # Group duels left open past the group phase by an earlier version (one query).
    for tournament in Tournament.objects.filter(
            phase__in=["tie_breaks", "playoffs", *FINAL_PHASES], pk__in=Duel.objects.filter(
                kind__in=GROUP_KINDS, status__in=OPEN).values("tournament_id")):
        done["repaired"] += repair(tournament)
    for tournament in Tournament.objects.exclude(phase__in=FINAL_PHASES).exclude(
            phase__in=["draft", "registration"]):
        if tournament.standing_rows.count() != tournament.entrants.count():
            recompute(tournament)
            done["recomputed"] += 1
        done["advanced"] += sync(tournament)
    return done


@shared_task
def expire_claim_links() -> int:
    from .services import expire_claim_links as expire

    return expire()


# Duel time limits (TOURNAMENT.md "No winner"): a warning before the deadline, `time_limit` at
# it. Scheduled for the deadline when the duel starts; the beat sweep catches any lost task.

def schedule_time_limit(duel_id: int, deadline) -> None:
    from .services.refereeing import WARNING_BEFORE

    warn_time_limit.apply_async((duel_id,), eta=deadline - WARNING_BEFORE)
    enforce_time_limit.apply_async((duel_id,), eta=deadline)


@shared_task(acks_late=True)
def warn_time_limit(duel_id: int) -> bool:
    from duels.models import Duel

    from .services.refereeing import warn_time_limit as warn

    duel = Duel.objects.filter(pk=duel_id).first()
    return bool(duel and warn(duel))


@shared_task(acks_late=True)
def enforce_time_limit(duel_id: int) -> bool:
    from duels.models import Duel

    from .services.refereeing import enforce_time_limit as enforce

    duel = Duel.objects.filter(pk=duel_id).first()
    return bool(duel and enforce(duel))
