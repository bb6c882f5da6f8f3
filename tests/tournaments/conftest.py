"""Fixtures of the tournament tests."""

import pytest

from accounts.models import Role
from tests.factories import RoleFactory, UserFactory
from tests.tournaments.helpers import finish
from tournaments import services


def play_group_phase(capture, tiebreak_mode: str = "full"):
    """Ten players; group 1's first player wins every odd round, group 2's every even round,
    so two players reach +21 and the rest are level at 0 or below: tie-breaks are needed."""
    organiser = UserFactory(username="olga")
    tournament = services.create_tournament(name="Cup", created_by=organiser)
    services.configure(tournament, organiser, tiebreak_mode=tiebreak_mode)
    services.register_list(tournament, "\n".join(f"P{i}" for i in range(10)), organiser)
    services.split_groups(tournament, organiser, "alternating")
    services.start_group_phase(tournament, organiser)
    referee = RoleFactory(tournament=tournament, role=Role.REFEREE).user
    g1, g2 = (list(g.members.order_by("pk")) for g in tournament.groups.order_by("order"))
    for number in range(1, 16):
        first = g1[0] if number % 2 else g1[number % 5]
        second = g2[number % 5] if number % 2 else g2[0]
        duel = services.name_representatives(tournament, referee, number, first.pk, second.pk)
        with capture(execute=True):
            finish(duel, referee, "A")
    tournament.refresh_from_db()
    return tournament, organiser, referee


@pytest.fixture
def played_group_phase(django_capture_on_commit_callbacks):
    return play_group_phase(django_capture_on_commit_callbacks)


@pytest.fixture
def played_group_phase_minimal(django_capture_on_commit_callbacks):
    return play_group_phase(django_capture_on_commit_callbacks, "minimal")
