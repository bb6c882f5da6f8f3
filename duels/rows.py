"""The referee console's hot path in hand-written SQL: the duel row locked with its seats and
referee, the duel's log, and an ordinary move's two writes.

The ORM compiled each of these on every move, and compiling cost more than the queries: the
locked row with its three joined rows took about 1 ms of CPU through the ORM, the log about
0.4 ms even when short (docs/performance.md, "Fourth pass"). The SQL here is written once per
database vendor from the models' own table and column names (never from input), and the rows
are turned into model instances with the fields' own converters, as the ORM does (JSON
decoded, SQLite's dates and booleans read). Neither model has save signals to skip.
"""

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Model

from .models import Duel, DuelEvent

# Every column of an event row a page shows: pk, seq, payload, summary, created_at, undone_at.
ROW_FIELDS = ("pk", "seq", "payload", "summary", "created_at", "undone_at")
ORDINARY_FIELDS = ("seq", "revision", "state")  # what an ordinary move changes in the duel row
EVENT_COLUMNS = ("duel", "seq", "payload", "summary", "created_by", "created_at")

Converter = Callable[[Any], Any]


def _qn(name: str) -> str:
    return connection.ops.quote_name(name)


def _converters(model: type[Model], names: Sequence[str], alias: str) -> list[Converter | None]:
    """For each field, what the ORM applies to the value the database sent, or None."""
    out: list[Converter | None] = []
    for name in names:
        field = model._meta.get_field(name) if name != "pk" else model._meta.pk
        col = field.get_col(alias)
        found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        if not found:
            out.append(None)
            continue

        def convert(value: Any, found: list = found, col: Any = col) -> Any:
            for converter in found:
                value = converter(value, col, connection)
            return value

        out.append(convert)
    return out


def _apply(converters: list[Converter | None], values: Sequence[Any]) -> list[Any]:
    return [v if c is None else c(v) for c, v in zip(converters, values, strict=True)]


# -- the locked duel -----------------------------------------------------------------------


@cache
def _lock_plan(vendor: str, related: tuple[str, ...]) -> tuple[str, list[tuple]]:
    """The SQL, and for the duel and each related row: model, attribute names, converters."""
    duel = Duel._meta
    parts = [("duels_duel", Duel, None)]
    joins = []
    for i, name in enumerate(related):
        field = duel.get_field(name)
        alias = f"r{i}"
        parts.append((alias, field.related_model, field))
        joins.append(
            f" LEFT OUTER JOIN {_qn(field.related_model._meta.db_table)} {_qn(alias)}"
            f" ON {_qn(alias)}.{_qn(field.target_field.column)}"
            f" = {_qn(duel.db_table)}.{_qn(field.column)}"
        )
    columns, plan = [], []
    for alias, model, via in parts:
        table = duel.db_table if via is None else alias
        fields = model._meta.concrete_fields
        columns += [f"{_qn(table)}.{_qn(f.column)}" for f in fields]
        names = [f.attname for f in fields]
        plan.append((model, via, names, _converters(model, [f.name for f in fields], table)))
    sql = (
        f"SELECT {', '.join(columns)} FROM {_qn(duel.db_table)}{''.join(joins)}"  # noqa: S608
        f" WHERE {_qn(duel.db_table)}.{_qn(duel.pk.column)} = %s"
        f" AND {_qn(duel.db_table)}.{_qn(duel.get_field('tournament').column)} = %s"
    )
    if connection.features.has_select_for_update:
        # SQLite has no row locks: its IMMEDIATE transactions serialise every writer.
        sql += f" FOR UPDATE OF {_qn(duel.db_table)}"
    return sql, plan


def locked_duel(pk: int, tournament_id: int, related: tuple[str, ...]) -> Duel:
    """The duel `pk` of the tournament, its row locked, with the `related` rows it points to
    (the seats, the referee) already attached, as `select_related` would: one query."""
    sql, plan = _lock_plan(connection.vendor, related)
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk, tournament_id])
        row = cursor.fetchone()
    if row is None:
        raise Duel.DoesNotExist("Duel matching query does not exist.")
    start, duel = 0, None
    for model, via, names, converters in plan:
        values = _apply(converters, row[start : start + len(names)])
        start += len(names)
        if via is None:
            duel = model.from_db(connection.alias, names, values)
            continue
        # A seat not named yet joins nothing: every column NULL, its key first among them.
        target = None if values[0] is None else model.from_db(connection.alias, names, values)
        via.set_cached_value(duel, target)
    return duel


# -- the log ---------------------------------------------------------------------------------


@cache
def _log_plan(vendor: str) -> tuple[str, list[Converter | None]]:
    meta = DuelEvent._meta
    names = [meta.pk.name if f == "pk" else f for f in ROW_FIELDS]
    columns = ", ".join(_qn(meta.get_field(name).column) for name in names)
    sql = (
        f"SELECT {columns} FROM {_qn(meta.db_table)}"  # noqa: S608
        f" WHERE {_qn(meta.get_field('duel').column)} = %s ORDER BY {_qn(meta.pk.column)}"
    )
    return sql, _converters(DuelEvent, names, meta.db_table)


def event_rows(duel_pk: int) -> list[tuple]:
    """Every event row of the duel (ROW_FIELDS), undone ones too, in the order entered."""
    sql, converters = _log_plan(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [duel_pk])
        return [tuple(_apply(converters, row)) for row in cursor.fetchall()]


# -- an ordinary move's writes ---------------------------------------------------------------


@cache
def _write_plan(vendor: str) -> tuple[str, str, bool]:
    event, row = DuelEvent._meta, Duel._meta
    columns = ", ".join(_qn(event.get_field(name).column) for name in EVENT_COLUMNS)
    returning = connection.features.can_return_columns_from_insert
    insert = (
        f"INSERT INTO {_qn(event.db_table)} ({columns})"  # noqa: S608
        f" VALUES ({', '.join(['%s'] * len(EVENT_COLUMNS))})"
        + (f" RETURNING {_qn(event.pk.column)}" if returning else "")
    )
    assignments = ", ".join(f"{_qn(row.get_field(name).column)} = %s" for name in ORDINARY_FIELDS)
    update = f"UPDATE {_qn(row.db_table)} SET {assignments} WHERE {_qn(row.pk.column)} = %s"  # noqa: S608
    return insert, update, returning


def _prepared(model: type[Model], name: str, value: Any) -> Any:
    """`value` as the field `name` of `model` hands it to the database (JSON adapted)."""
    return model._meta.get_field(name).get_db_prep_save(value, connection)


def insert_event(duel: Duel, payload: Any, lines: list[str], actor: Any, now: datetime) -> int:
    """A new event row for the duel's current `seq`; its primary key."""
    insert, _, returning = _write_plan(connection.vendor)
    values = (duel.pk, duel.seq, payload, lines, getattr(actor, "pk", None), now)
    with connection.cursor() as cursor:
        cursor.execute(
            insert,
            [_prepared(DuelEvent, n, v) for n, v in zip(EVENT_COLUMNS, values, strict=True)],
        )
        return cursor.fetchone()[0] if returning else cursor.lastrowid


def save_ordinary(duel: Duel) -> None:
    """What an ordinary move changes in the duel row: its seq, revision and state."""
    _, update, _ = _write_plan(connection.vendor)
    values = [_prepared(Duel, name, getattr(duel, name)) for name in ORDINARY_FIELDS]
    with connection.cursor() as cursor:
        cursor.execute(update, [*values, duel.pk])
