"""The worker's time per version, per language (issue 29): not a test (not collected), a
measurement run by hand — docs/performance.md, "Languages and the shared renders".

    ./dev test -q -p no:cacheprovider -s tests/i18n_live/measure_warm.py

`warm` (after a result: every public part rendered and pushed) and `push_playing` (after a
move: the parts that show the running duel) on a cold cache, each repeated, in SQLite and
local memory (push off: the renders alone, which are the cost that grows with languages).
"""

import statistics
import time

import pytest
from django.core.cache import cache

from core import shared_cache
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
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return sorted(times[2:])  # two to warm the templates up


def test_measure(running):  # noqa: F811
    tournament = running[0]
    for name, fn in (
        ("warm (a result)", lambda: live_cache.warm(tournament)),
        ("push_playing (a move)", lambda: live_cache.push_playing(tournament, None)),
    ):
        times = _timed(fn)
        print(
            f"\n{name}: median {statistics.median(times):.1f} ms, "
            f"min {times[0]:.1f}, max {times[-1]:.1f} ms over {REPEAT}"
        )
