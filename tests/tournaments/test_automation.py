"""The automation: time limits, the beat sweep repairing a lost task, tasks that are safe to
repeat in any order, and a broker failure that never fails a request."""

from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import redis_guard
from duels.models import Duel, DuelKind, DuelStatus
from tests.duels.moves import moves
from tests.factories import group_phase_duel
from tests.tournaments.test_progression import finish
from tournaments import tasks
from tournaments.models import Phase, Tournament
from tournaments.services import refereeing as duel_services

pytestmark = pytest.mark.django_db


class TestTimeLimit:
    @pytest.fixture
    def timed(self):
        duel, referee = group_phase_duel()
        tournament = duel.tournament
        tournament.duel_time_limit_minutes = 20
        tournament.save()
        duel_services.append_event(duel, referee, {"type": "round", "cards": {"A": 9, "B": 1}}, 0)
        duel.refresh_from_db()
        return duel

    def test_the_deadline_is_set_when_the_duel_starts(self, timed):
        assert timed.deadline - timed.started_at == timedelta(minutes=20)

    def test_nothing_happens_before_the_deadline(self, timed):
        early = timed.deadline - timedelta(minutes=6)
        assert not duel_services.warn_time_limit(timed, early)
        assert not duel_services.enforce_time_limit(timed, early)
        timed.refresh_from_db()
        assert timed.status == DuelStatus.RUNNING and timed.warned_at is None

    def test_warning_once_then_time_limit_recorded_at_the_deadline(self, timed):
        assert duel_services.warn_time_limit(timed, timed.deadline - timedelta(minutes=4))
        assert not duel_services.warn_time_limit(timed, timed.deadline - timedelta(minutes=3))
        assert duel_services.enforce_time_limit(timed, timed.deadline)
        assert not duel_services.enforce_time_limit(timed, timed.deadline + timedelta(hours=1))
        timed.refresh_from_db()
        # A won the round (A shed one, B drew one): fewest number cards wins.
        assert timed.status == DuelStatus.FINISHED
        assert timed.result.finish == "time_limit" and timed.result.winner == timed.seat_a
        assert len(moves(timed, undone=False)) == 2

    def test_starting_a_timed_duel_queues_no_task_for_its_deadline(
        self, django_capture_on_commit_callbacks
    ):
        duel, referee = group_phase_duel()
        duel.tournament.duel_time_limit_minutes = 20
        duel.tournament.save()
        with django_capture_on_commit_callbacks() as callbacks:
            duel_services.append_event(
                duel, referee, {"type": "round", "cards": {"A": 9, "B": 1}}, 0
            )
        # The deadline is stored; beat keeps time against it: no task is sent at commit (what
        # runs at commit is the publish point's news, `core.publish`, never a task send).
        sends = [c for c in callbacks if getattr(c, "func", None) is redis_guard.send]
        assert sends == [] and callbacks

    def test_beat_keeps_time_against_the_stored_deadline(self, timed):
        assert tasks.keep_time() == {"warned": 0, "timed_out": 0}
        Duel.objects.filter(pk=timed.pk).update(deadline=timezone.now() + timedelta(minutes=4))
        assert tasks.keep_time() == {"warned": 1, "timed_out": 0}
        assert tasks.keep_time() == {"warned": 0, "timed_out": 0}  # once
        Duel.objects.filter(pk=timed.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        assert tasks.keep_time() == {"warned": 0, "timed_out": 1}
        timed.refresh_from_db()
        assert timed.status == DuelStatus.FINISHED and timed.result.finish == "time_limit"

    def test_the_sweep_enforces_an_overdue_deadline(self, timed):
        Duel.objects.filter(pk=timed.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        done = tasks.sweep()
        assert done["timed_out"] == 1
        timed.refresh_from_db()
        assert timed.result.finish == "time_limit"


def play_to_round_15_without_automation():
    """The whole group phase, with every after-commit task dropped (pytest-django's test
    transaction never commits, so no on_commit callback runs): the tie-breaks are due but were
    never planned, as if the task had been lost."""
    from tests.tournaments.test_group_services import make

    tournament, organiser, referee, entrants = make(10, (5, 5))
    from tournaments import services

    services.start_group_phase(tournament, organiser)
    for number in range(1, 16):
        duel = services.name_representatives(
            tournament, referee, number, entrants[number % 5].pk, entrants[5 + number % 3].pk
        )
        finish(duel, referee, "A" if number % 2 else "B")
    tournament.refresh_from_db()
    return tournament


def test_the_sweep_repairs_a_dropped_enqueue():
    tournament = play_to_round_15_without_automation()
    assert tournament.group_phase_ended_at is not None
    assert tournament.phase == Phase.GROUP_PHASE  # advance_tournament never ran
    done = tasks.sweep()
    tournament.refresh_from_db()
    assert done["advanced"] == 1
    assert tournament.phase == Phase.TIE_BREAKS
    assert Duel.objects.filter(tournament=tournament, kind=DuelKind.TIE_BREAK).exists()
    assert tasks.sweep()["advanced"] == 0  # and a second sweep has nothing left to do


def fingerprint(tournament: Tournament):
    tournament.refresh_from_db()
    return (
        tournament.phase,
        tournament.tiebreak_seed,
        tournament.standings_version,
        sorted(
            Duel.objects.filter(tournament=tournament).values_list(
                "kind", "stage", "status", "seat_a", "seat_b"
            )
        ),
        sorted(tournament.standing_rows.values_list("entrant", "points", "rank")),
        sorted(tournament.tiebreak_draws.values_list("key", "order")),
    )


TASKS = ("recompute", "advance", "sweep")


def run(name: str, tournament: Tournament) -> None:
    if name == "recompute":
        tasks.recompute_standings(tournament.pk)
    elif name == "advance":
        tasks.advance_tournament(tournament.pk)
    else:
        tasks.sweep()


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(order=st.permutations(TASKS), extra=st.lists(st.sampled_from(TASKS), max_size=4))
def test_tasks_shuffled_and_duplicated_leave_the_same_state_as_once_in_order(order, extra):
    from django.db import transaction

    sid = transaction.savepoint_create()
    try:
        tournament = play_to_round_15_without_automation()
        # Reference: each task once, in order. The seed is random, so the reference is taken
        # from the same database state, then rolled back.
        inner = transaction.savepoint_create()
        for name in TASKS:
            run(name, tournament)
        expected = fingerprint(tournament)
        transaction.savepoint_rollback(inner)
        Tournament.objects.filter(pk=tournament.pk).update(tiebreak_seed=expected[1])
        tournament.refresh_from_db()
        for name in list(order) + list(extra):
            run(name, tournament)
        assert fingerprint(tournament) == expected
    finally:
        transaction.savepoint_rollback(sid)


def test_a_broker_failure_never_fails_the_move(monkeypatch, django_capture_on_commit_callbacks):
    def refuse(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.advance_tournament, "apply_async", refuse)
    duel, referee = group_phase_duel()
    with django_capture_on_commit_callbacks(execute=True):
        duel_services.append_event(duel, referee, {"type": "forfeit", "seat": "B"}, 0)
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED
