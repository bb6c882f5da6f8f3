"""The permission helper over the role matrix of TOURNAMENT.md, "Who does what"."""

import pytest
from django.contrib.auth.models import AnonymousUser

from accounts.models import Role
from accounts.permissions import Action, can, roles_of
from tests.factories import EntrantFactory, RoleFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db

A = Action
# Written out from TOURNAMENT.md by hand, not derived from the code's grant table.
# Issue 16 ("On the day"): staff, referees included, check players in.
REFEREE_MAY = {A.NAME_REPRESENTATIVES, A.REFEREE_DUELS, A.RECORD_SHARED_CARD, A.CHECK_IN_PLAYERS}
CO_ORGANISER_MAY = REFEREE_MAY | {
    A.MANAGE_SETTINGS,
    A.MANAGE_REGISTRATION,
    A.MANAGE_GROUPS,
    A.WITHDRAW_PLAYERS,
    A.MANAGE_REFEREES,
    A.PUBLISH,
    A.START_PHASES,
    A.CORRECT_RESULTS,
    A.VIEW_AUDIT_LOG,
}
EXPECTED = {
    "organiser": CO_ORGANISER_MAY | {A.MANAGE_CO_ORGANISERS, A.CANCEL},
    "co_organiser": CO_ORGANISER_MAY,
    "referee": REFEREE_MAY,
    "player": {A.VIEW_OWN_ENTRY},
    "stranger": set(),
    "anonymous": set(),
}


@pytest.fixture
def people():
    organiser = UserFactory(username="olga")
    tournament = TournamentFactory(created_by=organiser, published=False)
    co = RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user
    referee = RoleFactory(tournament=tournament, role=Role.REFEREE).user
    player = UserFactory()
    EntrantFactory(tournament=tournament, user=player)
    return tournament, {
        "organiser": organiser,
        "co_organiser": co,
        "referee": referee,
        "player": player,
        "stranger": UserFactory(),
        "anonymous": AnonymousUser(),
    }


@pytest.mark.parametrize("who", list(EXPECTED))
def test_each_role_gets_exactly_what_tournament_md_allows(people, who):
    tournament, users = people
    allowed = {a for a in Action if a != A.VIEW_PUBLIC and can(users[who], a, tournament)}
    assert allowed == EXPECTED[who]


@pytest.mark.parametrize("who", list(EXPECTED))
def test_unpublished_tournament_is_visible_only_to_its_people(people, who):
    tournament, users = people
    assert can(users[who], A.VIEW_PUBLIC, tournament) == (who not in {"stranger", "anonymous"})


@pytest.mark.parametrize("who", list(EXPECTED))
def test_published_tournament_is_visible_to_anyone(people, who):
    tournament, users = people
    tournament.published = True
    tournament.save()
    assert can(users[who], A.VIEW_PUBLIC, tournament)


CONFLICTED = [
    (who, action)
    for who in ("organiser", "co_organiser", "referee")
    for action in (A.REFEREE_DUELS, A.CORRECT_RESULTS, A.RECORD_SHARED_CARD)
    if action in EXPECTED[who]
]


@pytest.mark.parametrize(("who", "action"), CONFLICTED)
def test_nobody_referees_or_corrects_a_duel_they_play_in(people, who, action):
    tournament, users = people
    user = users[who]
    assert can(user, action, tournament, players=[UserFactory().pk])
    assert not can(user, action, tournament, players=[user.pk, UserFactory().pk])


def test_roles_of_combines_role_and_entry(people):
    tournament, users = people
    RoleFactory(tournament=tournament, user=users["player"], role=Role.REFEREE)
    fresh = type(users["player"]).objects.get(pk=users["player"].pk)
    assert {str(r) for r in roles_of(fresh, tournament)} == {"player", "referee"}


def test_a_role_in_one_tournament_gives_nothing_in_another(people):
    tournament, users = people
    other = TournamentFactory(published=False)
    for who in ("co_organiser", "referee", "player"):
        assert not can(users[who], A.VIEW_PUBLIC, other)
        assert not any(can(users[who], a, other) for a in EXPECTED[who])
