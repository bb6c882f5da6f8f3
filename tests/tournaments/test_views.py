"""Tournament pages over the role matrix, claim links, publishing, CSRF.

Registration, claim links and roles are managed on the organiser pages (issue 8); their old
addresses redirect there, and the tests below use the new ones."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role, TournamentRole
from tests.factories import EntrantFactory, RoleFactory, TournamentFactory, UserFactory
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db

WHO = ["organiser", "co_organiser", "referee", "player", "stranger", "anonymous"]


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


# Expected status of each page for each role on an unpublished tournament. The old
# management addresses redirect (301) those who may manage, and refuse the others as before.
PAGES = {
    "detail": {
        "organiser": 200,
        "co_organiser": 200,
        "referee": 200,
        "player": 200,
        "stranger": 404,
        "anonymous": 404,
    },
    "entrants": {
        "organiser": 301,
        "co_organiser": 301,
        "referee": 403,
        "player": 403,
        "stranger": 404,
        "anonymous": 404,
    },
    "people": {
        "organiser": 301,
        "co_organiser": 301,
        "referee": 403,
        "player": 403,
        "stranger": 404,
        "anonymous": 404,
    },
}


@pytest.mark.parametrize("page", list(PAGES))
@pytest.mark.parametrize("who", WHO)
def test_page_access_matrix_unpublished(cup, page, who):
    tournament, users = cup
    response = client_for(users[who]).get(reverse(f"tournaments:{page}", args=["cup"]))
    assert response.status_code == PAGES[page][who]


@pytest.mark.parametrize("who", WHO)
def test_published_detail_is_public_but_management_is_not(cup, who):
    tournament, users = cup
    tournament.published = True
    tournament.save()
    client = client_for(users[who])
    assert client.get(reverse("tournaments:detail", args=["cup"])).status_code == 200
    expected = {
        "organiser": 200,
        "co_organiser": 200,
        "referee": 403,
        "player": 403,
        "stranger": 403,
        "anonymous": 302,
    }[who]
    assert client.get(reverse("organiser:players", args=["cup"])).status_code == expected


@pytest.mark.parametrize("who", WHO)
def test_publish_matrix(cup, who):
    tournament, users = cup
    response = client_for(users[who]).post(
        reverse("tournaments:publish", args=["cup"]), {"published": "1"}
    )
    allowed = who in {"organiser", "co_organiser"}
    assert response.status_code == (
        302 if allowed else {"referee": 403, "player": 403}.get(who, 404)
    )
    tournament.refresh_from_db()
    assert tournament.published is allowed


def test_anonymous_sees_published_detail_with_its_players(cup):
    tournament, users = cup
    tournament.published = True
    tournament.save()
    EntrantFactory(tournament=tournament, name="Zed <script>")
    html = Client().get(reverse("tournaments:detail", args=["cup"])).content.decode()
    assert "Zed &lt;script&gt;" in html
    assert "Zed <script>" not in html


def test_create_tournament_makes_the_creator_organiser(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        reverse("tournaments:create"),
        {"name": "  Spring   Open ", "duel_preset": "tournament", "tiebreak_mode": "full"},
    )
    tournament = Tournament.objects.get()
    # Straight to the organiser's overview, where the next steps are.
    assert response.url == reverse("organiser:overview", args=[tournament.slug])
    assert tournament.name == "Spring Open"
    assert tournament.slug == "spring-open"
    assert tournament.created_by == user
    assert not tournament.published
    client.post(
        reverse("tournaments:create"),
        {"name": "Spring Open", "duel_preset": "tournament", "tiebreak_mode": "full"},
    )
    assert Tournament.objects.filter(slug="spring-open-2").exists()


def test_the_create_form_sent_twice_creates_one_tournament(client):
    """Back, then the button again (the same page, its key): one tournament, and the second
    answer leads to it, saying so; a new page of the form makes a new one."""
    import re

    user = UserFactory()
    client.force_login(user)
    page = client.get(reverse("tournaments:create")).content.decode()
    intent = re.search(r'name="intent" value="([^"]+)"', page).group(1)
    form = {"name": "Night Cup", "duel_preset": "tournament", "tiebreak_mode": "full"}
    first = client.post(reverse("tournaments:create"), {**form, "intent": intent})
    second = client.post(reverse("tournaments:create"), {**form, "intent": intent}, follow=True)
    assert Tournament.objects.filter(created_by=user).count() == 1
    tournament = Tournament.objects.get(created_by=user)
    assert first.url == reverse("organiser:overview", args=[tournament.slug])
    assert second.redirect_chain[-1][0] == first.url
    assert "was already created by this form" in second.content.decode()
    other = client.get(reverse("tournaments:create")).content.decode()
    fresh = re.search(r'name="intent" value="([^"]+)"', other).group(1)
    assert fresh != intent
    client.post(reverse("tournaments:create"), {**form, "intent": fresh})
    assert Tournament.objects.filter(created_by=user).count() == 2
    # Another person's post of the same key is their own form: it creates theirs.
    other_user = UserFactory()
    client.force_login(other_user)
    client.post(reverse("tournaments:create"), {**form, "intent": intent})
    assert Tournament.objects.filter(created_by=other_user).count() == 1


def test_create_needs_sign_in(client):
    response = client.get(reverse("tournaments:create"))
    assert response.status_code == 302
    assert reverse("login") in response.url


def test_register_entrant_and_refuse_duplicate_name(cup):
    tournament, users = cup
    client = client_for(users["co_organiser"])
    url = reverse("organiser:players", args=["cup"])
    assert client.post(url, {"name": "Ada"}).status_code == 302
    response = client.post(url, {"name": "  ada "})
    assert response.status_code == 422
    assert "already registered" in response.content.decode()
    assert tournament.entrants.filter(name__iexact="ada").count() == 1


class TestClaimLinks:
    def issue(self, cup, entrant):
        tournament, users = cup
        response = client_for(users["organiser"]).post(
            reverse("organiser:issue_claim", args=["cup", entrant.pk])
        )
        assert response.status_code == 200
        return response.context["link"].split("testserver", 1)[1]

    def test_player_claims_entry_in_a_private_tournament(self, cup):
        tournament, users = cup
        entrant = EntrantFactory(tournament=tournament, name="Bea")
        link = self.issue(cup, entrant)
        bea = UserFactory(username="bea")
        client = client_for(bea)
        assert "claim this entry" in client.get(link).content.decode()
        assert client.post(link).status_code == 302
        entrant.refresh_from_db()
        assert entrant.user == bea
        # Now a player: the private tournament is visible to her.
        assert client.get(reverse("tournaments:detail", args=["cup"])).status_code == 200

    def test_link_works_once(self, cup):
        tournament, users = cup
        entrant = EntrantFactory(tournament=tournament, name="Bea")
        link = self.issue(cup, entrant)
        client_for(UserFactory()).post(link)
        thief = UserFactory()
        response = client_for(thief).post(link)
        assert response.status_code == 410
        assert "already claimed" in response.content.decode()
        entrant.refresh_from_db()
        assert entrant.user != thief

    def test_reissue_invalidates_the_old_link(self, cup):
        tournament, users = cup
        entrant = EntrantFactory(tournament=tournament, name="Bea")
        old = self.issue(cup, entrant)
        self.issue(cup, entrant)
        assert client_for(UserFactory()).post(old).status_code == 404
        entrant.refresh_from_db()
        assert entrant.user is None

    def test_a_guessed_token_claims_nothing(self, cup):
        tournament, users = cup
        EntrantFactory(tournament=tournament, name="Bea")
        url = reverse("tournaments:claim", args=["cup", "guessed-token"])
        assert client_for(UserFactory()).post(url).status_code == 404
        assert not Entrant.objects.filter(name="Bea").exclude(user=None).exists()

    def test_one_account_claims_at_most_one_entry(self, cup):
        tournament, users = cup
        first = EntrantFactory(tournament=tournament, name="Bea")
        second = EntrantFactory(tournament=tournament, name="Cy")
        bea = UserFactory()
        client_for(bea).post(self.issue(cup, first))
        response = client_for(bea).post(self.issue(cup, second))
        assert response.status_code == 410
        assert "already linked" in response.content.decode()
        second.refresh_from_db()
        assert second.user is None

    def test_claim_needs_sign_in(self, cup):
        tournament, users = cup
        entrant = EntrantFactory(tournament=tournament, name="Bea")
        link = self.issue(cup, entrant)
        response = Client().get(link)
        page = response.content.decode()
        # Signed out: the page says whose entry it is and offers both doors, each coming back.
        assert response.status_code == 200 and "Bea" in page
        assert f'href="{reverse("signup")}?next={link}"' in page
        assert f'href="{reverse("login")}?next={link}"' in page
        assert Client().post(link).status_code == 200  # a signed-out post claims nothing
        entrant.refresh_from_db()
        assert entrant.user is None

    def test_a_used_link_says_already_claimed(self, cup):
        tournament, users = cup
        entrant = EntrantFactory(tournament=tournament, name="Bea")
        link = self.issue(cup, entrant)
        bea = UserFactory()
        client_for(bea).post(link)
        response = client_for(bea).get(link)
        assert response.status_code == 410
        assert "already been used" in response.content.decode()
        assert "not valid" not in response.content.decode()

    @pytest.mark.parametrize("who", ["referee", "player", "stranger"])
    def test_only_organisers_issue_links(self, cup, who):
        tournament, users = cup
        entrant = EntrantFactory(tournament=tournament, name="Bea")
        response = client_for(users[who]).post(
            reverse("organiser:issue_claim", args=["cup", entrant.pk])
        )
        assert response.status_code in (403, 404)
        entrant.refresh_from_db()
        assert entrant.claim_token_hash == ""

    def test_expired_links_are_swept(self, cup):
        from datetime import timedelta

        from django.utils import timezone

        from tournaments.tasks import expire_claim_links

        tournament, users = cup
        entrant = EntrantFactory(tournament=tournament, name="Bea")
        link = self.issue(cup, entrant)
        Entrant.objects.filter(pk=entrant.pk).update(
            claim_expires_at=timezone.now() - timedelta(minutes=1)
        )
        response = client_for(UserFactory()).post(link)
        assert response.status_code == 410 and "expired" in response.content.decode()
        assert expire_claim_links.delay().get() == 1
        entrant.refresh_from_db()
        assert entrant.claim_token_hash == ""


class TestRoles:
    def test_organiser_grants_and_revokes_co_organiser(self, cup):
        tournament, users = cup
        UserFactory(username="cora")
        client = client_for(users["organiser"])
        url = reverse("organiser:people", args=["cup"])
        assert client.post(url, {"username": "Cora", "role": "co_organiser"}).status_code == 302
        grant = TournamentRole.objects.get(user__username="cora")
        assert grant.role == Role.CO_ORGANISER
        assert grant.granted_by == users["organiser"]
        client.post(reverse("organiser:revoke", args=["cup", grant.pk]))
        assert not TournamentRole.objects.filter(pk=grant.pk).exists()

    def test_co_organiser_grants_referees_but_not_co_organisers(self, cup):
        tournament, users = cup
        UserFactory(username="rex")
        client = client_for(users["co_organiser"])
        url = reverse("organiser:people", args=["cup"])
        response = client.post(url, {"username": "rex", "role": "co_organiser"})
        assert response.status_code == 422
        assert not TournamentRole.objects.filter(user__username="rex").exists()
        assert client.post(url, {"username": "rex", "role": "referee"}).status_code == 302
        assert TournamentRole.objects.filter(user__username="rex", role="referee").exists()

    def test_co_organiser_cannot_revoke_another_co_organiser(self, cup):
        tournament, users = cup
        other = RoleFactory(tournament=tournament, role=Role.CO_ORGANISER)
        client_for(users["co_organiser"]).post(reverse("organiser:revoke", args=["cup", other.pk]))
        assert TournamentRole.objects.filter(pk=other.pk).exists()

    def test_unknown_username_is_explained(self, cup):
        tournament, users = cup
        response = client_for(users["organiser"]).post(
            reverse("organiser:people", args=["cup"]), {"username": "nobody", "role": "referee"}
        )
        assert response.status_code == 422
        assert "There is no account called" in response.content.decode()

    @pytest.mark.parametrize("who", ["referee", "player"])
    def test_referee_and_player_cannot_grant(self, cup, who):
        tournament, users = cup
        UserFactory(username="rex")
        response = client_for(users[who]).post(
            reverse("organiser:people", args=["cup"]), {"username": "rex", "role": "referee"}
        )
        assert response.status_code == 403
        assert not TournamentRole.objects.filter(user__username="rex").exists()


POSTS = [
    ("tournaments:publish", ["cup"], {"published": "1"}),
    ("tournaments:create", [], {"name": "Other"}),
]  # the organiser pages' posts: tests/tournaments/test_organiser_views.py


@pytest.mark.parametrize(("name", "args", "data"), POSTS)
def test_every_post_needs_the_csrf_token(cup, name, args, data):
    tournament, users = cup
    client = Client(enforce_csrf_checks=True)
    client.force_login(users["organiser"])
    response = client.post(reverse(name, args=args), data)
    assert response.status_code == 403
    assert "form has expired" in response.content.decode()


def test_dashboard_lists_my_tournaments_with_roles(cup):
    tournament, users = cup
    html = client_for(users["referee"]).get(reverse("dashboard")).content.decode()
    assert tournament.name in html
    assert "Referee" in html
    html = client_for(users["stranger"]).get(reverse("dashboard")).content.decode()
    assert tournament.name not in html


def test_htmx_registration_returns_the_panel_and_422_with_the_reason(cup):
    tournament, users = cup
    client = client_for(users["organiser"])
    url = reverse("organiser:players", args=["cup"])
    response = client.post(url, {"name": "Ada"}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="players-panel">')
    assert "Ada is registered." in html
    assert "HX-Request" in response["Vary"]
    response = client.post(url, {"name": "ADA"}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert "already registered" in response.content.decode()
    assert 'value="ADA"' in response.content.decode()


@pytest.mark.parametrize(
    ("who", "link"),
    [
        ("organiser", "Manage the tournament"),
        ("co_organiser", "Manage the tournament"),
        ("referee", "Rounds"),
        ("player", None),
    ],
)
def test_the_overview_leads_each_role_to_its_organiser_pages(cup, who, link):
    tournament, users = cup
    html = client_for(users[who]).get(reverse("tournaments:detail", args=["cup"])).content.decode()
    for text in ("Manage the tournament", ">Rounds<"):
        assert (text.strip("><") == link) is (text in html)
