"""Rate limits on sign-up and password reset (sign-in is django-axes's and accounts.signin's).

Two counters a form (`settings.RATE_LIMITS`: attempts per window):

- one client address *and* one username or e-mail together (`signup`, `password_reset`):
  one address cannot hammer one account, and a venue whose players share one address is not
  locked out by one person;
- one client address alone (`signup_address`: accounts *created*, not posts, so typos never
  count; `password_reset_address`: reset posts), set well above a club night: a crowd of
  accounts or reset mails from one address is refused, a venue's players are not. A sign-up
  is counted before it runs (posts at the same instant see each other) and gives its count
  back when it made no account.

The counters live in Django's cache (Redis when REDIS_URL is set, so every web process shares
them). A post over a limit is answered 429 with words and a Retry-After header, before the
view runs: nothing is stored, no mail is sent, and the form works again once the window has
passed.

Sign-ups that carry a valid claim or invite link are never counted (`is_invited_signup`): the
organiser vouched for them. Apps above `accounts` add their checks with
`register_invite_check` (tournaments adds its claim links, `tournaments.apps`).

Redis down or frozen (docs/operations.md, "Faults"): the counters are reached through the
cache's breaker (`core.redis_guard`), so the check costs one socket timeout at most, then
nothing. Sign-up fails *open* (counted by nobody, but a sign-up still costs a password hash,
and sign-in keeps its database-backed throttling); password reset fails *closed*: 503 with
words and Retry-After, nothing sent, since the limit is all that stops a flood of mail to one
person.

Written over the cache rather than with django-ratelimit: the counter is a few cache calls;
what is ours either way is the composite key, the exemption, the 429 page with the form and
the Retry-After, which the library would leave to us too.
"""

import contextlib
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
from django.utils.translation import gettext_lazy, ngettext

from core import redis_guard, shared_cache
from core.http import client_ip
from core.names import name_key

# How long to tell a person to wait when the counters cannot be reached (fail closed).
UNAVAILABLE_RETRY_SECONDS = 60

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
    """Count one attempt; 0 when it is allowed, else the seconds until the next one is.
    Raises `redis_guard.Unavailable` when the counters cannot be reached."""
    return shared_cache.call(lambda: _hit(scope, request, identity))


def give_back(scope: str, request: HttpRequest, identity: str = "") -> None:
    """Take back one attempt `hit` counted, once it turned out not to count (a sign-up that
    made no account). Unreachable counters: nothing given back, the window ends it anyway."""
    with contextlib.suppress(redis_guard.Unavailable):
        shared_cache.call(lambda: _give_back(scope, request, identity))


def _give_back(scope: str, request: HttpRequest, identity: str) -> None:
    count_key, _ = _keys(scope, request, _identity(identity))
    try:
        left = cache.decr(count_key)
    except ValueError:  # the window ended meanwhile: nothing left to give back
        return
    if left < 0:
        # The window ended between Redis's existence check and its DECR, which then made a
        # key of -1 without expiry: an allowance that would never end. Not a count: drop it.
        cache.delete(count_key)


def _hit(scope: str, request: HttpRequest, identity: str) -> int:
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


