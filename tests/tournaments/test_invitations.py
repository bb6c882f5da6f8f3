"""Links that travel (issue 16): role invitations (one use, expiry, revocation, wrong
tournament, wrong role), claim and invitation links surviving sign-up, printed sheets that
reissue links, and `link_is_live` (sign-up's rate-limit exemption)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import services as role_services
from accounts.models import Role, RoleInvitation, TournamentRole
from core.errors import ServiceError
from tests.factories import PASSWORD, EntrantFactory, RoleFactory, TournamentFactory, UserFactory
from tournaments import services
from tournaments.models import AuditEntry
from tournaments.services import invitations, issue_claim_link
from tournaments.services.entrants import find_claimable
from tournaments.services.withdrawals import undo_withdrawal

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    organiser = UserFactory(username="olga")
    tournament = TournamentFactory(created_by=organiser, published=False, slug="cup")
    users = {
        "organiser": organiser,
        "co_organiser": RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user,
        "referee": RoleFactory(tournament=tournament, role=Role.REFEREE).user,
        "player": EntrantFactory(tournament=tournament, user=UserFactory()).user,
        "stranger": UserFactory(),
        "anonymous": None,
    }
    return tournament, users


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def invite_path(tournament, token: str) -> str:
    return reverse("tournaments:invite", args=[tournament.slug, token])


class TestInvitationService:
    def test_one_use(self, cup):
        tournament, users = cup
        _, token = invitations.issue_invitation(
            tournament, users["organiser"], role="referee", label="Rui"
        )
        rui, other = UserFactory(), UserFactory()
        invitations.accept_invitation(tournament, token, rui)
        assert TournamentRole.objects.filter(tournament=tournament, user=rui, role="referee")
        with pytest.raises(ServiceError, match="already been accepted"):
            invitations.accept_invitation(tournament, token, other)
        assert not TournamentRole.objects.filter(user=other).exists()

    def test_expiry(self, cup):
        tournament, users = cup
        invitation, token = invitations.issue_invitation(
            tournament, users["organiser"], role="referee"
        )
        RoleInvitation.objects.filter(pk=invitation.pk).update(
            expires_at=timezone.now() - timedelta(seconds=1)
        )
        with pytest.raises(ServiceError, match="expired"):
            invitations.accept_invitation(tournament, token, UserFactory())

    def test_revocation(self, cup):
        tournament, users = cup
        invitation, token = invitations.issue_invitation(
            tournament, users["co_organiser"], role="referee"
        )
        invitations.revoke_invitation(tournament, users["co_organiser"], invitation.pk)
        with pytest.raises(ServiceError, match="withdrawn"):
            invitations.accept_invitation(tournament, token, UserFactory())
        assert AuditEntry.objects.filter(tournament=tournament, action="invitation_revoked")

    def test_wrong_tournament(self, cup):
        tournament, users = cup
        other = TournamentFactory(created_by=users["organiser"], slug="other")
        _, token = invitations.issue_invitation(tournament, users["organiser"], role="referee")
        with pytest.raises(ServiceError, match="not valid"):
            invitations.accept_invitation(other, token, UserFactory())
        assert not TournamentRole.objects.filter(tournament=other, role="referee").exists()

    @pytest.mark.parametrize(
        ("who", "role"),
        [
            ("co_organiser", "co_organiser"),  # only the organiser invites co-organisers
            ("referee", "referee"),
            ("player", "referee"),
            ("stranger", "referee"),
            ("organiser", "organiser"),  # not a role an invitation grants
        ],
    )
    def test_wrong_role(self, cup, who, role):
        tournament, users = cup
        with pytest.raises(ServiceError):
            invitations.issue_invitation(tournament, users[who], role=role)
        assert not RoleInvitation.objects.exists()

    def test_the_organiser_alone_invites_co_organisers(self, cup):
        tournament, users = cup
        _, token = invitations.issue_invitation(tournament, users["organiser"], role="co_organiser")
        carla = UserFactory()
        invitations.accept_invitation(tournament, token, carla)
        assert TournamentRole.objects.get(user=carla).role == "co_organiser"

    def test_a_co_organiser_cannot_withdraw_a_co_organiser_invitation(self, cup):
        tournament, users = cup
        invitation, token = invitations.issue_invitation(
            tournament, users["organiser"], role="co_organiser"
        )
        with pytest.raises(ServiceError):
            invitations.revoke_invitation(tournament, users["co_organiser"], invitation.pk)
        assert invitations.link_is_live(invite_path(tournament, token))

    def test_only_a_hash_is_stored(self, cup):
        tournament, users = cup
        invitation, token = invitations.issue_invitation(
            tournament, users["organiser"], role="referee"
        )
        assert token not in invitation.token_hash and len(invitation.token_hash) == 64


class TestLinkIsLive:
    def test_claim_and_invitation_links(self, cup):
        tournament, users = cup
        entrant = EntrantFactory(tournament=tournament, name="Bea")
        claim = reverse("tournaments:claim", args=["cup", issue_claim_link(entrant)])
        _, token = invitations.issue_invitation(tournament, users["organiser"], role="referee")
        assert invitations.link_is_live(claim)
        assert invitations.link_is_live("http://testserver" + invite_path(tournament, token))
        invitations.accept_invitation(tournament, token, UserFactory())
        assert not invitations.link_is_live(invite_path(tournament, token))
        for junk in ["", "/", "/t/cup/claim/nope/", "/t/nope/invite/x/", "::", None]:
            assert not invitations.link_is_live(junk)


class TestPages:
    def test_a_signed_out_invitee_signs_up_and_has_the_role(self, cup):
        tournament, users = cup
        _, token = invitations.issue_invitation(tournament, users["organiser"], role="referee")
        path = invite_path(tournament, token)
        browser = Client()
        assert "Create an account" in browser.get(path).content.decode()
        response = browser.post(
            f"{reverse('signup')}?next={path}",
            {
                "username": "rui",
                "password1": "a-long-pass-phrase",
                "password2": "a-long-pass-phrase",
            },
        )
        assert response.status_code == 302 and response.url == path
        response = browser.post(path)
        assert response.status_code == 302
        assert TournamentRole.objects.get(user__username="rui").role == "referee"
        # The person granted a role sees it (the tournament's page, private to the public).
        page = browser.get(response.url).content.decode()
        assert "referee of" in page

    def test_sign_in_comes_back_to_a_claim_link(self, cup):
        tournament, users = cup
        entrant = EntrantFactory(tournament=tournament, name="Bea")
        path = reverse("tournaments:claim", args=["cup", issue_claim_link(entrant)])
        UserFactory(username="bea")
        browser = Client()
        login = browser.get(f"{reverse('login')}?next={path}").content.decode()
        assert f'href="{reverse("signup")}?next={path}"' in login  # "Create an account" too
        response = browser.post(
            f"{reverse('login')}?next={path}", {"username": "bea", "password": PASSWORD}
        )
        assert response.status_code == 302 and response.url == path
        browser.post(path)
        entrant.refresh_from_db()
        assert entrant.user.username == "bea"

    @pytest.mark.parametrize("bad", ["https://evil.example/", "//evil.example/x", "javascript:x"])
    def test_sign_up_goes_back_only_to_this_site(self, bad):
        response = Client().post(
            f"{reverse('signup')}?next={bad}",
            {
                "username": "eve",
                "password1": "a-long-pass-phrase",
                "password2": "a-long-pass-phrase",
            },
        )
        assert response.status_code == 302 and response.url == reverse("dashboard")

    def test_used_and_dead_links_answer_in_words(self, cup):
        tournament, users = cup
        _, token = invitations.issue_invitation(tournament, users["organiser"], role="referee")
        rui = UserFactory()
        invitations.accept_invitation(tournament, token, rui)
        response = client_for(rui).get(invite_path(tournament, token))
        assert response.status_code == 410
        assert "already been accepted" in response.content.decode()
        # A used link came from the organiser: its holder is told what became of it, signed
        # out too; a token that names nothing (a guess) leaves a private tournament unknown.
        response = Client().get(invite_path(tournament, token))
        assert response.status_code == 410
        assert "already been accepted" in response.content.decode()
        guessed = client_for(users["stranger"]).get(invite_path(tournament, "guess"))
        assert guessed.status_code == 404

    WHO = ["organiser", "co_organiser", "referee", "player", "stranger", "anonymous"]

    @pytest.mark.parametrize("who", WHO)
    def test_invite_page_matrix(self, cup, who):
        tournament, users = cup
        response = client_for(users[who]).post(
            reverse("organiser:invite", args=["cup"]), {"role": "referee", "label": "Rui"}
        )
        # The tournament is private: those with no role in it are told it does not exist.
        expected = {"organiser": 200, "co_organiser": 200, "referee": 403, "player": 403}
        assert response.status_code == expected.get(who, 404)
        assert RoleInvitation.objects.exists() == (response.status_code == 200)

    def test_co_organiser_is_refused_a_co_organiser_invitation(self, cup):
        tournament, users = cup
        response = client_for(users["co_organiser"]).post(
            reverse("organiser:invite", args=["cup"]), {"role": "co_organiser"}
        )
        assert response.status_code == 422
        assert not RoleInvitation.objects.exists()

    def test_people_page_lists_invitations_with_their_state(self, cup):
        tournament, users = cup
        organiser = users["organiser"]
        used, token = invitations.issue_invitation(
            tournament, organiser, role="referee", label="Uma"
        )
        invitations.accept_invitation(tournament, token, UserFactory(username="uma"))
        gone, _ = invitations.issue_invitation(tournament, organiser, role="referee", label="Gus")
        invitations.revoke_invitation(tournament, organiser, gone.pk)
        invitations.issue_invitation(tournament, organiser, role="co_organiser", label="Wes")
        page = client_for(organiser).get(reverse("organiser:people", args=["cup"])).content
        page = page.decode()
        assert "Accepted by uma" in page
        assert "Withdrawn" in page
        assert "Waiting, until" in page
        assert 'aria-label="Withdraw the invitation for Wes"' in page

    def test_issued_invitation_shows_link_and_qr_once(self, cup):
        tournament, users = cup
        response = client_for(users["organiser"]).post(
            reverse("organiser:invite", args=["cup"]), {"role": "referee", "label": "Rui"}
        )
        page = response.content.decode()
        link = response.context["issued"]["link"]
        assert link in page and '<svg role="img"' in page
        assert invitations.link_is_live(link)


class TestPrintedSheets:
    def test_printing_player_sheets_replaces_only_the_ticked_links(self, cup):
        tournament, users = cup
        bea = EntrantFactory(tournament=tournament, name="Bea")
        cy = EntrantFactory(tournament=tournament, name="Cy")
        old = reverse("tournaments:claim", args=["cup", issue_claim_link(bea)])
        kept = reverse("tournaments:claim", args=["cup", issue_claim_link(cy)])
        client = client_for(users["co_organiser"])
        url = reverse("organiser:print_players", args=["cup"])
        before = client.get(url)
        page = before.content.decode()
        assert 'name="replace"' in page and "checked" not in page  # none ticked by default
        assert "Bea" in page and invitations.link_is_live(old)  # looking changes nothing
        # Nothing ticked: refused in words, and every link handed out keeps working.
        response = client.post(url)
        assert response.status_code == 422
        assert "Tick whose links to replace" in response.content.decode()
        assert invitations.link_is_live(old) and invitations.link_is_live(kept)
        tick = {
            p["entrant"].name: f"{p['entrant'].pk}:{p['mark']}" for p in before.context["players"]
        }
        response = client.post(url, {"replace": [tick["Bea"]]})
        page = response.content.decode()
        assert response.status_code == 200
        (row,) = response.context["rows"]
        assert row["sheet"].name == "Bea" and invitations.link_is_live(row["link"])
        assert row["link"] in page and page.count('<svg role="img"') == 1
        assert invitations.link_is_live(kept)  # not ticked: still live
        assert AuditEntry.objects.filter(tournament=tournament, action="claim_links_reissued")
        # The replaced link says so, in words.
        with pytest.raises(ServiceError, match="replaced by a newer sheet") as err:
            find_claimable(tournament, old.rstrip("/").rsplit("/", 1)[1])
        assert "not valid" not in err.value.message
        assert "replaced by a newer sheet" in client.get(old).content.decode()
        # The same ticks again change nothing, and say so.
        again = client.post(url, {"replace": [tick["Bea"]]}, follow=True)
        assert "already replaced by a newer sheet: nothing changed" in again.content.decode()
        assert invitations.link_is_live(row["link"])
        assert AuditEntry.objects.filter(action="claim_links_reissued").count() == 1

    def test_all_of_them_is_one_tick(self, cup):
        tournament, users = cup
        for name in ("Bea", "Cy"):
            issue_claim_link(EntrantFactory(tournament=tournament, name=name))
        client = client_for(users["organiser"])
        url = reverse("organiser:print_players", args=["cup"])
        listed = [f"{p['entrant'].pk}:{p['mark']}" for p in client.get(url).context["players"]]
        response = client.post(url, {"all": "1", "listed": listed})
        assert sorted(row["sheet"].name for row in response.context["rows"]) == ["Bea", "Cy"]

    def test_printing_referee_sheets_replaces_only_the_ticked_links(self, cup):
        tournament, users = cup
        rui, old = invitations.issue_invitation(
            tournament, users["organiser"], role="referee", label="Rui"
        )
        _, kept = invitations.issue_invitation(
            tournament, users["organiser"], role="referee", label="Kim"
        )
        used, token = invitations.issue_invitation(tournament, users["organiser"], role="referee")
        invitations.accept_invitation(tournament, token, UserFactory())
        client = client_for(users["organiser"])
        address = reverse("organiser:print_referees", args=["cup"])
        page = client.get(address).content.decode()
        assert 'name="replace"' in page and "checked" not in page  # none ticked by default
        # Nothing ticked: refused in words, and every link sent keeps working.
        response = client.post(address)
        assert response.status_code == 422
        assert "Tick whose links to replace" in response.content.decode()
        assert invitations.link_is_live(invite_path(tournament, old))
        response = client.post(address, {"replace": [rui.pk]})
        (row,) = response.context["rows"]
        assert row["sheet"].name == "Rui"
        assert not invitations.link_is_live(invite_path(tournament, old))
        assert invitations.link_is_live(invite_path(tournament, kept))  # not ticked: still live
        assert invitations.link_is_live(row["link"])
        assert AuditEntry.objects.filter(tournament=tournament, action="invitations_reissued")
        # The replaced link says so; nobody withdrew it.
        with pytest.raises(ServiceError, match="replaced by a newer sheet") as err:
            role_services.find_invitation(tournament, old)
        assert "withdrawn" not in err.value.message
        people = client.get(reverse("organiser:people", args=["cup"])).content.decode()
        assert "Replaced by a newer sheet" in people
        # The same ticks again change nothing, and say so.
        again = client.post(address, {"replace": [rui.pk]}, follow=True)
        assert "already replaced by a newer sheet: nothing changed" in again.content.decode()
        assert invitations.link_is_live(row["link"])
        assert AuditEntry.objects.filter(action="invitations_reissued").count() == 1

    @pytest.mark.parametrize("who", ["referee", "player", "stranger", "anonymous"])
    def test_others_cannot_print(self, cup, who):
        tournament, users = cup
        bea = EntrantFactory(tournament=tournament, name="Bea")
        old = reverse("tournaments:claim", args=["cup", issue_claim_link(bea)])
        for name in ("print_players", "print_referees"):
            response = client_for(users[who]).post(reverse(f"organiser:{name}", args=["cup"]))
            assert response.status_code in (302, 403, 404)
        assert invitations.link_is_live(old)

    def test_poster(self, cup):
        tournament, users = cup
        response = client_for(users["organiser"]).get(reverse("organiser:poster", args=["cup"]))
        page = response.content.decode()
        assert response.status_code == 200 and '<svg role="img"' in page
        assert "not published yet" in page
        assert (
            client_for(users["referee"]).get(reverse("organiser:poster", args=["cup"])).status_code
            == 403
        )


class TestWithdrawnClaimLink:
    """A withdrawn player's claim link is dead, refused in words (and works again if the
    withdrawal is undone)."""

    def test_refused_in_words_and_links_nobody(self, cup):
        tournament, users = cup
        tournament.groups.create(name="Reds", order=1)
        tournament.groups.create(name="Blues", order=2)
        bea = EntrantFactory(tournament=tournament, name="Bea")
        token = issue_claim_link(bea)
        address = reverse("tournaments:claim", args=["cup", token])
        withdrawal = services.withdraw(tournament, users["organiser"], bea.pk, "ill")
        assert not invitations.link_is_live(address)
        visitor = UserFactory()
        page = client_for(visitor).get(address)
        assert page.status_code == 410
        assert "Bea is withdrawn from this tournament" in page.content.decode()
        posted = client_for(visitor).post(address)
        assert posted.status_code == 410
        bea.refresh_from_db()
        assert bea.user is None
        with pytest.raises(ServiceError, match="withdrawn"):
            issue_claim_link(bea)
        players = client_for(users["organiser"]).get(reverse("organiser:players", args=["cup"]))
        assert "Issue a claim link for Bea" not in players.content.decode()
        undo_withdrawal(tournament, users["organiser"], withdrawal_id=withdrawal.pk)
        assert invitations.link_is_live(address)
