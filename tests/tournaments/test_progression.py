"""A whole tournament through the services: 15 rounds, tie-breaks, the Page playoff, placings."""

import pytest

from core.errors import ServiceError
from duels.models import Duel, DuelKind, DuelStatus
from tests.tournaments.helpers import finish, open_duels, play_playoffs, settle_tiebreaks
from tournaments import services
from tournaments.models import Phase, TieBreakDraw
from tournaments.services import corrections, progression
from tournaments.services import refereeing as duel_services

pytestmark = pytest.mark.django_db


def test_the_group_phase_ends_after_round_15_and_tie_breaks_are_planned(played_group_phase):
    tournament, organiser, referee = played_group_phase
    assert tournament.phase == Phase.TIE_BREAKS
    assert tournament.tiebreak_seed
    plan = progression.tiebreak_plan(tournament)
    assert plan.needed and not plan.settled
    assert TieBreakDraw.objects.filter(tournament=tournament).exists()
    created = open_duels(tournament, DuelKind.TIE_BREAK)
    assert {d.stage for d in created} == {m.key for m in plan.to_play}
    with pytest.raises(ServiceError, match="not settled yet"):
        progression.start_playoffs(tournament, organiser)


def test_the_organiser_gives_a_tie_break_duel_its_table_and_referee(played_group_phase, client):
    tournament, organiser, referee = played_group_phase
    duel = open_duels(tournament, DuelKind.TIE_BREAK)[0]
    client.force_login(organiser)
    page = f"/t/{tournament.slug}/manage/rounds/"
    assert f'id="table-{duel.pk}"' in client.get(page).content.decode()
    response = client.post(
        f"/t/{tournament.slug}/manage/duels/{duel.pk}/referee/",
        {"referee": referee.pk, "table": "Table 2"},
    )
    assert response.status_code == 302
    duel.refresh_from_db()
    assert (duel.table, duel.referee, duel.kind) == ("Table 2", referee, DuelKind.TIE_BREAK)
    assert "Table 2 · referee" in client.get(page).content.decode()


def test_sync_is_idempotent(played_group_phase):
    tournament, _, _ = played_group_phase
    before = (
        list(Duel.objects.filter(tournament=tournament).values_list("pk", "status")),
        tournament.standings_version,
    )
    assert progression.sync(tournament) is False
    tournament.refresh_from_db()
    after = (
        list(Duel.objects.filter(tournament=tournament).values_list("pk", "status")),
        tournament.standings_version,
    )
    assert after == before


def test_the_whole_tournament_reaches_complete_with_four_distinct_placings(
    played_group_phase, django_capture_on_commit_callbacks
):
    tournament, organiser, referee = played_group_phase
    settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
    assert tournament.top_four_settled_at is not None
    with django_capture_on_commit_callbacks(execute=True):
        progression.start_playoffs(tournament, organiser)
    assert {d.stage for d in open_duels(tournament, DuelKind.PLAYOFF)} == {"Q1", "E1"}
    play_playoffs(
        tournament,
        referee,
        django_capture_on_commit_callbacks,
        lambda stage: "B" if stage == "E1" else "A",
    )
    assert tournament.phase == Phase.COMPLETE
    placings = tournament.placings
    assert sorted(placings.values()) == [1, 2, 3, 4]
    seeds = tournament.playoff_seeding
    # Seed 1 won Q1 and the Grand Final; the E1 winner (seed 4) lost Q2 to Q1's loser (seed 2).
    assert placings[str(seeds[0])] == 1
    assert placings[str(seeds[1])] == 2
    assert placings[str(seeds[3])] == 3
    assert placings[str(seeds[2])] == 4


def test_a_playoff_correction_after_completion_reopens_the_bracket(
    played_group_phase, django_capture_on_commit_callbacks
):
    tournament, organiser, referee = played_group_phase
    settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
    progression.start_playoffs(tournament, organiser)
    play_playoffs(tournament, referee, django_capture_on_commit_callbacks)
    assert tournament.phase == Phase.COMPLETE
    q2 = Duel.objects.get(tournament=tournament, kind=DuelKind.PLAYOFF, stage="Q2")
    with pytest.raises(ServiceError, match="needs a reason"):
        corrections.correct_result(tournament, organiser, q2, "B", "")
    corrections.correct_result(tournament, organiser, q2, "B", "wrong card count")
    tournament.refresh_from_db()
    gf = Duel.objects.filter(tournament=tournament, stage="GF").order_by("pk")
    assert [d.status for d in gf] == [DuelStatus.VOID, DuelStatus.READY]
    assert tournament.phase == Phase.PLAYOFFS
    assert gf.last().seat_b == q2.seat_b


def test_group_results_freeze_when_the_playoffs_start(
    played_group_phase, django_capture_on_commit_callbacks
):
    tournament, organiser, referee = played_group_phase
    settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
    progression.start_playoffs(tournament, organiser)
    first = Duel.objects.get(tournament=tournament, kind=DuelKind.GROUP, round__number=1)
    with pytest.raises(ServiceError, match="froze"):
        corrections.correct_result(tournament, organiser, first, "B", "late protest")


