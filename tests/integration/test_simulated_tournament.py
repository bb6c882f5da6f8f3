"""A whole simulated tournament with the automation run by a real Celery worker over Redis,
on PostgreSQL: the simulation never takes a step itself, it waits for the worker."""

import pytest
from django.db import connection

from tests.tournaments.test_simulation import assert_placings_follow_the_playoff_duels
from tournaments.models import AuditEntry, Phase
from tournaments.simulation import simulate_tournament

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_simulated_tournament_completes_through_the_worker(celery_worker_process):
    assert connection.vendor == "postgresql"
    tournament, progress = simulate_tournament(
        players=10, seed="worker", until="complete", wait_for_automation=60
    )
    assert tournament.phase == Phase.COMPLETE
    assert_placings_follow_the_playoff_duels(tournament)
    # The steps were the worker's (no actor), and each was taken once.
    planned = AuditEntry.objects.filter(tournament=tournament, action="tiebreaks_planned")
    assert planned.count() == 1 and planned.get().actor is None
    assert (
        AuditEntry.objects.filter(tournament=tournament, action="tournament_complete").count() == 1
    )
