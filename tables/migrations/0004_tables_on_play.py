"""Casual tables move onto the table core (issue 27): every table's moves become the events of
a `play.Game` of kind `split_uno_refereed`, and the table links to it.

- The active moves go through the refereed adapter's `events_from_record` with their stored
  log lines (the words the console showed stay the words it shows); a record the engine no
  longer replays is copied as stored (the console then says it cannot be replayed, as before).
- An undone move is copied undone, at its place in the log (`seq`), with its time.
- Each event's revision is its place in the table's timeline (every move and every undo
  counted once, in the order they happened), and the game's revision is the table's: a
  console opened before the migration stays valid (its next move is not stale, its poll and
  its log catch-up read the same revision).
- Every seat is held by the referee; the game's seed (never read by this adapter, but every
  game has one) is fresh.

Backwards, the tables are unlinked and their games deleted (the moves stay in `TableEvent`
until the later migration that removes it).
"""

import secrets
from dataclasses import asdict

from django.db import migrations

from play.adapters.base import Refused
from play.adapters.split_uno_refereed import ADAPTER, KIND, config_of

SEED_BYTES = 16


def _record(table, payloads):
    record = {
        "format": "split-uno-duel",
        "version": 1,
        "ruleset": table.ruleset,
        "variants": list(table.variants),
        "options": dict(table.options),
        "seats": {chr(ord("A") + i): name for i, name in enumerate(table.seats)},
        "events": payloads,
    }
    if table.teams is not None:
        record["teams"] = [list(team) for team in table.teams]
    return record


def _events(record, active):
    """The config, seats, the events' public parts (the opening first), and the table as the
    adapter restores it (None: its record does not replay)."""
    try:
        config, seats, events = ADAPTER.events_from_record(record, [r.summary for r in active])
        table = ADAPTER.restore(config, seats, b"", events)
    except Refused:
        config, seats = config_of(record)
        header = {k: v for k, v in record.items() if k != "events"}
        publics = [{"header": header, "log": []}]
        publics += [{"event": r.payload, "log": list(r.summary)} for r in active]
        return config, seats, publics, None
    return config, seats, [dict(e.public) for e in events], table


def tables_to_games(apps, schema_editor):
    CasualTable = apps.get_model("tables", "CasualTable")
    TableEvent = apps.get_model("tables", "TableEvent")
    Game = apps.get_model("play", "Game")
    Seat = apps.get_model("play", "Seat")
    GameEvent = apps.get_model("play", "GameEvent")
    Secret = apps.get_model("play", "GameSecret")
    for table in CasualTable.objects.filter(game=None).order_by("pk").iterator():
        rows = list(TableEvent.objects.filter(table=table).order_by("pk"))
        active = sorted((r for r in rows if r.undone_at is None), key=lambda r: r.seq)
        config, seats, publics, restored = _events(
            _record(table, [r.payload for r in active]), active
        )
        timeline = sorted(
            [(r.created_at, 0, r.pk) for r in rows]
            + [(r.undone_at, 1, r.pk) for r in rows if r.undone_at is not None]
        )
        made_at = {pk: i for i, (_, kind, pk) in enumerate(timeline, start=1) if kind == 0}
        if restored is not None:
            finished = ADAPTER.finished(restored)
            awaited = [asdict(ask) for ask in ADAPTER.awaiting(restored)]
        else:
            finished, awaited = table.status == "finished", []
        game = Game.objects.create(
            kind=KIND,
            config=config,
            seats=seats,
            status="finished" if finished else "playing",
            revision=table.revision,
            awaited=awaited,
        )
        Seat.objects.bulk_create(Seat(game=game, letter=s, holder="referee") for s in seats)
        Secret.objects.create(game=game, seed=secrets.token_bytes(SEED_BYTES), deal=[{}])
        public_of = {r.pk: publics[i] for i, r in enumerate(active, start=1)}
        events = [
            GameEvent(game=game, seq=1, revision=0, by="referee", public=publics[0]),
            *(
                GameEvent(
                    game=game,
                    seq=r.seq + 1,
                    revision=made_at[r.pk],
                    by="referee",
                    public=public_of.get(r.pk) or {"event": r.payload, "log": list(r.summary)},
                    undone_at=r.undone_at,
                )
                for r in rows
            ),
        ]
        GameEvent.objects.bulk_create(events)
        # The times the moves were made and undone are the console's log timeline: kept
        # (created_at is set on insert, so it is put back after).
        for event, when in zip(events, [table.created_at, *(r.created_at for r in rows)]):
            event.created_at = when
        GameEvent.objects.bulk_update(events, ["created_at"])
        table.game = game
        table.save(update_fields=["game"])


def unlink(apps, schema_editor):
    CasualTable = apps.get_model("tables", "CasualTable")
    Game = apps.get_model("play", "Game")
    ids = list(CasualTable.objects.exclude(game=None).values_list("game_id", flat=True))
    CasualTable.objects.update(game=None)
    Game.objects.filter(pk__in=ids).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0001_initial"),
        ("tables", "0003_casualtable_game"),
    ]

    operations = [
        migrations.RunPython(tables_to_games, unlink),
    ]
