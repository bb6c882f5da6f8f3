"""A casual table on PostgreSQL: two referees entering the same move at once (one lands, the
other is told someone else moved), and two tables opened at once at the 50-table bound.

Checked the other way when moves were `TableEvent` rows: with the two `select_for_update()`
calls of `tables/services.py` removed (the table's, the owner's in `open_table`), the move race
ended ['IntegrityError', 'applied'] (on the unique active sequence number) and the owner kept
51 tables. Moves now go through the table core, which locks the table's row (`lock_first`) and
then the game's (`play.services.apply_command`)."""

from collections.abc import Callable

import pytest
from django.db import connection

from tables import services
from tables.models import CasualTable
from tests.conftest import services_missing
from tests.factories import UserFactory
from tests.tables.helpers import moves

from . import races

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql():
    why = services_missing()
    if why:
        pytest.skip(why)
    assert connection.vendor == "postgresql"


def race(*calls: Callable[[], object]) -> list[str]:
    return races.race(calls)


def test_two_referees_race_for_the_same_move():
    owner, co = UserFactory(), UserFactory()
    table = services.open_table(owner=owner, ruleset="official", names=["Ann", "Bo", "Cy"])
    token = services.invite_co_referee(table_id=table.pk, actor=owner)
    services.accept_invitation(token=token, user=co)
    event = {"type": "round", "cards": {"A": 9, "B": 1, "C": 2}}
    outcomes = race(
        *(
            lambda who=who: services.append_event(
                table_id=table.pk, actor=who, event=event, expected_revision=0
            )
            for who in (owner, co)
        )
    )
    assert outcomes == ["applied", "conflict"]
    assert moves(table).count() == 1


def test_two_tables_opened_at_once_keep_the_bound():
    owner = UserFactory()
    for _ in range(services.KEEP_TABLES - 1):
        services.open_table(owner=owner, ruleset="official", names=["Ann", "Bo"])
    outcomes = race(
        *(
            lambda: services.open_table(owner=owner, ruleset="official", names=["Ann", "Bo"])
            for _ in range(3)
        )
    )
    assert outcomes == ["applied"] * 3
    assert CasualTable.objects.filter(owner=owner).count() == services.KEEP_TABLES
