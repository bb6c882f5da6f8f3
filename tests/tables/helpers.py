"""Shared set-ups for the casual-table tests."""

from django.db.models import QuerySet

from play.models import Game, GameEvent
from tables import selectors, services
from tables.models import CasualTable


def three_seats(owner, **kwargs) -> CasualTable:
    """Ann, Bo and Cy on official rules: 1 number card and 1 action card each, so that one
    round puts a seat at 0 and opens a challenge window that goes round the table."""
    args = {
        "ruleset": "official",
        "names": ["Ann", "Bo", "Cy"],
        "number_cards": 1,
        "action_cards": 1,
    }
    args.update(kwargs)
    return services.open_table(owner=owner, **args)


def rev(table: CasualTable) -> int:
    """The table's revision now (its game's)."""
    return selectors.revision_of(table.pk)


def play(table: CasualTable, actor, *events) -> None:
    for event in events:
        services.append_event(
            table_id=table.pk, actor=actor, event=event, expected_revision=rev(table)
        )


def moves(table: CasualTable) -> QuerySet[GameEvent]:
    """The stored events of the table's moves, undone ones too (not the game's opening, the
    only event of revision 0)."""
    return GameEvent.objects.filter(game_id=table.game_id, revision__gt=0).order_by("pk")


def status(table: CasualTable) -> str:
    """The table's game's status ("playing", "finished")."""
    return Game.objects.values_list("status", flat=True).get(pk=table.game_id)
