"""The one clock through the real path (play.clock): a near deadline's ETA task sent at commit
waits in Redis, a worker in another process runs it once the deadline has passed, and the game
ends in PostgreSQL — no beat, no page load; and a tournament duel's time limit, kept by the
sweep in the worker, ends the duel with its result applied."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from config.celery import app
from play.models import Game, GameEvent, GameStatus, HolderKind
from play.services import Holder, start_game

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_near_deadline_is_kept_by_its_eta_task_in_a_worker(celery_worker_process):
    assert not app.conf.task_always_eager
    holders = {"A": Holder(HolderKind.ACCOUNT)} | {s: Holder(HolderKind.BOT) for s in "BCD"}
    config = {"names": ["ada", "b1", "b2", "b3"], "bots": dict.fromkeys("BCD", "heuristic")}
    deadline = timezone.now() + timedelta(seconds=2)
    game = start_game(
        kind="trois", config=config, seats=list("ABCD"), holders=holders, deadline=deadline
    )
    assert Game.objects.get(pk=game.pk).status == GameStatus.PLAYING  # not before it
    waited = time.monotonic() + 30
    while time.monotonic() < waited:
        if Game.objects.get(pk=game.pk).status == GameStatus.FINISHED:
            break
        time.sleep(0.1)
    ended = Game.objects.get(pk=game.pk)
    assert (ended.status, ended.revision) == (GameStatus.FINISHED, 1)
    last = GameEvent.objects.filter(game=ended).latest("seq")
    assert last.by == "clock" and last.created_at >= deadline


def test_a_duels_time_limit_is_kept_by_the_sweep_in_a_worker(celery_worker_process):
    """A tournament duel's deadline is its game's: the sweep, run by a worker in another
    process, ends the duel there through the tournament's keeper (registered when the worker's
    apps are ready), and its result is applied: the round decided, once."""
    from duels.models import Duel, DuelStatus
    from play.tasks import sweep_deadlines
    from tests.factories import group_phase_duel
    from tests.integration.conftest import wait_until_idle
    from tournaments.models import RoundStatus
    from tournaments.services import refereeing

    duel, referee = group_phase_duel(duel_time_limit_minutes=20)
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 9, "B": 1}}, 0)
    past = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(duel=duel).update(deadline=past, next_deadline=past)
    sweep_deadlines.delay()
    sweep_deadlines.delay()  # a second sweep finds nothing left to do
    waited = time.monotonic() + 30
    while time.monotonic() < waited:
        if Duel.objects.get(pk=duel.pk).status == DuelStatus.FINISHED:
            break
        time.sleep(0.1)
    wait_until_idle()  # the second sweep too
    ended = Duel.objects.select_related("result", "round").get(pk=duel.pk)
    assert ended.status == DuelStatus.FINISHED and ended.result.finish == "time_limit"
    assert ended.round.status == RoundStatus.DECIDED
    assert GameEvent.objects.filter(game_id=ended.game_id, by="clock").count() == 1
