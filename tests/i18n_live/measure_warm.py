"""The worker's time per version, per language (issue 29): not a test (not collected: run by
hand), the measurement in docs/performance.md, "Languages: the worker's renders".

    ./dev test -q -p no:cacheprovider -s tests/i18n_live/measure_warm.py

The CPU time of this thread (SQLite runs in it too) of `warm` (after a result: every public
part rendered, and pushed) and `push_playing` (after a move: the parts that show the running
duel) on a cold cache, each repeated, in SQLite and local memory. Sending is replaced by
nothing (the renders are the cost that grows with the languages); which languages have open
pages is set by hand: none but the source language, one more, all four.
"""

import statistics
import time

import pytest
from django.core.cache import cache

from core import push, shared_cache
from tests.tournaments.test_crowd import running  # noqa: F401 - the fixture
from tournaments import live_cache

pytestmark = pytest.mark.django_db

REPEAT = 15


def _timed(fn) -> list[float]:
    times = []
    for _ in range(REPEAT + 2):
        cache.clear()
        shared_cache.forget_kept()
        live_cache.forget_recent()
        started = time.thread_time()  # CPU time: the machine's other load aside
        fn()
        times.append((time.thread_time() - started) * 1000)
    return sorted(times[2:])  # two to warm the templates up


def test_measure(running, monkeypatch):  # noqa: F811
    tournament, *_, duel = running
    monkeypatch.setattr(push, "enabled", lambda: True)
    monkeypatch.setattr(push, "send", lambda *args, **kwargs: 1)
    for watched in ((), ("es",), ("es", "fr", "ms")):
        followed = lambda topics, watched=watched: {  # noqa: E731
            topic for topic in topics if topic.rsplit(":", 1)[-1] in watched
        }
        monkeypatch.setattr(push, "followed", followed, raising=False)
        for name, fn in (
            ("warm (a result)", lambda: live_cache.warm(tournament)),
            ("push_playing (a move)", lambda: live_cache.push_playing(tournament, duel.pk)),
        ):
            times = _timed(fn)
            print(
                f"\nwatched in {('en-gb', *watched)}: {name}: CPU median "
                f"{statistics.median(times):.1f} ms, min {times[0]:.1f}, max {times[-1]:.1f} ms"
            )


def test_measure_the_lean_304(running):  # noqa: F811
    """The lean path's 304 (`LeanPollMiddleware.lean`, the middleware alone), CPU per poll."""
    from django.test import Client, RequestFactory

    from tournaments.middleware import LeanPollMiddleware

    tournament, *_ = running
    url = f"/t/{tournament.slug}/standings/"
    lean = LeanPollMiddleware(lambda request: None).lean
    for language in ("en-GB,en;q=0.9", "es-ES,es;q=0.9,en;q=0.8"):
        tag = Client().get(url, headers={"HX-Request": "true", "Accept-Language": language})["ETag"]
        request = RequestFactory().get(
            url,
            headers={"HX-Request": "true", "If-None-Match": tag, "Accept-Language": language},
        )
        assert lean(request).status_code == 304
        best = []
        for _ in range(5):
            started = time.thread_time()
            for _ in range(2000):
                lean(request)
            best.append((time.thread_time() - started) / 2000 * 1e6)
        print(f"\nlean 304, Accept-Language {language}: CPU {min(best):.1f} µs a poll (best of 5)")
