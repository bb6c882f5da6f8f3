"""One account using two claim links of one tournament ("Trust on the night"): the second is
refused in words and links nothing, whether the service's check finds the first entry or, in a
race the check missed, the database's one-entry-per-account constraint does. On PostgreSQL,
with two threads at once: `tests/integration/test_claim_concurrency.py`."""

import pytest
from django.test import Client
from django.urls import reverse

from core.errors import ServiceError
from tests.factories import EntrantFactory, TournamentFactory, UserFactory
from tournaments.models import AuditEntry, Entrant
from tournaments.services import claim_entry, issue_claim_link
from tournaments.services.entrants import ALREADY_LINKED

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_links():
    tournament = TournamentFactory(slug="cup")
    bea, cy = (EntrantFactory(tournament=tournament, name=n) for n in ("Bea", "Cy"))
    return tournament, (bea, issue_claim_link(bea)), (cy, issue_claim_link(cy))


def _as_if_the_check_ran_before_the_other_claim_committed(monkeypatch) -> None:
    # The race, played in one thread: the check sees no entry, the database then holds one.
    monkeypatch.setattr("tournaments.services.entrants.holds_an_entry", lambda *_: False)


def test_a_second_entry_is_refused_by_the_check(two_links):
    tournament, (bea, first), (cy, second) = two_links
    account = UserFactory()
    claim_entry(tournament, first, account)
    with pytest.raises(ServiceError) as refused:
        claim_entry(tournament, second, account)
    assert refused.value.message == ALREADY_LINKED
    assert Entrant.objects.get(pk=cy.pk).user is None


def test_the_constraint_refusing_the_link_is_the_same_words(two_links, monkeypatch):
    tournament, (bea, first), (cy, second) = two_links
    account = UserFactory()
    claim_entry(tournament, first, account)
    _as_if_the_check_ran_before_the_other_claim_committed(monkeypatch)
    with pytest.raises(ServiceError) as refused:
        claim_entry(tournament, second, account)
    assert refused.value.message == ALREADY_LINKED
    # The error was taken in a savepoint: the transaction goes on (on PostgreSQL an error
    # outside one would have aborted it, and this query with it).
    assert list(Entrant.objects.filter(user=account).values_list("name", flat=True)) == ["Bea"]
    assert AuditEntry.objects.filter(tournament=tournament, action="entry_claimed").count() == 1


def test_the_claim_page_says_it_in_words_not_a_500(two_links, monkeypatch):
    tournament, (bea, first), (cy, second) = two_links
    account = UserFactory()
    client = Client()
    client.force_login(account)
    assert client.post(reverse("tournaments:claim", args=["cup", first])).status_code == 302
    _as_if_the_check_ran_before_the_other_claim_committed(monkeypatch)
    response = client.post(reverse("tournaments:claim", args=["cup", second]))
    assert response.status_code == 410
    assert "already linked to an entry in this tournament" in response.content.decode()
    assert Entrant.objects.get(pk=cy.pk).user is None
