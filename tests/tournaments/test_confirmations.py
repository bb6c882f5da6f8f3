"""Nothing irreversible without a confirmation that names what it does ("Trust on the night"):
starting the playoffs (and the frozen results after it), removing or withdrawing the no-shows,
reprinting the referees' sheets. A confirmation is a second post; a post without it changes
nothing; the same confirmation twice changes nothing the second time, and says so."""

import pytest
from django.test import Client
from django.urls import reverse

from duels.models import Duel, DuelKind, DuelStatus
from tests.tournaments.helpers import settle_tiebreaks
from tests.tournaments.test_organiser_views import register
from tests.tournaments.test_withdrawal_undo import running_round_two, started, state_of
from tournaments.models import AuditEntry, EntrantStatus, Phase, Withdrawal
from tournaments.services import checkin

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(tournament, name, *args) -> str:
    return reverse(f"organiser:{name}", args=[tournament.slug, *args])


@pytest.fixture
def settled(played_group_phase, django_capture_on_commit_callbacks):
    tournament, organiser, referee = played_group_phase
    settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
    assert tournament.top_four_settled_at is not None
    return tournament, organiser, referee


def state(tournament):
    tournament.refresh_from_db()
    return (
        tournament.phase,
        tournament.standings_version,
        tournament.playoff_seeding,
        sorted(Duel.objects.filter(tournament=tournament).values_list("pk", "status")),
    )


# ---- starting the playoffs ----------------------------------------------------------------


