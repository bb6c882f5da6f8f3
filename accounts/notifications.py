"""E-mail notifications, sent once (issue 16).

`send_once` records the event's key before it sends, in one transaction: a task retried after
a successful send finds the key and sends nothing; a send that fails rolls the key back, so a
retry sends it. Only people who opted in (`User.notify_by_email`) and have an address get
mail; entrants without an account are never reached (they have no user).
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import IntegrityError, transaction

from .models import SentNotification

# The words of the opt-in, in one place: the settings page's checkbox (forms.NotificationsForm),
# the offer on the claim page, /me/ and the tournament page (templatetags/notify.py), and the
# messages after a switch. What they promise is what the tasks send (tournaments/tasks.py:
# named, called, playoffs, a withdrawal undone; accounts/tasks.py: a role).
WORDS = {
    # The settings page's checkbox and the claim page's: short, the detail in the hint.
    "label": "E-mail me about my duels",
    "hint": "When you are named to play, when your duel is called to its table, when the "
    "playoffs are announced, and when you are made a referee. One e-mail each time, never "
    "twice; off unless you switch it on.",
    # The offer on a player's pages, for someone who has not switched it on.
    "offer": "Get an e-mail when your duel is called to its table, so you need not watch "
    "this page.",
    "button": "E-mail me when my duel is called",
    "to": "E-mails go to",
    "no_address": "Add your e-mail address to get an e-mail when your duel is called",
    "settings": "Notification settings",
    "on": "E-mail notifications are on: you get an e-mail when you are named to play and when "
    "your duel is called.",
    "off": "E-mail notifications are off.",
    "need_address": "Give an address to receive notifications.",
}


def offered_to(user: Any) -> bool:
    """Is the opt-in offered to this person: signed in and not switched on yet."""
    return bool(user is not None and user.is_authenticated and not user.notify_by_email)


def switch_on(user: Any) -> bool:
    """Switch e-mail notifications on for `user`, who has an address; safe to repeat (the
    second time changes nothing). Returns whether they are on now (False: no address)."""
    if not user.email:
        return False
    get_user_model().objects.filter(pk=user.pk).update(notify_by_email=True)
    user.notify_by_email = True
    return True


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
