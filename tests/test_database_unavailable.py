"""The database restarting: pages answer 503 in words with Retry-After, not a 500, and
nothing is half-saved (docs/operations.md, "Faults")."""

import pytest
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper

from tests.factories import group_phase_duel

pytestmark = pytest.mark.django_db


def _database_gone(monkeypatch):
    def refuse(*args, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")

    monkeypatch.setattr(CursorWrapper, "execute", refuse)


def test_a_page_without_its_database_says_so_and_when_to_retry(client, monkeypatch):
    _database_gone(monkeypatch)
    response = client.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert "nothing you sent was saved" in response.content.decode()


def test_a_referees_result_sent_while_the_database_is_gone_is_a_503_and_can_be_sent_again(
    client, monkeypatch
):
    duel, referee = group_phase_duel()
    client.force_login(referee)
    address = f"/t/{duel.tournament.slug}/duels/{duel.pk}/end/"
    form = {"seq": "0", "rev": "0", "ending": "forfeit_B", "reason": "No show", "confirm": "on"}
    with monkeypatch.context() as patch:
        _database_gone(patch)
        assert client.post(address, form).status_code == 503
    duel.refresh_from_db()
    assert duel.status != "finished"
    assert client.post(address, form).status_code < 400
    duel.refresh_from_db()
    assert duel.status == "finished" and duel.result.winner == duel.seat_a


def test_the_api_without_its_database_answers_503_in_json(client, monkeypatch):
    _database_gone(monkeypatch)
    response = client.get("/api/tournaments/any-cup/standings")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert "try again" in response.json()["detail"]
