"""The referee console's hot path in SQL written once (core/rows.py says why): the duel row
locked with its seats, referee and game, and an ordinary move's write of the duel row (the
game's log is written by the table core, play.services).

Through the ORM the locked row with its three joined rows took about 1 ms of CPU, the write
as much again (docs/performance.md, "Fourth pass"). The model has no save signals to skip.
"""

from functools import cache

from django.db import connection

from core.rows import field_value, qn, select_one

from .models import Duel

ORDINARY_FIELDS = ("seq", "revision", "state")  # what an ordinary move changes in the duel row


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


# -- an ordinary move's write ----------------------------------------------------------------


@cache
def _write_plan(vendor: str) -> str:
    row = Duel._meta
    assignments = ", ".join(f"{qn(row.get_field(name).column)} = %s" for name in ORDINARY_FIELDS)
    return f"UPDATE {qn(row.db_table)} SET {assignments} WHERE {qn(row.pk.column)} = %s"  # noqa: S608


def save_ordinary(duel: Duel) -> None:
    """What an ordinary move changes in the duel row: its seq, revision and state."""
    update = _write_plan(connection.vendor)
    values = [field_value(Duel, name, getattr(duel, name)) for name in ORDINARY_FIELDS]
    with connection.cursor() as cursor:
        cursor.execute(update, [*values, duel.pk])