def test_start_the_playoffs_asks_first_naming_what_freezes(settled):
    tournament, organiser, _ = settled
    before = state(tournament)
    client = signed_in(organiser)
    response = client.post(url(tournament, "start_playoffs"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Start the playoffs?" in html
    assert "group-phase results and" in html and "tie-break result" in html
    assert "can no longer be corrected or voided" in html
    assert "Qualifier 1 " in html and "Eliminator " in html
    assert "Confirm: start the playoffs and freeze the group and tie-break results" in html
    assert state(tournament) == before  # the first post only asks


def test_confirm_starts_and_the_same_confirm_again_changes_nothing(settled):
    tournament, organiser, _ = settled
    client = signed_in(organiser)
    asked = client.post(url(tournament, "start_playoffs"))
    confirm = {"confirm": "1", "version": asked.context["playoffs_preview"]["version"]}
    response = client.post(url(tournament, "start_playoffs"), confirm, follow=True)
    assert "group-phase and tie-break results are frozen" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.phase == Phase.PLAYOFFS
    after = state(tournament)
    again = client.post(url(tournament, "start_playoffs"), confirm, follow=True)
    assert "The playoffs have already started: nothing changed." in again.content.decode()
    assert state(tournament) == after
    assert AuditEntry.objects.filter(tournament=tournament, action="playoffs_started").count() == 1


def test_a_stale_playoffs_confirmation_asks_again(settled):
    tournament, organiser, _ = settled
    client = signed_in(organiser)
    asked = client.post(url(tournament, "start_playoffs"))
    version = asked.context["playoffs_preview"]["version"]
    tournament.refresh_from_db()
    from tournaments.services.audit import bump_version

    bump_version(tournament)  # any change of the tournament's state since the question
    before = state(tournament)
    response = client.post(url(tournament, "start_playoffs"), {"confirm": "1", "version": version})
    assert response.status_code == 409
    assert "changed since you were asked" in response.content.decode()
    assert "Confirm: start the playoffs" in response.content.decode()
    assert state(tournament) == before


def test_not_settled_is_refused_in_words_without_a_confirmation(played_group_phase):
    tournament, organiser, _ = played_group_phase
    response = signed_in(organiser).post(url(tournament, "start_playoffs"))
    assert response.status_code == 422
    html = response.content.decode()
    assert "Positions 1–4 are not settled yet" in html
    assert "Confirm: start the playoffs" not in html


def test_after_the_start_frozen_results_are_not_offered_for_correction(settled):
    tournament, organiser, _ = settled
    client = signed_in(organiser)
    asked = client.post(url(tournament, "start_playoffs"))
    client.post(
        url(tournament, "start_playoffs"),
        {"confirm": "1", "version": asked.context["playoffs_preview"]["version"]},
    )
    group = Duel.objects.filter(
        tournament=tournament, kind=DuelKind.GROUP, status=DuelStatus.FINISHED
    ).first()
    listing = client.get(url(tournament, "results")).content.decode()
    assert "results are frozen" in listing
    assert url(tournament, "result", group.pk) not in listing
    page = client.get(url(tournament, "result", group.pk))
    html = page.content.decode()
    assert page.status_code == 200
    assert "froze when the playoffs started" in html
    assert "Show what will be recomputed" not in html and 'name="ruling"' not in html
    before = state(tournament)
    posted = client.post(url(tournament, "result", group.pk), {"ruling": "B", "reason": "x"})
    assert posted.status_code == 422
    assert "froze when the playoffs started" in posted.content.decode()
    assert state(tournament) == before


# ---- a confirmation carries what its preview showed, or nothing is done -----------------------

OUT_OF_DATE = "This page is out of date: look again, then confirm"
# What a confirmation's token can be besides itself: missing, empty, garbled.
NOT_A_TOKEN = [None, "", "seven", "1.5", "\x00"]


def _with(token, name: str, data: dict) -> dict:
    return data | ({} if token is None else {name: token})


@pytest.mark.parametrize("token", NOT_A_TOKEN)
def test_a_withdrawal_confirmed_without_its_version_changes_nothing(token):
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    before = state_of(tournament)
    response = signed_in(organiser).post(
        url(tournament, "withdraw"),
        _with(token, "version", {"entrant": duel.seat_a_id, "confirm": "1"}),
    )
    html = response.content.decode()
    assert response.status_code == 409
    assert OUT_OF_DATE in html and "Nothing was changed" in html
    assert f"Confirm: withdraw {duel.seat_a.name}" in html  # asked again, with a fresh preview
    assert state_of(tournament) == before
    assert not Withdrawal.objects.exists()
    duel.seat_a.refresh_from_db()
    assert duel.seat_a.status == EntrantStatus.ACTIVE


@pytest.mark.parametrize("token", NOT_A_TOKEN)
def test_the_playoffs_confirmed_without_their_version_do_not_start(settled, token):
    tournament, organiser, _ = settled
    before = state(tournament)
    response = signed_in(organiser).post(
        url(tournament, "start_playoffs"), _with(token, "version", {"confirm": "1"})
    )
    html = response.content.decode()
    assert response.status_code == 409
    assert OUT_OF_DATE in html
    assert "Confirm: start the playoffs" in html
    assert state(tournament) == before
    assert not AuditEntry.objects.filter(action="playoffs_started").exists()


@pytest.mark.parametrize("expected", [None, [""], ["x"], ["1", "two"]])
def test_no_shows_confirmed_without_the_players_named_are_not_withdrawn(cup_of_twelve, expected):
    tournament, organiser = cup_of_twelve
    data = {"confirm": "1"} | ({} if expected is None else {"expected": expected})
    response = signed_in(organiser).post(url(tournament, "withdraw_no_shows"), data)
    html = response.content.decode()
    assert response.status_code == 409
    assert OUT_OF_DATE in html
    assert "already withdrawn" not in html  # nobody was: nothing was named
    assert "Confirm: remove 2 players" in html  # asked again, naming them
    assert tournament.entrants.count() == 12
    assert not AuditEntry.objects.filter(action="no_shows_withdrawn").exists()


def test_the_service_takes_an_empty_list_of_no_shows_for_a_stale_one(cup_of_twelve):
    tournament, organiser = cup_of_twelve
    from core.errors import ServiceError

    with pytest.raises(ServiceError) as err:
        checkin.withdraw_no_shows(tournament, organiser, confirm=True, expected=[])
    assert err.value.code == "stale"
    assert tournament.entrants.count() == 12


@pytest.fixture
def cup_of_twelve():
    from tests.factories import TournamentFactory, UserFactory

    organiser = UserFactory(username="olga")
    tournament = TournamentFactory(created_by=organiser, slug="cup", name="Cup")
    tournament.groups.create(name="Reds", order=1)
    tournament.groups.create(name="Blues", order=2)
    register(tournament, organiser, n=12, first=6)
    for entrant in list(tournament.entrants.order_by("name"))[:10]:
        checkin.check_in(tournament, organiser, entrant.pk)
    return tournament, organiser
