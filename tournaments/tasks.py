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


@shared_task(bind=True, ignore_result=True)
def warm_live_pages(self, tournament_id: int) -> int:
    """After a change commits: render the new version's live fragments once, ahead of the
    spectators' polls (issue 15, tournaments/live_cache.py)."""
    if self.request.is_eager:
        # No worker (the embedded default, the tests): rendering here would only slow the
        # request that made the change; the first poll renders it, once, under the lock.
        return 0
    from .live_cache import warm

    tournament = _tournament(tournament_id)
    return warm(tournament) if tournament and tournament.published else 0


@shared_task
def sweep() -> dict[str, int]:
    """Beat: repair whatever a lost task left stale. Every step is idempotent.

    Rebuilds standings whose materialised rows are missing, closes duels nobody may play any
    more, takes every tournament's next step, and keeps time (as `keep_time` does).
    """
    from duels.models import Duel

    from .models import FINAL_PHASES, Tournament
    from .services.lifecycle import GROUP_KINDS, OPEN, repair
    from .services.progression import sync
    from .services.standings import recompute_standings as recompute

    done = {"advanced": 0, "recomputed": 0, "repaired": 0, **keep_time()}
    # Group duels left open past the group phase by an earlier version (one query).
    for tournament in Tournament.objects.filter(
        phase__in=["tie_breaks", "playoffs", *FINAL_PHASES],
        pk__in=Duel.objects.filter(kind__in=GROUP_KINDS, status__in=OPEN).values("tournament_id"),
    ):
        done["repaired"] += repair(tournament)
    for tournament in Tournament.objects.exclude(phase__in=FINAL_PHASES).exclude(
        phase__in=["draft", "registration"]
    ):
        if tournament.standing_rows.count() != tournament.entrants.count():
            recompute(tournament)
            done["recomputed"] += 1
        done["advanced"] += sync(tournament)
    return done


@shared_task
def expire_claim_links() -> int:
    from .services import expire_claim_links as expire

    return expire()


# Duel time limits (TOURNAMENT.md "No winner"): a warning five minutes before the deadline,
# `time_limit` at it, both against the deadline stored on the duel, checked by beat every few
# seconds (`keep_time`). No task waits in the broker for a far deadline: Redis would hand such
# a task out again after its visibility timeout, and a lost one would wait for the sweep.


@shared_task
def keep_time() -> dict[str, int]:
    """Beat: warn and end the duels whose deadline says so (each service is idempotent)."""
    from django.utils import timezone

    from duels.models import Duel, DuelStatus

    from .services.refereeing import WARNING_BEFORE, enforce_time_limit, warn_time_limit

    done = {"warned": 0, "timed_out": 0}
    now = timezone.now()
    for duel in Duel.objects.filter(status=DuelStatus.RUNNING, deadline__lte=now + WARNING_BEFORE):
        done["warned"] += warn_time_limit(duel, now)
        done["timed_out"] += enforce_time_limit(duel, now)
    return done
