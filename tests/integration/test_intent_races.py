"""The same result at the same instant, two threads on PostgreSQL (issue "Trust on the night"):
for every form that records a result, one is recorded and the other is told it was already
recorded, nothing changed. From one device (the same form, the same key: a venue Wi-Fi retry
racing the original) and from two referees or organisers (each their own page and key).

Needs only PostgreSQL (no Redis, no worker): skipped without it, like the other real-service
tests (`integration` marker). `transaction=True`: each thread commits on its own connection,
and the row locks are real (SQLite ignores `select_for_update`).
"""

import os
from collections.abc import Callable

import pytest
from django.db import connection

from accounts.models import Role
from duels.models import Duel, DuelStatus, Result
from tests.duels.moves import moves
from tests.factories import RoleFactory, group_phase_duel
from tournaments.models import AuditEntry, RoundStatus
from tournaments.services import corrections, refereeing

from . import races

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql():
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        pytest.skip("DATABASE_URL does not name a PostgreSQL database")
    assert connection.vendor == "postgresql"


def at_once(*writes: Callable[[], object]) -> list[str]:
    """Run the writes at the same instant; each one's outcome, sorted."""
    return races.race(
        writes,
        refused=lambda err: (
            "already recorded" if isinstance(err, refereeing.AlreadyRecorded) else err.code
        ),
    )


def from_devices(
    devices: str, one: object, other: object, send: Callable[[object, str], Callable[[], object]]
) -> list[str]:
    """``send(user, key)`` at the same instant from "one device" (``one`` twice with the same
    key: a retry racing the original) or from two people (``one`` and ``other``, each with
    its own page and key); each outcome, sorted."""
    if devices == "one device":
        return at_once(send(one, "k"), send(one, "k"))
    return at_once(send(one, "k1"), send(other, "k2"))


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


def paper(tournament, **sheet) -> Callable[[object, str], Callable[[], object]]:
    """``send(user, key)`` of a paper result sheet with these fields."""
    return lambda user, key: (
        lambda: refereeing.record_paper_result(tournament, user, intent=key, **sheet)
    )


@pytest.mark.parametrize("devices", ["one device", "two referees"])
def test_the_round_sheet_at_the_same_instant(cup, devices):
    tournament, duel, referee, second = cup
    send = paper(
        tournament,
        round_number=1,
        duel_id=duel.pk,
        first_id=duel.seat_a_id,
        second_id=duel.seat_b_id,
        winner_id=duel.seat_b_id,
    )
    assert from_devices(devices, referee, second, send) == ["already recorded", "applied"]
    one_round_recorded(tournament)


def test_the_round_sheet_drawn_before_the_duel_existed_at_the_same_instant():
    duel, referee = group_phase_duel()
    tournament, seats = duel.tournament, (duel.seat_a_id, duel.seat_b_id)
    Duel.objects.filter(pk=duel.pk).delete()
    second = RoleFactory(tournament=tournament, role=Role.REFEREE).user
    send = paper(
        tournament, round_number=1, first_id=seats[0], second_id=seats[1], winner_id=seats[0]
    )
    assert from_devices("two referees", referee, second, send) == ["already recorded", "applied"]
    one_round_recorded(tournament)


@pytest.mark.parametrize("devices", ["one device", "two referees"])
def test_a_duels_sheet_at_the_same_instant(cup, devices):
    tournament, duel, referee, second = cup
    send = paper(tournament, duel_id=duel.pk, expected_revision=0, winner_id=duel.seat_a_id)
    assert from_devices(devices, referee, second, send) == ["already recorded", "applied"]
    one_round_recorded(tournament)


@pytest.mark.parametrize("devices", ["one device", "two referees"])
def test_a_console_ending_at_the_same_instant(cup, devices):
    tournament, duel, referee, second = cup
    # The duel is the referee's (first move); an organiser is the second device's person.
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0, 0)
    end = {"type": "adjudicate", "winner": "A", "reason": "played on paper: Alice won"}

    def send(user, key):
        return lambda: refereeing.play_move(duel, user, end, 1, 1, intent=key)

    outcomes = from_devices(devices, referee, tournament.created_by, send)
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
    version = tournament.standings_version

    def send(user, key):
        return lambda: corrections.correct_result(
            tournament, user, duel, "B", "Misread", expected_version=version, intent=key
        )

    outcomes = from_devices(devices, tournament.created_by, co, send)
    assert outcomes == ["already recorded", "applied"]
    assert AuditEntry.objects.filter(tournament=tournament, action="result_corrected").count() == 1


@pytest.mark.parametrize("devices", ["one device", "two organisers"])
def test_a_void_at_the_same_instant(played, devices):
    tournament, duel, co = played
    version = tournament.standings_version

    def send(user, key):
        return lambda: corrections.void_result(
            tournament, user, duel, "Misread", replay=True, expected_version=version, intent=key
        )

    outcomes = from_devices(devices, tournament.created_by, co, send)
    assert outcomes == ["already recorded", "applied"]
    assert Duel.objects.filter(replay_of=duel).count() == 1
    assert Duel.objects.get(pk=duel.pk).status == DuelStatus.VOID
