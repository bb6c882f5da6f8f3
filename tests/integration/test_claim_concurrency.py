"""One account using two claim links of one tournament at the same moment, on PostgreSQL
("Trust on the night"): one entry is linked, the other claim is refused in words — before,
both passed the check and the second write was a 500 on the one-entry-per-account constraint.
Needs only PostgreSQL (no Redis, no worker): it skips on SQLite, where the sequential tests of
`tests/tournaments/test_claim_twice.py` run.

Checked the other way (5 races each, 2026-11-26): with the lock alone, or the savepoint alone,
every race ends in one link and the words; with neither (no `lock(tournament)` in
`claim_entry`, the save outside its savepoint) every race ended ['IntegrityError', 'linked']."""

import pytest
from django.db import connection

from tests.factories import EntrantFactory, TournamentFactory, UserFactory
from tournaments.models import Entrant
from tournaments.services import claim_entry, issue_claim_link
from tournaments.services.entrants import ALREADY_LINKED

from . import races

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): SQLite serialises every writer anyway")


def race(calls) -> list[str]:
    return races.race(calls, done=lambda _: "linked", refused=lambda err: err.message)


@pytest.mark.parametrize("attempt", range(5))
def test_one_account_claiming_two_entries_at_once_gets_one_and_words(attempt):
    tournament = TournamentFactory()
    entrants = [EntrantFactory(tournament=tournament, name=n) for n in ("Bea", "Cy")]
    tokens = [issue_claim_link(e) for e in entrants]
    account = UserFactory()
    outcomes = race(
        [lambda token=token: claim_entry(tournament, token, account) for token in tokens]
    )
    assert outcomes == sorted([ALREADY_LINKED, "linked"])
    assert Entrant.objects.filter(tournament=tournament, user=account).count() == 1
