"""Every practice game of Trois and CPT-113 stored the old way (a seed and the person's moves)
becomes a ``play.Game`` with its events (issue 27): replayed once with today's code, then
stored event by event, so that it never depends on the bots' code again.

**This data migration imports app code** — ``practice.trois_table`` / ``practice.cpt113_table``
(the old replay, the bots' turns included) and the adapters' ``events_from_record`` — on
purpose: the issue asks for the games to be replayed with the code of today, the code their
moves were accepted with. Once every database has run it, nothing else needs those two modules
(the adapters' tests compare against them).

The rows are written through ``apps.get_model`` (the historical models), the secret ones too
(``play.GameSecret``, ``play.EventSecret``): a migration must not import ``play.secrets``,
which imports today's models. This is the one place outside ``play.secrets`` that writes them
(migrations are outside tests/play/test_secrets_isolation.py's reach, by its design), and it
keeps the module's contract: the seed is fresh random bytes of 128 bits, the deal is the
opening events' private parts, each event's private parts are rows by seat letter or dealer.

A game that cannot be replayed (today's code refuses a stored move) is kept, flagged
``unreplayable`` with no deadline, and its page says so — never a 500.
"""

from __future__ import annotations

import logging
import secrets as random_source
from typing import Any

from django.db import migrations, transaction

logger = logging.getLogger(__name__)

#: The person's seat, every other one a heuristic bot's (practice.game_services, today).
PERSON = "A"
CLOCK = "clock"


def converted(kind: str, seed: int, groups: int, name: str, moves: list) -> tuple[dict, list, list]:
    """(config, seats, events) of an old-style game, replayed with today's code; raises
    whatever today's code raises for a game it cannot set out again."""
    from play.registry import adapter_for
    from practice import cpt113_table, trois_table
    from practice.game_services import table_of

    config, seats = table_of(kind, groups, name)
    if kind == "trois":
        old = trois_table.replay(seed, name, moves)
    else:
        old = cpt113_table.replay(seed, groups, name, moves)
    adapter = adapter_for(kind)
    events = adapter.events_from_record(config, seats, old.game.record())
    return config, seats, events


def store(apps, row, config: dict, seats: list, events: list) -> None:
    """The game's rows as ``play.services.start_game`` and ``apply_command`` would have left
    them: one revision per person's (or clock's) move, the bots' answers sharing it."""
    from dataclasses import asdict

    from play.registry import adapter_for

    Game = apps.get_model("play", "Game")
    Seat = apps.get_model("play", "Seat")
    GameEvent = apps.get_model("play", "GameEvent")
    GameSecret = apps.get_model("play", "GameSecret")
    EventSecret = apps.get_model("play", "EventSecret")

    seed = random_source.token_bytes(16)
    adapter = adapter_for(row.kind)
    # Restored from the events alone, as every page will: a game that does not restore is
    # not converted.
    table = adapter.restore(config, seats, seed, events)
    revisions: list[int] = []
    revision = 0
    for number, event in enumerate(events):
        if number and event.by in (PERSON, CLOCK):
            revision += 1
        revisions.append(revision)
    finished = adapter.finished(table)
    game = Game.objects.create(
        kind=row.kind,
        config=config,
        seats=seats,
        status="finished" if finished else "playing",
        revision=revision,
        awaited=[asdict(ask) for ask in adapter.awaiting(table)],
    )
    Seat.objects.bulk_create(
        Seat(game=game, letter=letter, holder="account", account_id=row.user_id)
        if letter == PERSON
        else Seat(game=game, letter=letter, holder="bot", bot_level=config["bots"][letter])
        for letter in seats
    )
    rows = GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=i + 1, revision=rev, by=ev.by, public=_plain(ev.public))
        for i, (ev, rev) in enumerate(zip(events, revisions, strict=True))
    )
    EventSecret.objects.bulk_create(
        EventSecret(event_id=stored.pk, key=key, facts=_plain(facts))
        for stored, ev in zip(rows, events, strict=True)
        for key, facts in ev.private.items()
    )
    deal = [_plain(ev.private) for ev, rev in zip(events, revisions, strict=True) if rev == 0]
    GameSecret.objects.create(game=game, seed=seed, deal=deal)
    row.game = game
    row.finished = finished
    if finished:
        winners = adapter.view(table, _person())["winners"]
        row.outcome = "lost" if PERSON not in winners else "won" if len(winners) == 1 else "drawn"
        row.deadline = None
    row.save(update_fields=["game", "finished", "outcome", "deadline"])


def _person():
    from play.adapters.base import Viewer

    return Viewer("seat", PERSON)


def _plain(value: Any) -> Any:
    """JSON's own types (an engine's tuples as lists)."""
    import json

    return json.loads(json.dumps(value))


def convert_games(apps, schema_editor) -> None:
    PracticeGame = apps.get_model("practice", "PracticeGame")
    pending = PracticeGame.objects.filter(game__isnull=True, unreplayable=False).order_by("pk")
    for row in pending.iterator():
        try:
            # A savepoint: a game that fails half-way leaves no rows of its own behind.
            with transaction.atomic():
                config, seats, events = converted(
                    row.kind, row.seed, row.groups, row.name, list(row.moves)
                )
                store(apps, row, config, seats, events)
        except Exception as err:  # noqa: BLE001 — whatever today's code refuses, the game stays
            logger.warning("practice game %s cannot be replayed: %s", row.pk, err)
            row.unreplayable = True
            row.deadline = None  # the sweep stops asking: nothing can be ended
            row.save(update_fields=["unreplayable", "deadline"])


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0001_initial"),
        ("practice", "0004_practice_game_on_play"),
    ]

    operations = [migrations.RunPython(convert_games, migrations.RunPython.noop)]
