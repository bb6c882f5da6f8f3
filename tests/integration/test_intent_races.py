"""The same result at the same instant, two threads on PostgreSQL (issue "Trust on the night"):
for every form that records a result, one is recorded and the other is told it was already
recorded, nothing changed. From one device (the same form, the same key: a venue Wi-Fi retry
racing the original) and from two referees or organisers (each their own page and key).

Needs only PostgreSQL (no Redis, no worker): skipped without it, like the other real-service
tests (`integration` marker). `transaction=True`: each thread commits on its own connection,
and the row locks are real (SQLite ignores `select_for_update`).
"""

import os
import threading
from collections.abc import Callable

import pytest
from django.db import connection

from accounts.models import Role
from duels import services as duel_rows
from duels.models import Duel, DuelStatus, Result
from tests.duels.moves import moves
from tests.factories import RoleFactory, group_phase_duel
from tournaments.models import AuditEntry, RoundStatus
from tournaments.services import corrections, refereeing

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql():
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        pytest.skip("DATABASE_URL does not name a PostgreSQL database")
    assert connection.vendor == "postgresql"


def at_once(*writes: Callable[[], object]) -> list[str]:
    """Run the writes in threads released together; each one's outcome, sorted."""
    barrier = threading.Barrier(len(writes))
    outcomes: list[str] = []

    def run(write):
        try:
            barrier.wait()
            write()
            outcomes.append("applied")
        except refereeing.AlreadyRecorded:
            outcomes.append("already recorded")
        except duel_rows.Conflict:
            outcomes.append("conflict")
        except Exception as exc:  # noqa: BLE001 - the test reports whatever else happened
            outcomes.append(f"{type(exc).__name__}: {exc}")
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(w,)) for w in writes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return sorted(outcomes)


@pytest.fixture
def cup():
    duel, referee = group_phase_duel()
    Duel.objects.filter(pk=duel.pk).update(referee=None)
    second = RoleFactory(tournament=duel.tournament, role=Role.REFEREE).user
    return duel.tournament, duel, referee, second


def one_round_recorded(tournament):
    assert Result.objects.filter(duel__tournament=tournament).count() == 1
    assert tournament.rounds.get(number=2).status == RoundStatus.OPEN
    assert not Duel.objects.filter(tournament=tournament, round__number=2).exists()


@pytest.mark.parametrize("devices", ["one device", "two referees"])
def test_the_round_sheet_at_the_same_instant(cup, devices):
    tournament, duel, referee, second = cup
    users = (referee, referee) if devices == "one device" else (referee, second)
    keys = ("k", "k") if devices == "one device" else ("k1", "k2")

    def send(user, key):
        return lambda: refereeing.record_paper_result(
            tournament,
            user,
            round_number=1,
            duel_id=duel.pk,
            first_id=duel.seat_a_id,
            second_id=duel.seat_b_id,
            winner_id=duel.seat_b_id,
            intent=key,
        )

    outcomes = at_once(*(send(u, k) for u, k in zip(users, keys, strict=True)))
    assert outcomes == ["already recorded", "applied"]
    one_round_recorded(tournament)


def test_the_round_sheet_drawn_before_the_duel_existed_at_the_same_instant():
    duel, referee = group_phase_duel()
    tournament, seats = duel.tournament, (duel.seat_a_id, duel.seat_b_id)
    Duel.objects.filter(pk=duel.pk).delete()
    second = RoleFactory(tournament=tournament, role=Role.REFEREE).user

    def send(user, key):
        return lambda: refereeing.record_paper_result(
            tournament,
            user,
            round_number=1,
            first_id=seats[0],
            second_id=seats[1],
            winner_id=seats[0],
            intent=key,
        )

    assert at_once(send(referee, "k1"), send(second, "k2")) == ["already recorded", "applied"]
    one_round_recorded(tournament)


