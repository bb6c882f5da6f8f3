"""The site's header: rendered once per process for signed-out visitors (issue 15), never
shared with someone signed in, and the current page's link still marked."""

import pytest
from django.test import Client

from accounts.templatetags import site_header
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

CURRENT = 'aria-current="page">Tournaments</a>'


@pytest.fixture
def production(settings):
    settings.DEBUG = False  # the header is kept only then
    site_header._rendered.clear()
    yield
    site_header._rendered.clear()


def test_signed_out_visitors_share_a_header_that_never_reaches_the_signed_in(production):
    home = Client().get("/").content.decode()
    assert CURRENT in home and "Sign in" in home and "Sign up" in home
    login = Client().get("/accounts/login/").content.decode()
    assert "Sign in" in login and CURRENT not in login  # another page, no link marked
    assert len(site_header._rendered) == 2  # one per marking, kept for every visitor
    user = UserFactory()
    signed_in = Client()
    signed_in.force_login(user)
    mine = signed_in.get("/").content.decode()
    assert user.username in mine and "Sign out" in mine and "My dashboard" in mine
    assert "Sign up" not in mine and CURRENT in mine
    again = Client().get("/").content.decode()
    assert user.username not in again and "Sign out" not in again and "Sign in" in again
