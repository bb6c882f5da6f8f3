"""E-mail notifications, sent once (issue 16).

`send_once` records the event's key before it sends, in one transaction: a task retried after
a successful send finds the key and sends nothing; a send that fails rolls the key back, so a
retry sends it. Only people who opted in (`User.notify_by_email`) and have an address get
mail; entrants without an account are never reached (they have no user).
"""

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from .models import SentNotification

# The words of the opt-in, in one place: the settings page's checkbox (forms.NotificationsForm),
# the offer on the claim page, /me/ and the tournament page (templatetags/notify.py), and the
# messages after a switch. What they promise is what the tasks send (tournaments/tasks.py:
# named, called, playoffs, a withdrawal undone; accounts/tasks.py: a role).
WORDS = {
    # The settings page's checkbox and the claim page's: short, the detail in the hint.
    "label": _("E-mail me about my duels"),
    "hint": _(
        "When you are named to play, when your duel is called to its table (an online duel: "
        "when it is time to open it), when the playoffs are announced, and when you are made a "
        "referee. One e-mail each time, never twice; off unless you switch it on."
    ),
    # The offer on a player's pages, for someone who has not switched it on.
    "offer": _(
        "Get an e-mail when your duel is called to its table, or when it is time to open your "
        "online duel, so you need not watch this page."
    ),
    "button": _("E-mail me when my duel is called"),
    "no_address": _("Add your e-mail address to get an e-mail when your duel is called"),
    "settings": _("Notification settings"),
    "on": _(
        "E-mail notifications are on: you get an e-mail when you are named to play and when "
        "your duel is called."
    ),
    "off": _("E-mail notifications are off."),
    "need_address": _("Give an address to receive notifications."),
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


def language_for(user: Any, default: str = "") -> str:
    """The language `user` reads their e-mails in: the one they chose (`User.language`, if
    still one of settings.LANGUAGES), else `default` (a tournament's language, for its
    e-mails), else the site's."""
    known = dict(settings.LANGUAGES)
    for code in (getattr(user, "language", "") or "", default or ""):
        if code in known:
            return code
    return settings.LANGUAGE_CODE


def in_language_of(user: Any, default: str = "") -> AbstractContextManager:
    """`with in_language_of(user):` around the building of words for `user` (an e-mail):
    every gettext inside it answers in the recipient's language, not the sender's."""
    return translation.override(language_for(user, default))


Text = str | Callable[[], str]


def send_once(
    user: Any, key: str, subject: Text, body: Text, *, default_language: str = ""
) -> bool:
    """Send `subject`/`body` to `user` unless `key` was sent already. Returns whether it sent.

    Sent in the recipient's language (issue 29): `subject` and `body` may be functions that
    build the words, called here in that language; words built by the caller should be
    built inside `in_language_of(user)`. A lazy string is rendered in that language too."""
    if not wants_mail(user):
        return False
    with in_language_of(user, default_language):
        subject = str(subject() if callable(subject) else subject)
        body = str(body() if callable(body) else body)
    try:
        with transaction.atomic():
            SentNotification.objects.create(key=key[:200], user=user)
            send_mail(subject, body, None, [user.email])
    except IntegrityError:
        return False  # sent before: a retried or duplicated task
    return True
