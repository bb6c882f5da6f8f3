"""Check-in on the day (issue 16) over the role matrix, the no-shows leaving in one action,
and removing a player before the group phase."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from core.errors import ServiceError
from tests.factories import EntrantFactory, RoleFactory, TournamentFactory, UserFactory
from tests.tournaments.test_organiser_views import in_group_phase, register
from tournaments import services
from tournaments.forms_organiser import WITHDRAW
from tournaments.models import AuditEntry, Entrant, EntrantStatus, Phase
from tournaments.services import checkin

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    organiser = UserFactory(username="olga")
    tournament = TournamentFactory(created_by=organiser, published=True, slug="cup", name="Cup")
    tournament.groups.create(name="Reds", order=1)
    tournament.groups.create(name="Blues", order=2)
    other = TournamentFactory(slug="other")
    users = {
        "organiser": organiser,
        "co_organiser": RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user,
        "referee": RoleFactory(tournament=tournament, role=Role.REFEREE).user,
        "player": EntrantFactory(tournament=tournament, name="Pia", user=UserFactory()).user,
        "other_player": EntrantFactory(tournament=tournament, name="Oli", user=UserFactory()).user,
        "other_staff": RoleFactory(tournament=other, role=Role.CO_ORGANISER).user,
        "stranger": UserFactory(),
        "anonymous": None,
    }
    return tournament, users


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


# Who may check Pia in: herself and the staff of this tournament; nobody else.
MATRIX = {
    "organiser": True,
    "co_organiser": True,
    "referee": True,
    "player": True,
    "other_player": False,
    "other_staff": False,
    "stranger": False,
    "anonymous": False,
}


@pytest.mark.parametrize(("who", "allowed"), MATRIX.items())
def test_check_in_service_matrix(cup, who, allowed):
    tournament, users = cup
    pia = tournament.entrants.get(name="Pia")
    if allowed:
        checkin.check_in(tournament, users[who], pia.pk)
    else:
        with pytest.raises(ServiceError):
            checkin.check_in(tournament, users[who], pia.pk)
    pia.refresh_from_db()
    assert (pia.checked_in_at is not None) == allowed
    assert AuditEntry.objects.filter(action="player_checked_in").exists() == allowed


@pytest.mark.parametrize(("who", "allowed"), MATRIX.items())
def test_staff_check_in_page_matrix(cup, who, allowed):
    tournament, users = cup
    pia = tournament.entrants.get(name="Pia")
    client = client_for(users[who])
    response = client.post(reverse("organiser:check_in_player", args=["cup", pia.pk]))
    staff = who in ("organiser", "co_organiser", "referee")
    # The staff page is staff's alone: Pia checks herself in from the tournament's page.
    assert response.status_code == (302 if staff else 302 if who == "anonymous" else 403)
    pia.refresh_from_db()
    assert (pia.checked_in_at is not None) == staff
    page = client.get(reverse("organiser:check_in", args=["cup"]))
    assert page.status_code == (200 if staff else 302 if who == "anonymous" else 403)


@pytest.mark.parametrize("who", list(MATRIX))
def test_self_check_in_is_for_the_player_alone(cup, who):
    tournament, users = cup
    client = client_for(users[who])
    response = client.post(reverse("tournaments:check_in", args=["cup"]))
    pia = tournament.entrants.get(name="Pia")
    oli = tournament.entrants.get(name="Oli")
    assert (pia.checked_in_at is not None) == (who == "player")
    assert (oli.checked_in_at is not None) == (who == "other_player")
    if who in ("player", "other_player"):
        assert response.status_code == 302
        assert "checked in" in client.get(response.url).content.decode()
    else:
        assert response.status_code in (302, 403)


def test_detail_page_offers_the_check_in_button_to_the_player(cup):
    tournament, users = cup
    client = client_for(users["player"])
    page = client.get(reverse("tournaments:detail", args=["cup"])).content.decode()
    assert "check me in" in page
    client.post(reverse("tournaments:check_in", args=["cup"]))
    page = client.get(reverse("tournaments:detail", args=["cup"])).content.decode()
    assert "check me in" not in page and "You are checked in" in page


def test_my_page_offers_check_in_and_comes_back_to_it(cup):
    """/me/ (my tournaments) has the button too; pressing it lands back on /me/, which says so,
    and its live part's tag moves, so a second open tab sees it at the next poll."""
    tournament, users = cup
    client = client_for(users["player"])
    me = reverse("player:tournaments")
    page = client.get(me).content.decode()
    assert "I am here: check me in" in page
    before = client.get(me, HTTP_HX_REQUEST="true")["ETag"]
    response = client.post(reverse("tournaments:check_in", args=["cup"]), {"next": me})
    assert response.status_code == 302 and response.url == me
    page = client.get(response.url).content.decode()
    assert "You are checked in." in page and "check me in" not in page
    assert tournament.entrants.get(name="Pia").checked_in_at is not None
    assert client.get(me, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=before).status_code == 200


