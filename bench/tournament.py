"""Tournament benchmarks: standings recomputation, the read API's query counts, and a whole
simulated tournament.

    DEBUG=1 .venv/bin/python bench/tournament.py            # SQLite in a temporary file
    DATABASE_URL=postgres://… DEBUG=1 .venv/bin/python bench/tournament.py

Budgets (issue 6): recomputation of a full 30-player tournament under 20 ms; every endpoint a
fixed count of at most 10 queries.
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")
if not os.environ.get("DATABASE_URL"):
    os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

ENDPOINTS = [
    "",
    "/standings",
    "/groups",
    "/rounds",
    "/tiebreaks",
    "/bracket",
    "/standings.csv",
    "/results.csv",
    "/duels/{duel}",
    "/duels/{duel}/record",
]


def main() -> None:
    from tournaments.services.standings import recompute_standings
    from tournaments.simulation import simulate_tournament

    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor}")
    started = time.perf_counter()
    big, progress = simulate_tournament(players=30, seed="bench-30", until="complete")
    elapsed = time.perf_counter() - started
    print(
        f"simulate_tournament --players 30 --until complete: {elapsed:.1f} s "
        f"({progress.duels} duels, {progress.moves} moves, "
        f"{progress.moves / elapsed:.0f} moves/s through the services)"
    )
    small, _ = simulate_tournament(players=10, seed="bench-10", until="complete")

    timings = []
    for _ in range(50):
        t0 = time.perf_counter()
        recompute_standings(big)
        timings.append((time.perf_counter() - t0) * 1000)
    timings.sort()
    print(
        f"recompute_standings, 30 players, 15 rounds: p50 {statistics.median(timings):.2f} ms,"
        f" p95 {timings[int(len(timings) * 0.95)]:.2f} ms (budget 20 ms)"
    )

    client = Client(HTTP_HOST="localhost")
    print(f"{'endpoint':<28}{'10 players':>12}{'30 players':>12}")
    worst = 0
    for endpoint in ENDPOINTS:
        counts = []
        for tournament in (small, big):
            duel = tournament.duels.order_by("pk").first()
            url = f"/api/tournaments/{tournament.slug}" + endpoint.format(duel=duel.pk)
            connection.queries_log.clear()  # the log is a bounded deque: start it empty
            with CaptureQueriesContext(connection) as queries:
                status = client.get(url).status_code
            assert status == 200, (url, status)
            counts.append(len(queries))
        worst = max(worst, *counts)
        flag = "" if counts[0] == counts[1] else "  (not fixed!)"
        print(f"{endpoint or '/':<28}{counts[0]:>12}{counts[1]:>12}{flag}")
    print(f"most queries of any endpoint: {worst} (budget 10)")


if __name__ == "__main__":
    main()
