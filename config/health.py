"""/healthz: the database, Redis and a Celery worker round trip, as JSON."""

import time

from celery.exceptions import TimeoutError as CeleryTimeout
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .celery import app, ping

WORKER_TIMEOUT_SECONDS = 3.0


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
        client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
        client.ping()
    except Exception as exc:  # noqa: BLE001
        return {"ok": False, "configured": True, "error": type(exc).__name__}
    return {"ok": True, "configured": True}


def check_worker() -> dict:
    if app.conf.task_always_eager:
        return {"ok": True, "mode": "eager"}
    started = time.monotonic()
    try:
        answer = ping.apply_async(expires=WORKER_TIMEOUT_SECONDS).get(
            timeout=WORKER_TIMEOUT_SECONDS
        )
    except CeleryTimeout:
        return {"ok": False, "mode": "worker", "error": "no worker answered in time"}
    except Exception as exc:  # noqa: BLE001
        return {"ok": False, "mode": "worker", "error": type(exc).__name__}
    return {
        "ok": answer == "pong",
        "mode": "worker",
        "round_trip_ms": round((time.monotonic() - started) * 1000, 1),
    }


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": check_database(), "redis": check_redis()}
    # Without a broker the round trip cannot succeed; do not wait for it.
    checks["celery"] = check_worker() if checks["redis"]["ok"] else {"ok": False,
                                                                    "error": "no broker"}
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse({"ok": healthy, **checks}, status=200 if healthy else 503)
