"""Base pages, headers, health, and the production settings check."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.django_db


def test_home_has_navigation_theme_and_htmx_under_a_strict_csp(client):
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<nav aria-label="Main"' in html
    assert 'name="color-scheme" content="light dark"' in html
    assert "django_htmx/htmx-2.min.js" in html
    assert '"includeIndicatorStyles": false' in html
    assert "X-CSRFToken" in html
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self' 'nonce-" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    nonce = csp.split("'nonce-")[1].split("'")[0]
    assert f'nonce="{nonce}"' in html


def test_htmx_is_told_to_swap_4xx_and_not_304():
    html = Client().get("/").content.decode()
    config = html.split('name="htmx-config" content=\'')[1].split("'>")[0]
    handling = json.loads(config)["responseHandling"]
    assert {"code": "304", "swap": False} in handling
    assert {"code": "4..", "swap": True, "error": False} in handling
    # Swapped content is wired at once (the focus htmx gives back lands in a live form).
    assert json.loads(config)["defaultSettleDelay"] == 0


def test_no_template_comment_reaches_a_page():
    # A `{# … #}` comment spread over lines is not a comment to Django: it is printed.
    html = Client().get("/").content.decode()
    assert "{#" not in html and "#}" not in html and "{% comment" not in html


def test_404_page(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


def test_healthz_is_a_cheap_liveness_answer(client, monkeypatch):
    from config import health

    # Liveness asks nothing else: even with the database down the process is alive.
    monkeypatch.setattr(health, "check_database", lambda: {"ok": False, "error": "Down"})
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/healthz")
    assert (response.status_code, response.json(), len(queries)) == (200, {"ok": True}, 0)


def test_readyz_reports_each_part(client):
    response = client.get("/readyz")
    body = response.json()
    assert response.status_code == 200
    assert body["ok"] is True
    assert body["database"]["ok"] is True
    assert set(body) == {"ok", "database", "redis", "celery", "streams"}
    # Push is off here (the tests' default): this process serves no streams, and is ready.
    assert body["streams"] == {"ok": True, "push": False}


def test_readyz_is_503_when_this_process_serves_streams_without_its_subscription(
    client, settings, monkeypatch
):
    """A web process whose stream server lost Redis is not ready: its pages would poll."""
    from core import streams

    settings.PUSH_ENABLED = True
    settings.REDIS_URL = settings.REDIS_URL or "redis://127.0.0.1:1/0"
    lost = streams.Hub()
    monkeypatch.setattr(lost, "_task", object())  # started, not subscribed
    monkeypatch.setattr(streams, "hub", lost)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["streams"]["served"] is True
    assert response.json()["streams"]["subscribed"] is False


def test_readyz_is_503_when_the_database_is_down(client, monkeypatch):
    from config import health

    monkeypatch.setattr(health, "check_database", lambda: {"ok": False, "error": "Down"})
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["ok"] is False


def test_thirty_concurrent_readiness_checks_send_at_most_one_ping(monkeypatch):
    """With the worker down, a crowd of calls costs one ping in flight, and every call is
    answered without waiting for another's ping."""
    import threading
    import time

    from django.core.cache import cache

    from config import health

    cache.delete(health.CACHE_KEY)
    monkeypatch.setitem(health.app.conf, "task_always_eager", False)
    in_flight, most, calls = 0, 0, 0
    lock = threading.Lock()

    def slow_silence(timeout):
        nonlocal in_flight, most, calls
        with lock:
            in_flight += 1
            calls += 1
            most = max(most, in_flight)
        time.sleep(0.3)  # no worker answers
        with lock:
            in_flight -= 1
        return []

    monkeypatch.setattr(health.app.control, "ping", slow_silence)
    answers = []
    threads = [
        threading.Thread(target=lambda: answers.append(health.check_worker())) for _ in range(30)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=5)
    assert len(answers) == 30 and not any(a["ok"] for a in answers)
    assert (most, calls) == (1, 1)
    assert health.check_worker()["error"] == "no worker answered in time"  # reused
    assert calls == 1
    cache.delete(health.CACHE_KEY)


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    base = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {"DEBUG", "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.django_db(databases=[])
def test_deploy_check_is_clean_with_debug_off():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="uno.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.django_db(databases=[])
def test_production_refuses_to_start_without_a_secret_key():
    result = run_manage("check", DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_admin_is_for_staff_only(client):
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    assert client.get("/admin/").status_code == 302
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = client.get("/admin/tournaments/tournament/")
    assert response.status_code == 200


def test_500_page_renders_without_a_request_context():
    from django.template.loader import render_to_string

    html = render_to_string("500.html")
    assert "Something went wrong on our side" in html
    assert "Back to the tournaments" in html


def test_403_page_explains(client):
    from tests.factories import RoleFactory

    grant = RoleFactory()
    client.force_login(grant.user)
    response = client.get(f"/t/{grant.tournament.slug}/entrants/")
    assert response.status_code == 403
    assert "Your role in this tournament does not allow this." in response.content.decode()


def test_no_template_comment_spans_lines():
    """Django's `{# … #}` comments are one line only: a longer one is printed on the page."""
    import re

    root = Path(__file__).resolve().parents[1] / "templates"
    spanning = [
        f"{path.relative_to(root)}:{text[: m.start()].count(chr(10)) + 1}"
        for path in root.rglob("*.html")
        for text in [path.read_text()]
        for m in re.finditer(r"\{#(?:(?!#\}).)*$", text, re.M)
    ]
    assert spanning == []
