"""One row by a fixed condition, read with SQL written once instead of compiled by the ORM on
every request: for the reads every request of a kind makes (the session, the tournament of a
tournament page, the duel a move locks).

The ORM compiles a query each time it runs it, and for a one-row read that cost more than the
query itself: about 0.4 ms of CPU for a plain `get()`, 1 ms with three joined rows
(docs/performance.md, "Fourth pass"). Here the SQL is built once per database vendor and
shape from the models' own table and column names (never from input; the values are
parameters), and the row becomes a model instance with the fields' own converters, as the ORM
makes it (JSON decoded, SQLite's dates and booleans read): the instance is the one `get()`
gives, its `related` rows attached as `select_related` attaches them.
"""

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Field, Model

Converter = Callable[[Any], Any]
OPERATORS = ("=", ">")


def _qn(name: str) -> str:
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


@cache
def _plan(
    vendor: str,
    model: type[Model],
    where: tuple[tuple[str, str], ...],
    related: tuple[str, ...],
    lock: bool,
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
            f" LEFT OUTER JOIN {_qn(field.related_model._meta.db_table)} {_qn(alias)}"
            f" ON {_qn(alias)}.{_qn(field.target_field.column)} = {_qn(table)}.{_qn(field.column)}"
        )
    columns, plan = [], []
    for alias, part, via in parts:
        fields = part._meta.concrete_fields
        columns += [f"{_qn(alias)}.{_qn(f.column)}" for f in fields]
        plan.append((part, via, [f.attname for f in fields], converters(fields, alias)))
    conditions = []
    for name, operator in where:
        if operator not in OPERATORS:
            raise ValueError(f"Not an operator here: {operator!r}")
        field = meta.pk if name == "pk" else meta.get_field(name)
        conditions.append(f"{_qn(table)}.{_qn(field.column)} {operator} %s")
    sql = (
        f"SELECT {', '.join(columns)} FROM {_qn(table)}{''.join(joins)}"  # noqa: S608
        f" WHERE {' AND '.join(conditions)}"
    )
    if lock and connection.features.has_select_for_update:
        # SQLite has no row locks: its IMMEDIATE transactions serialise every writer.
        sql += f" FOR UPDATE OF {_qn(table)}"
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
    sql, plan = _plan(connection.vendor, model, where, related, lock)
    with connection.cursor() as cursor:
        params = [field_value(model, name, v) for (name, _), v in zip(where, values, strict=True)]
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    start, instance = 0, None
    for part, via, names, convert in plan:
        values_of_part = converted(convert, row[start : start + len(names)])
        start += len(names)
        if via is None:
            instance = part.from_db(connection.alias, names, values_of_part)
            continue
        # A foreign key left empty joins nothing: every column NULL, the key first of them.
        target = (
            None
            if values_of_part[0] is None
            else part.from_db(connection.alias, names, values_of_part)
        )
        via.set_cached_value(instance, target)
    return instance


def field_value(model: type[Model], name: str, value: Any) -> Any:
    """`value` as the field `name` of `model` hands it to the database (a date, JSON...)."""
    field = model._meta.pk if name == "pk" else model._meta.get_field(name)
    if getattr(field, "target_field", None) is not None and isinstance(value, Model):
        value = value.pk
    return field.get_db_prep_value(value, connection, prepared=False)
