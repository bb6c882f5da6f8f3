"""The session store (core.sessions): Django's database sessions with the row read by SQL written
once. A signed-in visitor stays signed in; an expired or unknown session signs nobody in."""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from core.sessions import SessionStore
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def signed_in_as(client: Client) -> str | None:
    page = client.get("/dashboard/")
    return None if page.status_code == 302 else page.wsgi_request.user.username


def test_a_signed_in_visitor_stays_signed_in_until_the_session_expires(settings):
    assert settings.SESSION_ENGINE == "core.sessions"
    user = UserFactory(username="ada")
    client = Client()
    client.force_login(user)
    assert signed_in_as(client) == "ada"
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    assert signed_in_as(client) is None


def test_an_unknown_key_loads_nothing_and_is_dropped():
    store = SessionStore("x" * 32)
    assert store.load() == {}
    assert store.session_key is None


def test_a_stored_session_reads_back_as_saved():
    store = SessionStore()
    store["colour"] = "red"
    store.save()
    again = SessionStore(store.session_key)
    assert again["colour"] == "red"
