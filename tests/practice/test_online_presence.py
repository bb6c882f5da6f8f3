"""Presence at an online table (issue 31; ONLINE.md 4; docs/online.md): a visible seat page
beats every 5 s; the others (and the watch page) read "bo is away" after 10 s without one.
The clock is injected (``play.presence.now``), never slept on."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from core import redis_guard
from play import presence
from play.models import Game
from practice.models import OnlineTable
from tests.factories import UserFactory
from tests.practice.test_online_tables import open_table, started
from tests.practice.test_practice_many_views import client_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def ada():
    return UserFactory(username="ada")


@pytest.fixture
def bo():
    return UserFactory(username="bo")


@pytest.fixture
def moment(monkeypatch):
    """The presence clock, moved by hand."""
    now = [1_000_000.0]
    monkeypatch.setattr(presence, "now", lambda: now[0])
    return now


def page(client: Client, table: OnlineTable) -> str:
    return client.get(reverse("practice:online", args=[table.pk])).content.decode()


def beat(client: Client, table: OnlineTable):
    return client.post(reverse("practice:online_beat", args=[table.pk]))


def poll(client: Client, table: OnlineTable, away: str):
    table.refresh_from_db()
    game = Game.objects.get(pk=table.game_id)
    query = {"revision": game.revision, "v": table.version, "away": away}
    return client.get(reverse("practice:online_poll", args=[table.pk]), query, **HTMX)


def test_a_person_without_a_beat_for_10_s_is_away_for_the_others(ada, bo, moment):
    ada_c, bo_c = client_for(ada), client_for(bo)
    table = started(ada_c, bo_c, open_table(ada_c, seats="3"))
    # Nobody starts away: everyone dealt in was in the lobby a moment ago.
    assert "is away" not in page(ada_c, table)
    assert poll(ada_c, table, "-").status_code == 204
    moment[0] += 10
    assert poll(ada_c, table, "-").status_code == 204  # 10 s: not yet
    moment[0] += 1
    # ada's page keeps beating (her page is visible); bo's does not.
    assert beat(ada_c, table).status_code == 204
    changed = poll(ada_c, table, "-")
    assert changed.status_code == 200 and "bo is away" in changed.content.decode()
    assert poll(ada_c, table, "B").status_code == 204
    shown = page(ada_c, table)
    assert "bo is away" in shown and "ada is away" not in shown
    tile = shown[shown.index('data-seat="B"') : shown.index('data-seat="C"')]
    assert "bo is away" in tile  # on bo's tile
    assert "Bot C is away" not in shown  # a bot is never away
    # bo's visible page beats again: the others' poll brings him back.
    assert beat(bo_c, table).status_code == 204
    back = poll(ada_c, table, "B")
    assert back.status_code == 200 and "is away" not in back.content.decode()
    assert poll(ada_c, table, "-").status_code == 204
    # The watch page shows it too.
    ada_c.post(
        reverse("practice:online_watch_link", args=[table.pk]),
        {"do": "issue", "version": str(OnlineTable.objects.get(pk=table.pk).version)},
    )
    table.refresh_from_db()
    moment[0] += 11
    beat(bo_c, table)
    watch = Client().get(reverse("practice:online_watch", args=[table.watch_token]))
    assert "ada is away" in watch.content.decode() and "bo is away" not in watch.content.decode()


def test_one_s_own_page_never_says_one_is_away(ada, bo, moment):
    ada_c, bo_c = client_for(ada), client_for(bo)
    table = started(ada_c, bo_c, open_table(ada_c, seats="2"))
    moment[0] += 60
    # bo comes back after a minute: his own page never calls him away (loading it is a beat).
    assert "bo is away" not in page(bo_c, table)
    assert poll(bo_c, table, "A").status_code == 204  # ada is away for him


def test_the_beat_is_a_cache_write_only_for_the_table_s_people_with_csrf(ada, bo, moment):
    ada_c, bo_c = client_for(ada), client_for(bo)
    table = started(ada_c, bo_c, open_table(ada_c, seats="2"))
    with CaptureQueriesContext(connection) as queries:
        assert beat(bo_c, table).status_code == 204
    writes = [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith("SELECT")]
    assert writes == [], writes  # no database row written for a beat
    assert len(queries) <= 3  # the session, the user, the person's place with its table
    stranger = client_for(UserFactory(username="cy"))
    assert beat(stranger, table).status_code == 404
    anonymous = Client().post(reverse("practice:online_beat", args=[table.pk]))
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(bo)
    assert beat(checked, table).status_code == 403
    assert Client().get(reverse("practice:online_beat", args=[table.pk])).status_code in (
        302,
        405,
    )


def test_an_unreachable_cache_shows_nobody_away(ada, bo, moment, monkeypatch):
    ada_c, bo_c = client_for(ada), client_for(bo)
    table = started(ada_c, bo_c, open_table(ada_c, seats="2"))
    moment[0] += 60

    def down(fn):
        raise redis_guard.Unavailable()

    monkeypatch.setattr("core.shared_cache.call", down)
    assert "is away" not in page(ada_c, table)
    assert beat(bo_c, table).status_code == 204  # dropped, never an error


def test_a_person_whose_seat_a_bot_took_is_not_away(ada, bo, moment):
    ada_c, bo_c = client_for(ada), client_for(bo)
    cy = UserFactory(username="cy")
    cy_c = client_for(cy)
    table = open_table(ada_c, seats="3", bot="random")
    bo_c.post(reverse("practice:online_join", args=[table.join_token]))
    table = started(ada_c, cy_c, table)
    game = Game.objects.get(pk=table.game_id)
    form = {"revision": str(game.revision), "intent": "r", "confirm": "yes"}
    bo_c.post(reverse("practice:online_resign", args=[table.pk]), form)
    moment[0] += 60
    shown = page(ada_c, table)
    assert "bo is away" not in shown and "cy is away" in shown