@pytest.mark.parametrize("devices", ["one device", "two referees"])
def test_a_duels_sheet_at_the_same_instant(cup, devices):
    tournament, duel, referee, second = cup
    users = (referee, referee) if devices == "one device" else (referee, second)
    keys = ("k", "k") if devices == "one device" else ("k1", "k2")

    def send(user, key):
        return lambda: refereeing.record_paper_result(
            tournament,
            user,
            duel_id=duel.pk,
            expected_revision=0,
            winner_id=duel.seat_a_id,
            intent=key,
        )

    outcomes = at_once(*(send(u, k) for u, k in zip(users, keys, strict=True)))
    assert outcomes == ["already recorded", "applied"]
    one_round_recorded(tournament)


@pytest.mark.parametrize("devices", ["one device", "two referees"])
def test_a_console_ending_at_the_same_instant(cup, devices):
    tournament, duel, referee, second = cup
    # The duel is the referee's (first move); an organiser is the second device's person.
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0, 0)
    users = (referee, referee) if devices == "one device" else (referee, tournament.created_by)
    keys = ("k", "k") if devices == "one device" else ("k1", "k2")
    end = {"type": "adjudicate", "winner": "A", "reason": "played on paper: Alice won"}

    def send(user, key):
        return lambda: refereeing.play_move(duel, user, end, 1, 1, intent=key)

    outcomes = at_once(*(send(u, k) for u, k in zip(users, keys, strict=True)))
    # The same device's repeat is its stored outcome; another device's page is stale (its
    # view then tells it the result and who recorded it).
    expected = "already recorded" if devices == "one device" else "conflict"
    assert outcomes == sorted(["applied", expected])
    assert Result.objects.filter(duel=duel).count() == 1
    assert len(moves(duel)) == 2
    one_round_recorded(tournament)


def test_a_console_move_resent_while_the_original_is_applied(cup):
    tournament, duel, referee, _ = cup
    move = {"type": "round", "cards": {"A": 7, "B": 3}}
    send = lambda: refereeing.play_move(duel, referee, move, 0, 0, intent="k")  # noqa: E731
    assert at_once(send, send) == ["already recorded", "applied"]
    assert len(moves(duel)) == 1


@pytest.fixture
def played():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, {"type": "forfeit", "seat": "B"}, 0)
    tournament = duel.tournament
    co = RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user
    tournament.refresh_from_db()  # granting a role moves the version: read it after
    return tournament, duel, co


@pytest.mark.parametrize("devices", ["one device", "two organisers"])
def test_a_correction_at_the_same_instant(played, devices):
    tournament, duel, co = played
    users = (tournament.created_by,) * 2 if devices == "one device" else (tournament.created_by, co)
    keys = ("k", "k") if devices == "one device" else ("k1", "k2")
    version = tournament.standings_version

    def send(user, key):
        return lambda: corrections.correct_result(
            tournament, user, duel, "B", "Misread", expected_version=version, intent=key
        )

    outcomes = at_once(*(send(u, k) for u, k in zip(users, keys, strict=True)))
    assert outcomes == ["already recorded", "applied"]
    assert AuditEntry.objects.filter(tournament=tournament, action="result_corrected").count() == 1


@pytest.mark.parametrize("devices", ["one device", "two organisers"])
def test_a_void_at_the_same_instant(played, devices):
    tournament, duel, co = played
    users = (tournament.created_by,) * 2 if devices == "one device" else (tournament.created_by, co)
    keys = ("k", "k") if devices == "one device" else ("k1", "k2")
    version = tournament.standings_version

    def send(user, key):
        return lambda: corrections.void_result(
            tournament, user, duel, "Misread", replay=True, expected_version=version, intent=key
        )

    outcomes = at_once(*(send(u, k) for u, k in zip(users, keys, strict=True)))
    assert outcomes == ["already recorded", "applied"]
    assert Duel.objects.filter(replay_of=duel).count() == 1
    assert Duel.objects.get(pk=duel.pk).status == DuelStatus.VOID
