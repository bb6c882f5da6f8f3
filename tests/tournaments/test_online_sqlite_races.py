"""Online tournament duels at the same instant on the embedded default (issue 31): SQLite, a
file database (tests/conftest.py), each thread its own connection, every request through the
whole stack (middleware, session, views, services) as two phones send it.

An outside test saw one of two players pressing "I'm ready" at the same moment get a 503
("database is locked"). SQLite has no row locks: writers are serialised by IMMEDIATE
transactions (config/settings.py), and a writer waits for the other (``timeout``) only while
it holds no snapshot of its own. A transaction begun another way (a deferred ``BEGIN``, a
savepoint opened outside a transaction) reads first and upgrades its snapshot to a write,
which SQLite refuses at once, without waiting, whenever another connection wrote since; a
write in autocommit after a read escapes the serialisation too (a lost update rather than an
error). So beside what each player sees, these tests read every statement the racing
requests send (``set_trace_callback`` on their connections) and hold every write to an
IMMEDIATE transaction (checked to fail with a readiness written in autocommit). The same
races on PostgreSQL: tests/integration/test_online_duel_races.py.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.db.backends.signals import connection_created
from django.test import Client

from accounts.models import User
from duels.models import Duel, DuelStatus
from play import clock
from play.models import Game, GameEvent
from tests.tournaments.test_online_duels import client_of, online_duel, url

pytestmark = pytest.mark.django_db(transaction=True)

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


@pytest.fixture(autouse=True)
def _sqlite():
    if connection.vendor != "sqlite":
        pytest.skip("the embedded default's races (PostgreSQL's: tests/integration)")


class Statements:
    """Every statement the racing threads' connections send, by connection."""

    def __init__(self) -> None:
        self.sent: dict[int, list[str]] = {}
        self.racers: set[str] = set()

    def __enter__(self) -> Statements:
        connection_created.connect(self._created, weak=False)
        return self

    def __exit__(self, *exc: object) -> None:
        connection_created.disconnect(self._created)

    def _created(self, sender, connection, **kwargs) -> None:
        if threading.current_thread().name not in self.racers:
            return
        sent = self.sent.setdefault(id(connection.connection), [])
        connection.connection.set_trace_callback(sent.append)

    def escaped(self) -> list[str]:
        """The writes sent outside a transaction begun IMMEDIATE, and any other way of
        beginning one (each upgrades a read snapshot to a write: refused at once by SQLite
        when another connection wrote since, "database is locked")."""
        found = []
        for sent in self.sent.values():
            begun = None
            for sql in sent:
                word = sql.lstrip().upper()
                if word.startswith("BEGIN"):
                    begun = word.split()[:2]
                    if begun != ["BEGIN", "IMMEDIATE"]:
                        found.append(sql)
                elif word.startswith(("COMMIT", "END")) or (
                    word.startswith("ROLLBACK") and not word.startswith("ROLLBACK TO")
                ):
                    begun = None
                elif word.startswith(("SAVEPOINT", *WRITES)) and begun is None:
                    found.append(sql)
        return found


def race(statements: Statements, calls: list[Callable[[], object]]) -> list[object]:
    """``calls`` in threads released together, each on its own connection; what each gave
    back (or the exception it raised), in the order of ``calls``."""
    barrier = threading.Barrier(len(calls))
    out: list[object] = [None] * len(calls)

    def run(k: int) -> None:
        try:
            barrier.wait()
            out[k] = calls[k]()
        except Exception as exc:  # noqa: BLE001 - the test shows whatever happened
            out[k] = exc
        finally:
            connection.close()

    threads = []
    for k in range(len(calls)):
        name = f"racer-{k}"
        statements.racers.add(name)
        threads.append(threading.Thread(target=run, args=(k,), name=name))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return out


def fresh_duel():
    """Another online duel of Alice and Bob (the factory names their accounts: earlier
    rounds' accounts step aside)."""
    for name in ("alice", "bob"):
        User.objects.filter(username=name).update(username=f"{name}-{User.objects.count()}")
    return online_duel()


