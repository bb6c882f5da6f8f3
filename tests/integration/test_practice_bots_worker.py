"""Bots that think in the worker (issue 30), through the real path: the practice duel's start
and the person's move send the bots' task at commit through Redis, a Celery worker in another
process moves the bots in PostgreSQL, one decision a transaction, and the person's page finds
them moved — never inside the web request."""

import time

import pytest

from config.celery import app
from play.models import Game
from practice import services
from practice.models import PracticeDuel
from tests.factories import UserFactory
from tests.integration.conftest import wait_until_idle

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def waited_for_the_bots(practice: PracticeDuel) -> dict:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        practice.refresh_from_db()
        _, view = services.open_duel(practice.pk, practice.user)
        if not services.bots_awaited(view):
            return view
        time.sleep(0.1)
    raise AssertionError("the worker never moved the bots")


def test_the_worker_moves_the_bots_of_a_practice_duel(celery_worker_process, monkeypatch):
    assert not app.conf.task_always_eager
    monkeypatch.setattr(services, "WORKER_LEVELS", frozenset({"random"}))
    ada = UserFactory(username="ada")
    practice = services.start_practice(ada, "official", 4, bot="random")
    # The request's own transaction dealt the cards only: the bots were left to the worker.
    assert Game.objects.get(pk=practice.game_id).revision == 0
    view = waited_for_the_bots(practice)
    assert set(view["sealed"]) >= {"B", "C", "D"} - set(view.get("blocked", ()))
    seal = view["commands"]["seal"]
    command = services.Command(
        "seal", "A", {"card": seal["cards"][0], "target": seal["targets"][0]}
    )
    revision = Game.objects.get(pk=practice.game_id).revision
    services.play_move(practice.pk, ada, command, revision=revision, intent="first")
    view = waited_for_the_bots(practice)
    assert any(entry["type"] == "round" for entry in view["log"])
    wait_until_idle()
