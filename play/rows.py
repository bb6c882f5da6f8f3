"""The table core's hot path in SQL written once (core/rows.py says why): a game's log read,
its active events read for a restore, its seats' clock deadlines, its new events inserted,
and its row's update after a command.

Through the ORM these three cost about 1.4 ms, 2.4 ms and 0.8 ms of CPU a move on the
tournament console (profiled under load; docs/performance.md, "Duels on the table core"),
where its own SQL costs a fraction: the query is compiled once per connection and shape from
the models' own table and column names (never from input; the values are parameters), and the
rows are converted with the fields' own converters, as the ORM converts them. No model here
has save signals for the writes to skip.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from itertools import chain
from typing import Any

from django.db import connection

from core.rows import converted, converters, field_value, qn

from .models import Game, GameEvent, Seat

#: A stored event as the log reads it: (pk, seq, revision, by, public, created_at, undone_at).
LOG_FIELDS = ("pk", "seq", "revision", "by", "public", "created_at", "undone_at")
EVENT_COLUMNS = ("game", "seq", "revision", "by", "public", "actor", "created_at")
#: What a command changes in the game's row.
GAME_FIELDS = ("revision", "status", "awaited", "next_deadline", "updated_at")


@lru_cache(maxsize=256)  # per connection (its ops), as core.rows keys its plans
def _game_plan(
    ops: object,
    model: type,
    names: tuple[str, ...],
    order: str,
    null: tuple[tuple[str, bool], ...] = (),
) -> tuple[str, list]:
    """The SQL, written once, of `names` of `model`'s rows of one game (``game = %s``), each
    field of `null` IS NULL (True) or IS NOT NULL (False), ordered by `order`; and the fields'
    converters."""
    meta = model._meta

    def field(name: str) -> Any:
        return meta.pk if name == "pk" else meta.get_field(name)

    fields = [field(name) for name in names]
    conditions = [f"{qn(field('game').column)} = %s"] + [
        f"{qn(field(name).column)} IS {'' if is_null else 'NOT '}NULL" for name, is_null in null
    ]
    sql = (
        f"SELECT {', '.join(qn(f.column) for f in fields)} FROM {qn(meta.db_table)}"  # noqa: S608
        f" WHERE {' AND '.join(conditions)} ORDER BY {qn(field(order).column)}"
    )
    return sql, converters(fields, meta.db_table)


def events_of(game_id: int) -> list[tuple]:
    """Every stored event of the game (LOG_FIELDS), undone ones too, in the order stored."""
    return of_game(_game_plan(connection.ops, GameEvent, LOG_FIELDS, "pk"), game_id)


def of_game(plan: tuple[str, list], game_id: int) -> list[tuple]:
    """The rows a plan (its SQL written once, its converters) reads for one game."""
    sql, convert = plan
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        return [tuple(converted(convert, row)) for row in cursor.fetchall()]


def active_events(game_id: int) -> list[tuple[int, str, Any, int]]:
    """The game's active events (pk, by, public, revision) in their order: what a restore
    replays."""
    plan = _game_plan(
        connection.ops, GameEvent, ("pk", "by", "public", "revision"), "seq", (("undone_at", True),)
    )
    return of_game(plan, game_id)  # type: ignore[return-value]


def seat_deadlines(game_id: int) -> list[tuple[str, datetime]]:
    """Each seat's clock deadline (letter, deadline) where it has one, by letter: read by every
    page of a game with a seat clock, its spectators' polls too."""
    plan = _game_plan(
        connection.ops, Seat, ("letter", "deadline"), "letter", (("deadline", False),)
    )
    return of_game(plan, game_id)  # type: ignore[return-value]


@lru_cache(maxsize=64)
def _insert_plan(vendor: str, count: int) -> str:
    meta = GameEvent._meta
    columns = ", ".join(qn(meta.get_field(name).column) for name in EVENT_COLUMNS)
    one = f"({', '.join(['%s'] * len(EVENT_COLUMNS))})"
    return (
        f"INSERT INTO {qn(meta.db_table)} ({columns}) VALUES {', '.join([one] * count)}"  # noqa: S608
        f" RETURNING {qn(meta.pk.column)}"
    )


def insert_events(
    game_id: int, events: Sequence[tuple[int, int, str, Any, str]], now: datetime
) -> list[int]:
    """Stores new events — each (seq, revision, by, public, actor) — entered at `now`; their
    primary keys, in order. One statement where the database returns the keys of a multi-row
    insert (PostgreSQL, SQLite from 3.35), else one a row."""
    rows = [
        [
            field_value(GameEvent, n, v)
            for n, v in zip(EVENT_COLUMNS, (game_id, *event, now), strict=True)
        ]
        for event in events
    ]
    if not rows:
        return []
    with connection.cursor() as cursor:
        if connection.features.can_return_rows_from_bulk_insert:
            cursor.execute(_insert_plan(connection.vendor, len(rows)), list(chain(*rows)))
            return [row[0] for row in cursor.fetchall()]
        keys = []
        plain = _insert_plan(connection.vendor, 1).rsplit(" RETURNING ", 1)[0]
        for values in rows:
            cursor.execute(plain, values)
            keys.append(cursor.lastrowid)
        return keys


@lru_cache(maxsize=8)
def _update_plan(vendor: str) -> str:
    meta = Game._meta
    assignments = ", ".join(f"{qn(meta.get_field(name).column)} = %s" for name in GAME_FIELDS)
    return f"UPDATE {qn(meta.db_table)} SET {assignments} WHERE {qn(meta.pk.column)} = %s"  # noqa: S608


def save_game(game: Game, now: datetime) -> None:
    """What a command changes in the game's row (GAME_FIELDS), `updated_at` set to `now`."""
    game.updated_at = now
    values = [field_value(Game, name, getattr(game, name)) for name in GAME_FIELDS]
    with connection.cursor() as cursor:
        cursor.execute(_update_plan(connection.vendor), [*values, game.pk])
