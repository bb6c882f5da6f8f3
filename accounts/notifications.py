"""E-mail notifications, sent once (issue 16).

`send_once` records the event's key before it sends, in one transaction: a task retried after
a successful send finds the key and sends nothing; a send that fails rolls the key back, so a
retry sends it. Only people who opted in (`User.notify_by_email`) and have an address get
mail; entrants without an account are never reached (they have no user).
"""

from typing import Any

from django.core.mail import send_mail
from django.db import IntegrityError, transaction

from .models import SentNotification


def wants_mail(user: Any) -> bool:
    return bool(user is not None and user.is_active and user.notify_by_email and user.email)


def send_once(user: Any, key: str, subject: str, body: str) -> bool:
    """Send `subject`/`body` to `user` unless `key` was sent already. Returns whether it sent."""
    if not wants_mail(user):
        return False
    try:
        with transaction.atomic():
            SentNotification.objects.create(key=key[:200], user=user)
            send_mail(subject, body, None, [user.email])
    except IntegrityError:
        return False  # sent before: a retried or duplicated task
    return True
