"""Refereeing through the services: moves under the expected sequence number, undo, results."""

import pytest

from core.errors import ServiceError
from duels import services as duel_rows
from duels.models import Duel, DuelKind, DuelStatus, Result
from tests.duels.moves import moves
from tests.factories import EntrantFactory, UserFactory, group_phase_duel
from tournaments.models import RoundStatus
from tournaments.services import refereeing

pytestmark = pytest.mark.django_db

R73 = {"type": "round", "cards": {"A": 7, "B": 3}}


def snapshot(duel):
    duel.refresh_from_db()
    return (
        duel.seq,
        duel.status,
        duel.state,
        [(m.seq, m.undone_at) for m in moves(duel)],
        Result.objects.filter(duel=duel).count(),
    )


def test_a_move_is_applied_described_and_cached():
    duel, referee = group_phase_duel()
    lines = refereeing.append_event(duel, referee, R73, expected_seq=0)
    assert "Bob draws 2 number cards and 1 action card (Alice's 7)" in lines
    duel.refresh_from_db()
    assert duel.seq == 1
    assert duel.status == DuelStatus.RUNNING
    assert duel.referee == referee
    assert duel.state == duel_rows.engine_of(duel).state()
    assert duel.state["rounds"] == 1
    (event,) = moves(duel)
    assert event.payload == R73 and event.summary == lines and event.created_by == referee


def test_a_stale_sequence_number_is_refused_and_nothing_applied():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, R73, expected_seq=0)
    before = snapshot(duel)
    with pytest.raises(duel_rows.Conflict) as err:
        refereeing.append_event(duel, referee, R73, expected_seq=0)
    assert "Someone else entered a move" in err.value.message
    assert err.value.current == 1
    assert snapshot(duel) == before


def test_an_illegal_move_is_refused_with_the_engines_reason_and_nothing_applied():
    duel, referee = group_phase_duel()
    before = snapshot(duel)
    with pytest.raises(ServiceError) as err:
        refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 12, "B": 3}}, 0)
    assert err.value.code == "illegal"
    assert "0" in err.value.message and "9" in err.value.message
    assert snapshot(duel) == before


def test_a_player_may_not_referee_their_own_duel():
    duel, referee = group_phase_duel()
    player = UserFactory()
    duel.seat_a.user = player
    duel.seat_a.save()
    from accounts.models import Role, TournamentRole

    TournamentRole.objects.create(tournament=duel.tournament, user=player, role=Role.REFEREE)
    before = snapshot(duel)
    with pytest.raises(ServiceError) as err:
        refereeing.append_event(duel, player, R73, expected_seq=0)
    assert err.value.code == "forbidden"
    assert "You play in this duel" in err.value.message
    assert snapshot(duel) == before


def test_someone_without_a_role_cannot_enter_moves():
    duel, _ = group_phase_duel()
    with pytest.raises(ServiceError) as err:
        refereeing.append_event(duel, UserFactory(), R73, expected_seq=0)
    assert err.value.code == "forbidden"


def test_undo_keeps_the_row_and_replays_to_the_earlier_state():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, R73, 0)
    after_one = snapshot(duel)[2]
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 2, "B": 7}}, 1)
    refereeing.undo_last_event(duel, referee, expected_seq=2)
    duel.refresh_from_db()
    assert duel.seq == 1
    assert duel.state == after_one
    assert len(moves(duel)) == 2
    assert [m.undone_by for m in moves(duel) if m.seq == 2] == [referee]
    # The next move takes the freed sequence number.
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 9, "B": 1}}, 1)
    assert [m.seq for m in moves(duel, undone=False)] == [1, 2]


def test_undo_with_a_stale_number_is_refused():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, R73, 0)
    refereeing.append_event(duel, referee, R73, 1)
    with pytest.raises(duel_rows.Conflict):
        refereeing.undo_last_event(duel, referee, expected_seq=1)
    duel.refresh_from_db()
    assert duel.seq == 2