def test_check_in_does_not_follow_a_next_address_off_the_site(cup):
    tournament, users = cup
    client = client_for(users["player"])
    response = client.post(
        reverse("tournaments:check_in", args=["cup"]), {"next": "https://evil.example/"}
    )
    assert response.status_code == 302 and response.url == reverse(
        "tournaments:detail", args=["cup"]
    )


def test_my_page_offers_no_check_in_once_it_means_nothing(cup):
    tournament, users = cup
    client = client_for(users["player"])
    Entrant.objects.filter(name="Pia").update(status=EntrantStatus.WITHDRAWN)
    page = client.get(reverse("player:tournaments")).content.decode()
    assert "check me in" not in page and "You are checked in" not in page
    Entrant.objects.filter(name="Pia").update(status=EntrantStatus.ACTIVE)
    type(tournament).objects.filter(pk=tournament.pk).update(phase=Phase.COMPLETE)
    page = client.get(reverse("player:tournaments")).content.decode()
    assert "check me in" not in page


def test_an_inactive_player_cannot_be_checked_in(cup):
    tournament, users = cup
    pia = tournament.entrants.get(name="Pia")
    Entrant.objects.filter(pk=pia.pk).update(status=EntrantStatus.WITHDRAWN)
    with pytest.raises(ServiceError, match="withdrawn"):
        checkin.check_in(tournament, users["organiser"], pia.pk)


def test_overview_names_who_is_missing_before_the_start(cup):
    tournament, users = cup
    checkin.check_in(tournament, users["player"], tournament.entrants.get(name="Pia").pk)
    page = client_for(users["organiser"]).get(reverse("organiser:overview", args=["cup"]))
    text = page.content.decode()
    assert "Not checked in yet (1): Oli" in text


def test_no_shows_are_removed_outright_before_the_group_phase(cup):
    tournament, users = cup
    organiser = users["organiser"]
    register(tournament, organiser, n=12, first=6)
    here = list(tournament.entrants.order_by("name"))[:10]
    for entrant in here:
        checkin.check_in(tournament, organiser, entrant.pk)
    client = client_for(organiser)
    address = reverse("organiser:withdraw_no_shows", args=["cup"])
    asked = client.post(address)
    assert asked.status_code == 200
    html = asked.content.decode()
    assert "Remove these 2 no-shows?" in html and "Confirm: remove 2 players" in html
    assert tournament.entrants.count() == 12  # the first post only asks
    expected = asked.context["no_shows"].ids
    response = client.post(address, {"confirm": "1", "expected": expected})
    assert response.status_code == 302
    assert sorted(tournament.entrants.values_list("pk", flat=True)) == sorted(e.pk for e in here)
    assert AuditEntry.objects.filter(action="no_shows_withdrawn").exists()
    # The same confirmation again: nothing changes, and the page says so.
    again = client.post(address, {"confirm": "1", "expected": expected}, follow=True)
    assert "already withdrawn or have checked in: nothing changed" in again.content.decode()
    assert tournament.entrants.count() == 10
    assert AuditEntry.objects.filter(action="no_shows_withdrawn").count() == 1


@pytest.mark.parametrize("who", ["referee", "player", "other_staff"])
def test_only_organisers_withdraw_no_shows(cup, who):
    tournament, users = cup
    client_for(users[who]).post(reverse("organiser:withdraw_no_shows", args=["cup"]))
    assert tournament.entrants.count() == 2


def test_no_shows_are_withdrawn_once_the_group_phase_has_started(cup):
    tournament, users = cup
    organiser = users["organiser"]
    in_group_phase(tournament, organiser, decided=0, sizes=(6, 6))
    absent = tournament.entrants.order_by("name").first()
    for entrant in tournament.entrants.exclude(pk=absent.pk):
        checkin.check_in(tournament, organiser, entrant.pk)
    names = checkin.withdraw_no_shows(tournament, organiser)
    assert names == [absent.name]
    absent.refresh_from_db()
    assert absent.status == EntrantStatus.WITHDRAWN
    assert absent.withdrawal_reason == "Did not check in"


