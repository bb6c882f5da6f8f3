"""Conditional reads: a version tag as ETag, 304 for an unchanged poll, headers that keep
pages and fragments apart (DESIGN.md, pitfalls: send the tag ourselves, vary on HX-Request
and the cookie)."""

import json
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers


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


def live_attrs(request: HttpRequest | None, tag: str, url: str | None = None) -> dict[str, Any]:
    """What a live partial needs to poll: its URL, its tag as a header, the interval.

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
    }
