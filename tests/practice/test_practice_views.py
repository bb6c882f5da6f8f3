"""Practice pages: signed-in people only, each their own duels; moves checked on the server."""

import pytest
from django.test import Client
from django.urls import reverse

from practice.game import replay
from practice.models import PracticeDuel
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def ada():
    return UserFactory(username="ada")


def start(client: Client, ruleset: str = "tournament") -> PracticeDuel:
    response = client.post(reverse("practice:index"), {"ruleset": ruleset})
    assert response.status_code == 302
    return PracticeDuel.objects.latest("pk")


def move_url(practice: PracticeDuel) -> str:
    return reverse("practice:move", args=[practice.pk])


def test_the_pages_need_a_sign_in(ada):
    practice = start(client_for(ada))
    anonymous = Client()
    for path in (reverse("practice:index"), reverse("practice:table", args=[practice.pk])):
        response = anonymous.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = anonymous.post(move_url(practice), {"kind": "resign", "seen": 0})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert PracticeDuel.objects.get(pk=practice.pk).moves == []


def test_someone_elses_duel_is_not_found_and_takes_no_move(ada):
    practice = start(client_for(ada))
    other = client_for(UserFactory())
    assert other.get(reverse("practice:table", args=[practice.pk])).status_code == 404
    assert other.post(move_url(practice), {"kind": "resign", "seen": 0}).status_code == 404
    assert PracticeDuel.objects.get(pk=practice.pk).moves == []
    assert ada.username not in other.get(reverse("practice:index")).content.decode()


def test_start_reveal_and_see_the_log_then_resign(ada):
    client = client_for(ada)
    practice = start(client, "paper")
    page = client.get(reverse("practice:table", args=[practice.pk])).content.decode()
    assert "Round 1: reveal a card" in page and "paper rules" in page
    game = replay(practice.ruleset, practice.seed, practice.name, [])
    value = game.my_numbers()[0][0]
    assert f'name="value" value="{value}"' in page
    response = client.post(move_url(practice), {"kind": "reveal", "value": value, "seen": 0})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert f"ada reveals {value}" in page
    practice.refresh_from_db()
    assert practice.moves == [{"kind": "reveal", "value": value}]
    client.post(move_url(practice), {"kind": "resign", "seen": 1})
    practice.refresh_from_db()
    assert (practice.finished, practice.outcome) == (True, "lost")
    page = client.get(reverse("practice:table", args=[practice.pk])).content.decode()
    assert "The bot wins — forfeit." in page and "Play again (paper rules)" in page
    assert "lost" in client.get(reverse("practice:index")).content.decode()


def test_a_refused_move_is_explained_and_nothing_is_stored(ada):
    client = client_for(ada)
    practice = start(client)
    for data, words in (
        ({"kind": "reveal", "value": "x", "seen": 0}, "Reveal a number card from 0 to 9."),
        ({"kind": "respond", "choice": "pass", "seen": 0}, "Nothing is asked of you now."),
        ({"kind": "action", "card": "block", "seen": 0}, "You cannot play BLOCK now."),
        ({"kind": "resign", "seen": 5}, "This duel moved on in another tab"),
    ):
        response = client.post(move_url(practice), data)
        assert response.status_code == 422
        assert words in response.content.decode()
    assert PracticeDuel.objects.get(pk=practice.pk).moves == []


def test_an_unknown_rule_set_is_refused_and_nothing_is_created(ada):
    response = client_for(ada).post(reverse("practice:index"), {"ruleset": "<b>poker</b>"})
    assert response.status_code == 422
    assert "Choose one of the rule sets" in response.content.decode()
    assert not PracticeDuel.objects.exists()


def test_moves_need_the_csrf_token(ada):
    practice = start(client_for(ada))
    client = Client(enforce_csrf_checks=True)
    client.force_login(ada)
    assert client.post(move_url(practice), {"kind": "resign", "seen": 0}).status_code == 403
    assert client.post(reverse("practice:index"), {"ruleset": "paper"}).status_code == 403
    assert PracticeDuel.objects.get(pk=practice.pk).moves == []


def test_a_person_keeps_only_their_latest_practice_duels(ada, monkeypatch):
    from practice import services

    monkeypatch.setattr(services, "KEPT_PER_PERSON", 3)
    other = UserFactory()
    theirs = services.start_practice(other, "paper")
    started = [services.start_practice(ada, "tournament").pk for _ in range(5)]
    kept = list(PracticeDuel.objects.filter(user=ada).values_list("pk", flat=True))
    assert sorted(kept) == started[-3:]
    assert PracticeDuel.objects.filter(pk=theirs.pk).exists()  # nobody else's is touched
