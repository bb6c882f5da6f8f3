"""The table core's write path on PostgreSQL: two commands sent at once on the same revision.
With different keys (two people), one applies and the other is told someone else moved; with
the same key (one phone's retry racing its first send), one applies and the other is answered
"already recorded". Either way the game has one command's events.

Checked the other way: with `select_for_update()` removed from `play.services.apply_command`,
each race ends ['IntegrityError', 'applied'] (on `unique_active_play_event_seq`)."""

from collections.abc import Callable

import pytest
from django.db import connection

from play import registry
from play.adapters.base import Command
from play.models import GameEvent
from play.services import Actor, Holder, apply_command, start_game
from tests.conftest import services_missing
from tests.play.counting import ADAPTER, KIND

from . import races

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql():
    why = services_missing()
    if why:
        pytest.skip(why)
    assert connection.vendor == "postgresql"
    registry.register(ADAPTER)
    yield
    registry.forget(ADAPTER.kind)


def race(*calls: Callable[[], object]) -> list[str]:
    return races.race(calls, done=lambda outcome: "repeat" if outcome.repeat else "applied")


def send(game_id: int, actor: str, key: str):
    return apply_command(
        game_id=game_id,
        actor=Actor(key=actor),
        command=Command("add", "A", {"n": 1}),
        key=key,
        seen_revision=0,
        policy=lambda game, actor, command: None,
    )


def game_for_a() -> int:
    """A game whose seat A is asked to move: B is a bot and answers at once, the deal too."""
    holders = {"A": Holder("referee"), "B": Holder("bot")}
    return start_game(kind=KIND, config={"bots": ["B"]}, seats=["A", "B"], holders=holders).pk


def test_two_people_moving_at_once_one_applies_the_other_is_told():
    game_id = game_for_a()
    assert race(lambda: send(game_id, "user:1", "k1"), lambda: send(game_id, "user:2", "k2")) == [
        "applied",
        "conflict",
    ]
    assert GameEvent.objects.filter(game_id=game_id, revision=1).count() == 2  # A's and the bot's


def test_one_command_sent_twice_at_once_is_applied_once():
    game_id = game_for_a()
    assert race(lambda: send(game_id, "user:1", "k1"), lambda: send(game_id, "user:1", "k1")) == [
        "applied",
        "repeat",
    ]
    assert GameEvent.objects.filter(game_id=game_id, revision=1).count() == 2
