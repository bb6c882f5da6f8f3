"""Redis stopped or frozen under the production stack: how long each kind of request takes.

    # gunicorn (gunicorn.conf.py), a Celery worker and beat, all on the same environment:
    export DATABASE_URL=postgres://… REDIS_URL=redis://127.0.0.1:6391/0 …
    .venv/bin/python bench/redis_faults.py --base http://127.0.0.1:8401 \\
        --fault frozen --redis-port 6391 --redis-pid 12345 --duels 3

For each of `--duels` rounds of the demo tournament (`seed_demo`): the referee's duel is named
(through the service, here), then over HTTP, timed: a move, the move that ends the duel (the
console's forfeit), an organiser's unpublish and publish, five spectator reads of the public
standings, a sign-up and a password reset. `--fault stopped` shuts the Redis down
(`redis-cli shutdown nosave`) before the first round and starts it again after the last;
`frozen` stops it with SIGSTOP and continues it after; `none` measures the baseline. After
the fault: how long until /readyz answers 200 and until every notification of the outbox is
done, and whether every result is stored. The figures are in docs/operations.md ("Faults,
measured").
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from accounts.models import DueNotification, User  # noqa: E402
from tournaments.models import Entrant, Tournament  # noqa: E402
from tournaments.services import name_representatives  # noqa: E402

PASSWORD = "split-uno-demo"  # noqa: S105 - the demo's printed sign-in
SIGN_UP = "Tangerine-orbit-93"  # noqa: S105 - a new account's, any will do


class Browser:
    def __init__(self, base: str, user: str | None = None) -> None:
        self.base = base
        self.session = requests.Session()
        self.session.get(f"{base}/accounts/login/", timeout=30)
        if user:
            response = self.post("/accounts/login/", {"username": user, "password": PASSWORD})
            assert response.status_code == 302, f"sign-in as {user}: {response.status_code}"

    def post(self, path: str, data: dict, htmx: bool = False) -> requests.Response:
        headers = {"X-CSRFToken": self.session.cookies.get("csrftoken", ""), "Referer": self.base}
        if htmx:
            headers["HX-Request"] = "true"
        return self.session.post(
            self.base + path, data=data, headers=headers, allow_redirects=False, timeout=60
        )

    def get(self, path: str) -> requests.Response:
        return self.session.get(self.base + path, timeout=60)


def timed(record: dict, kind: str, call, *args, **kwargs) -> requests.Response:
    started = time.monotonic()
    response = call(*args, **kwargs)
    record[kind].append((time.monotonic() - started, response.status_code))
    return response


def next_duel(tournament: Tournament, referee: User):
    """Name the open round's duel: the first active member of each group."""
    tournament.refresh_from_db()
    rnd = tournament.rounds.filter(status="open").order_by("number").first()
    assert rnd is not None, "no open round left: seed a fresh demo"
    first, second = tournament.groups.order_by("order")
    a, b = (
        Entrant.objects.filter(tournament=tournament, group=g, status="active").order_by("pk")[0]
        for g in (first, second)
    )
    return name_representatives(tournament, referee, rnd.number, a.pk, b.pk, "1")


def fault(kind: str, port: int, pid: int, on: bool) -> None:
    if kind == "stopped":
        if on:
            subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], check=False)
        else:
            subprocess.run(
                ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--daemonize", "yes"],
                check=True,
            )  # fmt: skip
    elif kind == "frozen":
        os.kill(pid, signal.SIGSTOP if on else signal.SIGCONT)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="http://127.0.0.1:8401")
    parser.add_argument("--fault", choices=["none", "stopped", "frozen"], default="none")
    parser.add_argument("--redis-port", type=int, default=6391)
    parser.add_argument("--redis-pid", type=int, default=0)
    parser.add_argument("--duels", type=int, default=3)
    parser.add_argument("--slug", default="demo-open")
    args = parser.parse_args()

    tournament = Tournament.objects.get(slug=args.slug)
    referee_user = User.objects.get(username="referee")
    User.objects.filter(username="player").update(notify_by_email=True, email="pat@example.org")
    referee, organiser, spectator = (
        Browser(args.base, "referee"),
        Browser(args.base, "organiser"),
        Browser(args.base),
    )
    slug = tournament.slug
    spectator.get(f"/t/{slug}/standings/")  # the pools hold live connections
    record: dict[str, list] = defaultdict(list)
    duels = []
    fault(args.fault, args.redis_port, args.redis_pid, True)
    began = time.monotonic()
    try:
        for _ in range(args.duels):
            duel = next_duel(tournament, referee_user)
            duels.append(duel.pk)
            for _ in range(5):
                timed(record, "public page", spectator.get, f"/t/{slug}/standings/")
            move = {"seq": 0, "rev": 0, "type": "round", "card_A": 7, "card_B": 3}
            timed(record, "move", referee.post, f"/t/{slug}/duels/{duel.pk}/move/", move, True)
            ending = {
                "seq": "1",
                "rev": "1",
                "ending": "forfeit_B",
                "reason": "No show",
                "confirm": "on",
            }
            timed(record, "ending move", referee.post, f"/t/{slug}/duels/{duel.pk}/end/", ending)
            for published in ("0", "1"):
                path, data = f"/t/{slug}/manage/publish/", {"published": published}
                timed(record, "organiser write (publish)", organiser.post, path, data)
            name = f"walkin{uuid.uuid4().hex[:8]}"
            data = {"username": name, "password1": SIGN_UP, "password2": SIGN_UP}
            timed(record, "sign-up", Browser(args.base).post, "/accounts/signup/", data)
            reset, data = "/accounts/password_reset/", {"email": "pat@example.org"}
            timed(record, "password reset", Browser(args.base).post, reset, data)
    finally:
        held = time.monotonic() - began
        fault(args.fault, args.redis_port, args.redis_pid, False)
    back = time.monotonic()
    print(f"fault: {args.fault}, held {held:.1f} s, {args.duels} duels")
    for kind, samples in record.items():
        times = sorted(t for t, _ in samples)
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        codes = sorted({code for _, code in samples})
        print(
            f"  {kind:28s} n={len(times):3d} p50 {statistics.median(times):6.3f}  "
            f"p95 {p95:6.3f}  max {times[-1]:6.3f}  status {codes}"
        )
    ready = None
    while time.monotonic() - back < 180:
        if requests.get(f"{args.base}/readyz", timeout=10).status_code == 200:
            ready = time.monotonic() - back
            break
        time.sleep(0.5)
    print(f"  /readyz 200 after {ready:.1f} s" if ready is not None else "  /readyz not ready")
    since = time.monotonic()
    while DueNotification.objects.filter(done_at__isnull=True).exists():
        if time.monotonic() - since > 180:
            break
        time.sleep(0.5)
    left = DueNotification.objects.filter(done_at__isnull=True).count()
    print(f"  outbox: {left} notifications not done, {time.monotonic() - back:.1f} s after")
    from duels.models import Duel

    finished = Duel.objects.filter(pk__in=duels, status="finished", result__isnull=False).count()
    print(f"  results stored: {finished} of {len(duels)}")


if __name__ == "__main__":
    main()
