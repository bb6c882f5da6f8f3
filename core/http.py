"""Conditional reads: a version tag as ETag, 304 for an unchanged poll, headers that keep
pages and fragments apart (DESIGN.md, pitfalls: send the tag ourselves, vary on HX-Request
and the cookie)."""

import ipaddress
import json
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme


def safe_next(request: HttpRequest) -> str:
    """The `next` address a form or link carries (a claim or invitation link through sign-up,
    "check me in" from /me/), if it stays on this site; "" otherwise."""
    address = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        address, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return address
    return ""


def poll_seconds() -> int:
    """How often live parts ask for news (settings.PUBLIC_POLL_SECONDS, 5 by default)."""
    return int(getattr(settings, "PUBLIC_POLL_SECONDS", 5))


def unchanged(request: HttpRequest, tag: str) -> bool:
    """Does the caller already hold this version? (`If-None-Match`, weak or strong.)"""
    header = request.headers.get("If-None-Match", "")
    return any(part.strip().removeprefix("W/") == tag for part in header.split(","))


def not_modified(tag: str) -> HttpResponse:
    """The answer to an unchanged poll: no body, nothing for htmx to swap."""
    response = HttpResponseNotModified()
    response["ETag"] = tag
    cache_headers(response, fragment=True)
    return response


def cache_headers(response: HttpResponse, *, fragment: bool) -> None:
    # One URL answers both the page and its live fragment, and pages differ by role (the
    # header shows who is signed in): caches must keep them apart.
    patch_vary_headers(response, ["HX-Request", "Cookie"])
    if fragment:
        # Never stored: the fragment is revalidated by the tag it carries, not by the cache.
        patch_cache_control(response, no_store=True, private=True)
    else:
        patch_cache_control(response, no_cache=True, private=True)


def live_attrs(
    request: HttpRequest | None,
    tag: str,
    url: str | None = None,
    *,
    topic: str = "",
    order: int | None = None,
) -> dict[str, Any]:
    """What a live partial needs to poll: its URL, its tag as a header, the interval; and,
    for push (issue 28, static/js/live.js), the topics whose news it follows (space
    separated), its tag and the tournament version it shows (`order`), so that a pushed
    fragment the same or older is not swapped in.

    A fragment shared by every viewer (tournaments.live_cache) is built without a request
    and names its URL. The interval is the same for all; static/js/app.js spreads each
    browser's around it, so a crowd does not poll in step.
    """
    if url is None:
        assert request is not None, "a live part without a request names its URL"
        url = request.path
    return {
        "url": url,
        "every": poll_seconds(),
        "headers": json.dumps({"If-None-Match": tag}),
        "topic": topic,
        "tag": tag,
        "order": "" if order is None else order,
    }


def client_ip(request: HttpRequest) -> str:
    """The address a request came from: REMOTE_ADDR, unless `settings.TRUSTED_PROXY_COUNT`
    (environment `TRUSTED_PROXY_COUNT`) says that many proxies of ours stand in front, each
    appending the address it received from to X-Forwarded-For; then the entry the outermost of
    them wrote. Entries further left are the client's own claims and are never trusted.

    Used by sign-in throttling (django-axes, `AXES_CLIENT_IP_CALLABLE`) and the rate limits on
    sign-up and password reset (`accounts.ratelimit`).
    """
    remote = request.META.get("REMOTE_ADDR", "") or ""
    count = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0) or 0)
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if count <= 0 or not forwarded:
        return remote
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    if not hops:
        return remote
    candidate = hops[-count] if len(hops) >= count else hops[0]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
