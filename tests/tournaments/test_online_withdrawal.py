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


# ---- undoing the withdrawal (TOURNAMENT.md "Corrections") ----------------------------------------


def _mid_game(duel, alice, bob):
    """Both ready, and Bob has sealed a card: a dealt duel under way."""
    from play.adapters.base import Command, Viewer
    from play.selectors import view_of

    online.ready(duel_id=duel.pk, user=alice)
    online.ready(duel_id=duel.pk, user=bob)
    duel.refresh_from_db()
    card = view_of(duel.game_id, Viewer("seat", "B"))["commands"]["seal"]["cards"][0]
    online.play_move(
        duel_id=duel.pk,
        user=bob,
        command=Command("seal", "B", {"card": card}),
        revision=duel.revision,
        intent="bob-1",
    )
    duel.refresh_from_db()
    return duel


def test_undoing_the_withdrawal_gives_back_the_online_duel_where_it_stood():
    from duels.services import engine_of
    from play.adapters.base import Command, Viewer
    from play.models import Game, GameStatus
    from play.selectors import view_of
    from tournaments.models import RoundStatus, StandingRow
    from tournaments.services import withdrawals

    duel, _referee, alice, bob = online_duel()
    duel = _mid_game(duel, alice, bob)
    before = view_of(duel.game_id, Viewer("public"))
    withdraw_alice(duel)
    assert duel.status == DuelStatus.FINISHED
    tournament = duel.tournament
    withdrawal = withdrawals.latest(tournament)
    assert withdrawals.undo_blocker(tournament, withdrawal) == ""
    withdrawals.undo_withdrawal(tournament, tournament.created_by, withdrawal_id=withdrawal.pk)
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING and not hasattr(duel, "result")
    assert Game.objects.get(pk=duel.game_id).status == GameStatus.PLAYING
    now = view_of(duel.game_id, Viewer("public"))
    # Where it stood: Bob's seal still down, Alice asked to seal, on her seat clock again.
    assert (now["sealed"], now["state"]) == (before["sealed"], before["state"])
    assert [(a["seat"], a["what"]) for a in now["awaiting"]] == [("A", "seal")]
    assert duel.state == engine_of(duel).state()  # the record replays to the row's state
    assert tournament.rounds.get(number=duel.round.number).status == RoundStatus.OPEN
    rows = StandingRow.objects.filter(tournament=tournament)
    points = dict(rows.values_list("entrant", "points"))
    assert points.get(duel.seat_a_id, 0) == 0 and points.get(duel.seat_b_id, 0) == 0
    # Alice plays on from her page; the duel goes on to its end as any other.
    card = view_of(duel.game_id, Viewer("seat", "A"))["commands"]["seal"]["cards"][0]
    played = online.play_move(
        duel_id=duel.pk,
        user=alice,
        command=Command("seal", "A", {"card": card}),
        revision=duel.revision,
        intent="alice-1",
    )
    assert not played.repeat
    duel.refresh_from_db()
    assert duel.state == engine_of(duel).state()
    # Undone twice: told, nothing changed.
    from core.errors import ServiceError

    with pytest.raises(ServiceError) as again:
        withdrawals.undo_withdrawal(tournament, tournament.created_by, withdrawal_id=withdrawal.pk)
    assert again.value.code == "done"


@pytest.mark.parametrize(
    "who", ["organiser", "co_organiser", "referee", "bob", "another_player", "anonymous"]
)
def test_who_may_undo_the_withdrawal_from_an_online_duel(who):
    from django.test import Client
    from django.urls import reverse

    from accounts.models import Role
    from tests.factories import RoleFactory, UserFactory
    from tournaments.services import withdrawals

    duel, referee, alice, bob = online_duel()
    duel = _mid_game(duel, alice, bob)
    withdraw_alice(duel)
    tournament = duel.tournament
    withdrawal = withdrawals.latest(tournament)
    other = tournament.entrants.exclude(pk__in=[duel.seat_a_id, duel.seat_b_id]).first()
    other.user = UserFactory(username="pia")
    other.save(update_fields=["user"])
    people = {
        "organiser": tournament.created_by,
        "co_organiser": RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user,
        "referee": referee,
        "bob": bob,
        "another_player": other.user,
        "anonymous": None,
    }
    client = Client()
    if people[who] is not None:
        client.force_login(people[who])
    url = reverse("organiser:undo_withdrawal", args=[tournament.slug, withdrawal.pk])
    response = client.post(url)
    expected = {"organiser": 302, "co_organiser": 302, "anonymous": 404}.get(who, 403)
    assert response.status_code == expected
    duel.refresh_from_db()
    assert (duel.status == DuelStatus.RUNNING) is (expected == 302)


def test_an_undo_without_the_csrf_token_changes_nothing():
    from django.test import Client
    from django.urls import reverse

    from tournaments.services import withdrawals

    duel, _referee, alice, bob = online_duel()
    duel = _mid_game(duel, alice, bob)
    withdraw_alice(duel)
    tournament = duel.tournament
    client = Client(enforce_csrf_checks=True)
    client.force_login(tournament.created_by)
    withdrawal = withdrawals.latest(tournament)
    url = reverse("organiser:undo_withdrawal", args=[tournament.slug, withdrawal.pk])
    assert client.post(url).status_code == 403
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED


def test_an_undone_withdrawal_from_a_duel_both_abandoned_waits_for_its_ruling_again(
    monkeypatch,
):
    from tests.tournaments.test_online_rulings import abandoned_by_both
    from tournaments.services import online_rulings, withdrawals

    duel, _referee, _alice, _bob = online_duel(starting_number_cards=7)  # outlasts the clocks
    duel = abandoned_by_both(duel, monkeypatch)
    assert online_rulings.both_abandoned(duel)
    withdraw_alice(duel)
    assert duel.status == DuelStatus.FINISHED and not online_rulings.both_abandoned(duel)
    tournament = duel.tournament
    withdrawal = withdrawals.latest(tournament)
    withdrawals.undo_withdrawal(tournament, tournament.created_by, withdrawal_id=withdrawal.pk)
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING and online_rulings.waiting_for_ruling(duel)
