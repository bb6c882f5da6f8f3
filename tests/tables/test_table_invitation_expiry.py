"""Co-referee invitations expire ("Trust on the night"): a link made for a table works once,
for `settings.TABLE_INVITATION_DAYS`; the invitation page says until when; an expired link is
refused in words (410) and changes nothing; an expired invitation no longer counts against
the table's ten; a co-referee who accepted in time stays one."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from core.errors import ServiceError
from tables import services
from tables.models import CoReferee
from tests import migrating
from tests.factories import UserFactory
from tests.tables.helpers import three_seats

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def expire(invite: CoReferee) -> None:
    CoReferee.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(minutes=1))


def shown(moment) -> str:
    return date_format(timezone.localtime(moment), "DATETIME_FORMAT")


@pytest.fixture
def invited():
    owner = UserFactory(username="own")
    table = three_seats(owner)
    token = services.invite_co_referee(table_id=table.pk, actor=owner)
    return owner, table, token, table.co_referees.get()


def test_an_invitation_lasts_the_days_the_settings_say(settings):
    settings.TABLE_INVITATION_DAYS = 3
    owner = UserFactory()
    table = three_seats(owner)
    before = timezone.now()
    services.invite_co_referee(table_id=table.pk, actor=owner)
    expires = table.co_referees.get().expires_at
    assert before + timedelta(days=3) <= expires <= timezone.now() + timedelta(days=3)


def test_the_invitation_page_says_until_when(invited):
    owner, table, token, invite = invited
    page = client_for(UserFactory()).get(reverse("tables:invitation", args=[token]))
    assert page.status_code == 200
    assert f"The invitation works once, until {shown(invite.expires_at)}." in page.text


def test_an_expired_invitation_is_refused_in_words_and_changes_nothing(invited):
    owner, table, token, invite = invited
    expire(invite)
    invite.refresh_from_db()
    newcomer = UserFactory()
    client = client_for(newcomer)
    words = f"This invitation expired on {shown(invite.expires_at)}: ask the table&#x27;s owner"
    address = reverse("tables:invitation", args=[token])
    for response in (client.get(address), client.post(address)):
        assert response.status_code == 410
        assert words in response.text
        assert "Referee this table</button>" not in response.text
    assert CoReferee.objects.get(pk=invite.pk).accepted_at is None
    assert not services.may_referee(newcomer, table)
    with pytest.raises(ServiceError) as refused:
        services.accept_invitation(token=token, user=newcomer)
    assert refused.value.code == "expired"


def test_a_co_referee_who_accepted_in_time_stays_one(invited):
    owner, table, token, invite = invited
    co = UserFactory()
    services.accept_invitation(token=token, user=co)
    expire(invite)
    assert services.may_referee(co, table)
    assert client_for(co).get(reverse("tables:console", args=[table.pk])).status_code == 200


def test_expired_invitations_no_longer_count_and_the_sharing_page_says_so(invited):
    owner, table, token, invite = invited
    for _ in range(services.MAX_CO_REFEREES - 1):
        services.invite_co_referee(table_id=table.pk, actor=owner)
    with pytest.raises(ServiceError, match="at most 10"):
        services.invite_co_referee(table_id=table.pk, actor=owner)
    expire(invite)
    services.invite_co_referee(table_id=table.pk, actor=owner)
    page = client_for(owner).get(reverse("tables:sharing", args=[table.pk])).text
    assert page.count(", expired on ") == 1
    assert page.count(", not used yet, valid until ") == services.MAX_CO_REFEREES


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_earlier_invitations_their_expiry(settings):
    """An invitation made before expiry existed expires TABLE_INVITATION_DAYS after it was
    made, as a new one does."""
    old = migrating.before("tables", "_co_referee_expiry")
    owner = UserFactory()
    table = old.get_model("tables", "CasualTable").objects.create(
        owner_id=owner.pk, ruleset="official", seats=["Ann", "Bo"]
    )
    made = old.get_model("tables", "CoReferee").objects.create(table=table, token_hash="x" * 64)
    migrating.forward()
    invite = CoReferee.objects.get(pk=made.pk)
    assert invite.expires_at == invite.created_at + timedelta(days=settings.TABLE_INVITATION_DAYS)
