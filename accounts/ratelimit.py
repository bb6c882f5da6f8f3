"""Rate limits on sign-up and password reset (sign-in is django-axes's, see settings).

Each limit counts posts for one client address *and* one username or e-mail together
(`settings.RATE_LIMITS`: attempts per window), so a venue whose players share one address is
not locked out by one person, and one address cannot hammer one account. The counters live in
Django's cache (Redis when REDIS_URL is set, so every web process shares them). A post over
the limit is answered 429 with words and a Retry-After header, before the view runs: nothing is
stored, no mail is sent, and the form works again once the window has passed.

Sign-ups that carry a valid claim or invite link are not counted (`is_invited_signup`): the
organiser vouched for them. Apps above `accounts` add their checks with
`register_invite_check` (tournaments adds its claim links, `tournaments.apps`).

Written over the cache rather than with django-ratelimit: the counter is three cache calls;
what is ours either way is the composite key, the exemption, the 429 page with the form and
the Retry-After, which the library would leave to us too.
"""

import hashlib
import math
import time
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.http import client_ip
from core.names import name_key

InviteCheck = Callable[[HttpRequest], bool]
_INVITE_CHECKS: list[InviteCheck] = []


def register_invite_check(check: InviteCheck) -> None:
    """Add a check that says whether a sign-up request carries a valid invitation."""
    if check not in _INVITE_CHECKS:
        _INVITE_CHECKS.append(check)


def is_invited_signup(request: HttpRequest) -> bool:
    """Whether this sign-up came through a valid claim or invite link (then it is not
    rate-limited). A check that fails counts as no invitation."""
    return any(check(request) for check in _INVITE_CHECKS)


def _identity(value: str | None) -> str:
    """A username or an e-mail as the limit counts it: "ADA", "ada" and "Ａｄａ" are one."""
    return name_key((value or "")[:320])


def _keys(scope: str, request: HttpRequest, identity: str) -> tuple[str, str]:
    digest = hashlib.sha256(f"{client_ip(request)}\n{identity}".encode()).hexdigest()
    return f"ratelimit:{scope}:{digest}:count", f"ratelimit:{scope}:{digest}:until"


def hit(scope: str, request: HttpRequest, identity: str) -> int:
    """Count one attempt; 0 when it is allowed, else the seconds until the next one is."""
    attempts, window = settings.RATE_LIMITS[scope]
    count_key, until_key = _keys(scope, request, _identity(identity))
    now = time.time()
    # A fixed window that starts at the first attempt: `until` says when it ends.
    cache.add(until_key, now + window, timeout=window)
    cache.add(count_key, 0, timeout=window)
    try:
        count = cache.incr(count_key)
    except ValueError:  # the window ended between add and incr: this is the first again
        cache.set(count_key, 1, timeout=window)
        count = 1
    if count <= attempts:
        return 0
    until = cache.get(until_key) or now + window
    return max(1, math.ceil(until - now))


def _wait_words(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    return "a minute" if minutes <= 1 else f"{minutes} minutes"


def limited(
    scope: str,
    *,
    identity_field: str,
    template: str,
    form_class: type,
    keep: Iterable[str] = (),
    what: str,
    exempt: Callable[[HttpRequest], bool] | None = None,
) -> Callable:
    """Wrap a view whose POST is limited in `scope`; over the limit, answer 429 with the
    view's `template` and a fresh `form_class` holding the `keep` fields as typed."""
    keep = tuple(keep)

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method != "POST" or (exempt is not None and exempt(request)):
                return view(request, *args, **kwargs)
            wait = hit(scope, request, request.POST.get(identity_field, ""))
            if not wait:
                return view(request, *args, **kwargs)
            initial = {name: request.POST.get(name, "")[:320] for name in keep}
            message = (
                f"Too many {what} from your network for this account. Nothing was saved and "
                f"nothing was sent. Try again in {_wait_words(wait)}."
            )
            response = render(
                request,
                template,
                {"form": form_class(initial=initial), "rate_limited": message},
                status=429,
            )
            response["Retry-After"] = str(wait)
            return response

        return wrapper

    return decorator