def test_no_shows_confirmed_before_someone_checked_in_are_asked_again(cup):
    tournament, users = cup
    organiser = users["organiser"]
    register(tournament, organiser, n=12, first=6)
    address = reverse("organiser:withdraw_no_shows", args=["cup"])
    client = client_for(organiser)
    asked = client.post(address)
    late = asked.context["no_shows"].entrants[0]
    checkin.check_in(tournament, organiser, late.pk)  # arrives while the organiser reads
    response = client.post(address, {"confirm": "1", "expected": asked.context["no_shows"].ids})
    assert response.status_code == 409
    html = response.content.decode()
    assert "Who is missing changed since you were asked" in html
    assert late.name not in html.split("no-shows-confirm")[1].split("</section>")[0]
    assert tournament.entrants.count() == 12


def test_no_shows_that_would_eliminate_a_group_say_so_first(cup):
    tournament, users = cup
    organiser = users["organiser"]
    reds, blues = in_group_phase(tournament, organiser, decided=1, sizes=(10, 5))
    absent = tournament.entrants.filter(group=blues).order_by("name").last()
    for entrant in tournament.entrants.exclude(pk=absent.pk):
        checkin.check_in(tournament, organiser, entrant.pk)
    asked = client_for(organiser).post(reverse("organiser:withdraw_no_shows", args=["cup"]))
    html = asked.content.decode()
    assert "Blues is eliminated at once" in html
    assert "Confirm: withdraw 1 player and eliminate Blues" in html
    absent.refresh_from_db()
    assert absent.status == EntrantStatus.ACTIVE


class TestUndoCheckIn:
    def test_undone_before_the_group_phase_by_the_page_and_twice(self, cup):
        tournament, users = cup
        pia = tournament.entrants.get(name="Pia")
        checkin.check_in(tournament, users["referee"], pia.pk)
        client = client_for(users["referee"])
        page = client.get(reverse("organiser:check_in", args=["cup"])).content.decode()
        assert "Undo Pia&#x27;s check-in" in page or "Undo Pia's check-in" in page
        undo = reverse("organiser:undo_check_in", args=["cup", pia.pk])
        response = client.post(undo, follow=True)
        assert "Pia&#x27;s check-in is undone" in response.content.decode()
        pia.refresh_from_db()
        assert (pia.checked_in_at, pia.checked_in_by) == (None, None)
        assert AuditEntry.objects.filter(action="check_in_undone").count() == 1
        again = client.post(undo, follow=True)
        assert "Pia is not checked in: nothing changed." in again.content.decode()
        assert AuditEntry.objects.filter(action="check_in_undone").count() == 1

    def test_the_player_may_undo_their_own_and_a_stranger_may_not(self, cup):
        tournament, users = cup
        pia = tournament.entrants.get(name="Pia")
        checkin.check_in(tournament, users["player"], pia.pk)
        with pytest.raises(ServiceError) as err:
            checkin.undo_check_in(tournament, users["other_player"], entrant_id=pia.pk)
        assert err.value.code == "forbidden"
        checkin.undo_check_in(tournament, users["player"], entrant_id=pia.pk)
        pia.refresh_from_db()
        assert pia.checked_in_at is None

    def test_the_player_undoes_their_own_from_the_tournament_page(self, cup):
        tournament, users = cup
        pia = tournament.entrants.get(name="Pia")
        client = client_for(users["player"])
        client.post(reverse("tournaments:check_in", args=["cup"]))
        page = client.get(reverse("tournaments:detail", args=["cup"])).content.decode()
        assert "undo my check-in" in page
        response = client.post(reverse("tournaments:undo_check_in", args=["cup"]), follow=True)
        assert "Your check-in as Pia is undone." in response.content.decode()
        pia.refresh_from_db()
        assert pia.checked_in_at is None
        again = client.post(reverse("tournaments:undo_check_in", args=["cup"]), follow=True)
        assert "Pia is not checked in: nothing changed." in again.content.decode()

    def test_a_check_in_for_the_group_phase_stands_once_it_started(self, cup):
        tournament, users = cup
        organiser = users["organiser"]
        register(tournament, organiser, n=12, first=6)
        pia = tournament.entrants.get(name="Pia")
        checkin.check_in(tournament, organiser, pia.pk)
        services.start_group_phase(tournament, organiser)
        tournament.refresh_from_db()
        with pytest.raises(ServiceError, match="checked in for the group phase, which has"):
            checkin.undo_check_in(tournament, organiser, entrant_id=pia.pk)
        page = client_for(organiser).get(reverse("organiser:check_in", args=["cup"]))
        assert "Undo Pia" not in page.content.decode()
        response = client_for(organiser).post(
            reverse("organiser:undo_check_in", args=["cup", pia.pk])
        )
        assert response.status_code == 422
        pia.refresh_from_db()
        assert pia.checked_in_at is not None

    def test_a_check_in_for_the_playoffs_is_undone_until_they_start(self, cup):
        tournament, users = cup
        organiser = users["organiser"]
        in_group_phase(tournament, organiser, decided=1, sizes=(6, 6))
        pia = tournament.entrants.get(name="Pia")
        checkin.check_in(tournament, organiser, pia.pk)  # after the start: for the playoffs
        pia.refresh_from_db()
        assert checkin.undo_blocker(tournament, pia) == ""
        checkin.undo_check_in(tournament, organiser, entrant_id=pia.pk)
        pia.refresh_from_db()
        assert pia.checked_in_at is None
        checkin.check_in(tournament, organiser, pia.pk)
        pia.refresh_from_db()
        tournament.phase = Phase.PLAYOFFS  # as the playoffs' start leaves it
        assert "which have started" in checkin.undo_blocker(tournament, pia)


