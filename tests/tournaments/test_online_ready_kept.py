"""A player's "ready" is kept when the duel may not start yet (tournaments.services.online):
the refusal says why, and once the duel may start, the next "ready" deals it."""

import pytest

from core.errors import ServiceError
from duels.models import Duel, DuelStatus
from tests.tournaments.test_online_duels import online_duel
from tournaments.models import RoundStatus
from tournaments.services import online

pytestmark = pytest.mark.django_db


def test_a_refused_start_keeps_both_players_ready():
    duel, _referee, alice, bob = online_duel()
    duel.round.status = RoundStatus.PENDING  # its round not open yet
    duel.round.save(update_fields=["status"])
    online.ready(duel_id=duel.pk, user=alice)
    with pytest.raises(ServiceError, match="not open"):
        online.ready(duel_id=duel.pk, user=bob)
    duel = Duel.objects.get(pk=duel.pk)
    assert duel.ready_a and duel.ready_b  # Bob's readiness is kept, not rolled back
    assert duel.game_id is None and duel.status == DuelStatus.READY
    duel.round.status = RoundStatus.OPEN
    duel.round.save(update_fields=["status"])
    online.ready(duel_id=duel.pk, user=alice)  # saying it again starts it now
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING and duel.game_id is not None


def test_the_waiting_page_says_why_and_starts_the_duel_once_it_may():
    from tests.tournaments.test_online_duels import client_of, url

    duel, _referee, alice, bob = online_duel()
    duel.round.status = RoundStatus.PENDING
    duel.round.save(update_fields=["status"])
    a, b = client_of(alice), client_of(bob)
    a.post(url("ready", duel))
    b.post(url("ready", duel))
    page = a.get(url("duel", duel)).content.decode()
    assert "not open" in page  # why it still waits, though both are ready
    duel.round.status = RoundStatus.OPEN
    duel.round.save(update_fields=["status"])
    # Nobody taps again: the page's own poll starts it and loads the table.
    polled = b.get(url("poll", duel), {"screen": "ready", "revision": 0, "v": "x"})
    assert polled.status_code == 204 and polled["HX-Redirect"] == url("duel", duel)
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING
