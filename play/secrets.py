"""The one reader and writer of a game's secrets (issue 27): its seed and deal, and the private
parts of its events (play.models_secret).

What it returns goes to an adapter's ``restore`` and nowhere else: a page, fragment or JSON
answer is drawn from the adapter's ``view`` for its viewer, which decides what of it shows.
No other module imports play.models_secret (an import-linter contract) or names its models
(tests/play/test_secrets_isolation.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from django.db import connection

from core.rows import converters, qn
from play import rows
from play.models_secret import SEED_BYTES, EventSecret, GameSecret

#: A private part as stored: a seat's letter (or ``dealer``) → its facts.
Private = Mapping[str, Mapping[str, Any]]


def keep_game(game_id: int, *, seed: bytes, deal: Sequence[Private]) -> None:
    """Stores a new game's seed (at least 128 bits) and its deal (the opening events' private
    parts, in order)."""
    if len(seed) < SEED_BYTES:
        raise ValueError(f"a seed has at least {SEED_BYTES} bytes")
    GameSecret.objects.create(game_id=game_id, seed=bytes(seed), deal=[dict(p) for p in deal])


def keep_private(parts: Iterable[tuple[int, Private]]) -> None:
    """Stores the private parts of events just stored: (the GameEvent's pk, its private part)."""
    EventSecret.objects.bulk_create(
        EventSecret(event_id=event_id, key=key, facts=dict(facts))
        for event_id, private in parts
        for key, facts in private.items()
    )


def seed_of(game_id: int) -> bytes:
    return bytes(GameSecret.objects.values_list("seed", flat=True).get(game_id=game_id))


def deal_of(game_id: int) -> list[dict[str, Any]]:
    return GameSecret.objects.values_list("deal", flat=True).get(game_id=game_id)


def private_parts(game_id: int) -> dict[int, dict[str, Any]]:
    """The private parts of a game's active events, by the GameEvent's pk (one query, its SQL
    written once: every page of a game being played restores it, and the ORM's compiling and
    row building cost more than the query; core/rows.py)."""
    parts: dict[int, dict[str, Any]] = {}
    for event_id, key, facts in rows.of_game(_private_plan(connection.ops), game_id):
        parts.setdefault(event_id, {})[key] = facts
    return parts


@lru_cache(maxsize=256)  # per connection, as core.rows keys its plans
def _private_plan(ops: object) -> tuple[str, list]:
    meta = EventSecret._meta
    event_field = meta.get_field("event")
    event = event_field.related_model._meta  # play.GameEvent, reached through the key
    fields = [event_field, meta.get_field("key"), meta.get_field("facts")]
    table, events = qn(meta.db_table), qn(event.db_table)
    sql = (
        f"SELECT {', '.join(f'{table}.{qn(f.column)}' for f in fields)} FROM {table}"  # noqa: S608
        f" INNER JOIN {events} ON {events}.{qn(event.pk.column)} = {table}.{qn(event_field.column)}"
        f" WHERE {events}.{qn(event.get_field('game').column)} = %s"
        f" AND {events}.{qn(event.get_field('undone_at').column)} IS NULL"
    )
    return sql, converters(fields, meta.db_table)
