"""The referee console's hot path in SQL written once (core/rows.py says why): the duel row
locked with its seats and referee, the duel's log, and an ordinary move's two writes.

Through the ORM the locked row with its three joined rows took about 1 ms of CPU, the log
about 0.4 ms even when short, the two writes as much again (docs/performance.md, "Fourth
pass"). Neither model has save signals for the writes to skip.
"""

from datetime import datetime
from functools import cache, lru_cache
from typing import Any

from django.db import connection

from core.rows import converted, converters, field_value, qn, select_one

from .models import Duel, DuelEvent

# Every column of an event row a page shows: pk, seq, payload, summary, created_at, undone_at.
ROW_FIELDS = ("pk", "seq", "payload", "summary", "created_at", "undone_at")
ORDINARY_FIELDS = ("seq", "revision", "state")  # what an ordinary move changes in the duel row
EVENT_COLUMNS = ("duel", "seq", "payload", "summary", "created_by", "created_at", "intent")


def locked_duel(pk: int, tournament_id: int, related: tuple[str, ...]) -> Duel:
    """The duel `pk` of the tournament, its row locked, with the `related` rows it points to
    (the seats, the referee) already attached, as `select_related` would: one query."""
    duel = select_one(
        Duel,
        where=(("pk", "="), ("tournament", "=")),
        values=(pk, tournament_id),
        related=related,
        lock=True,
    )
    if duel is None:
        raise Duel.DoesNotExist("Duel matching query does not exist.")
    return duel


# -- the log ---------------------------------------------------------------------------------


@lru_cache(maxsize=256)  # per connection, as core.rows keys its plans
def _log_plan(ops: object) -> tuple[str, list]:
    meta = DuelEvent._meta
    fields = [meta.pk if name == "pk" else meta.get_field(name) for name in ROW_FIELDS]
    sql = (
        f"SELECT {', '.join(qn(f.column) for f in fields)} FROM {qn(meta.db_table)}"  # noqa: S608
        f" WHERE {qn(meta.get_field('duel').column)} = %s ORDER BY {qn(meta.pk.column)}"
    )
    return sql, converters(fields, meta.db_table)


def event_rows(duel_pk: int) -> list[tuple]:
    """Every event row of the duel (ROW_FIELDS), undone ones too, in the order entered."""
    sql, convert = _log_plan(connection.ops)
    with connection.cursor() as cursor:
        cursor.execute(sql, [duel_pk])
        return [tuple(converted(convert, row)) for row in cursor.fetchall()]


# -- an ordinary move's writes ---------------------------------------------------------------


@cache
def _write_plan(vendor: str) -> tuple[str, str, bool]:
    event, row = DuelEvent._meta, Duel._meta
    columns = ", ".join(qn(event.get_field(name).column) for name in EVENT_COLUMNS)
    returning = connection.features.can_return_columns_from_insert
    insert = (
        f"INSERT INTO {qn(event.db_table)} ({columns})"  # noqa: S608
        f" VALUES ({', '.join(['%s'] * len(EVENT_COLUMNS))})"
        + (f" RETURNING {qn(event.pk.column)}" if returning else "")
    )
    assignments = ", ".join(f"{qn(row.get_field(name).column)} = %s" for name in ORDINARY_FIELDS)
    update = f"UPDATE {qn(row.db_table)} SET {assignments} WHERE {qn(row.pk.column)} = %s"  # noqa: S608
    return insert, update, returning


def insert_event(
    duel: Duel, payload: Any, lines: list[str], actor: Any, now: datetime, intent: str = ""
) -> int:
    """A new event row for the duel's current `seq`, with the key of the form that sent it
    (`intent`, empty for none); its primary key."""
    insert, _, returning = _write_plan(connection.vendor)
    values = (duel.pk, duel.seq, payload, lines, getattr(actor, "pk", None), now, intent)
    with connection.cursor() as cursor:
        cursor.execute(
            insert,
            [field_value(DuelEvent, n, v) for n, v in zip(EVENT_COLUMNS, values, strict=True)],
        )
        return cursor.fetchone()[0] if returning else cursor.lastrowid


def save_ordinary(duel: Duel) -> None:
    """What an ordinary move changes in the duel row: its seq, revision and state."""
    _, update, _ = _write_plan(connection.vendor)
    values = [field_value(Duel, name, getattr(duel, name)) for name in ORDINARY_FIELDS]
    with connection.cursor() as cursor:
        cursor.execute(update, [*values, duel.pk])
