"""Public pages (issue 9): server time and query count of every public page of a finished
30-player tournament, of its unchanged polls, and optionally a load run with wrk against
gunicorn.

    .venv/bin/python bench/pages.py                       # SQLite in a temporary file
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/uno_pages \\
        .venv/bin/python bench/pages.py --load            # PostgreSQL, then wrk

Budgets: the standings page under 25 ms on SQLite, an unchanged poll under 5 ms, a fixed
number of queries per page (the same for 10 and 30 players).

Server time is measured in-process through Django's test client: the whole middleware
stack, templates included, without the network. The settings are production's (DEBUG off),
except plain HTTP and plain static files. `--load` starts gunicorn on 127.0.0.1 only, runs
wrk (Debian's package) for a bounded time against the standings page and its polls, and
stops gunicorn again.
"""

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# Production settings, but plain HTTP on loopback and static files served as they are.
BENCH_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-not-a-secret-" + "x" * 30,
    "ALLOWED_HOSTS": "localhost,127.0.0.1",
    "SECURE_SSL_REDIRECT": "0",
    "SESSION_COOKIE_SECURE": "0",
    "CSRF_COOKIE_SECURE": "0",
    "SECURE_HSTS_SECONDS": "0",
    "PLAIN_STATIC": "1",
    "LOG_LEVEL": "WARNING",
}
for key, value in BENCH_ENV.items():
    os.environ.setdefault(key, value)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
if not os.environ.get("DATABASE_URL"):
    os.environ.setdefault("SQLITE_PATH", str(Path(tempfile.mkdtemp()) / "bench.sqlite3"))

import warnings  # noqa: E402

import django  # noqa: E402

# WhiteNoise warns that collectstatic has not run: irrelevant to server-rendered pages.
warnings.filterwarnings("ignore", message="No directory at")
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

PAGES = [
    "live/",
    "standings/",
    "groups/",
    "rounds/",
    "tiebreaks/",
    "bracket/",
    "screen/",
    "sheets/{duel}/",
]
REPEAT = 40


def timed(
    client: Client, url: str, headers: dict[str, str] | None = None, repeat: int = REPEAT
) -> tuple[float, float, float, int, int]:
    """Wall-clock median and 95th percentile, and median CPU time of this process, in ms;
    the status and the query count of one request.

    The CPU time leaves out waiting for a busy machine's other processes (this benchmark
    often shares two cores with test runs); on SQLite it includes the database's work, on
    PostgreSQL it does not (the server is another process).
    """
    headers = headers or {}
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        status = client.get(url, headers=headers).status_code
    count = len(queries)  # now: later requests reset the connection's query log
    for _ in range(3):
        client.get(url, headers=headers)  # warm: templates compiled, connections open
    wall, cpu = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        client.get(url, headers=headers)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    wall.sort()
    return (
        statistics.median(wall),
        wall[int(len(wall) * 0.95)],
        statistics.median(cpu),
        status,
        count,
    )


def measure(big, small) -> None:
    client = Client(HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE=LANGUAGE)
    print(
        f"\n{'page (30 players, complete)':<30}{'p50 ms':>8}{'p95 ms':>8}{'cpu ms':>8}"
        f"{'status':>7}{'queries':>8}{'(10 pl.)':>9}"
    )
    for page in PAGES:
        counts = []
        for tournament in (small, big):
            duel = tournament.duels.order_by("pk").first()
            url = f"/t/{tournament.slug}/{page.format(duel=duel.pk)}"
            counts.append(timed(client, url, repeat=REPEAT if tournament is big else 1))
        p50, p95, cpu, status, queries = counts[1]
        flag = "" if counts[0][4] == queries else "  (not fixed!)"
        print(
            f"{page:<30}{p50:>8.2f}{p95:>8.2f}{cpu:>8.2f}{status:>7}{queries:>8}"
            f"{counts[0][4]:>9}{flag}"
        )
    print(
        f"\n{'live poll (30 players)':<30}{'p50 ms':>8}{'p95 ms':>8}{'cpu ms':>8}"
        f"{'status':>7}{'queries':>8}"
    )
    for page in ("standings/", "live/", "bracket/", "screen/?panel=now"):
        url = f"/t/{big.slug}/{page}"
        tag = client.get(url, headers={"HX-Request": "true"})["ETag"]
        for label, headers in (
            ("unchanged", {"HX-Request": "true", "If-None-Match": tag}),
            ("changed", {"HX-Request": "true"}),
        ):
            p50, p95, cpu, status, queries = timed(client, url, headers)
            print(
                f"{page + ' ' + label:<30}{p50:>8.2f}{p95:>8.2f}{cpu:>8.2f}{status:>7}{queries:>8}"
            )
    print(f"load average while measuring: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


def wrk(url: str, headers: dict[str, str], seconds: int, connections: int) -> dict[str, str]:
    args = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "--latency"]
    for name, value in headers.items():
        args += ["-H", f"{name}: {value}"]
    out = subprocess.run(
        args + [url], capture_output=True, text=True, timeout=seconds + 30, check=True
    ).stdout
    found = {
        "rps": re.search(r"Requests/sec:\s+([\d.]+)", out),
        "p50": re.search(r"50%\s+([\d.]+\w+)", out),
        "p99": re.search(r"99%\s+([\d.]+\w+)", out),
        "requests": re.search(r"(\d+) requests in", out),
        "errors": re.search(r"Non-2xx or 3xx responses: (\d+)", out),
    }
    return {k: (m.group(1) if m else "0") for k, m in found.items()}