def test_a_withdrawal_during_the_tie_breaks_forfeits_the_pending_duel(
    played_group_phase, django_capture_on_commit_callbacks
):
    tournament, organiser, referee = played_group_phase
    duel = open_duels(tournament, DuelKind.TIE_BREAK)[0]
    leaving = duel.seat_a
    services.withdraw(tournament, organiser, leaving.pk, reason="train to catch")
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED
    assert duel.result.loser == leaving and duel.result.finish == "forfeit"
    settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
    plan = progression.tiebreak_plan(tournament)
    assert plan.settled
    assert leaving.pk not in {p for players in plan.positions.values() for p in players}


def test_a_playoff_no_show_loses_every_later_duel_by_walkover(
    played_group_phase, django_capture_on_commit_callbacks
):
    tournament, organiser, referee = played_group_phase
    settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
    progression.start_playoffs(tournament, organiser)
    q1 = Duel.objects.get(tournament=tournament, stage="Q1")
    absent = q1.seat_b
    with django_capture_on_commit_callbacks(execute=True):
        duel_services.append_event(
            q1, referee, {"type": "forfeit", "seat": "B", "reason": "no_show"}, 0
        )
    e1 = Duel.objects.get(tournament=tournament, stage="E1")
    with django_capture_on_commit_callbacks(execute=True):
        finish(e1, referee, "A")
    q2 = Duel.objects.get(tournament=tournament, stage="Q2")
    assert q2.status == DuelStatus.FINISHED and q2.result.loser == absent  # a walkover
    play_playoffs(tournament, referee, django_capture_on_commit_callbacks)
    assert tournament.phase == Phase.COMPLETE
    assert tournament.placings[str(absent.pk)] == 3


def _withdraw_before_the_replay(tournament, organiser, drawn):
    """A duel ended without a winner, its replay not started; a player of it withdraws: the
    walkover is recorded on the replay, the drawn duel stays as it was played."""
    replay = Duel.objects.get(replay_of=drawn)
    assert replay.status == DuelStatus.READY
    leaving = drawn.seat_a
    services.withdraw(tournament, organiser, leaving.pk, reason="train to catch")
    replay.refresh_from_db()
    assert replay.status == DuelStatus.FINISHED
    assert replay.result.loser == leaving and replay.result.finish == "forfeit"
    assert Duel.objects.get(pk=drawn.pk).status == DuelStatus.FINISHED
    assert Duel.objects.get(pk=drawn.pk).result.winner is None
    assert not progression.pending(tournament)
    return replay


def test_the_replay_of_a_drawn_tie_break_duel_is_the_one_to_play(played_group_phase):
    tournament, organiser, referee = played_group_phase
    duel = open_duels(tournament, DuelKind.TIE_BREAK)[0]
    duel_services.append_event(duel, referee, {"type": "time_limit"}, 0)  # no round: drawn
    replay = Duel.objects.get(replay_of=duel)
    progression.sync(tournament)
    plan = progression.tiebreak_plan(tournament)
    assert replay.pk in {m.ref for m in plan.to_play}
    assert duel.pk not in {m.ref for m in plan.to_play}


def test_a_withdrawal_before_a_drawn_tie_break_duels_replay_forfeits_the_replay(
    played_group_phase,
):
    tournament, organiser, referee = played_group_phase
    duel = open_duels(tournament, DuelKind.TIE_BREAK)[0]
    duel_services.append_event(duel, referee, {"type": "time_limit"}, 0)  # no round: drawn
    _withdraw_before_the_replay(tournament, organiser, duel)


def test_a_withdrawal_after_a_tie_break_win_corrected_to_none_forfeits_the_replay(
    played_group_phase,
):
    tournament, organiser, referee = played_group_phase
    duel = open_duels(tournament, DuelKind.TIE_BREAK)[0]
    duel_services.append_event(duel, referee, {"type": "adjudicate", "winner": "B"}, 0)
    corrections.correct_result(tournament, organiser, duel, None, "nobody won at the table")
    _withdraw_before_the_replay(tournament, organiser, duel)


def test_a_withdrawal_before_a_drawn_playoff_duels_replay_forfeits_the_replay(
    played_group_phase, django_capture_on_commit_callbacks
):
    tournament, organiser, referee = played_group_phase
    settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
    progression.start_playoffs(tournament, organiser)
    q1 = Duel.objects.get(tournament=tournament, stage="Q1")
    duel_services.append_event(q1, referee, {"type": "time_limit"}, 0)  # no round: drawn
    replay = _withdraw_before_the_replay(tournament, organiser, q1)
    assert {m.ref for m in progression.playoff_bracket(tournament).matches} >= {replay.pk}
