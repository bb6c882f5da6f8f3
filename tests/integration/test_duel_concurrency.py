"""Two referees, one duel, on PostgreSQL: the row lock lets exactly one move through.

Checked the other way too: with the two `select_for_update()` calls removed from
`duels.services._lock_duel` (and `tournaments.services.setup.lock`), both threads read
sequence number 0, both pass the check, and the second insert dies with an IntegrityError on
the `unique_active_event_seq` constraint instead of the referee-facing Conflict, so
`test_two_referees_race_for_the_same_move` fails (sorted outcomes were
['IntegrityError', 'applied']);
the race for the finishing move fails the same way (sorted outcomes ['IntegrityError', 'applied']).
"""

import threading

import pytest
from django.db import connection

from duels import services as duel_rows
from duels.models import Result
from tests.conftest import services_missing
from tests.duels.moves import moves
from tests.factories import group_phase_duel
from tournaments.services import refereeing

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql():
    why = services_missing()
    if why:
        pytest.skip(why)
    assert connection.vendor == "postgresql"


def race(duel, referee, event, expected_seq):
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def play():
        try:
            barrier.wait()
            refereeing.append_event(duel, referee, event, expected_seq)
            outcomes.append("applied")
        except duel_rows.Conflict:
            outcomes.append("conflict")
        except Exception as exc:  # noqa: BLE001 - the test reports whatever else happened
            outcomes.append(type(exc).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=play) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return sorted(outcomes)


def test_two_referees_race_for_the_same_move():
    duel, referee = group_phase_duel()
    outcomes = race(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    assert outcomes == ["applied", "conflict"]
    assert len(moves(duel)) == 1
    duel.refresh_from_db()
    assert duel.seq == 1


def test_two_referees_race_to_finish_the_duel():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    outcomes = race(duel, referee, {"type": "forfeit", "seat": "B"}, 1)
    assert outcomes == ["applied", "conflict"]
    assert Result.objects.filter(duel=duel).count() == 1
    assert len(moves(duel)) == 2
