"""Every tournament duel's event log moves onto the table core (issue 27): a game of the
refereed Split UNO adapter per duel that has events, with its opening (the record's header),
every event — undone ones too, with when and by whom — at the revision it was made, and every
form's key (a move's, an undo's) as the core keeps them (``play.models.Intent``), so that a
form sent again after the upgrade is still answered "already recorded".

The revision of each event is its place in the duel's timeline (every event entered and every
undo, in the order of their times), as the consoles count it; the game's revision is the
duel's (a correction that took back several forfeits at once counted one).

The header comes from ``play.adapters.split_uno_refereed.header`` (a pure function of the
duel's set-up); a set-up the engine refuses keeps its raw header, and the duel then shows
"cannot be replayed", as it did. Everything else is written here with the historical models.
"""

from __future__ import annotations

import hashlib
import json
import secrets as random_source

from django.db import migrations

#: What ``duels.services.take_back`` wrote as the undo's key: a correction, not a person's undo.
TAKEN_BACK = "taken back"
KIND = "split_uno_refereed"


def _digest(name: str, args: dict) -> str:
    # play.services.command_digest as it is at this migration (frozen here).
    text = json.dumps(
        {"name": name, "seat": None, "args": args},
        sort_keys=True,
        default=str,
        separators=(",", ":"),
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _header(config: dict) -> dict:
    from play.adapters.base import Refused
    from play.adapters.split_uno_refereed import header

    try:
        return header(config, ["A", "B"])
    except Refused:
        return {
            "format": "split-uno-duel",
            "version": 1,
            "ruleset": config["ruleset"],
            "variants": config["variants"],
            "options": config["options"],
            "seats": config["names"],
        }


def _awaited(config: dict, events: list[dict]) -> list[dict]:
    """Who the duel waits for, as the adapter says it (nothing for a duel that no longer
    replays)."""
    from dataclasses import asdict

    from play.adapters.base import Event, Refused
    from play.adapters.split_uno_refereed import RefereedAdapter

    adapter = RefereedAdapter()
    try:
        table = adapter.restore(config, ["A", "B"], b"", [Event(e["by"], e["public"]) for e in events])
    except (Refused, ValueError, KeyError, TypeError):
        return []
    return [asdict(ask) for ask in adapter.awaiting(table)]


def convert(apps, schema_editor) -> None:
    Duel = apps.get_model("duels", "Duel")
    DuelEvent = apps.get_model("duels", "DuelEvent")
    Game = apps.get_model("play", "Game")
    Seat = apps.get_model("play", "Seat")
    GameEvent = apps.get_model("play", "GameEvent")
    GameSecret = apps.get_model("play", "GameSecret")
    Intent = apps.get_model("play", "Intent")
    with_events = DuelEvent.objects.values_list("duel_id", flat=True).distinct()
    duels = Duel.objects.filter(pk__in=with_events, game=None).select_related("seat_a", "seat_b")
    for duel in duels.order_by("pk").iterator(chunk_size=200):
        rows = list(DuelEvent.objects.filter(duel=duel).order_by("pk"))
        names = {
            "A": duel.seat_a.name if duel.seat_a else "Seat A",
            "B": duel.seat_b.name if duel.seat_b else "Seat B",
        }
        config = {
            "ruleset": duel.ruleset,
            "variants": list(duel.variants or []),
            "options": dict(duel.options or {}),
            "names": names,
        }
        # The timeline: each event entered, each undo, in the order of their times.
        timeline = sorted(
            [(row.created_at, 0, row.pk) for row in rows]
            + [(row.undone_at, 1, row.pk) for row in rows if row.undone_at is not None]
        )
        made, undone_at = {}, {}
        for revision, (_, kind, pk) in enumerate(timeline, start=1):
            (undone_at if kind else made)[pk] = revision
        revision = max(len(timeline), duel.revision)
        if duel.status == "finished":
            status = "finished"
        elif duel.status in ("void", "abandoned"):
            status = "abandoned"
        else:
            status = "playing"
        opening_at = duel.started_at or rows[0].created_at
        game = Game.objects.create(
            kind=KIND, config=config, seats=["A", "B"], status=status, revision=revision
        )
        Seat.objects.bulk_create(Seat(game=game, letter=s, holder="referee") for s in "AB")
        GameSecret.objects.create(
            game=game, seed=random_source.token_bytes(16), deal=[{}]
        )  # as every game's: a refereed one's is never read
        events = [{"by": "referee", "public": {"header": _header(config), "log": []}}]
        GameEvent.objects.create(
            game=game, seq=1, revision=0, by="referee", public=events[0]["public"]
        )
        stored = []
        for row in rows:
            kind = row.payload.get("type") if isinstance(row.payload, dict) else None
            public = {"event": row.payload, "log": list(row.summary or [])}
            by = "clock" if kind == "time_limit" and row.created_by_id is None else "referee"
            undone_by = ""
            if row.undone_at is not None:
                undone_by = (
                    TAKEN_BACK
                    if row.undo_intent == TAKEN_BACK
                    else (f"user:{row.undone_by_id}" if row.undone_by_id else "")
                )
            stored.append(
                GameEvent(
                    game=game,
                    seq=row.seq + 1,
                    revision=min(made[row.pk], revision),
                    by=by,
                    public=public,
                    actor=f"user:{row.created_by_id}" if row.created_by_id else "",
                    undone_at=row.undone_at,
                    undone_by=undone_by,
                )
            )
            if row.undone_at is None:
                events.append({"by": by, "public": public})
        created = GameEvent.objects.bulk_create(stored)
        # auto_now_add set each row's time to now: the times they were entered are kept (one
        # UPDATE … CASE per duel, not one a row).
        for event, row in zip(created, rows, strict=True):
            event.created_at = row.created_at
        GameEvent.objects.bulk_update(created, ["created_at"], batch_size=500)
        GameEvent.objects.filter(game=game, seq=1).update(created_at=opening_at)
        intents = []
        for row in rows:
            actor = f"user:{row.created_by_id}" if row.created_by_id else ""
            if row.intent and actor:
                payload = dict(row.payload) if isinstance(row.payload, dict) else {}
                name = str(payload.pop("type", ""))
                intents.append(
                    Intent(
                        game=game,
                        actor=actor,
                        key=row.intent,
                        command=_digest(name, payload),
                        outcome={
                            "revision": made[row.pk],
                            "seqs": [row.seq + 1, row.seq + 1],
                            "status": status,
                        },
                    )
                )
            if row.undo_intent and row.undo_intent != TAKEN_BACK and row.undone_by_id:
                intents.append(
                    Intent(
                        game=game,
                        actor=f"user:{row.undone_by_id}",
                        key=row.undo_intent,
                        command=_digest("undo", {}),
                        outcome={
                            "revision": undone_at[row.pk],
                            "undone": [row.seq + 1],
                            "status": status,
                        },
                    )
                )
        Intent.objects.bulk_create(intents, ignore_conflicts=True)
        game.awaited = _awaited(config, events) if status == "playing" else []
        game.save(update_fields=["awaited"])
        Duel.objects.filter(pk=duel.pk).update(game=game, revision=revision)
    # A duel with no event has no log: its revision (the log's changes, as its console counts
    # them) is 0, as its game's will be when it is dealt. A correction could once bump it
    # with nothing to undo, and its console then refused every first move as stale.
    Duel.objects.filter(game=None).exclude(revision=0).update(revision=0)


class Migration(migrations.Migration):
    dependencies = [
        ("duels", "0008_duel_game"),
        ("play", "0005_event_actor"),
    ]

    operations = [migrations.RunPython(convert, migrations.RunPython.noop, elidable=False)]
