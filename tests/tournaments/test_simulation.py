"""Whole tournaments played by the bots through the services."""

import pytest
from django.core.management import call_command

from duels.models import Duel, DuelKind, DuelStatus
from tournaments.models import Phase
from tournaments.simulation import simulate_tournament

pytestmark = pytest.mark.django_db


def assert_placings_follow_the_playoff_duels(tournament):
    duels = {
        d.stage: d
        for d in Duel.objects.filter(
            tournament=tournament, kind=DuelKind.PLAYOFF, status=DuelStatus.FINISHED
        ).select_related("result")
    }
    assert set(duels) == {"Q1", "E1", "Q2", "GF"}
    placings = {int(k): v for k, v in tournament.placings.items()}
    gf, q2, e1, q1 = duels["GF"].result, duels["Q2"].result, duels["E1"].result, duels["Q1"].result
    assert placings[gf.winner_id] == 1 and placings[gf.loser_id] == 2
    assert placings[q2.loser_id] == 3 and placings[e1.loser_id] == 4
    assert {q1.winner_id, q2.winner_id} == {gf.winner_id, gf.loser_id}
    assert sorted(placings.values()) == [1, 2, 3, 4]


def test_a_simulated_tournament_reaches_complete():
    tournament, progress = simulate_tournament(players=10, seed="unit", until="complete")
    assert tournament.phase == Phase.COMPLETE
    assert progress.duels >= 15 + 4 and progress.moves > 0
    assert_placings_follow_the_playoff_duels(tournament)
    # Every finished duel's record replays to its cached state.
    from duels.services import record_of
    from games.split_uno import replay

    for duel in Duel.objects.filter(tournament=tournament, status=DuelStatus.FINISHED)[:10]:
        assert replay(record_of(duel)) == duel.state


def test_the_command_stops_where_asked_and_prints_the_standings(capsys):
    call_command("simulate_tournament", "--players", "12", "--seed", "7", "--until", "round:3")
    out = capsys.readouterr().out
    assert "phase group_phase" in out and "Standings" in out
    from tournaments.models import Tournament

    tournament = Tournament.objects.get()
    assert tournament.rounds.filter(status="decided").count() == 3
    assert tournament.rounds.get(number=4).status == "open"


def test_the_same_seed_plays_the_same_tournament():
    first, _ = simulate_tournament(players=10, seed="same", until="round:4", name="One")
    second, _ = simulate_tournament(players=10, seed="same", until="round:4", name="Two")

    def results(t):
        return [
            (d.round.number, d.seat_a.name, d.seat_b.name, d.state["winner"], d.seq)
            for d in Duel.objects.filter(tournament=t)
            .select_related("round", "seat_a", "seat_b")
            .order_by("pk")
        ]

    assert results(first) == results(second)


def test_bad_arguments_are_refused():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="between 10 and 30"):
        call_command("simulate_tournament", "--players", "8")
    with pytest.raises(CommandError, match="round:K"):
        call_command("simulate_tournament", "--until", "forever")


def test_a_chaos_simulation_still_reaches_complete():
    """--chaos: withdrawals, transfers, an elimination, corrections and voids in every phase,
    through the services; the event still completes and its placings follow the bracket."""
    tournament, progress = simulate_tournament(
        players=12, seed="chaos", until="complete", chaos=True
    )
    assert tournament.phase == Phase.COMPLETE
    assert progress.withdrawals + progress.corrections + progress.voids > 0
    assert sorted(tournament.placings.values()) == sorted(set(tournament.placings.values()))
    again, _ = simulate_tournament(
        players=12, seed="chaos", until="complete", chaos=True, name="Again"
    )

    def results(t):
        return [
            (d.kind, d.stage, d.seat_a.name, d.seat_b.name, d.status, d.seq)
            for d in Duel.objects.filter(tournament=t)
            .select_related("seat_a", "seat_b")
            .order_by("pk")
        ]

    assert results(again) == results(tournament)  # the same seed plays the same event
