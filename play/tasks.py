"""Celery tasks of the one clock (``play.clock``): each takes ids, reads committed data and
acts only if a deadline has passed, so a duplicated, late or early delivery changes nothing."""

from celery import shared_task


@shared_task(ignore_result=True)
def deadline(game_id: int, revision: int) -> bool:
    """Sent at commit with an ETA at the game's earliest deadline (a near one only: see
    ``play.clock.schedule_at_commit``): acts if it has passed and the game is still at
    ``revision`` — a later move scheduled its own task."""
    from play.clock import act_if_due

    return act_if_due(game_id, scheduled_revision=revision)


@shared_task(ignore_result=True)
def forget_old_intents() -> int:
    """Beat, daily: drops the idempotency keys past their days (play.services.INTENT_DAYS)."""
    from play.services import forget_old_intents as forget

    return forget()


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Beat, every few seconds: every game past a deadline the clock acts on — the long ones
    (Trois's 25 minutes), and any whose ETA task was lost or never sent (a broker down, the
    breaker open)."""
    from play.clock import sweep

    return sweep()
