"""Every practice duel stored the old way (a seed and the person's moves, which every page
replayed with the bots' code of the day: practice/game.py) is settled once (issue 27).

The dealt adapter (``play.adapters.split_uno_dealt``) deals its own way — real cards with
identities, sealed bids, the owner of a hand choosing which card goes — so an old duel's random
stream cannot be carried over into its events. Each old duel is therefore replayed once with
today's code and kept in the form the person can still use:

- a **finished** duel keeps its result line and its log (``archive``): its page shows them,
  read-only, whatever the bots' code becomes;
- an **unfinished** duel (or one today's code refuses) is kept and flagged ``unreplayable``:
  its page says "This game cannot be replayed", never a 500.

**This data migration imports app code** (``practice.game``, the old replay) on purpose: the
issue asks for the duels to be replayed with the code of today, the code their moves were
accepted with. Once every database has run it, nothing else needs that module.
"""

from __future__ import annotations

import logging

from django.db import migrations, transaction

logger = logging.getLogger(__name__)


def archived(row) -> dict | None:
    """The finished duel's result and log, set out with today's code; None if it is not
    finished. Raises whatever today's code raises for a duel it cannot set out again."""
    from practice.game import replay
    from practice.seating import stored
    from practice.words import result_line

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


def convert_duels(apps, schema_editor) -> None:
    PracticeDuel = apps.get_model("practice", "PracticeDuel")
    pending = PracticeDuel.objects.filter(game__isnull=True, unreplayable=False)
    for row in pending.order_by("pk").iterator():
        if row.archive:
            continue
        try:
            with transaction.atomic():
                archive = archived(row)
        except Exception as err:  # noqa: BLE001 — whatever today's code refuses, the duel stays
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
        ("practice", "0006_practice_duel_on_play"),
    ]

    operations = [migrations.RunPython(convert_duels, migrations.RunPython.noop)]
