"""Bots that think in the worker (issue 30, "the expert bot thinks in the worker, never inside
a web request"): a practice duel against such bots waits for them, its page says they are
thinking and polls, and the worker's task moves them one decision (one transaction) at a time.
Any bot level can be made one (``services.WORKER_LEVELS``); the random bot is used here."""

from __future__ import annotations

import pytest
from django.urls import reverse

from practice import services, tasks
from practice.models import PracticeDuel
from tests.factories import UserFactory
from tests.practice.test_practice_views import client_for, mine, move_url, page_of, revision

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada():
    return UserFactory(username="ada")


@pytest.fixture
def in_worker(monkeypatch):
    monkeypatch.setattr(services, "WORKER_LEVELS", frozenset({"random"}))


def start(client, opponents: str = "1") -> PracticeDuel:
    post = {"ruleset": "official", "bot": "random", "opponents": opponents}
    assert client.post(reverse("practice:index"), post).status_code == 302
    return PracticeDuel.objects.latest("pk")


def test_the_page_waits_for_the_bots_and_the_worker_moves_them(ada, in_worker):
    client = client_for(ada)
    practice = start(client, opponents="3")
    page = page_of(client, practice)
    # Dealt, and nothing more: the bots have not sealed; the person waits, the page polls.
    assert "Bot B, Bot C and Bot D: thinking…" in page
    assert 'hx-trigger="every 1s"' in page and 'id="hand"' not in page
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in page
    moves = tasks.bots_turn(practice.pk)
    assert moves >= 3  # one decision a transaction: each seal its own revision
    assert revision(practice) >= 3
    page = page_of(client, practice)
    assert "thinking" not in page and 'id="hand"' in page
    # The person's move, then the bots again in the worker.
    seal = mine(practice)["commands"]["seal"]
    form = {"play": f"seal:{seal['cards'][0]}", "target": seal["targets"][0]}
    form |= {"revision": revision(practice), "intent": "first"}
    assert client.post(move_url(practice), form).status_code == 302
    assert "thinking" in page_of(client, practice)
    tasks.bots_turn(practice.pk)
    assert "thinking" not in page_of(client, practice)
    # A needless or repeated task changes nothing.
    before = revision(practice)
    assert tasks.bots_turn(practice.pk) == 1 and revision(practice) == before


def test_a_person_has_at_most_three_unfinished_duels_against_such_bots(ada, in_worker):
    client = client_for(ada)
    for _ in range(services.MAX_WORKER_DUELS):
        start(client)
    response = client.post(reverse("practice:index"), {"ruleset": "official", "bot": "random"})
    assert response.status_code == 422 and "finish or resign one first" in response.text
    assert PracticeDuel.objects.count() == services.MAX_WORKER_DUELS
    # Heuristic bots think inline: no limit applies to them.
    post = {"ruleset": "official", "bot": "heuristic"}
    assert client.post(reverse("practice:index"), post).status_code == 302


def test_nobody_but_the_worker_moves_the_bots(ada, in_worker):
    client = client_for(ada)
    practice = start(client)
    form = {"kind": "bots", "revision": revision(practice), "intent": "forged"}
    assert client.post(move_url(practice), form).status_code == 422
    assert revision(practice) == 0


def test_the_expert_bots_think_in_the_worker(ada):
    client = client_for(ada)
    post = {"ruleset": "tournament", "bot": "expert"}
    assert client.post(reverse("practice:index"), post).status_code == 302
    practice = PracticeDuel.objects.get()
    assert practice.game.config["bots_in_worker"] is True
    page = page_of(client, practice)
    assert "bots: hard" in page and "Bot: thinking…" in page
    assert tasks.bots_turn(practice.pk) >= 1
    assert 'id="hand"' in page_of(client, practice)
