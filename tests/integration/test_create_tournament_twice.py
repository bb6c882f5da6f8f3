"""The create page's form sent twice at the same instant (a double tap through a slow
network, two tabs resubmitting), on PostgreSQL: one tournament, the other post answered as
the repeat it is. Needs only PostgreSQL; the sequential case is in
tests/tournaments/test_views.py."""

import pytest
from django.db import connection

from tests.factories import UserFactory
from tournaments.models import Tournament
from tournaments.services import create_tournament_once

from . import races

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): SQLite serialises every writer anyway")


@pytest.mark.parametrize("attempt", range(3))
def test_one_form_sent_twice_at_once_creates_one_tournament(attempt):
    user = UserFactory()

    def create():
        return create_tournament_once(name="Night Cup", created_by=user, intent="same-form")

    outcomes = races.race(
        [create, create], done=lambda result: "repeat" if result[1] else "created"
    )
    assert outcomes == ["created", "repeat"]
    assert Tournament.objects.filter(created_by=user).count() == 1