def test_a_forfeit_finishes_the_duel_records_the_result_and_opens_the_next_round():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, R73, 0)
    refereeing.append_event(duel, referee, {"type": "forfeit", "seat": "B", "reason": "no_show"}, 1)
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED
    result = duel.result
    assert (result.winner, result.loser, result.finish) == (duel.seat_a, duel.seat_b, "forfeit")
    rounds = dict(duel.tournament.rounds.values_list("number", "status"))
    assert rounds[1] == RoundStatus.DECIDED and rounds[2] == RoundStatus.OPEN
    with pytest.raises(ServiceError) as err:
        refereeing.append_event(duel, referee, R73, 2)
    assert err.value.code == "closed"
    with pytest.raises(ServiceError):
        refereeing.undo_last_event(duel, referee, 2)


def test_a_duel_without_a_winner_is_replayed_by_the_same_players_on_the_same_seats():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, {"type": "time_limit"}, 0)  # equal counts: drawn
    duel.refresh_from_db()
    assert duel.result.winner is None and duel.result.finish == "time_limit"
    replay = Duel.objects.get(replay_of=duel)
    assert replay.kind == DuelKind.REPLAY and replay.status == DuelStatus.READY
    assert (replay.seat_a, replay.seat_b) == (duel.seat_a, duel.seat_b)
    assert duel.tournament.rounds.get(number=1).status == RoundStatus.OPEN


def test_a_representative_who_left_the_group_cannot_start_the_duel():
    duel, referee = group_phase_duel()
    duel.seat_b.group = duel.group_a
    duel.seat_b.save()
    with pytest.raises(ServiceError) as err:
        refereeing.append_event(duel, referee, R73, 0)
    assert "no longer an active member" in err.value.message
    assert snapshot(duel)[0] == 0


def test_a_pending_shared_card_is_dealt_at_the_start():
    from tournaments.models import SharedCard, SharedCardStatus

    duel, referee = group_phase_duel()
    giver = EntrantFactory(tournament=duel.tournament, group=duel.group_a)
    earlier, _ = group_phase_duel()
    gift = SharedCard.objects.create(
        tournament=duel.tournament, giver=giver, receiver=duel.seat_a, from_duel=earlier
    )
    refereeing.append_event(duel, referee, R73, 0)
    duel.refresh_from_db()
    gift.refresh_from_db()
    assert duel.options["starting_action_cards"] == {"A": 1}
    assert gift.status == SharedCardStatus.USED and gift.used_in == duel
    assert duel.state["decks"]["action"] == 32 - 1 - 1  # the gift, then A's 7 penalty


def test_a_page_that_saw_an_undone_and_replaced_move_is_stale():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, R73, 0)
    duel.refresh_from_db()
    seen = (duel.seq, duel.revision)  # another device shows this state
    refereeing.undo_last_event(duel, referee, 1, expected_revision=seen[1])
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 1, "B": 2}}, 0)
    duel.refresh_from_db()
    assert duel.seq == seen[0]  # the sequence number came back…
    before = snapshot(duel)
    with pytest.raises(duel_rows.Conflict):  # …but the revision did not
        refereeing.append_event(duel, referee, R73, seen[0], expected_revision=seen[1])
    assert snapshot(duel) == before


def test_undo_with_no_move_is_refused_in_words():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, R73, 0)
    refereeing.undo_last_event(duel, referee, 1)
    with pytest.raises(ServiceError, match="no move to undo"):
        refereeing.undo_last_event(duel, referee, 0)


def test_a_stale_page_hears_conflict_before_who_referees():
    duel, referee = group_phase_duel()
    from accounts.models import Role
    from tests.factories import RoleFactory

    other = RoleFactory(tournament=duel.tournament, role=Role.REFEREE).user
    refereeing.append_event(duel, referee, R73, 0)  # the duel is now assigned to `referee`
    with pytest.raises(duel_rows.Conflict):
        refereeing.append_event(duel, other, R73, 0)
