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
