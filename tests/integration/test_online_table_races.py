"""Online tables (issue 31) at the same instant, threads on PostgreSQL: two people taking the
last seat, the host's start sent twice, two people sealing from pages drawn at the same
revision. Every write locks the table's row first, so one wins and the other is answered in
words, or both count where both may (seals). Skipped without PostgreSQL, like the other
real-service tests."""

import os

import pytest
from django.db import connection

from play.adapters.base import Command, Viewer
from play.models import Game
from play.selectors import view_of
from practice import online
from practice.models import OnlinePlayer, OnlineTable
from tests.factories import UserFactory

from . import races

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql():
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        pytest.skip("DATABASE_URL does not name a PostgreSQL database")
    assert connection.vendor == "postgresql"


def test_two_people_taking_the_last_seat_at_once_one_gets_it():
    ada, bo, cy = (UserFactory(username=n) for n in ("ada", "bo", "cy"))
    table = online.open_table(host=ada, ruleset="tournament", seats=2)
    outcomes = races.race(
        [
            lambda: online.join(token=table.join_token, user=bo),
            lambda: online.join(token=table.join_token, user=cy),
        ]
    )
    assert outcomes == ["Refused", "applied"]
    assert OnlinePlayer.objects.filter(table=table).count() == 2


def test_the_host_s_start_sent_twice_at_once_deals_one_game():
    ada, bo = UserFactory(username="ada"), UserFactory(username="bo")
    table = online.open_table(host=ada, ruleset="tournament", seats=3)
    online.join(token=table.join_token, user=bo)
    version = OnlineTable.objects.get(pk=table.pk).version
    outcomes = races.race([lambda: online.start(table_id=table.pk, user=ada, version=version)] * 2)
    assert outcomes == ["applied", "applied"]  # the second is the table as it is
    assert Game.objects.count() == 1
    assert OnlineTable.objects.get(pk=table.pk).status == OnlineTable.Status.PLAYING


def test_two_people_sealing_at_once_from_the_same_revision_both_count():
    ada, bo = UserFactory(username="ada"), UserFactory(username="bo")
    table = online.open_table(host=ada, ruleset="tournament", seats=3)
    online.join(token=table.join_token, user=bo)
    table = online.start(
        table_id=table.pk, user=ada, version=OnlineTable.objects.get(pk=table.pk).version
    )
    game = Game.objects.get(pk=table.game_id)

    def seal(user, seat: str, key: str):
        cards = view_of(game.pk, Viewer("seat", seat))["commands"]["seal"]["cards"]
        card = next(c for c in cards if c not in (0, 7))
        command = Command("seal", None, {"card": card})
        return lambda: online.play_move(table.pk, user, command, revision=game.revision, intent=key)

    outcomes = races.race([seal(ada, "A", "a"), seal(bo, "B", "b")])
    assert outcomes == ["applied", "applied"]
    public = view_of(game.pk, Viewer("public"))
    # Both seals in (and the bot's): the round was revealed, or both wait sealed.
    assert public["state"]["rounds"] == 1 or set(public["sealed"]) >= {"A", "B"}
