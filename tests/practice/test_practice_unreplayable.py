"""A stored practice game that today's code cannot set out again is said to be so, never a 500
(issue 27: a one-line change to a bot made stored duels unreplayable and their pages 500).

Only the person's moves are stored today, so a bot or rule changed since makes one of them
illegal when the game is played again: here a stored move is made one the engine refuses.
(The Split UNO duel's: tests/practice/test_practice_duel_play.py.)"""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from play.tasks import sweep_deadlines
from practice.models import PracticeGame
from practice.words import UNREPLAYABLE_TITLE
from tests.factories import UserFactory
from tests.practice import migrating

#: A Trois move with a card nobody holds.
IMPOSSIBLE_TROIS = {"kind": "play", "cards": ["zz"]}


@pytest.fixture
def client():
    client = Client()
    client.force_login(UserFactory(username="ada"))
    return client


@pytest.mark.django_db(transaction=True)
def test_a_trois_game_that_cannot_be_replayed_says_so_and_its_deadline_stops_the_sweep(client):
    """Stored the old way with a move today's code refuses, the data migration could not
    convert it (tests/practice/test_other_games_play.py): it is kept, flagged, its page says
    so, and the sweep leaves it alone."""
    user = UserFactory()
    client.force_login(user)
    old = migrating.before("0005_practice_games_to_play")
    stored = old.get_model("practice", "PracticeGame").objects.create(
        user_id=user.pk,
        kind="trois",
        seed=7,
        name="ada",
        moves=[IMPOSSIBLE_TROIS],
        deadline=timezone.now() - timedelta(minutes=1),
    )
    migrating.forward()
    assert sweep_deadlines() == 0
    game = PracticeGame.objects.get(pk=stored.pk)
    assert game.unreplayable and game.game_id is None and not game.finished

    page = client.get(reverse("practice:game", args=[game.pk]))
    assert page.status_code == 200
    assert UNREPLAYABLE_TITLE in page.content.decode()
    posted = client.post(
        reverse("practice:game_move", args=[game.pk]), {"kind": "take", "revision": "1"}
    )
    assert posted.status_code == 409
    assert UNREPLAYABLE_TITLE in posted.content.decode()