def load(big, seconds: int, connections: int, workers: int) -> None:
    if connection.vendor != "postgresql":
        sys.exit("--load runs against PostgreSQL: set DATABASE_URL=postgres://…")
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed (Debian: apt-get install -y wrk)")
    port = 8099
    base = f"http://127.0.0.1:{port}"
    gunicorn = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "config.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            str(workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONWARNINGS": "ignore:No directory at"},
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1)  # noqa: S310 - loopback
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.2)
        client = Client(HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE=LANGUAGE)
        standings = f"/t/{big.slug}/standings/"
        live = f"/t/{big.slug}/live/"
        tag = client.get(standings, headers={"HX-Request": "true"})["ETag"]
        live_tag = client.get(live, headers={"HX-Request": "true"})["ETag"]
        runs = [
            ("standings page", standings, {}),
            ("standings poll, changed (200)", standings, {"HX-Request": "true"}),
            (
                "standings poll, unchanged (304)",
                standings,
                {"HX-Request": "true", "If-None-Match": tag},
            ),
            ("home poll, unchanged (304)", live, {"HX-Request": "true", "If-None-Match": live_tag}),
        ]
        print(
            f"\nwrk: {seconds} s each, 2 threads, {connections} connections; gunicorn "
            f"{workers} sync workers; PostgreSQL; all on this machine (load average "
            f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores before the run)"
        )
        print(f"{'target':<34}{'req/s':>9}{'p50':>10}{'p99':>10}{'requests':>10}{'errors':>8}")
        for label, path, headers in runs:
            r = wrk(base + path, headers, seconds, connections)
            print(
                f"{label:<34}{r['rps']:>9}{r['p50']:>10}{r['p99']:>10}{r['requests']:>10}"
                f"{r['errors']:>8}"
            )
    finally:
        gunicorn.send_signal(signal.SIGTERM)
        gunicorn.wait(timeout=30)


#: The language the pages are asked in (Accept-Language; issue 29: --language es).
LANGUAGE = "en-gb"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--load", action="store_true", help="also run wrk against gunicorn")
    parser.add_argument("--seconds", type=int, default=10, help="length of each wrk run")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--language", default="en-gb", help="the pages' language (es, fr, ms)")
    options = parser.parse_args()
    global LANGUAGE
    LANGUAGE = options.language

    from tournaments.models import Tournament
    from tournaments.simulation import simulate_tournament

    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor}")
    tournaments = []
    for players in (30, 10):
        slug = f"simulated-cup-bench-pages-{players}"
        found = Tournament.objects.filter(slug=slug, phase="complete").first()
        if found is None:  # a database kept from an earlier run keeps its tournaments
            started = time.perf_counter()
            found, _ = simulate_tournament(
                players=players, seed=f"bench-pages-{players}", until="complete"
            )
            print(
                f"simulated a {players}-player tournament to completion in "
                f"{time.perf_counter() - started:.1f} s ({found.duels.count()} duels)"
            )
        tournaments.append(found)
    big, small = tournaments
    measure(big, small)
    if options.load:
        load(big, options.seconds, options.connections, options.workers)


if __name__ == "__main__":
    main()
