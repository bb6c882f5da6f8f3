"""Shared set-ups for the casual-table tests."""

from tables import services
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
    table.refresh_from_db()
    return table.revision


def play(table: CasualTable, actor, *events) -> None:
    for event in events:
        services.append_event(
            table_id=table.pk, actor=actor, event=event, expected_revision=rev(table)
        )
