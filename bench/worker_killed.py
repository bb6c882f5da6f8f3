"""A notification held by a worker that is killed: when does it go out, and how many times?

    # beat running (it sends accounts.tasks.send_due_notifications every 10 s), no worker:
    export DATABASE_URL=postgres://… REDIS_URL=redis://127.0.0.1:6391/0 …
    .venv/bin/python bench/worker_killed.py --slug demo-open --restart-after 10

Starts a worker whose mail server accepts the connection and never answers (so the worker
holds the notification task, unacknowledged, while it "sends"), grants the demo player a
referee role (a notification, through the outbox), kills the worker with SIGKILL once it holds
the task, starts a healthy worker `--restart-after` seconds later (as a supervisor would), and
prints when the mail was recorded as sent and how many times; then waits past Redis's
visibility timeout, when the held task is handed out again, and counts again. Figures in
docs/operations.md ("Faults, measured").
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

import redis  # noqa: E402
from django.conf import settings  # noqa: E402

from accounts.models import Role, SentNotification, TournamentRole, User  # noqa: E402
from accounts.services import grant_role  # noqa: E402
from tournaments.models import Tournament  # noqa: E402


def worker(name: str, **env: str) -> subprocess.Popen:
    log = open(f"/tmp/{name}.log", "w")  # noqa: SIM115, S108 - the worker writes it
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO",
         "--concurrency", "2", "--hostname", f"{name}@%h"],
        cwd=ROOT, env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slug", default="demo-open")
    parser.add_argument("--restart-after", type=float, default=10)
    parser.add_argument("--then-wait", type=float, default=200, help="past the visibility timeout")
    args = parser.parse_args()
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    doomed = worker(
        "doomed-worker",
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(silent.getsockname()[1]),
    )
    time.sleep(15)  # ready (a worker takes 5–10 s to start on the loaded machine)
    tournament = Tournament.objects.get(slug=args.slug)
    player = User.objects.get(username="player")
    User.objects.filter(pk=player.pk).update(notify_by_email=True, email="pat@example.org")
    TournamentRole.objects.filter(tournament=tournament, user=player).delete()
    grant = grant_role(tournament.created_by, tournament, "player", Role.REFEREE)
    granted = time.monotonic()
    key = f"role:{grant.pk}"
    while not client.hlen("unacked") and time.monotonic() - granted < 60:
        time.sleep(0.05)
    children = subprocess.run(
        ["pgrep", "-P", str(doomed.pid)], capture_output=True, text=True
    ).stdout.split()
    for pid in [doomed.pid, *map(int, children)]:
        os.kill(pid, signal.SIGKILL)
    killed = time.monotonic()
    held = client.hlen("unacked")
    print(f"worker killed {killed - granted:.1f} s after the grant, holding {held} task(s)")
    time.sleep(args.restart_after)
    healthy = worker("next-worker")
    sent_at = None
    while time.monotonic() - killed < 300:
        if SentNotification.objects.filter(key=key).exists():
            sent_at = time.monotonic()
            break
        time.sleep(0.2)
    if sent_at is None:
        print("not sent within 300 s")
    else:
        print(
            f"sent {sent_at - killed:.1f} s after the kill ({sent_at - granted:.1f} s after the "
            f"grant; new worker started {args.restart_after:.0f} s after the kill)"
        )
    time.sleep(args.then_wait)
    print(
        f"after {time.monotonic() - killed:.0f} s (the held task handed out again at the "
        f"visibility timeout): sent {SentNotification.objects.filter(key=key).count()} time(s)"
    )
    healthy.terminate()
    healthy.wait(30)
    silent.close()


if __name__ == "__main__":
    main()
