"""A practice move without the revision of its page ("Trust on the night"): every kind — a
duel against one bot, a table of several seats, Trois and CPT-113 — refuses it in words and
changes nothing. Before, a move posted without `seen` skipped the stale-page check, so the
same post sent twice was played twice."""

import pytest
from django.test import Client
from django.urls import reverse

from play.adapters.base import Command
from practice import game_services, services
from practice.game import Refused
from practice.models import PracticeDuel
from practice.words import DUEL_MOVED_ON, GAME_MOVED_ON, NO_REVISION
from tests.factories import UserFactory
from tests.practice.test_other_games_views import first_move, revision

pytestmark = pytest.mark.django_db

MISSING = ("", "x", "٣", None)


@pytest.fixture
def ada():
    return UserFactory(username="ada")


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _duel(user, seats: int) -> tuple[object, str, dict, str, str]:
    practice = services.start_practice(user, "official", seats)
    return (
        practice,
        reverse("practice:move", args=[practice.pk]),
        {"kind": "resign"},
        "revision",  # the game's revision in the table core (issue 27)
        lambda: PracticeDuel.objects.get(pk=practice.pk).game.revision,
    )


def _game(user, kind: str) -> tuple[object, str, dict, str, str]:
    game = game_services.start_game(user, kind, 2 if kind == "cpt113" else 0)
    return (
        game,
        reverse("practice:game_move", args=[game.pk]),
        first_move(game),
        "revision",  # the game's revision in the table core (issue 27)
        lambda: revision(game),
    )


KINDS = {
    "duel": lambda user: _duel(user, 2),
    "table": lambda user: _duel(user, 4),
    "trois": lambda user: _game(user, "trois"),
    "cpt113": lambda user: _game(user, "cpt113"),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_move_without_its_revision_is_refused_in_words_and_changes_nothing(ada, kind):
    played, address, move, field, moves = KINDS[kind](ada)
    client = client_for(ada)
    for missing in MISSING:
        response = client.post(address, move | ({} if missing is None else {field: missing}))
        assert response.status_code == 422, (missing, response.status_code)
        assert NO_REVISION in response.content.decode()
        assert moves() == 0
    # The same move with its revision is played, once: sent again without a key it is stale
    # (a form's key would say "already recorded": tests/practice/test_other_games_play.py,
    # tests/practice/test_practice_duel_play.py).
    assert client.post(address, move | {field: "0"}).status_code == 302
    again = client.post(address, move | {field: "0"})
    words = DUEL_MOVED_ON if kind in ("duel", "table") else GAME_MOVED_ON
    assert again.status_code == 409 and words in again.content.decode()
    assert moves() == 1


def test_the_services_refuse_a_move_without_its_revision(ada):
    practice = services.start_practice(ada, "tournament")
    game = game_services.start_game(ada, "trois")
    with pytest.raises(Refused, match="did not say which table"):
        services.play_move(practice.pk, ada, Command("resign", "A"), revision=None, intent="k")
    with pytest.raises(Refused, match="did not say which table"):
        game_services.play_move(game.pk, ada, first_move(game), revision=None, intent="k")
    assert PracticeDuel.objects.get(pk=practice.pk).game.revision == 0
    assert revision(game) == 0
