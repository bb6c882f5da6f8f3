"""Expert bots at an online table (issue 31), through the real path: the start and a
person's seal send the bots' task at commit through Redis, a Celery worker in another process
moves the bot in PostgreSQL, and the people find it moved — never inside their requests."""

import time

import pytest

from config.celery import app
from play.adapters.base import Command, Viewer
from play.models import Game
from play.selectors import view_of
from practice import online
from tests.factories import UserFactory
from tests.integration.conftest import wait_until_idle

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def bot_sealed(game_id: int, seat: str = "B") -> dict:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        view = view_of(game_id, Viewer("public"))
        if seat in view["sealed"] or seat not in {a["seat"] for a in view["awaiting"]}:
            return view
        time.sleep(0.1)
    raise AssertionError("the worker never moved the bot")


def test_the_worker_moves_the_bot_of_an_online_table(celery_worker_process, monkeypatch):
    assert not app.conf.task_always_eager
    monkeypatch.setattr(online, "WORKER_LEVELS", frozenset({"random"}))
    ada = UserFactory(username="ada")
    table = online.open_table(host=ada, ruleset="official", seats=2, bot="random")
    table = online.start(table_id=table.pk, user=ada, version=table.version)
    # The start's own transaction dealt the cards only: the bot was left to the worker.
    assert Game.objects.get(pk=table.game_id).revision == 0
    bot_sealed(table.game_id)
    hand = view_of(table.game_id, Viewer("seat", "A"))["hand"]["numbers"]
    revision = Game.objects.get(pk=table.game_id).revision
    online.play_move(
        table.pk, ada, Command("seal", "A", {"card": hand[0]}), revision=revision, intent="one"
    )
    # The round is played once both sealed; the bot's next seal comes from the worker again.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        view = view_of(table.game_id, Viewer("public"))
        if any(entry["type"] == "round" for entry in view["log"]):
            break
        time.sleep(0.1)
    else:
        raise AssertionError("no round was played")
    bot_sealed(table.game_id)
    wait_until_idle()
