"""Referee console benchmark: the server time of one move, and its query count.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test DEBUG=1 \\
        .venv/bin/python bench/console.py [--duels 12] [--moves 110] [--seed 7]

Every move goes through the whole server stack in-process (middleware, session, the permission
check, the view, duels.services.append_event under its row locks, the engine, the console
partial's rendering) as an htmx POST from Django's test client; no network, no browser. The
moves are legal moves picked by a seeded random referee (the same duels every run), each duel
ended by a forfeit after --moves moves. Ordinary moves, first moves (they start the duel and
deal shared cards) and finishing moves (they record the result, rebuild the standings and run
the next step of the tournament in-process) are reported apart, and so is the 204 poll, and
the size of the answer to the 10th and the 100th move (issue 15: it does not grow).

It works in a database of its own, created and dropped here (bench_console_<name>), so it
never touches data nor a test run's test_<name> database. Budget (issue 15, after issue 7's
30 ms): an ordinary move p50 under 10 ms, a fixed count under 15 queries, and every answer to
a move at most 5 kB of HTML (the largest answer of all the ordinary moves is printed too).
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")
if not os.environ.get("DATABASE_URL"):
    os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

BUDGET_MS = 10.0
BUDGET_QUERIES = 15
HTMX = {"HX-Request": "true", "Accept-Encoding": "gzip"}  # as a browser asks
FORM = "application/x-www-form-urlencoded"
SIZE_AT = (10, 100)  # the answer to the 10th and the 100th move: the same size (issue 15)
BUDGET_BYTES = 5 * 1024  # of HTML (sent gzipped it is about a third)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


class Sample:
    """Wall-clock time (what the referee waits for, PostgreSQL's work included) and the
    Django process's CPU time (the part that does not grow when the machine is busy)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.ms: list[float] = []
        self.cpu: list[float] = []
        self.queries: list[int] = []

    def add(self, ms: float, cpu: float, queries: int) -> None:
        self.ms.append(ms)
        self.cpu.append(cpu)
        self.queries.append(queries)

    def line(self) -> str:
        low, high = min(self.queries), max(self.queries)
        count = f"{low}" if low == high else f"{low}–{high} (not fixed)"
        return (
            f"{self.name:<24} n={len(self.ms):<4} p50 {statistics.median(self.ms):6.2f} ms"
            f"  p95 {p95(self.ms):6.2f} ms  (CPU p50 {statistics.median(self.cpu):5.2f} ms)"
            f"  queries {count}"
        )


def move_data(event: dict, seq: int) -> dict:
    """The form fields the console's pads and buttons post for `event`."""
    data = {"seq": seq, "rev": seq, "type": event["type"]}  # no undo here: rev == seq
    if event["type"] == "round":
        data.update({f"card_{seat}": card for seat, card in event["cards"].items()})
        if not event["cards"]:
            data["round_all_blocked"] = "1"
    elif event["type"] == "action":
        # One value names seat and card, or seat and COLOR CHANGE's colour (the console's buttons).
        data["play"] = f"{event['seat']}:{event.get('color', event['card'])}"
    else:
        data.update({"seat": event["seat"], "choice": event["choice"]})
    return data


def timed(
    client: Client, path: str, data: dict | None = None
) -> tuple[float, float, int, int, tuple[int, int]]:
    """Wall and CPU milliseconds, queries, status and body size (HTML, sent) of one request.
    The queries are counted through Django's debug cursor, as CaptureQueriesContext does,
    which costs a little too."""
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        start, cpu = time.perf_counter(), time.process_time()
        response = (
            # Form-encoded, as htmx posts a form without files (not multipart, the test
            # client's default, whose parsing cost the server a few tenths of a millisecond).
            client.post(path, urlencode(data), content_type=FORM, headers=HTMX)
            if data is not None
            else client.get(path, headers=HTMX)
        )
        ms = (time.perf_counter() - start) * 1000
        cpu = (time.process_time() - cpu) * 1000
    body = response.content
    raw = len(gzip.decompress(body)) if response.get("Content-Encoding") == "gzip" else len(body)
    return ms, cpu, len(queries), response.status_code, (raw, len(body))


def play(
    duels: int, moves: int, seed: int, sizes: dict[int, list[tuple[int, int]]]
) -> list[Sample]:
    from duels.models import Duel
    from duels.services import engine_of
    from tests.factories import group_phase_duel

    ordinary, first, last, poll = (
        Sample("ordinary move"),
        Sample("first move (starts)"),
        Sample("finishing move"),
        Sample("poll, nothing changed"),
    )
    rng = random.Random(seed)
    for n in range(duels):
        duel, referee = group_phase_duel(players=(f"Ada {n}", f"Bo {n}"))
        client = Client(HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE=LANGUAGE)
        client.force_login(referee)
        base = f"/t/{duel.tournament.slug}/duels/{duel.pk}/"
        client.get(base)  # the page the referee opened
        for seq in range(moves + 1):
            engine = engine_of(Duel.objects.select_related("seat_a", "seat_b").get(pk=duel.pk))
            if engine.finished:
                break
            if seq == moves:  # long enough: the referee records a forfeit
                ms, cpu, count, status, _ = timed(
                    client,
                    base + "end/",
                    {
                        "seq": seq,
                        "rev": seq,
                        "ending": "forfeit_B",
                        "reason": "bench",
                        "confirm": "on",
                    },
                )
            else:
                event = rng.choice(engine.legal_events())
                ms, cpu, count, status, size = timed(client, base + "move/", move_data(event, seq))
                if seq + 1 in SIZE_AT and duel.status != "finished":
                    sizes.setdefault(seq + 1, []).append(size)
                if seq and duel.status != "finished":
                    sizes.setdefault(0, []).append(size)  # 0: every ordinary move
            assert status == 200, (status, seq)
            duel.refresh_from_db()
            sample = first if seq == 0 else last if duel.status == "finished" else ordinary
            sample.add(ms, cpu, count)
            if duel.status != "finished" and seq % 5 == 0:
                ms, cpu, count, status, _ = timed(client, base + f"poll/?rev={seq + 1}")
                assert status == 204, status
                poll.add(ms, cpu, count)
    return [ordinary, first, last, poll]


#: The language the pages are asked in (Accept-Language; issue 29: --language es).
LANGUAGE = "en-gb"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duels", type=int, default=12)
    parser.add_argument("--moves", type=int, default=110, help="moves before the forfeit")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--language", default="en-gb", help="the console's language (es, fr, ms)")
    args = parser.parse_args()
    global LANGUAGE
    LANGUAGE = args.language

    from config.celery import app

    # Eager, as on the embedded default: a finishing move runs its follow-up task in-process
    # instead of leaving it on a broker with no worker.
    app.conf.task_always_eager = True
    # No setup_test_environment(): its template instrumentation would be timed too.
    settings = connection.settings_dict
    settings.setdefault("TEST", {})["NAME"] = (
        f"bench_console_{settings['NAME']}" if connection.vendor == "postgresql" else None
    )
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        version = ""
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SHOW server_version")
                version = " " + cursor.fetchone()[0].split()[0]
        print(
            f"database: {connection.vendor}{version} ({name}); Python "
            f"{platform.python_version()}, {platform.machine()}"
        )
        print(
            f"{args.duels} duels of up to {args.moves} random legal moves (seed {args.seed}),"
            " each an htmx POST through the whole stack:"
        )
        sizes: dict[int, list[tuple[int, int]]] = {}
        samples = play(args.duels, args.moves, args.seed, sizes)
        for sample in samples:
            print("  " + sample.line())
        largest = max(sizes.get(0, [(0, 0)]))
        print(
            f"  largest answer to an ordinary move: {largest[0]} bytes of HTML ({largest[1]} sent)"
        )
        for at in SIZE_AT:
            got = sizes.get(at, [])
            raw, wire = [r for r, _ in got], [w for _, w in got]
            print(
                f"  answer to move {at}: "
                + (
                    f"{min(wire)}–{max(wire)} bytes sent (gzip), {min(raw)}–{max(raw)} bytes"
                    f" of HTML, over {len(got)} duels"
                    if got
                    else "not reached"
                )
                + f" (budget {BUDGET_BYTES} bytes of HTML)"
            )
        ordinary = samples[0]
        p50 = statistics.median(ordinary.ms)
        fixed = min(ordinary.queries) == max(ordinary.queries)
        small = largest[0] <= BUDGET_BYTES
        ok = p50 < BUDGET_MS and fixed and max(ordinary.queries) < BUDGET_QUERIES and small
        print(
            f"budget: ordinary move p50 < {BUDGET_MS:.0f} ms, a fixed count under "
            f"{BUDGET_QUERIES} queries, every answer at most {BUDGET_BYTES} bytes of HTML: "
            f"{'met' if ok else 'NOT met'} (load average "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)"
        )
        if connection.vendor != "postgresql":
            print("(not PostgreSQL: set DATABASE_URL for the figures docs/performance.md quotes)")
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    main()
