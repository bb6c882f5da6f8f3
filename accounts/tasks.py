"""Periodic sweeps (Celery beat). Thin: each calls one service."""

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from core.links import absolute

from .outbox import outboxed


@shared_task
def forget_old_sign_in_failures() -> int:
    """Drop sign-in failure records long past their cool-off: they only slow the table. And
    the pacing's starting points (accounts.signin.reset_pacing) no failure row refers to."""
    from axes.models import AccessAttempt

    from .models import SignInPaceReset

    cutoff = timezone.now() - timedelta(hours=settings.AXES_COOLOFF_TIME) - timedelta(days=1)
    deleted, _ = AccessAttempt.objects.filter(attempt_time__lt=cutoff).delete()
    SignInPaceReset.objects.filter(reset_at__lt=cutoff).exclude(
        username__in=AccessAttempt.objects.filter(username__isnull=False).values("username")
    ).delete()
    return deleted


@shared_task(
    acks_late=True, autoretry_for=(OSError,), retry_backoff=True, max_retries=5, outbox=True
)
@outboxed
def notify_role_granted(grant_id: int) -> bool:
    """A new referee (or co-organiser) is told of their role, once."""
    from .models import Role, TournamentRole
    from .notifications import send_once

    grant = TournamentRole.objects.select_related("tournament", "user").filter(pk=grant_id).first()
    if grant is None:
        return False  # revoked before the task ran
    name, slug = grant.tournament.name, grant.tournament.slug
    # The link goes to the tournament, to what the role does there: a referee's duels, a
    # co-organiser's overview (reversed by name: accounts imports nothing of tournaments).
    if grant.role == Role.REFEREE:
        where = f"The duels to referee: {absolute(reverse('duels:list', args=[slug]))}"
    else:
        where = f"Manage it: {absolute(reverse('organiser:overview', args=[slug]))}"
    return send_once(
        grant.user,
        f"role:{grant.pk}",
        f"You are now a {grant.get_role_display().lower()} of {name}",
        f"{grant.granted_by or 'An organiser'} made you a {grant.get_role_display().lower()} "
        f"of {name}.\n\n{where}\n",
    )


@shared_task
def send_due_notifications() -> dict[str, int]:
    """Beat, every 10 s: send again the notifications still due (accounts.outbox)."""
    from celery import current_app

    from .outbox import send_due

    return send_due(current_app.tasks)
