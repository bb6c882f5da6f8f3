"""Duel time limits (TOURNAMENT.md "No winner"): a warning before the deadline, `time_limit`
at it. Scheduled for the deadline when the duel starts; the beat sweep catches any lost task."""

from datetime import datetime

from celery import shared_task


def schedule_time_limit(duel_id: int, deadline: datetime) -> None:
    from .services import WARNING_BEFORE

    warn_time_limit.apply_async((duel_id,), eta=deadline - WARNING_BEFORE)
    enforce_time_limit.apply_async((duel_id,), eta=deadline)


@shared_task(acks_late=True)
def warn_time_limit(duel_id: int) -> bool:
    from .models import Duel
    from .services import warn_time_limit as warn

    duel = Duel.objects.filter(pk=duel_id).first()
    return bool(duel and warn(duel))


@shared_task(acks_late=True)
def enforce_time_limit(duel_id: int) -> bool:
    from .models import Duel
    from .services import enforce_time_limit as enforce

    duel = Duel.objects.filter(pk=duel_id).first()
    return bool(duel and enforce(duel))
