"""The production server's settings as gunicorn reads them (gunicorn.conf.py, issue 15): threaded
workers that keep connections alive, and a listening socket per worker so that the kernel
spreads a crowd's connections over every worker (docs/performance.md, "Fourth pass")."""

import os
import re
import subprocess
import sys
from pathlib import Path

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


def test_gunicorn_reads_threaded_workers_on_sockets_of_their_own():
    read = settings_read()
    assert read["worker_class"] == "gthread"
    assert read["wsgi_app"] == "config.wsgi:application"
    assert read["reuse_port"] == "True"
    assert int(read["keepalive"]) > 0
    assert int(read["threads"]) > 1


def test_the_environment_changes_the_counts_and_can_share_one_socket_again():
    read = settings_read(WEB_CONCURRENCY="5", GUNICORN_THREADS="3", GUNICORN_REUSE_PORT="0")
    assert (read["workers"], read["threads"], read["reuse_port"]) == ("5", "3", "False")


def test_a_unix_socket_stays_one_socket_shared_by_the_workers():
    """Each worker would otherwise make the socket file anew, and only the last be reached."""
    assert settings_read(GUNICORN_BIND="unix:/run/uno/web.sock")["reuse_port"] == "False"
