"""A real Celery worker, in its own process, on Redis, against the test's PostgreSQL database."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ARTIFACTS, services_missing

ROOT = Path(__file__).resolve().parents[2]
WORKER_NAME = "integration-worker"
_running: list[subprocess.Popen] = []


def _suffix() -> str:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return f"-{worker}" if worker else ""


def wait_until_idle(timeout: float = 30) -> None:
    """Wait for the worker to finish what tests sent it: a task still reading the tables while
    pytest-django truncates them between tests deadlocks the flush."""
    from celery.utils.nodenames import host_format

    from config.celery import app

    # Asked of our one worker by name, an inspection returns with its answer (limit=1) instead
    # of waiting out the timeout for other workers: the wait costs ~0.1 s, not 2 s, a test.
    worker = host_format(f"{WORKER_NAME}@%h")
    deadline = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < deadline and quiet < 2:
        with app.connection_for_read() as conn:
            queued = conn.default_channel.client.llen("celery")
        inspect = app.control.inspect(timeout=0.5, destination=[worker], limit=1)
        busy = any((inspect.active() or {}).values()) or any((inspect.reserved() or {}).values())
        quiet = quiet + 1 if not queued and not busy else 0
        time.sleep(0.1)


@pytest.fixture(autouse=True)
def _worker_idle_before_flush(transactional_db):
    # Set up after the database fixture, so this teardown runs before its flush.
    yield
    if _running:
        wait_until_idle()


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker):
    why = services_missing()
    if why:
        pytest.skip(why)
    from django.db import connection

    from config.celery import app

    db = connection.settings_dict
    # The worker must use the database pytest-django created for this run (test_<name>).
    url = (
        f"postgres://{db['USER'] or ''}{':' + db['PASSWORD'] if db['PASSWORD'] else ''}"
        f"@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": os.environ.get("DEBUG", "1")}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    # In TEST_ARTIFACTS like the screenshots; made here when no browser test ran before.
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log_path = ARTIFACTS / f"celery-worker{_suffix()}.log"  # one a test worker (xdist)
    log = open(log_path, "w")  # noqa: SIM115
    app.control.purge()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
            "--concurrency",
            "1",
            "--hostname",
            f"{WORKER_NAME}@%h",
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the Celery worker exited with {process.returncode}; see {log_path}")
        if app.control.ping(timeout=1.0):
            break
    else:
        process.kill()
        pytest.fail("the Celery worker did not answer within 60 s")
    _running.append(process)
    yield process
    _running.remove(process)
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()
