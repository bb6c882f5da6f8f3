"""Periodic sweeps (Celery beat). Thin: each calls one service."""

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone


@shared_task
def forget_old_sign_in_failures() -> int:
    """Drop sign-in failure records long past their cool-off: they only slow the table."""
    from axes.models import AccessAttempt

    cutoff = timezone.now() - timedelta(hours=settings.AXES_COOLOFF_TIME) - timedelta(days=1)
    deleted, _ = AccessAttempt.objects.filter(attempt_time__lt=cutoff).delete()
    return deleted
