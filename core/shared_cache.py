"""The shared cache, failing open (issue 15).

What every spectator sees for a given version is rendered once and kept in Django's default
cache: Redis when REDIS_URL is configured (so it holds across gunicorn workers and the Celery
worker), local memory otherwise. The cache is a help, never a dependency: any error reaching
it is logged and the caller renders as if there were no cache, so a Redis outage costs speed,
never a page. A Redis that fails is skipped for a few seconds after the failure
(`core.redis_guard`'s breaker), so a frozen one costs one socket timeout, not one per call.
"""

import logging
import pickle
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.core.cache import cache

from core import redis_guard

logger = logging.getLogger(__name__)

MISSING = object()
WARN_EVERY = 30.0  # seconds: an outage is logged, not once per request
_last_warning = 0.0
LOCK_SECONDS = 5  # longer than any render; a holder that died frees the lock by then
# How long a request that lost the race waits for the winner's render, in total about 0.5 s:
# a fragment renders in a few to a few tens of milliseconds.
WAITS = (0.002, 0.004, 0.008, 0.016, 0.03, 0.05, 0.08, 0.1, 0.1, 0.1)


def _unreachable(what: str, key: str) -> None:
    global _last_warning
    now = time.monotonic()
    if now - _last_warning >= WARN_EVERY:
        _last_warning = now
        logger.warning("cache unreachable (%s %s): serving without it", what, key, exc_info=True)


def call(fn: Callable[[], Any]) -> Any:
    """`fn()` (calls on Django's cache) through the cache's breaker: raises
    `redis_guard.Unavailable` when the cache failed or is being skipped; the caller decides
    what that means (accounts.ratelimit)."""
    value = redis_guard.cache.call(fn)
    if _owed:
        _settle()
    return value


# Writes that must land even when the cache was unreachable as they were made (`must_land`):
# the lean poll path's public version (tournaments.live_cache). A Redis that was frozen comes
# back with its data, and without these the old version would answer polls (an unpublished
# tournament's too) until it expired. Kept per process, the latest write per key, and made at
# this process's next successful call; a bound on how many, as on everything kept here.
OWED_ENTRIES = 1000
_owed: dict[str, tuple[Any, float] | None] = {}  # a set's (value, timeout), or None: a delete
_owed_lock = threading.Lock()


def _owe(key: str, write: tuple[Any, float] | None) -> None:
    with _owed_lock:
        if len(_owed) < OWED_ENTRIES or key in _owed:
            _owed[key] = write


def _settle() -> None:
    with _owed_lock:
        owed = dict(_owed)
        _owed.clear()
    for key, write in owed.items():
        try:
            if write is None:
                redis_guard.cache.call(lambda key=key: cache.delete(key))
            else:
                redis_guard.cache.call(lambda key=key, w=write: cache.set(key, w[0], w[1]))
        except redis_guard.Unavailable:
            with _owed_lock:
                _owed.setdefault(key, write)  # a write made meanwhile is newer: it wins


def get(key: str) -> Any:
    """The cached value, or MISSING when absent or when the cache cannot be reached."""
    try:
        return call(lambda: cache.get(key, MISSING))
    except redis_guard.Unavailable:  # any backend error: fail open
        _unreachable("get", key)
        return MISSING


def get_many(keys: list[str]) -> dict[str, Any]:
    """The cached values of those keys that are there, in one round trip; {} when the cache
    cannot be reached (the caller then renders, as with no cache)."""
    try:
        return call(lambda: cache.get_many(keys))
    except redis_guard.Unavailable:
        _unreachable("get_many", ",".join(keys))
        return {}


# A value stored under a key that names its version (a fragment of version 12, a row as read at
# version 12) is the same whoever reads it: each process keeps the latest few it read, so a
# crowd's whole page of an unchanged version costs one round trip to the cache (for the
# version), not two. Kept pickled unless a string, so no two requests share an object; kept
# briefly, never longer than the shared copy could be.
KEPT_ENTRIES = 128
KEPT_SECONDS = 30.0
_kept: OrderedDict[str, tuple[float, Any]] = OrderedDict()
_kept_lock = threading.Lock()
_clock = time.monotonic  # a test moves it, not the process's own clock


def get_many_versioned(keys: list[str]) -> dict[str, Any]:
    """`get_many` for keys whose value never changes once stored (see above)."""
    now = _clock()
    with _kept_lock:
        kept = {key: entry[1] for key in keys if (entry := _kept.get(key)) and entry[0] > now}
    found = {key: _unkept(value) for key, value in kept.items()}
    missing = [key for key in keys if key not in found]
    if missing:
        fetched = get_many(missing)
        with _kept_lock:
            for key, value in fetched.items():
                _kept[key] = (now + KEPT_SECONDS, _keepable(value))
                _kept.move_to_end(key)
            while len(_kept) > KEPT_ENTRIES:
                _kept.popitem(last=False)
        found.update(fetched)
    return found


def forget_kept() -> None:
    """Drop what this process keeps (a test's cache cleared with it)."""
    with _kept_lock:
        _kept.clear()
    with _owed_lock:
        _owed.clear()


class _Pickled(bytes):
    pass


def _keepable(value: Any) -> Any:
    return value if isinstance(value, str) else _Pickled(pickle.dumps(value))


def _unkept(value: Any) -> Any:
    return pickle.loads(value) if isinstance(value, _Pickled) else value  # noqa: S301 - our own


def set(key: str, value: Any, timeout: float, *, must_land: bool = False) -> None:  # noqa: A001
    if must_land:
        with _owed_lock:
            _owed.pop(key, None)  # this write replaces whatever was owed for the key
    try:
        call(lambda: cache.set(key, value, timeout))
    except redis_guard.Unavailable:
        _unreachable("set", key)
        if must_land:
            _owe(key, (value, timeout))


def add(key: str, value: Any, timeout: float) -> bool | None:
    """True if stored, False if the key was there, None if the cache cannot be reached."""
    try:
        return bool(call(lambda: cache.add(key, value, timeout)))
    except redis_guard.Unavailable:
        _unreachable("add", key)
        return None


def delete(key: str, *, must_land: bool = False) -> None:
    if must_land:
        with _owed_lock:
            _owed.pop(key, None)
    try:
        call(lambda: cache.delete(key))
    except redis_guard.Unavailable:
        _unreachable("delete", key)
        if must_land:
            _owe(key, None)


def render_once(key: str, render: Callable[[], str], timeout: float) -> str:
    """`render()`'s result for `key`, rendered once however many ask at the same instant.

    The first to miss takes a lock (`cache.add`, atomic in Redis and in local memory), renders
    and stores; the others wait for the stored copy. If the holder is too slow or died, or the
    cache is unreachable, the caller renders for itself: a page is never refused for the
    cache's sake.
    """
    value = get(key)
    if value is not MISSING:
        return value
    lock = key + ":lock"
    taken = add(lock, 1, LOCK_SECONDS)
    if taken is None:  # no cache at all: render as if there were none
        return render()
    if taken:
        try:
            value = render()
            set(key, value, timeout)
        finally:
            delete(lock)
        return value
    for pause in WAITS:
        time.sleep(pause)
        value = get(key)
        if value is not MISSING:
            return value
    logger.warning("render of %s took longer than the wait: rendering again", key)
    return render()
