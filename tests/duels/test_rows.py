"""The console's hand-written SQL (duels/rows.py) reads exactly what the ORM reads, and writes
what the ORM would: on SQLite here and on PostgreSQL in CI's run (DATABASE_URL)."""

import pytest
from django.db import transaction

from duels import rows
from duels import services as duel_services
from duels.models import Duel
from tests.duels.moves import moves
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
    # The log, read through the table core: undone row included, JSON decoded, times aware.
    log = duel_services.event_rows(ours)
    assert [row[5] is not None for row in log] == [False, False, True]
    assert all(row[4].tzinfo is not None for row in log)


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
    (event,) = [m for m in moves(duel) if m.seq == 2]
    assert event.created_by == referee and event.undone_at is None
    assert isinstance(event.payload, dict) and event.summary and event.created_at
    after = Duel.objects.get(pk=duel.pk)
    assert (after.seq, after.revision) == (2, 2)
    assert after.state == duel_services.engine_of(after).state()


def test_the_tournament_and_the_session_rows_are_the_orm_s(client):
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from core.rows import select_one
    from tournaments.models import Tournament

    duel, referee = group_phase_duel()
    ours = select_one(Tournament, where=(("slug", "="),), values=(duel.tournament.slug,))
    assert fields_of(ours) == fields_of(Tournament.objects.get(slug=duel.tournament.slug))
    assert select_one(Tournament, where=(("slug", "="),), values=("no-such",)) is None
    client.force_login(referee)
    key = client.cookies["sessionid"].value
    now = timezone.now()
    session = select_one(
        Session, where=(("session_key", "="), ("expire_date", ">")), values=(key, now)
    )
    assert fields_of(session) == fields_of(Session.objects.get(session_key=key))


@pytest.mark.django_db(transaction=True)
def test_a_lock_outside_a_transaction_is_refused_as_the_orm_refuses_it():
    from django.db.transaction import TransactionManagementError

    duel, _ = group_phase_duel()
    with pytest.raises(TransactionManagementError):
        rows.locked_duel(duel.pk, duel.tournament_id, RELATED)


def test_what_the_orm_refuses_is_refused():
    from core.rows import select_one
    from tournaments.models import Round

    duel, _ = group_phase_duel()
    with pytest.raises(ValueError, match="None"):
        select_one(Duel, where=(("referee", "="),), values=(None,))
    with pytest.raises(Round.MultipleObjectsReturned):  # 15 rounds share the tournament
        select_one(Round, where=(("tournament", "="),), values=(duel.tournament_id,))


def test_the_row_lock_is_asked_for_where_the_database_has_row_locks():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    duel, _ = group_phase_duel()
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        rows.locked_duel(duel.pk, duel.tournament_id, RELATED)
    (sql,) = [q["sql"] for q in queries if "duels_duel" in q["sql"]]
    if connection.features.has_select_for_update:  # PostgreSQL (CI's run)
        assert sql.rstrip().endswith('FOR UPDATE OF "duels_duel"')
    else:  # SQLite: no row locks, its IMMEDIATE transactions serialise writers instead
        assert "FOR UPDATE" not in sql
