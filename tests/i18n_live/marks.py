"""What the tests of issue 29's caches, polls and push share: each shared part is marked with
the language it was rendered in (conftest.py, `marked`), read back here."""

import re

from django.test import Client

from core import shared_cache
from tests.tournaments.test_crowd import HX, get, standings_url
from tournaments import live_cache

MARK = re.compile(r'<i data-rendered-in="([^"]+)"></i>')


def languages_in(response) -> set[str]:
    return set(MARK.findall(response.content.decode()))


def poll(tournament, language: str | None = None, tag: str | None = None, url: str = ""):
    """An anonymous htmx poll of a public part (standings by default), in a language."""
    headers = dict(HX)
    if language:
        headers["Accept-Language"] = language
    if tag:
        headers["If-None-Match"] = tag
    return get(Client(), url or standings_url(tournament), **headers)


def other_process() -> None:
    """What another web process holds: nothing of this one's copies."""
    shared_cache.forget_kept()
    live_cache.forget_recent()