# What a limited form says, in whole sentences for each form (issue 29): `limited`'s `what`
# names one of these.
REFUSALS = {
    "sign-up attempts": {
        "unavailable": gettext_lazy(
            "We cannot take sign-up attempts just now. Nothing was saved and nothing was sent. "
            "Try again in a minute."
        ),
        "network": lambda minutes: ngettext(
            "Too many sign-up attempts from your network. Nothing was saved and nothing was "
            "sent. Try again in a minute.",
            "Too many sign-up attempts from your network. Nothing was saved and nothing was "
            "sent. Try again in %(minutes)s minutes.",
            minutes,
        ),
        "account": lambda minutes: ngettext(
            "Too many sign-up attempts from your network for this account. Nothing was saved "
            "and nothing was sent. Try again in a minute.",
            "Too many sign-up attempts from your network for this account. Nothing was saved "
            "and nothing was sent. Try again in %(minutes)s minutes.",
            minutes,
        ),
    },
    "password reset requests": {
        "unavailable": gettext_lazy(
            "We cannot take password reset requests just now. Nothing was saved and nothing "
            "was sent. Try again in a minute."
        ),
        "network": lambda minutes: ngettext(
            "Too many password reset requests from your network. Nothing was saved and "
            "nothing was sent. Try again in a minute.",
            "Too many password reset requests from your network. Nothing was saved and "
            "nothing was sent. Try again in %(minutes)s minutes.",
            minutes,
        ),
        "account": lambda minutes: ngettext(
            "Too many password reset requests from your network for this account. Nothing "
            "was saved and nothing was sent. Try again in a minute.",
            "Too many password reset requests from your network for this account. Nothing "
            "was saved and nothing was sent. Try again in %(minutes)s minutes.",
            minutes,
        ),
    },
}


def _too_many(what: str, *, account: bool, seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    words = REFUSALS[what]["account" if account else "network"]
    return words(minutes) % {"minutes": minutes}


def limited(
    scope: str,
    *,
    identity_field: str,
    template: str,
    form_class: type,
    keep: Iterable[str] = (),
    what: str,
    exempt: Callable[[HttpRequest], bool] | None = None,
    per_address: str | None = None,
    per_address_counts: Callable[[HttpRequest, HttpResponse], bool] | None = None,
    fail_open: bool,
) -> Callable:
    """Wrap a view whose POST is limited in `scope` (one address and one `identity_field`
    together) and, if named, in `per_address` (the address alone: every post, or only those
    for which `per_address_counts(request, response)` says so once the view has answered).
    Over a limit, answer 429 with the view's `template` and a fresh `form_class` holding the
    `keep` fields as typed (its words: `REFUSALS[what]`). When the counters cannot be
    reached, run the view uncounted (`fail_open`) or answer 503 in words."""
    keep = tuple(keep)
    if what not in REFUSALS:
        raise ValueError(f"No words for {what!r}: add them to REFUSALS.")

    def refuse(request: HttpRequest, message: str, status: int, wait: int) -> HttpResponse:
        initial = {name: request.POST.get(name, "")[:320] for name in keep}
        response = render(
            request,
            template,
            {"form": form_class(initial=initial), "rate_limited": message},
            status=status,
        )
        response["Retry-After"] = str(wait)
        return response

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method != "POST" or (exempt is not None and exempt(request)):
                return view(request, *args, **kwargs)
            # The address's count is taken before the view runs, in one atomic increment
            # compared with the limit: posts at the same instant each see the others' counts
            # (checked first and counted after the work, eight at once all passed). When only
            # some posts count (`per_address_counts`: accounts made, not typos), the others
            # give theirs back once the view has answered, or when refused.
            counted = ""  # the per-address scope this post was counted in, to give back
            try:
                crowd = 0
                if per_address is not None:
                    crowd = hit(per_address, request, "")
                    if per_address_counts is not None:
                        counted = per_address
                wait = hit(scope, request, request.POST.get(identity_field, ""))
            except redis_guard.Unavailable:
                if counted:
                    give_back(counted, request)
                if not fail_open:
                    return refuse(
                        request,
                        str(REFUSALS[what]["unavailable"]),
                        503,
                        UNAVAILABLE_RETRY_SECONDS,
                    )
                return view(request, *args, **kwargs)  # fail open: uncounted
            if wait or crowd:
                if counted:
                    give_back(counted, request)
                return refuse(
                    request,
                    _too_many(what, account=crowd <= wait, seconds=max(wait, crowd)),
                    429,
                    max(wait, crowd),
                )
            try:
                response = view(request, *args, **kwargs)
            except BaseException:
                if counted:
                    give_back(counted, request)
                raise
            if counted and per_address_counts and not per_address_counts(request, response):
                give_back(counted, request)
            return response

        return wrapper

    return decorator
