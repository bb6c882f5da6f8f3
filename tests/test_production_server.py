"""The production server's settings as gunicorn reads them (gunicorn.conf.py, issue 15): workers
that keep connections alive, and a listening socket per worker so that the kernel spreads a
crowd's connections over every worker (docs/performance.md, "Fourth pass"); since issue 28,
uvicorn's workers serving config/asgi.py (the pages' streams and Django on its threads). And
the server itself: a page and a stream answer, and a graceful stop ends the stream first with
its retry hint."""

import os
import re
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).parent / "gunicorn"


def settings_read(**env: str) -> dict[str, str]:
    """What `gunicorn --print-config` says, run from the repository root as the image runs it."""
    out = subprocess.run(
        [str(GUNICORN), "--print-config"],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    return dict(re.findall(r"^(\w+)\s+= (.*)$", out, re.M))


def test_gunicorn_reads_uvicorn_workers_on_sockets_of_their_own():
    read = settings_read()
    assert read["worker_class"] == "config.worker.Worker"
    assert read["wsgi_app"] == "config.asgi:application"
    assert read["reuse_port"] == "True"
    assert int(read["keepalive"]) > 0


def test_the_environment_changes_the_counts_and_can_share_one_socket_again():
    read = settings_read(WEB_CONCURRENCY="5", GUNICORN_REUSE_PORT="0")
    assert (read["workers"], read["reuse_port"]) == ("5", "False")


def test_djangos_threads_in_each_worker_come_from_the_environment():
    code = "from django.conf import settings; print(settings.WEB_THREADS)"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "GUNICORN_THREADS": "3"}
    out = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert out.strip() == "3"


def test_a_unix_socket_stays_one_socket_shared_by_the_workers():
    """Each worker would otherwise make the socket file anew, and only the last be reached."""
    assert settings_read(GUNICORN_BIND="unix:/run/uno/web.sock")["reuse_port"] == "False"


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(port: int, path: str, timeout: float = 10) -> tuple[int, bytes]:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.read()


@pytest.mark.integration
def test_the_server_answers_a_page_and_a_stream_and_a_graceful_stop_ends_the_stream_first():
    """gunicorn as production runs it (one uvicorn worker, push through the real Redis): the
    liveness page answers through Django's threads; a stream opens (`ready`); SIGTERM ends it
    with `bye` and its retry hint before the server goes, well within the graceful timeout."""
    import http.client
    import signal
    import time

    from tests.conftest import services_missing

    redis = os.environ.get("REDIS_URL", "")
    why = services_missing()
    if why:
        pytest.skip(why)
    from core import push

    port = _free_port()
    env = {
        **os.environ,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        "GUNICORN_ACCESS_LOG": "off",
        "DEBUG": "1",
        "REDIS_URL": redis,
        "SECRET_KEY": "test-production-server",
    }
    server = subprocess.Popen([str(GUNICORN)], cwd=ROOT, env=env)
    try:
        for _ in range(300):
            try:
                if _get(port, "/healthz", timeout=1)[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        assert _get(port, "/healthz")[0] == 200
        with override_secret("test-production-server"):
            token = push.token_for(["public:x:home"])
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        stream.request("GET", f"/push/stream?t={token}")
        response = stream.getresponse()
        assert response.status == 200
        assert response.getheader("Content-Type", "").startswith("text/event-stream")
        first = response.read1(4096).decode()
        assert "event: ready" in first and "retry:" in first
        started = time.monotonic()
        server.send_signal(signal.SIGTERM)
        rest = b""
        while b"event: bye" not in rest:
            chunk = response.read1(4096)
            if not chunk:
                break
            rest += chunk
        assert b'event: bye\ndata: {"why": "shutdown"}' in rest
        assert server.wait(timeout=20) == 0
        assert time.monotonic() - started < 10  # not the graceful timeout's 20 s
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


@contextmanager
def override_secret(key: str):
    """Sign as the server under test does (its own SECRET_KEY)."""
    from django.test import override_settings

    with override_settings(SECRET_KEY=key):
        yield
