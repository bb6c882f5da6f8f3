"""Redis may fail; the site may not (DESIGN.md): a circuit breaker per use of Redis, and the
one way a request sends a Celery task.

Every Redis client has a short socket timeout (config/settings.py), so one call to a Redis that
is down or frozen (SIGSTOP: the kernel still accepts the connection, nobody answers) costs at
most that timeout. A request makes several calls (the cache, the rate limit, two or three tasks
at commit), and a frozen Redis would make it pay each of them: measured, 4 s for a public page
and an unpublish that hung for the whole freeze. So after one failure the caller skips that use
of Redis for `PAUSE` seconds (the breaker is open), then lets one caller try again (half open)
while the others keep skipping; a success closes it. What a skipped call means is the caller's
choice, stated where it is made: the shared cache renders without it (fail open), a sign-up is
not counted (fail open), a password reset says to try again (503, fail closed), a task is not
sent and the periodic sweeps redo its work (tournaments.tasks.sweep, the notification outbox).

The state is per process (a gunicorn worker's threads share it): nothing about an unreachable
Redis can be shared through Redis. Written here rather than taken from a library because it
is twenty lines and the fail-open answers around it are ours either way.
"""

import logging
import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TypeVar

logger = logging.getLogger(__name__)

T = TypeVar("T")
PAUSE = 5.0  # seconds a failure keeps a use of Redis skipped before one caller tries again


class Unavailable(Exception):
    """This use of Redis failed just now, or is skipped while its breaker is open."""


class Breaker:
    def __init__(self, name: str, pause: float = PAUSE) -> None:
        self.name = name
        self.pause = pause
        self._until = 0.0  # monotonic time until which callers skip; 0: closed
        self._lock = threading.Lock()
        self.clock: Callable[[], float] = time.monotonic  # a test moves it

    @property
    def is_open(self) -> bool:
        return self._until > self.clock()

    def allow(self) -> bool:
        """May this caller use Redis now? When the pause has passed, the first caller to ask
        tries (and pushes the pause on, so that the others keep skipping while it does)."""
        with self._lock:
            if not self._until:
                return True
            now = self.clock()
            if now < self._until:
                return False
            self._until = now + self.pause  # half open: this caller is the one that tries
            return True

    def failed(self, error: BaseException) -> None:
        with self._lock:
            was_closed = not self._until
            self._until = self.clock() + self.pause
        if was_closed:
            logger.warning(
                "Redis (%s) unreachable: skipped for %.0f s at a time until it answers (%s: %s)",
                self.name,
                self.pause,
                type(error).__name__,
                error,
            )

    def succeeded(self) -> None:
        if self._until:  # read without the lock: the common case costs nothing
            with self._lock:
                was_open, self._until = bool(self._until), 0.0
            if was_open:
                logger.warning("Redis (%s) answers again", self.name)

    def reset(self) -> None:
        with self._lock:
            self._until = 0.0

    def call(self, fn: Callable[[], T]) -> T:
        """`fn()`, unless the breaker is open; any error trips it. Raises Unavailable."""
        if not self.allow():
            raise Unavailable(self.name)
        try:
            value = fn()
        except Exception as exc:  # noqa: BLE001 - any error reaching Redis: the caller decides
            self.failed(exc)
            raise Unavailable(self.name) from exc
        self.succeeded()
        return value


cache = Breaker("cache")  # Django's cache: core.shared_cache, accounts.ratelimit, /readyz
broker = Breaker("broker")  # Celery publishing: send, send_on_commit


def _connection_errors() -> tuple[type[BaseException], ...]:
    from kombu.exceptions import OperationalError
    from redis.exceptions import RedisError

    return (OperationalError, RedisError, OSError, TimeoutError)


def send(task: Any, args: Sequence[Any] = (), **options: Any) -> bool:
    """Send `task` now; a broker that fails is logged and skipped, never raised: tasks never
    fail a request (DESIGN.md), and the sweeps redo what a lost task would have done.
    Returns whether it was sent (or run, eagerly)."""
    eager = task.app.conf.task_always_eager  # the embedded default: no Redis in the way
    if not eager and not broker.allow():
        logger.info("broker skipped (breaker open): %s%r not sent", task.name, tuple(args))
        return False
    try:
        task.apply_async(args, **options)
    except _connection_errors() as exc:
        if not eager:
            broker.failed(exc)
        logger.warning("%s%r not sent: %s", task.name, tuple(args), exc)
        return False
    except Exception:
        logger.exception("%s%r not sent", task.name, tuple(args))
        return False
    if not eager:
        broker.succeeded()
    return True


def send_on_commit(task: Any, *args: Any, **options: Any) -> None:
    """`send` once the current transaction commits (at once outside one)."""
    from django.db import transaction

    transaction.on_commit(partial(send, task, args, **options), robust=True)