class TestRemove:
    def test_a_mistyped_player_is_removed_before_the_group_phase(self, cup):
        tournament, users = cup
        typo = services.add_entrant(tournament, "Pai", users["organiser"])
        client = client_for(users["co_organiser"])
        address = reverse("organiser:remove_player", args=["cup", typo.pk])
        asked = client.post(address)
        html = asked.content.decode()
        assert asked.status_code == 200
        assert "Remove Pai?" in html and "A removal cannot be undone" in html
        assert "not linked to an account" in html and "Confirm: remove Pai" in html
        assert tournament.entrants.filter(pk=typo.pk).exists()  # the first post only asks
        response = client.post(address, {"confirm": "1", "account": "0"})
        assert response.status_code == 302
        assert not tournament.entrants.filter(name="Pai").exists()
        assert "Pai is removed" in client.get(response.url).content.decode()
        # The same confirmation again: nothing changes, and the page says so.
        again = client.post(address, {"confirm": "1", "account": "0"}, follow=True)
        assert "Pai was already removed: nothing changed." in again.content.decode()
        assert AuditEntry.objects.filter(action="player_removed").count() == 1
        # The name is free again.
        services.add_entrant(tournament, "Pai", users["organiser"])

    def test_a_linked_entry_names_its_account_and_asks_again_if_it_changed(self, cup):
        tournament, users = cup
        bea = EntrantFactory(tournament=tournament, name="Bea")
        client = client_for(users["organiser"])
        address = reverse("organiser:remove_player", args=["cup", bea.pk])
        asked = client.post(address)
        assert "not linked to an account" in asked.content.decode()
        assert asked.context["removal"].account_id == 0
        # Bea claims her entry while the organiser reads: the confirmation named no account.
        bea.user = UserFactory(username="bea")
        bea.save(update_fields=["user"])
        response = client.post(address, {"confirm": "1", "account": "0"})
        assert response.status_code == 409
        html = response.content.decode()
        assert "linked to bea now" in html and "Nothing was changed" in html
        assert "The entry is linked to the account bea" in html
        assert "Confirm: remove Bea and unlink bea" in html
        assert tournament.entrants.filter(pk=bea.pk).exists()
        client.post(address, {"confirm": "1", "account": str(bea.user_id)})
        assert not tournament.entrants.filter(pk=bea.pk).exists()

    @pytest.mark.parametrize("account", [None, "", "x", "1e3"])
    def test_a_confirmation_without_what_it_named_changes_nothing(self, cup, account):
        tournament, users = cup
        pia = tournament.entrants.get(name="Pia")
        data = {"confirm": "1"} | ({} if account is None else {"account": account})
        response = client_for(users["organiser"]).post(
            reverse("organiser:remove_player", args=["cup", pia.pk]), data
        )
        assert response.status_code == 409
        assert "This page is out of date: look again, then confirm" in response.content.decode()
        assert tournament.entrants.filter(pk=pia.pk).exists()

    @pytest.mark.parametrize("who", ["referee", "player", "other_staff", "stranger"])
    def test_others_cannot_remove(self, cup, who):
        tournament, users = cup
        pia = tournament.entrants.get(name="Pia")
        client_for(users[who]).post(reverse("organiser:remove_player", args=["cup", pia.pk]))
        assert tournament.entrants.filter(pk=pia.pk).exists()

    def test_not_once_the_group_phase_has_started(self, cup):
        tournament, users = cup
        in_group_phase(tournament, users["organiser"], decided=0, sizes=(6, 6))
        pia = tournament.entrants.get(name="Pia")
        response = client_for(users["organiser"]).post(
            reverse("organiser:remove_player", args=["cup", pia.pk])
        )
        assert response.status_code == 422
        assert "can only be withdrawn" in response.content.decode()
        assert tournament.entrants.filter(pk=pia.pk).exists()
        assert tournament.phase == Phase.GROUP_PHASE

    def test_another_tournaments_player_is_not_removed(self, cup):
        tournament, users = cup
        elsewhere = EntrantFactory(tournament=TournamentFactory(slug="far"), name="Zed")
        response = client_for(users["organiser"]).post(
            reverse("organiser:remove_player", args=["cup", elsewhere.pk])
        )
        assert response.status_code == 422
        assert Entrant.objects.filter(pk=elsewhere.pk).exists()


