"""Expert bots at an online table (issue 31: "fill empty seats with bots of a chosen level"):
their seats think in the worker, never inside a person's request, as practice's do. A person's
move, or the start, that leaves a bot asked wakes the worker at commit; the worker moves the
bots one decision (one transaction) at a time through the table's write path, and the people's
pages learn of it by push or their poll. The people are never made to wait for a bot to move
first: each seals when they like. The random bot stands in for the expert one (any level can
think in the worker: ``online.WORKER_LEVELS``), so that the test is quick."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from play.models import Game, GameEvent
from practice import online, tasks
from practice.models import OnlineTable
from tests.factories import UserFactory
from tests.practice.test_online_tables import SHORT, open_table, play_out, started
from tests.practice.test_practice_many_views import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def in_worker(monkeypatch):
    """The random bot thinks in the worker; the worker's wakes are kept, not run."""
    monkeypatch.setattr(online, "WORKER_LEVELS", frozenset({"random"}))
    woken: list[int] = []
    monkeypatch.setattr(
        "core.redis_guard.send_on_commit",
        lambda task, *args, **options: (
            woken.append(args[0]) if task is tasks.online_bots_turn else None
        ),
    )
    return woken


def test_the_worker_moves_the_bots_and_the_people_play_on(in_worker):
    ada, bo = UserFactory(username="ada"), UserFactory(username="bo")
    ada_c, bo_c = client_for(ada), client_for(bo)
    table = open_table(ada_c, bot="random")
    OnlineTable.objects.filter(pk=table.pk).update(options=SHORT)
    table = started(ada_c, bo_c, table)
    game = Game.objects.get(pk=table.game_id)
    # Dealt, and the bot at C not moved yet: it is asked to seal, and the worker was woken.
    assert "C" in {ask["seat"] for ask in game.awaited}
    assert in_worker == [table.pk]
    # The people may seal meanwhile: their page offers it.
    page = ada_c.get(reverse("practice:online", args=[table.pk])).content.decode()
    assert 'id="hand"' in page and "thinking" not in page
    moved = tasks.online_bots_turn(table.pk)
    assert moved >= 1
    game.refresh_from_db()
    assert "C" not in {ask["seat"] for ask in game.awaited}
    assert GameEvent.objects.filter(game=game, public__seat="C", public__type="seal").exists()
    # A wake with nothing asked of the bots changes nothing.
    revision = game.revision
    assert tasks.online_bots_turn(table.pk) == 1
    game.refresh_from_db()
    assert game.revision == revision


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_with_a_bot_in_the_worker_ends(monkeypatch):
    """Eager, as the embedded default runs tasks: each wake moves the bot at the commit of
    the move that asked it (so real commits here), and the game reaches its end."""
    monkeypatch.setattr(online, "WORKER_LEVELS", frozenset({"random"}))
    ada, bo = UserFactory(username="ada"), UserFactory(username="bo")
    ada_c, bo_c = client_for(ada), client_for(bo)
    table = open_table(ada_c, bot="random")
    OnlineTable.objects.filter(pk=table.pk).update(options=SHORT)
    table = started(ada_c, bo_c, table)
    play_out({"ada": ada_c, "bo": bo_c}, table, random.Random(5))
    table.refresh_from_db()
    assert table.status == OnlineTable.Status.FINISHED


def test_the_hosts_form_offers_the_expert_bot():
    ada = UserFactory(username="ada")
    page = client_for(ada).get(reverse("practice:online_new")).content.decode()
    assert '<option value="expert"' in page
    table = open_table(client_for(ada), bot="expert")
    assert table.bot == "expert"
    assert online._config("tournament", table.seating, {"A": "ada"}, "expert", None, "bot")[
        "bots_in_worker"
    ]
