"""`simulate_tournament --online` (issue 31): a whole tournament of online duels played through
the players' own services — ready, the app's deal, each seat's bot moving from its own view —
to complete, with standings and placings that follow from the duels as played."""

import pytest
from django.core.management import call_command

from duels.models import Duel, DuelStatus
from duels.services import record_of
from games.split_uno import Duel as EngineDuel
from play.adapters.split_uno_dealt import conservation_problems
from play.models import Game, HolderKind, Seat
from play.selectors import restore
from tests.tournaments.test_simulation import assert_placings_follow_the_playoff_duels
from tournaments import read_models
from tournaments.models import Phase, Tournament
from tournaments.services.standings import recompute_standings

pytestmark = pytest.mark.django_db


def test_an_online_simulation_plays_a_whole_tournament_to_complete(capsys):
    call_command(
        "simulate_tournament", "--players", "10", "--seed", "online", "--online", "--short"
    )
    out = capsys.readouterr().out
    assert "phase complete" in out and "Online: every duel" in out and "Placings" in out
    tournament = Tournament.objects.get()
    assert tournament.phase == Phase.COMPLETE and tournament.online_duels
    assert_placings_follow_the_playoff_duels(tournament)
    finished = Duel.objects.filter(tournament=tournament, status=DuelStatus.FINISHED)
    assert finished.count() >= 15 + 4
    # Every duel was played online: dealt by the app, each seat held by its player's
    # account, its moves sent by that account, never by a referee.
    for duel in finished.select_related("seat_a", "seat_b", "result"):
        assert duel.online and duel.ready_a and duel.ready_b and duel.game_id
        game = Game.objects.get(pk=duel.game_id)
        assert game.kind == "split_uno_dealt"
        holders = dict(Seat.objects.filter(game=game).values_list("letter", "account_id"))
        assert holders == {"A": duel.seat_a.user_id, "B": duel.seat_b.user_id}
        assert set(Seat.objects.filter(game=game).values_list("holder", flat=True)) == {
            HolderKind.ACCOUNT
        }
        # Its record is an ordinary one that replays to the same end, every card in place.
        assert EngineDuel.from_record(record_of(duel)).state() == duel.state
        assert conservation_problems(restore(game).table) == []
        winner = {"A": duel.seat_a_id, "B": duel.seat_b_id}.get(duel.state["winner"])
        assert duel.result.winner_id == winner
    # The standings as shown are the standings recomputed from the duels.
    shown = [
        (r["name"], r["points"], r["won"], r["lost"]) for r in read_models.standings(tournament)
    ]
    recompute_standings(tournament)
    again = [
        (r["name"], r["points"], r["won"], r["lost"]) for r in read_models.standings(tournament)
    ]
    assert shown == again
    # Every duel decided gave one player a win and the other a loss.
    assert sum(r[2] for r in shown) == sum(r[3] for r in shown) > 0


def test_short_goes_with_online():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--short goes with --online"):
        call_command("simulate_tournament", "--players", "10", "--short")
