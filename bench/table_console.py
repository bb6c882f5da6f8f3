"""Casual-table console: the size of the answer to a move, sent (gzip) and as HTML.

    DEBUG=1 .venv/bin/python bench/table_console.py [--seats 2 3 6] [--moves 100] [--seed 7]

Each table is opened by its owner, its console page loaded, then --moves random legal moves
(seeded: the same games every run) are posted as htmx posts through the whole stack with
`Accept-Encoding: gzip`, as a browser sends them, each carrying the revision the page showed.
The size of the answer to move 1, 10 and 100 is printed: what the client receives (the bytes
on the wire, gzipped when the server compressed it) and the HTML once decompressed. A game
that ends before --moves is played again with the next seed. An undo after the last move and
a poll from a page 50 revisions behind are measured too.

It works in a throwaway SQLite database of its own (or, with DATABASE_URL, a database created
and dropped here, bench_tables_<name>), never a test run's database.
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import sys
import tempfile
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

HTMX = {"HX-Request": "true", "Accept-Encoding": "gzip"}  # as a browser asks
FORM = "application/x-www-form-urlencoded"
SIZE_AT = (1, 10, 100)
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


def move_data(event: dict, revision: int) -> dict:
    """The console's form fields for an engine event."""
    data: dict = {"type": event["type"], "rev": revision}
    if event["type"] == "round":
        data.update({f"card_{seat}": card for seat, card in event["cards"].items()})
        data.update({f"target_{seat}": t for seat, t in event.get("targets", {}).items()})
        if not event["cards"]:
            data["round_all_blocked"] = "1"
    elif event["type"] == "action":
        data.update({"seat": event["seat"], "card": event["card"]})
        for key in ("target", "color"):
            if key in event:
                data[key] = event[key]
    else:
        data.update({"seat": event["seat"], "choice": event["choice"]})
    return data


def pick(engine, rng: random.Random) -> dict:
    """A random legal event. With more than two seats the engine does not list rounds (their
    combinations run to millions): one is drawn from its seats and targets."""
    events = engine.legal_events()
    legal = engine.legal()
    if legal.can_play_round and len(engine.seats) > 2:
        cards = {seat: rng.randrange(10) for seat in legal.round_seats}
        targets = {
            seat: rng.choice(legal.targets[seat])
            for seat, card in cards.items()
            if card in (0, 7) and legal.targets.get(seat)
        }
        events.append({"type": "round", "cards": cards, "targets": targets})
    return rng.choice(events)


def sizes(response) -> tuple[int, int, str]:
    """(bytes sent, bytes of HTML, encoding) of one answer."""
    body = response.content
    gzipped = response.get("Content-Encoding") == "gzip"
    return len(body), len(gzip.decompress(body) if gzipped else body), "gzip" if gzipped else "-"


def one_game(seats: int, moves: int, seed: int) -> dict[str, tuple[int, int, str]] | None:
    """The sizes of one game's answers, or None if it ended before `moves` moves."""
    from tables import selectors, services
    from tables.models import CasualTable
    from tests.factories import UserFactory

    owner = UserFactory()
    table = services.open_table(owner=owner, ruleset="official", names=list(NAMES[:seats]))
    client = Client(HTTP_HOST="localhost")
    client.force_login(owner)
    base = f"/tables/{table.pk}/"
    assert client.get(base).status_code == 200  # the page the referee opened
    rng = random.Random(seed)
    out: dict[str, tuple[int, int, str]] = {}
    for n in range(1, moves + 1):
        table = CasualTable.objects.get(pk=table.pk)
        engine = services.engine_of(table)
        if engine.finished:
            return None
        event = pick(engine, rng)
        response = client.post(
            base + "move/",
            urlencode(move_data(event, selectors.revision_of(table.pk))),
            FORM,
            headers=HTMX,
        )
        assert response.status_code == 200, (response.status_code, n)
        if n in SIZE_AT:
            out[f"move {n}"] = sizes(response)
    revision = selectors.revision_of(table.pk)
    response = client.post(base + "undo/", urlencode({"rev": revision}), FORM, headers=HTMX)
    assert response.status_code == 200, response.status_code
    out["undo after it"] = sizes(response)
    response = client.get(base + f"poll/?rev={revision + 1 - 50}", headers=HTMX)
    out["poll, 50 behind"] = sizes(response)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 6])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    settings = connection.settings_dict
    settings.setdefault("TEST", {})["NAME"] = (
        f"bench_tables_{settings['NAME']}" if connection.vendor == "postgresql" else None
    )
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        for seats in args.seats:
            seed = args.seed
            while (got := one_game(seats, args.moves, seed)) is None:
                seed += 1
            print(f"{seats} seats, {args.moves} random legal moves (seed {seed}):")
            for what, (sent, html, encoding) in got.items():
                print(f"  answer to {what}: {sent:,} bytes sent ({encoding}), {html:,} of HTML")
    finally:
        connection.creation.destroy_test_db(
            connection.settings_dict["NAME"], verbosity=0, keepdb=False
        )


if __name__ == "__main__":
    main()
