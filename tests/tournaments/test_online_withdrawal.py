"""A player withdrawn from an online duel already dealt (ONLINE.md 6: it starts when both
players are ready, before any move) forfeits it, as in any running duel (TOURNAMENT.md
"Withdrawals"); before the deal, their nomination is cleared as for any duel not started."""

import pytest

from duels.models import DuelStatus
from duels.services import record_of
from tests.factories import EntrantFactory
from tests.tournaments.test_online_duels import online_duel
from tournaments import services
from tournaments.services import online
from tournaments.services.groups import withdrawal_preview

pytestmark = pytest.mark.django_db


def withdraw_alice(duel):
    # A sixth member, so that Alice's leaving is a plain change (no group eliminated).
    EntrantFactory(tournament=duel.tournament, name="Reds 6", group=duel.group_a)
    tournament = duel.tournament
    preview = withdrawal_preview(tournament, duel.seat_a)
    services.withdraw(tournament, tournament.created_by, duel.seat_a_id, reason="left")
    duel.refresh_from_db()
    return preview


def test_a_withdrawal_from_a_dealt_online_duel_before_any_move_forfeits_it():
    duel, _referee, alice, bob = online_duel()
    online.ready(duel_id=duel.pk, user=alice)
    online.ready(duel_id=duel.pk, user=bob)
    duel.refresh_from_db()
    assert duel.seq == 0 and duel.game_id is not None
    preview = withdraw_alice(duel)
    assert [f.duel.pk for f in preview.forfeits] == [duel.pk] and not preview.nominations
    assert duel.status == DuelStatus.FINISHED
    assert duel.result.winner_id == duel.seat_b_id
    forfeits = [e for e in record_of(duel)["events"] if e["type"] == "forfeit"]
    assert forfeits == [{"type": "forfeit", "seat": "A", "reason": "withdrawn"}]


def test_a_withdrawal_before_the_deal_clears_the_nomination():
    duel, _referee, alice, _bob = online_duel()
    online.ready(duel_id=duel.pk, user=alice)
    preview = withdraw_alice(duel)
    assert [d.pk for d in preview.nominations] == [duel.pk] and not preview.forfeits
    assert duel.status == DuelStatus.VOID and duel.game_id is None
