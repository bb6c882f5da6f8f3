"""The automation: time limits, the beat sweep repairing a lost task, tasks that are safe to
repeat in any order, and a broker failure that never fails a request."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import redis_guard
from duels import services as duels
from duels.models import Duel, DuelKind, DuelStatus, Result
from play import clock
from play.models import Game
from play.tasks import sweep_deadlines
from tests.duels.moves import moves
from tests.factories import group_phase_duel
from tests.tournaments.test_progression import finish
from tournaments import tasks
from tournaments.models import AuditEntry, Phase, RoundStatus, Tournament
from tournaments.services import lifecycle
from tournaments.services import refereeing as duel_services

pytestmark = pytest.mark.django_db


class TestTimeLimit:
    """The duel's time limit is its game's deadline, kept by the table core's one clock
    (play.clock: the sweep, `check_on_request`); the tournament's keeper applies the result.
    The referee's warning five minutes before stays the tournament's beat (`keep_time`)."""

    @pytest.fixture
    def timed(self):
        duel, referee = group_phase_duel()
        tournament = duel.tournament
        tournament.duel_time_limit_minutes = 20
        tournament.save()
        duel_services.append_event(duel, referee, {"type": "round", "cards": {"A": 9, "B": 1}}, 0)
        duel.refresh_from_db()
        return duel

    @pytest.fixture
    def at(self, monkeypatch):
        """Moves the one clock's time (what its sweep and `check_on_request` read)."""

        def move(moment):
            monkeypatch.setattr(clock, "_now", lambda: moment)

        return move

    def test_the_deadline_is_set_when_the_duel_starts(self, timed):
        assert timed.deadline - timed.started_at == timedelta(minutes=20)
        game = Game.objects.get(pk=timed.game_id)
        assert game.deadline == game.next_deadline == timed.deadline  # the clock finds it

    def test_nothing_happens_before_the_deadline(self, timed, at):
        early = timed.deadline - timedelta(minutes=6)
        assert not duel_services.warn_time_limit(timed, early)
        at(timed.deadline - timedelta(seconds=1))
        assert sweep_deadlines() == 0
        assert not clock.check_on_request(timed.game_id)
        timed.refresh_from_db()
        assert timed.status == DuelStatus.RUNNING and timed.warned_at is None

    def test_warning_once_then_time_limit_recorded_at_the_deadline(self, timed, at):
        assert duel_services.warn_time_limit(timed, timed.deadline - timedelta(minutes=4))
        assert not duel_services.warn_time_limit(timed, timed.deadline - timedelta(minutes=3))
        at(timed.deadline)
        assert sweep_deadlines() == 1
        at(timed.deadline + timedelta(hours=1))
        assert sweep_deadlines() == 0  # once: the game is over
        assert not clock.check_on_request(timed.game_id)
        timed.refresh_from_db()
        # A won the round (A shed one, B drew one): fewest number cards wins.
        assert timed.status == DuelStatus.FINISHED
        assert timed.result.finish == "time_limit" and timed.result.winner == timed.seat_a
        assert (timed.seq, timed.revision) == (2, Game.objects.get(pk=timed.game_id).revision)
        played = moves(timed, undone=False)
        assert len(played) == 2 and played[-1].by == "clock"
        assert played[-1].payload == {"type": "time_limit", "reason": "deadline"}
        assert played[-1].summary[0] == "Time is up."
        assert Result.objects.filter(duel=timed).count() == 1

    def test_the_sweep_decides_the_round_and_the_standings_once(self, timed, at):
        at(timed.deadline + timedelta(seconds=1))
        assert sweep_deadlines() == 1
        assert sweep_deadlines() == 0
        tournament = timed.tournament
        rounds = dict(tournament.rounds.values_list("number", "status"))
        assert (rounds[1], rounds[2]) == (RoundStatus.DECIDED, RoundStatus.OPEN)
        points = dict(tournament.standing_rows.values_list("entrant", "points"))
        assert (points[timed.seat_a_id], points[timed.seat_b_id]) == (3, -2)
        finished = AuditEntry.objects.filter(tournament=tournament, action="duel_finished")
        assert finished.count() == 1 and finished.get().detail["finish"] == "time_limit"

    def test_a_page_load_ends_an_overdue_duel_in_eager_mode(self, timed, at):
        at(timed.deadline + timedelta(minutes=1))
        assert clock.check_on_request(timed.game_id)
        assert not clock.check_on_request(timed.game_id)
        timed.refresh_from_db()
        assert timed.status == DuelStatus.FINISHED and timed.result.finish == "time_limit"
        assert timed.round.status == RoundStatus.DECIDED

    def test_a_duel_ended_before_its_deadline_is_not_timed_out(self, timed, at):
        referee = timed.referee
        duel_services.append_event(
            timed, referee, {"type": "adjudicate", "winner": "B", "reason": "rules"}, 1
        )
        at(timed.deadline + timedelta(minutes=1))
        assert sweep_deadlines() == 0
        timed.refresh_from_db()
        assert timed.result.finish == "adjudicated" and timed.result.winner == timed.seat_b
        assert len(moves(timed)) == 2

    @pytest.mark.parametrize("close", ["void", "abandon"])
    def test_a_voided_or_abandoned_duel_is_not_timed_out(self, timed, at, close):
        if close == "void":
            duels.void([timed.pk])
        else:
            duels.abandon([timed.pk], "The group phase is over.")
        at(timed.deadline + timedelta(minutes=1))
        assert sweep_deadlines() == 0
        timed.refresh_from_db()
        assert timed.status == close.replace("abandon", "abandoned")
        assert not Result.objects.filter(duel=timed).exists() and len(moves(timed)) == 1
        # Its clock is stopped: the sweep does not ask again every few seconds.
        assert Game.objects.get(pk=timed.game_id).next_deadline is None

    def test_a_duel_taken_back_before_its_start_gets_its_time_limit_when_it_starts_again(self, at):
        """A withdrawal's forfeit of an unstarted duel deals its game with no deadline; taken
        back, the duel waits again; its first move starts its time limit then."""
        duel, referee = group_phase_duel(duel_time_limit_minutes=20)
        duel = lifecycle.forfeit(duel.tournament, None, duel, "B")
        assert duel.status == DuelStatus.FINISHED and duel.deadline is None
        with transaction.atomic():
            locked = duels.lock(duel.pk)
            assert duels.take_back(locked, None, seq=0, status=DuelStatus.READY)
        # The round is the tournament's: its own take-back reopens it (lifecycle.take_back).
        duel.round.status = RoundStatus.OPEN
        duel.round.save()
        at(timezone.now() + timedelta(hours=1))
        assert sweep_deadlines() == 0  # waiting to start: no time limit runs
        duel_services.append_event(duel, referee, {"type": "round", "cards": {"A": 9, "B": 1}}, 0)
        duel.refresh_from_db()
        assert duel.status == DuelStatus.RUNNING
        assert duel.deadline - duel.started_at == timedelta(minutes=20)
        at(duel.deadline)
        assert sweep_deadlines() == 1
        duel.refresh_from_db()
        assert duel.result.finish == "time_limit"

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
        # The deadline is the game's; a deadline this far (beyond the broker's visibility
        # timeout) is the sweep's: no task is sent at commit (what runs at commit is the
        # publish point's news, `core.publish`, never a task send).
        sends = [c for c in callbacks if getattr(c, "func", None) is redis_guard.send]
        assert sends == [] and callbacks

    def test_beat_sends_the_warning_once_and_leaves_the_time_limit_to_the_clock(self, timed):
        assert tasks.keep_time() == {"warned": 0, "no_shows": 0}
        soon = timezone.now() + timedelta(minutes=4)
        Game.objects.filter(pk=timed.game_id).update(deadline=soon, next_deadline=soon)
        assert tasks.keep_time() == {"warned": 1, "no_shows": 0}
        assert tasks.keep_time() == {"warned": 0, "no_shows": 0}  # once
        assert tasks.sweep()["warned"] == 0
        past = timezone.now() - timedelta(seconds=1)
        Game.objects.filter(pk=timed.game_id).update(deadline=past, next_deadline=past)
        assert tasks.keep_time() == {"warned": 0, "no_shows": 0}
        timed.refresh_from_db()
        assert timed.status == DuelStatus.RUNNING  # the time limit is the clock's
        assert sweep_deadlines() == 1
        timed.refresh_from_db()
        assert timed.status == DuelStatus.FINISHED and timed.result.finish == "time_limit"


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
