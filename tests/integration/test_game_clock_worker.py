"""The one clock's near deadline through the real path (play.clock): the ETA task sent at
commit waits in Redis, a worker in another process runs it once the deadline has passed, and
the game ends in PostgreSQL — no beat, no page load."""

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
