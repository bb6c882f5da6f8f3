"""The console's hand-written SQL (duels/rows.py) reads exactly what the ORM reads, and writes
what the ORM would: on SQLite here and on PostgreSQL in CI's run (DATABASE_URL)."""

import pytest
from django.db import transaction

from duels import rows
from duels import services as duel_services
from duels.models import Duel, DuelEvent
from tests.factories import group_phase_duel
from tournaments.services import refereeing

pytestmark = pytest.mark.django_db

RELATED = ("seat_a", "seat_b", "round", "referee")


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def assert_same_as_the_orm(duel_pk: int, tournament_id: int) -> Duel:
    with transaction.atomic():
        ours = rows.locked_duel(duel_pk, tournament_id, RELATED)
    theirs = Duel.objects.select_related(*RELATED).get(pk=duel_pk)
    assert fields_of(ours) == fields_of(theirs)
    for name in RELATED:
        mine, orm = getattr(ours, name), getattr(theirs, name)
        assert (mine is None) == (orm is None), name
        if orm is not None:
            assert type(mine) is type(orm) and fields_of(mine) == fields_of(orm), name
    assert not ours._state.adding and ours._state.db == theirs._state.db
    return ours


def test_the_locked_duel_and_its_rows_are_the_orm_s_after_moves_and_an_undo():
    duel, referee = group_phase_duel()
    for seq in range(3):
        engine = duel_services.engine_of(Duel.objects.get(pk=duel.pk))
        refereeing.play_move(Duel.objects.get(pk=duel.pk), referee, engine.legal_events()[0], seq)
    refereeing.undo_last_event(Duel.objects.get(pk=duel.pk), referee, 3)
    ours = assert_same_as_the_orm(duel.pk, duel.tournament_id)
    assert isinstance(ours.state, dict) and ours.seq == 2 and ours.revision == 4
    # The log: the ORM's values, undone row included, JSON decoded, times aware.
    orm_rows = list(
        DuelEvent.objects.filter(duel_id=duel.pk).order_by("pk").values_list(*rows.ROW_FIELDS)
    )
    assert rows.event_rows(duel.pk) == orm_rows
    assert [row[5] is not None for row in orm_rows] == [False, False, True]
    assert all(row[4].tzinfo is not None for row in orm_rows)


def test_a_seat_not_named_yet_joins_nothing():
    duel, _ = group_phase_duel()
    Duel.objects.filter(pk=duel.pk).update(seat_b=None, referee=None)
    ours = assert_same_as_the_orm(duel.pk, duel.tournament_id)
    assert ours.seat_b is None and ours.referee is None and ours.seat_a.name == "Alice"


def test_a_duel_of_another_tournament_is_not_found():
    duel, _ = group_phase_duel()
    other, _ = group_phase_duel(players=("Cy", "Di"))
    with pytest.raises(Duel.DoesNotExist), transaction.atomic():
        rows.locked_duel(duel.pk, other.tournament_id, RELATED)


def test_an_ordinary_move_writes_what_the_orm_would():
    duel, referee = group_phase_duel()
    for seq in range(2):
        engine = duel_services.engine_of(Duel.objects.get(pk=duel.pk))
        refereeing.play_move(Duel.objects.get(pk=duel.pk), referee, engine.legal_events()[0], seq)
    event = DuelEvent.objects.get(duel_id=duel.pk, seq=2)
    assert event.created_by_id == referee.pk and event.undone_at is None
    assert isinstance(event.payload, dict) and event.summary and event.created_at
    after = Duel.objects.get(pk=duel.pk)
    assert (after.seq, after.revision) == (2, 2)
    assert after.state == duel_services.engine_of(after).state()