def status_of(answer: object) -> object:
    return getattr(answer, "status_code", answer)


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "without JavaScript"])
def test_both_players_ready_at_the_same_moment_both_get_their_table_and_it_is_dealt_once(htmx):
    for _ in range(3):  # three duels: the two orders, and the start racing the other's ready
        ready_at_once(htmx)


def ready_at_once(htmx: bool) -> None:
    duel, _referee, alice, bob = fresh_duel()
    phones = [client_of(alice), client_of(bob)]
    for phone in phones:
        assert "not ready yet" in phone.get(url("duel", duel)).content.decode()
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    with Statements() as statements:
        answers = race(
            statements, [lambda p=p: p.post(url("ready", duel), **headers) for p in phones]
        )
    assert [status_of(a) for a in answers if status_of(a) not in (200, 204, 302)] == []
    assert statements.escaped() == []
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING and duel.game_id is not None
    deals = GameEvent.objects.filter(game_id=duel.game_id, public__type="deal")
    assert deals.count() == 1
    for phone, seat in zip(phones, "AB", strict=True):
        page = phone.get(url("duel", duel)).content.decode()
        assert 'id="card-table"' in page and 'name="play"' in page, seat


def _seal_form(phone: Client, duel: Duel) -> dict[str, str]:
    page = phone.get(url("duel", duel)).content.decode()
    return {
        "play": re.search(r'name="play" value="(seal:\d)"', page).group(1),
        "revision": re.search(r'name="revision" value="(\d+)"', page).group(1),
        "intent": re.search(r'name="intent" value="([^"]+)"', page).group(1),
    }


def _started() -> tuple[Duel, list[Client]]:
    duel, _referee, alice, bob = fresh_duel()
    phones = [client_of(alice), client_of(bob)]
    for phone in phones:
        phone.post(url("ready", duel))
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING
    return duel, phones


def test_both_seals_at_once_both_count_and_the_round_is_revealed_once():
    duel, phones = _started()
    forms = [_seal_form(phone, duel) for phone in phones]
    with Statements() as statements:
        answers = race(
            statements,
            [
                lambda p=p, f=f: p.post(url("move", duel), f, HTTP_HX_REQUEST="true")
                for p, f in zip(phones, forms, strict=True)
            ],
        )
    # The second seal was overtaken only by the other's: it still counts (ONLINE.md 2).
    assert [status_of(a) for a in answers] == [200, 200]
    assert statements.escaped() == []
    types = list(
        GameEvent.objects.filter(game_id=duel.game_id)
        .order_by("seq")
        .values_list("public__type", flat=True)
    )
    assert types.count("seal") == 2 and types.count("round") == 1


def test_a_seal_racing_the_seat_clock_is_one_seal_never_an_error():
    for _ in range(3):
        seal_racing_the_clock()


def seal_racing_the_clock() -> None:
    duel, phones = _started()
    form = _seal_form(phones[0], duel)
    game = Game.objects.get(pk=duel.game_id)
    due = game.next_deadline + timedelta(seconds=1)  # the clock's moment, injected
    with Statements() as statements:
        sealed, clocked = race(
            statements,
            [
                lambda: phones[0].post(url("move", duel), form, HTTP_HX_REQUEST="true"),
                lambda: clock.act_if_due(game.pk, now=due),
            ],
        )
    # Alice's seal stands, or the clock sealed for her first and her page is out of date
    # (409, in words): one seal of hers either way, never a 503.
    assert status_of(sealed) in (200, 409) and isinstance(clocked, bool), (sealed, clocked)
    assert statements.escaped() == []
    alices = GameEvent.objects.filter(game_id=duel.game_id, public__type="seal", public__seat="A")
    assert alices.count() == 1
    if status_of(sealed) == 409:
        assert alices.get().by == clock.CLOCK
