"""Celery tasks: a thin API over the services. Each takes an id and recomputes from committed
data, so a duplicated, late or out-of-order delivery changes nothing."""

import logging

from celery import shared_task

logger = logging.getLogger(__name__)


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
