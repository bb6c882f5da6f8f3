"""/healthz: liveness (the process answers), cheap and public — what the Docker HEALTHCHECK
calls. /readyz: readiness — the database, Redis, a Celery worker and this process's stream
server (issue 28).

The worker check never queues a task: it broadcasts Celery's control `ping` (a publish, which
nothing keeps when no worker listens) and caches the answer, so a crowd of calls costs at most
one ping in flight across every process (a cache lock) and each call is answered within about
a second, worker or no worker.
"""

import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .celery import app

PING_TIMEOUT_SECONDS = 0.8  # how long one control ping waits for replies
FRESH_SECONDS = 10.0  # an answer this recent is reused
CACHE_KEY = "readyz:worker"
LOCK_KEY = "readyz:worker:lock"


def check_database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - any failure is the answer here
        return {"ok": False, "error": type(exc).__name__}
    return {"ok": True, "vendor": connection.vendor}


def check_redis() -> dict:
    if not settings.REDIS_URL:
        return {"ok": True, "configured": False}
    import redis

    try:
        # retry=None: one try (redis-py's default would retry ten times, a frozen Redis
        # making the probe wait ten timeouts).
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1, retry=None
        )
        client.ping()
    except Exception as exc:  # noqa: BLE001
        return {"ok": False, "configured": True, "error": type(exc).__name__}
    return {"ok": True, "configured": True}


def _ping_workers() -> dict:
    started = time.monotonic()
    try:
        replies = app.control.ping(timeout=PING_TIMEOUT_SECONDS)
    except Exception as exc:  # noqa: BLE001
        return {"ok": False, "mode": "worker", "error": type(exc).__name__}
    answer = {
        "ok": bool(replies),
        "mode": "worker",
        "workers": len(replies),
        "round_trip_ms": round((time.monotonic() - started) * 1000, 1),
    }
    if not replies:
        answer["error"] = "no worker answered in time"
    return answer


def check_worker() -> dict:
    """Is a worker taking tasks? At most one ping in flight; a recent answer is reused."""
    if app.conf.task_always_eager:
        return {"ok": True, "mode": "eager"}
    now = time.time()
    known = cache.get(CACHE_KEY)
    if known and now - known["checked_at"] < FRESH_SECONDS:
        return {**known["answer"], "age_s": round(now - known["checked_at"], 1)}
    if not cache.add(LOCK_KEY, 1, timeout=int(PING_TIMEOUT_SECONDS) + 2):
        # Someone else is pinging right now: say what was last known, without waiting.
        if known:
            return {**known["answer"], "age_s": round(now - known["checked_at"], 1)}
        return {"ok": False, "mode": "worker", "error": "being checked"}
    try:
        answer = _ping_workers()
        cache.set(CACHE_KEY, {"answer": answer, "checked_at": time.time()}, timeout=300)
    finally:
        cache.delete(LOCK_KEY)
    return {**answer, "age_s": 0.0}


def _worker_or_why() -> dict:
    """check_worker, whose cache calls may fail if Redis fails after its ping: a 503 that
    says so, never a 500 (docs/operations.md, "Redis down or frozen")."""
    try:
        return check_worker()
    except Exception as exc:  # noqa: BLE001 - any failure is the answer here
        return {"ok": False, "mode": "worker", "error": type(exc).__name__}


def check_streams() -> dict:
    """This process's stream server (core.streams): subscribed to Redis, its open streams and
    their bound. A process that serves no streams (Django's own server, the embedded default)
    says so and is ready: its pages poll."""
    from core import push, streams

    if not push.enabled():
        return {"ok": True, "push": False}
    hub = streams.hub
    if not hub.started:
        return {"ok": True, "push": True, "served": False}
    return {"ok": hub.healthy and not hub.closing, "push": True, "served": True, **hub.state()}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: this process serves requests. Nothing else is asked."""
    return JsonResponse({"ok": True})


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    checks = {"database": check_database(), "redis": check_redis(), "streams": check_streams()}
    # Without a broker the ping cannot succeed (and the cache lives there): do not wait for it.
    checks["celery"] = (
        _worker_or_why() if checks["redis"]["ok"] else {"ok": False, "error": "no broker"}
    )
    ready = all(check["ok"] for check in checks.values())
    return JsonResponse({"ok": ready, **checks}, status=200 if ready else 503)
