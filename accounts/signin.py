"""Sign-in throttling beside django-axes: what it records of an attempt (the username as
typed, bounded), its lockout answer (with Retry-After), and a growing delay for guesses on one
account from many addresses (`paced`).

Axes stores the posted username of every failed sign-in in a 255-character column; a longer
one (anyone can post one) made PostgreSQL refuse the insert and the sign-in page answer 500
(found by tests/test_fuzz_forms.py). No account's username is longer than the field allows,
so the bounded prefix locks out exactly what the whole would have.
"""

import math
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import ngettext

from core.names import name_key


def attempted_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str:
    """The username axes records and locks out by (AXES_USERNAME_CALLABLE)."""
    field = settings.AXES_USERNAME_FORM_FIELD
    source = credentials if credentials else getattr(request, "POST", {})
    username = source.get(field) or ""
    longest = get_user_model()._meta.get_field("username").max_length or 150
    # NUL is refused by PostgreSQL in any text column; no username holds one.
    return str(username)[:longest].replace("\x00", "")


# -- Guesses on one account from many addresses (docs/operations.md, "Sign-in throttling") --
#
# Axes counts failures per username *and* address, so a venue is not locked out by one
# person; alone, that lets six addresses make 24 guesses at one account. Counted over every
# address, each failure past the first few makes the next sign-in of that account wait twice
# as long (2 s, 4 s, … at most PACE_CAP_SECONDS): guessing slows to a dozen an hour, and the
# owner is never locked out: at worst they wait PACE_CAP_SECONDS once, and not at all from a
# browser they signed in from before (a signed cookie naming the account: OWASP's "device
# cookies"). A successful sign-in or a password reset starts the count again (`reset_pacing`):
# otherwise one guess every PACE_CAP_SECONDS would keep the owner waiting that long on every
# new browser for as long as the guessing goes on.
# Read from axes's own rows in the database: no Redis in the way.

# Failures, over all addresses, before any wait: two addresses' worth of axes's own limit, so
# one person's typos (axes locks that address) never slow the owner elsewhere.
PACE_FREE = 10
PACE_BASE_SECONDS = 2
PACE_CAP_SECONDS = 300
KNOWN_COOKIE = "known_signin"
KNOWN_SALT = "accounts.signin.known"
KNOWN_SECONDS = 365 * 24 * 3600


def _window() -> timedelta:
    return timedelta(hours=settings.AXES_COOLOFF_TIME)


def pace_seconds(username: str, now: datetime | None = None) -> int:
    """How long a sign-in to `username` must still wait (0: none), from the failures recorded
    for it from every address within the cool-off."""
    from axes.models import AccessAttempt

    from .models import SignInPaceReset

    if not username:
        return 0
    now = now or timezone.now()
    reset = SignInPaceReset.objects.filter(username=username).first()
    baseline = reset.baseline if reset else {}
    failures, last = 0, None
    for pk, count, when in AccessAttempt.objects.filter(
        username=username, attempt_time__gte=now - _window()
    ).values_list("pk", "failures_since_start", "attempt_time"):
        since_reset = count - baseline.get(str(pk), 0)  # axes's count is per address
        if since_reset > 0:
            failures += since_reset
            last = when if last is None else max(last, when)
    if failures < PACE_FREE or last is None:
        return 0
    delay = min(PACE_CAP_SECONDS, PACE_BASE_SECONDS * 2 ** (failures - PACE_FREE))
    return max(0, math.ceil((last + timedelta(seconds=delay) - now).total_seconds()))


def reset_pacing(username: str) -> None:
    """Start `username`'s pacing again: its owner signed in or reset the password. Axes's
    rows are left as they are (their counts lock addresses out); what they count so far is
    noted, and only failures past it slow the next sign-in."""
    from axes.models import AccessAttempt

    from .models import SignInPaceReset

    if not username:
        return
    baseline = {
        str(pk): count
        for pk, count in AccessAttempt.objects.filter(username=username).values_list(
            "pk", "failures_since_start"
        )
    }
    if not baseline:  # nothing counted: nothing to start from (and no row for every sign-in)
        SignInPaceReset.objects.filter(username=username).delete()
        return
    SignInPaceReset.objects.update_or_create(
        username=username, defaults={"reset_at": timezone.now(), "baseline": baseline}
    )


def _known_here(request: HttpRequest, username: str) -> bool:
    """Did this browser sign in to `username` before? (the signed cookie set then)"""
    known = request.get_signed_cookie(KNOWN_COOKIE, default="", salt=KNOWN_SALT)
    return bool(known) and name_key(known) == name_key(username)


def paced(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap the sign-in view: a POST for an account being guessed from many addresses waits
    (429, Retry-After, the form again), unless from a browser its owner signed in from; a
    successful sign-in marks the browser as known."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST":
            username = attempted_username(request)
            wait = 0 if _known_here(request, username) else pace_seconds(username)
            if wait:
                from django.contrib.auth.forms import AuthenticationForm

                response = render(
                    request,
                    "registration/login.html",
                    {
                        "form": AuthenticationForm(request, initial={"username": username}),
                        "paced": ngettext(
                            "This account has had many wrong passwords lately, from several "
                            "places. Nothing is locked: wait %(seconds)s second and try again, "
                            "or reset the password.",
                            "This account has had many wrong passwords lately, from several "
                            "places. Nothing is locked: wait %(seconds)s seconds and try again, "
                            "or reset the password.",
                            wait,
                        )
                        % {"seconds": wait},
                    },
                    status=429,
                )
                response["Retry-After"] = str(wait)
                return response
        response = view(request, *args, **kwargs)
        if request.method == "POST" and request.user.is_authenticated:
            # The right password: guesses made before it no longer slow anyone (a guesser who
            # has it gains nothing from a wait), so the owner's next new browser waits not.
            reset_pacing(attempted_username(request))
            response.set_signed_cookie(
                KNOWN_COOKIE,
                request.user.get_username(),
                salt=KNOWN_SALT,
                max_age=KNOWN_SECONDS,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response

    return wrapper


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """Axes's lockout (one username from one address, AXES_LOCKOUT_CALLABLE): its page, 429,
    and a Retry-After saying when the cool-off ends."""
    from axes.helpers import get_client_ip_address
    from axes.models import AccessAttempt

    username = attempted_username(request, credentials)
    last = (
        AccessAttempt.objects.filter(username=username, ip_address=get_client_ip_address(request))
        .order_by("-attempt_time")
        .values_list("attempt_time", flat=True)
        .first()
    )
    ends = (last or timezone.now()) + _window()
    wait = max(1, math.ceil((ends - timezone.now()).total_seconds()))
    response = render(
        request,
        settings.AXES_LOCKOUT_TEMPLATE,
        {"minutes": math.ceil(wait / 60)},
        status=429,
    )
    response["Retry-After"] = str(wait)
    return response