def test_name_field_keeps_focus_after_each_registration(cup):
    tournament, users = cup
    client = client_for(users["organiser"])
    response = client.post(
        reverse("organiser:players", args=["cup"]), {"name": "Ulla"}, follow=True
    )
    assert 'name="name"' in response.content.decode()
    assert "autofocus" in response.content.decode()
    response = client.post(
        reverse("organiser:players", args=["cup"]), {"name": "Vic"}, HTTP_HX_REQUEST="true"
    )
    assert "autofocus" in response.content.decode()


class TestTransfersBoard:
    def test_after_an_elimination_nothing_offers_to_confirm(self, cup):
        tournament, users = cup
        organiser = users["organiser"]
        reds, blues = in_group_phase(tournament, organiser, decided=1, sizes=(9, 6))
        movers = list(tournament.entrants.filter(group=blues).order_by("name")[:2])
        data = {f"to{m.pk}": "1" for m in movers}
        client = client_for(organiser)
        transfers = reverse("organiser:transfers", args=["cup"])
        response = client.post(transfers, {**data, "confirm": "1"}, HTTP_HX_REQUEST="true")
        # htmx is sent to the whole page, which no longer holds a board.
        assert response.status_code == 204 and response["HX-Redirect"] == transfers
        page = client.get(transfers).content.decode()
        assert "Blues is eliminated" in page
        assert "Confirm" not in page

    def test_a_refused_change_disables_apply_and_says_why(self, cup):
        tournament, users = cup
        reds, blues = in_group_phase(tournament, users["organiser"], decided=1, sizes=(7, 6))
        # Three of Reds' 7 and two of Blues' 6 withdraw: both groups would be below 5.
        leaving = list(tournament.entrants.filter(group=reds).order_by("name")[:3]) + list(
            tournament.entrants.filter(group=blues).order_by("name")[:2]
        )
        data = {f"to{e.pk}": WITHDRAW for e in leaving}
        check = client_for(users["organiser"]).post(
            reverse("organiser:transfers_check", args=["cup"]), data
        )
        html = check.content.decode()
        assert "Refused: both groups would be below 5" in html
        actions = html.split('id="transfer-actions"')[1]
        assert "disabled" in actions.split("</button>")[0]
        assert 'id="transfer-why"' in actions


def test_the_check_in_page_costs_the_same_queries_for_12_or_24_checked_in():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for n in (12, 24):
        organiser = UserFactory()
        tournament = TournamentFactory(created_by=organiser, slug=f"cup{n}")
        tournament.groups.create(name="Reds", order=1)
        tournament.groups.create(name="Blues", order=2)
        in_group_phase(tournament, organiser, decided=1, sizes=(n // 2, n // 2))
        for entrant in tournament.entrants.all():
            checkin.check_in(tournament, organiser, entrant.pk)  # each one undoable
        client = client_for(organiser)
        address = reverse("organiser:check_in", args=[tournament.slug])
        client.get(address)  # warm caches
        with CaptureQueriesContext(connection) as queries:
            page = client.get(address)
        assert page.content.decode().count(">Undo</button>") == n
        counts.append(len(queries))
    assert counts[0] == counts[1]
