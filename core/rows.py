"""One row by a fixed condition, read with SQL written once instead of compiled by the ORM on
every request: for the reads every request of a kind makes (the session, the tournament of a
tournament page, the duel a move locks).

The ORM compiles a query each time it runs it, and for a one-row read that cost more than the
query itself: about 0.4 ms of CPU for a plain `get()`, 1 ms with three joined rows
(docs/performance.md, "Fourth pass"). Here the SQL is built once per connection and
shape from the models' own table and column names (never from input; the values are
parameters), and the row becomes a model instance with the fields' own converters, as the ORM
makes it (JSON decoded, SQLite's dates and booleans read): the instance is the one `get()`
gives, its `related` rows attached as `select_related` attaches them.
"""

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from django.db import NotSupportedError, connection
from django.db.models import Field, Model
from django.db.transaction import TransactionManagementError

Converter = Callable[[Any], Any]
OPERATORS = ("=", ">")


def qn(name: str) -> str:
    """`name` quoted the way the current database quotes a table or a column."""
    return connection.ops.quote_name(name)


def converters(fields: Sequence[Field], alias: str) -> list[Converter | None]:
    """For each field, what the ORM applies to the value the database sent (None: nothing)."""
    out: list[Converter | None] = []
    for field in fields:
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


def converted(convert: list[Converter | None], values: Sequence[Any]) -> list[Any]:
    return [v if c is None else c(v) for c, v in zip(convert, values, strict=True)]


# Keyed by the connection's operations object, not only its vendor: a converter the backend
# gives may be bound to it, and each thread has its own connection. Bounded: threads come
# and go.
@lru_cache(maxsize=256)
def _plan(
    ops: Any,
    model: type[Model],
    where: tuple[tuple[str, str], ...],
    related: tuple[str, ...],
    lock: bool,
    order: tuple[str, ...] | None = None,
) -> tuple[str, list[tuple]]:
    """The SQL, and for the row and each related row: model, the field it hangs by (None for
    the row itself), attribute names, converters."""
    meta = model._meta
    table = meta.db_table
    parts: list[tuple[str, type[Model], Any]] = [(table, model, None)]
    joins = []
    for i, name in enumerate(related):
        field = meta.get_field(name)
        alias = f"r{i}"
        parts.append((alias, field.related_model, field))
        joins.append(
            f" LEFT OUTER JOIN {qn(field.related_model._meta.db_table)} {qn(alias)}"
            f" ON {qn(alias)}.{qn(field.target_field.column)} = {qn(table)}.{qn(field.column)}"
        )
    columns, plan = [], []
    for alias, part, via in parts:
        fields = part._meta.concrete_fields
        columns += [f"{qn(alias)}.{qn(f.column)}" for f in fields]
        names = [f.attname for f in fields]
        # Which column tells a joined row from none: the one the foreign key points at.
        key = names.index(via.target_field.attname) if via is not None else 0
        plan.append((part, via, names, converters(fields, alias), key))
    conditions = []
    for name, operator in where:
        if operator not in OPERATORS:
            raise ValueError(f"Not an operator here: {operator!r}")
        field = meta.pk if name == "pk" else meta.get_field(name)
        conditions.append(f"{qn(table)}.{qn(field.column)} {operator} %s")
    sql = (
        f"SELECT {', '.join(columns)} FROM {qn(table)}{''.join(joins)}"  # noqa: S608
        f" WHERE {' AND '.join(conditions)}"
    )
    if order is None:
        # Two rows at most: more than one is refused, as `get()` refuses it.
        sql += " LIMIT 2"
    else:
        ordered = [meta.pk if name == "pk" else meta.get_field(name) for name in order]
        sql += f" ORDER BY {', '.join(f'{qn(table)}.{qn(f.column)}' for f in ordered)}"
    if lock and connection.features.has_select_for_update:
        if not connection.features.has_select_for_update_of:
            raise NotSupportedError("This database cannot lock the row of one table of a join.")
        sql += f" FOR UPDATE OF {qn(table)}"
    # Without row locks (SQLite), IMMEDIATE transactions serialise every writer instead.
    return sql, plan


def select_one(
    model: type[Model],
    *,
    where: tuple[tuple[str, str], ...],
    values: Sequence[Any],
    related: tuple[str, ...] = (),
    lock: bool = False,
) -> Any:
    """The row of `model` where each (field, operator) of `where` holds for `values`, as
    `model.objects.select_related(*related).get(...)` gives it (`select_for_update(of=self)`
    with `lock`), or None. `where` must pick one row at most (a key, a unique field)."""
    if lock and connection.get_autocommit():
        # As the ORM refuses it: outside a transaction the lock would end with the query.
        raise TransactionManagementError("select_one(lock=True) needs a transaction.")
    if any(value is None for value in values):
        raise ValueError("A condition on None matches nothing here (the ORM says IS NULL).")
    sql, plan = _plan(connection.ops, model, where, related, lock)
    rows = _fetch(sql, model, where, values)
    if not rows:
        return None
    if len(rows) > 1:
        raise model.MultipleObjectsReturned(f"More than one {model.__name__} for {where}.")
    return _instance(plan, rows[0])


def select_all(
    model: type[Model],
    *,
    where: tuple[tuple[str, str], ...],
    values: Sequence[Any],
    order: tuple[str, ...],
    related: tuple[str, ...] = (),
) -> list[Any]:
    """The rows of `model` where each (field, operator) of `where` holds for `values`, in
    `order`, as `model.objects.select_related(*related).filter(...).order_by(*order)` gives
    them (a table's people with their accounts: read by every page of an online table)."""
    if any(value is None for value in values):
        raise ValueError("A condition on None matches nothing here (the ORM says IS NULL).")
    sql, plan = _plan(connection.ops, model, where, related, False, order)
    return [_instance(plan, row) for row in _fetch(sql, model, where, values)]


def _fetch(
    sql: str, model: type[Model], where: tuple[tuple[str, str], ...], values: Sequence[Any]
) -> list[tuple]:
    with connection.cursor() as cursor:
        params = [field_value(model, name, v) for (name, _), v in zip(where, values, strict=True)]
        cursor.execute(sql, params)
        return cursor.fetchall()


def _instance(plan: list[tuple], row: Sequence[Any]) -> Any:
    """A row as the model's instance, its related rows attached (`select_related`'s way)."""
    start, instance = 0, None
    for part, via, names, convert, key in plan:
        got = converted(convert, row[start : start + len(names)])
        start += len(names)
        if via is None:
            instance = part.from_db(connection.alias, names, got)
        else:
            # A foreign key left empty joins nothing: every column NULL, the one it points at too.
            target = None if got[key] is None else part.from_db(connection.alias, names, got)
            via.set_cached_value(instance, target)
    return instance


def field_value(model: type[Model], name: str, value: Any) -> Any:
    """`value` as the field `name` of `model` hands it to the database (a date, JSON...)."""
    field = model._meta.pk if name == "pk" else model._meta.get_field(name)
    return field.get_db_prep_value(value, connection, prepared=False)
