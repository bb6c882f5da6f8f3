"""Periodic sweeps (Celery beat). Thin: each calls one service."""

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from core.links import absolute

from .outbox import outboxed


@shared_task
def forget_old_sign_in_failures() -> int:
    """Drop sign-in failure records long past their cool-off: they only slow the table. And
    the pacing's starting points (accounts.signin.reset_pacing) no failure row refers to."""
    from axes.models import AccessAttempt

    from .models import SignInPaceReset

    cutoff = timezone.now() - timedelta(hours=settings.AXES_COOLOFF_TIME) - timedelta(days=1)
    deleted, _kinds = AccessAttempt.objects.filter(attempt_time__lt=cutoff).delete()
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
    from .notifications import in_language_of, send_once

    grant = TournamentRole.objects.select_related("tournament", "user").filter(pk=grant_id).first()
    if grant is None:
        return False  # revoked before the task ran
    name, slug = grant.tournament.name, grant.tournament.slug
    # The link goes to the tournament, to what the role does there: a referee's duels, a
    # co-organiser's overview (reversed by name: accounts imports nothing of tournaments).
    referee = grant.role == Role.REFEREE
    if referee:
        link = absolute(reverse("duels:list", args=[slug]))
    else:
        link = absolute(reverse("organiser:overview", args=[slug]))
    # In the recipient's language (issue 29), whoever granted the role.
    with in_language_of(grant.user):
        by = str(grant.granted_by) if grant.granted_by else _("An organiser")
        if referee:
            subject = _("You are now a referee of %(tournament)s") % {"tournament": name}
            body = _(
                "%(by)s made you a referee of %(tournament)s.\n\nThe duels to referee: %(link)s\n"
            ) % {"by": by, "tournament": name, "link": link}
        else:
            subject = _("You are now a co-organiser of %(tournament)s") % {"tournament": name}
            body = _(
                "%(by)s made you a co-organiser of %(tournament)s.\n\nManage it: %(link)s\n"
            ) % {"by": by, "tournament": name, "link": link}
    return send_once(grant.user, f"role:{grant.pk}", subject, body)


@shared_task
def send_due_notifications() -> dict[str, int]:
    """Beat, every 10 s: send again the notifications still due (accounts.outbox)."""
    from celery import current_app

    from .outbox import send_due

    return send_due(current_app.tasks)
