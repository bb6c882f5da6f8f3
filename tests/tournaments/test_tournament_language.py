"""The tournament's language (issue 29): `Tournament.language`, set on the organiser's settings
page. Blank is each viewer's own language; a code of settings.LANGUAGES is the language of the
big screen and the default of the tournament's e-mails."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from core.errors import ServiceError
from tests.factories import EntrantFactory, RoleFactory, TournamentFactory, UserFactory
from tournaments import services
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db

FORM = {"name": "Cup", "duel_preset": "tournament", "tiebreak_mode": "full", "shared_cards": "on"}


@pytest.fixture
def cup():
    organiser = UserFactory(username="olga")
    tournament = TournamentFactory(created_by=organiser, published=True, slug="cup", name="Cup")
    tournament.groups.create(name="Reds", order=1)
    tournament.groups.create(name="Blues", order=2)
    users = {
        "organiser": organiser,
        "co_organiser": RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user,
        "referee": RoleFactory(tournament=tournament, role=Role.REFEREE).user,
        "player": EntrantFactory(tournament=tournament, name="Pia", user=UserFactory()).user,
        "anonymous": None,
    }
    return tournament, users


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def setup_url() -> str:
    return reverse("organiser:setup", args=["cup"])


def test_a_new_tournament_follows_each_viewers_language(cup):
    tournament, _users = cup
    assert Tournament._meta.get_field("language").max_length == 10
    assert tournament.language == ""
    codes = [code for code, _name in Tournament._meta.get_field("language").choices]
    assert codes == ["", *(code for code, _name in settings.LANGUAGES)]


def test_the_settings_page_offers_every_language_and_says_what_it_does(cup):
    _tournament, users = cup
    html = client_for(users["organiser"]).get(setup_url()).content.decode()
    assert 'name="language"' in html
    for code, _name in settings.LANGUAGES:
        assert f'value="{code}"' in html
    assert "Each viewer&#x27;s own language" in html
    assert "big screen" in html and "e-mails" in html


@pytest.mark.parametrize("who", ["organiser", "co_organiser"])
def test_an_organiser_sets_the_language_and_it_is_audited(cup, who):
    tournament, users = cup
    client = client_for(users[who])
    response = client.post(setup_url(), {**FORM, "language": "es"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.language == "es"
    entry = AuditEntry.objects.get(tournament=tournament, action="settings_changed")
    assert entry.detail["changes"]["language"] == ["", "es"]
    # Back to each viewer's own language.
    assert client.post(setup_url(), {**FORM, "language": ""}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.language == ""


def test_the_language_stays_settable_after_the_group_phase_starts(cup):
    tournament, users = cup
    Tournament.objects.filter(pk=tournament.pk).update(phase="group_phase")
    response = client_for(users["organiser"]).post(setup_url(), {**FORM, "language": "ms"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.language == "ms"


@pytest.mark.parametrize(("who", "status"), [("referee", 403), ("player", 403), ("anonymous", 302)])
def test_others_cannot_set_the_language(cup, who, status):
    tournament, users = cup
    response = client_for(users[who]).post(setup_url(), {**FORM, "language": "fr"})
    assert response.status_code == status
    tournament.refresh_from_db()
    assert tournament.language == ""
    assert not AuditEntry.objects.filter(action="settings_changed").exists()


@pytest.mark.parametrize("bad", ["de", "en", "xx-yy", "es; DROP", "e" * 40])
def test_a_language_not_offered_is_refused_and_nothing_is_stored(cup, bad):
    tournament, users = cup
    response = client_for(users["organiser"]).post(
        setup_url(), {**FORM, "name": "Renamed", "language": bad}
    )
    assert response.status_code == 422
    assert 'name="language"' in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.language == "" and tournament.name == "Cup"
    assert not AuditEntry.objects.filter(action="settings_changed").exists()


def test_the_service_refuses_a_language_not_offered(cup):
    tournament, users = cup
    with pytest.raises(ServiceError):
        services.configure(tournament, users["organiser"], language="de")
    tournament.refresh_from_db()
    assert tournament.language == ""
