"""A duel's time limit is its game's deadline (issue 27, "One clock mechanism"): a deadline
stored on the duel before is carried to its game by the migration, so that the one clock
finds a running duel's and ends it there, and not a voided duel's."""

from datetime import timedelta

import pytest
from django.utils import timezone

from duels import services as duel_services
from duels.models import Duel, DuelStatus
from play import clock
from play.models import Game
from tests.factories import group_phase_duel
from tests.migrating import migrate_around
from tournaments.services import refereeing

R91 = {"type": "round", "cards": {"A": 9, "B": 1}}


@pytest.mark.django_db(transaction=True)
def test_a_deadline_stored_on_the_duel_moves_to_its_game_and_is_kept_there():
    stored: dict = {}
    deadline = timezone.now() + timedelta(minutes=15)

    # Made with today's models before the database goes back (a save names every column).
    for name, players in (("running", ("Alice", "Bob")), ("void", ("Cy", "Di"))):
        duel, referee = group_phase_duel(players=players)
        refereeing.append_event(duel, referee, R91, 0)  # dealt, no time limit yet
        stored[name] = duel.pk

    def old_duels(apps):
        OldDuel = apps.get_model("duels", "Duel")
        OldDuel.objects.filter(pk__in=list(stored.values())).update(deadline=deadline)
        duel_services.void([stored["void"]])

    migrate_around("duels", "_deadline_on_the_game", old_duels)

    running = Duel.objects.get(pk=stored["running"])
    assert running.deadline == deadline
    assert Game.objects.get(pk=running.game_id).next_deadline == deadline
    void = Game.objects.get(duel=stored["void"])
    assert (void.deadline, void.next_deadline) == (deadline, None)  # the sweep never asks
    # The one clock keeps it: at the deadline the running duel's time is up.
    assert clock.sweep(now=deadline - timedelta(seconds=1)) == 0
    assert clock.sweep(now=deadline) == 1
    running.refresh_from_db()
    assert running.status == DuelStatus.FINISHED and running.result.finish == "time_limit"
    assert Duel.objects.get(pk=stored["void"]).status == DuelStatus.VOID
