"""Every practice duel stored the old way (a seed and the person's moves, which every page
replayed with the bots' code of the day: practice/game.py) becomes a ``play.Game`` of the dealt
Split UNO adapter with its events (issue 27), so that it never depends on the bots' code again.

Each old duel is replayed once with today's code, its concrete hands watched
(``practice.game.traced_replay``), and ``play.adapters.split_uno_dealt_import``
(``events_from_practice``) writes the dealt events that reproduce it — the deal from the old
hands, each draw's card and each steal's from the old trajectory, every card the old code shed
by choice as its owner's ``choose`` — checked after every event and by restoring the table from
the events alone. It is stored as ``play.services`` would have (one revision per command of the
person's, a fresh 128-bit seed with the deal in the secrets), through the historical models.

A duel that cannot be reproduced so (a rule set with truth and dare, which the dealt adapter
switches off, or a move today's code refuses) is kept the old way:

- a **finished** one keeps its result line and its log (``archive``): its page shows them,
  read-only, whatever the bots' code becomes;
- an **unfinished** one (or one today's code refuses) is flagged ``unreplayable``: its page says
  "This game cannot be replayed", never a 500.

**This data migration imports app code** (``practice.game``, ``practice.services``, the
adapters) on purpose: the issue asks for the duels to be replayed with the code of today, the
code their moves were accepted with. Once every database has run it, nothing else needs the old
replay. Like 0005, this is the one other place that writes ``play``'s secret rows (through the
historical models): a migration must not import ``play.secrets``, which imports today's models.
"""

from __future__ import annotations

import logging
import secrets as random_source

from django.db import migrations, transaction

logger = logging.getLogger(__name__)

#: The table core's adapter of a practice duel, and the person's seat.
KIND = "split_uno_dealt"
PERSON = "A"


def archived(row) -> dict | None:
    """The finished duel's result and log, set out with today's code; None if it is not
    finished. Raises whatever today's code raises for a duel it cannot set out again."""
    from practice.game import replay
    from practice.seating import stored
    from cardtable.words import result_line

    seating = stored(row.seats, list(row.variants), dict(row.options), list(row.teams))
    game = replay(row.ruleset, row.seed, row.name, list(row.moves), seating)
    if not game.finished:
        return None
    state = game.state()
    winner = state["winner"]
    names = {letter: seat["name"] for letter, seat in state["seats"].items()}
    side = seating.team_of(winner or "A")
    return {
        "result": result_line(seating.seats > 2, side, winner, state["finish"], names),
        "log": [{"number": e.number, "by_bot": e.by_bot, "lines": list(e.lines)} for e in game.log],
    }


def seating_of(row):
    from practice.seating import stored

    return stored(row.seats, list(row.variants), dict(row.options), list(row.teams))


def converted(row, seed: bytes) -> tuple[dict, list, list]:
    """(config, seats, events) of an old duel as a dealt game, replayed with today's code;
    raises NotConvertible (or Refused) for a duel that cannot be."""
    from play.adapters.split_uno_dealt_import import events_from_practice
    from practice.game import traced_replay
    from practice.services import config_of

    seating = seating_of(row)
    old = traced_replay(row.ruleset, row.seed, row.name, list(row.moves), seating)
    config = config_of(row.ruleset, row.name, seating)
    seats = list(seating.letters)
    return config, seats, events_from_practice(config, seats, seed, old)


def store(apps, row, seed: bytes, config: dict, seats: list, events: list) -> None:
    """The game's rows as ``play.services.start_game`` and ``apply_command`` would have left
    them: one revision per command of the person's (the bots' answers sharing it)."""
    from dataclasses import asdict

    from play.registry import adapter_for
    from practice.services import person_won

    Game = apps.get_model("play", "Game")
    Seat = apps.get_model("play", "Seat")
    GameEvent = apps.get_model("play", "GameEvent")
    GameSecret = apps.get_model("play", "GameSecret")
    EventSecret = apps.get_model("play", "EventSecret")

    adapter = adapter_for(KIND)
    # Restored from the events alone, as every page will.
    table = adapter.restore(config, seats, seed, events)
    revisions: list[int] = []
    revision = 0
    for event in events:
        if event.by == PERSON:
            revision += 1
        revisions.append(revision)
    finished = adapter.finished(table)
    game = Game.objects.create(
        kind=KIND,
        config=_plain(config),
        seats=seats,
        status="finished" if finished else "playing",
        revision=revision,
        awaited=[asdict(ask) for ask in adapter.awaiting(table)],
    )
    Seat.objects.bulk_create(
        Seat(game=game, letter=letter, holder="account", account_id=row.user_id)
        if letter == PERSON
        else Seat(game=game, letter=letter, holder="bot", bot_level=config["bot"])
        for letter in seats
    )
    rows = GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=i + 1, revision=rev, by=ev.by, public=_plain(ev.public))
        for i, (ev, rev) in enumerate(zip(events, revisions, strict=True))
    )
    EventSecret.objects.bulk_create(
        EventSecret(event_id=kept.pk, key=key, facts=_plain(facts))
        for kept, ev in zip(rows, events, strict=True)
        for key, facts in ev.private.items()
    )
    deal = [_plain(ev.private) for ev, rev in zip(events, revisions, strict=True) if rev == 0]
    GameSecret.objects.create(game=game, seed=seed, deal=deal)
    row.game = game
    row.finished = finished
    if finished:
        winner = table.st.duel.state()["winner"]
        row.outcome = (
            "drawn" if winner is None else "won" if person_won(seating_of(row), winner) else "lost"
        )
    row.save(update_fields=["game", "finished", "outcome"])


def _plain(value):
    """JSON's own types (an engine's tuples as lists)."""
    import json

    return json.loads(json.dumps(value))


def convert_duels(apps, schema_editor) -> None:
    PracticeDuel = apps.get_model("practice", "PracticeDuel")
    pending = PracticeDuel.objects.filter(game__isnull=True, unreplayable=False)
    for row in pending.order_by("pk").iterator():
        if row.archive:
            continue
        seed = random_source.token_bytes(16)
        try:
            # A savepoint: a duel that fails half-way leaves no rows of its own behind.
            with transaction.atomic():
                store(apps, row, seed, *converted(row, seed))
            continue
        except Exception as err:  # noqa: BLE001 — whatever today's code refuses, the duel stays
            logger.info("practice duel %s kept the old way: %s", row.pk, err)
        try:
            archive = archived(row)
        except Exception as err:  # noqa: BLE001
            logger.warning("practice duel %s cannot be replayed: %s", row.pk, err)
            archive = None
        if archive is None:
            row.unreplayable = True
            row.save(update_fields=["unreplayable"])
        else:
            row.archive = archive
            row.finished = True
            row.save(update_fields=["archive", "finished"])


class Migration(migrations.Migration):
    dependencies = [
        ("practice", "0007_practice_duel_on_play"),
        ("play", "0002_intent_command"),
    ]

    operations = [migrations.RunPython(convert_duels, migrations.RunPython.noop)]
