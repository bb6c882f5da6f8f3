"""Sign up, sign in, sign out, password change and reset, throttling."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_sign_up_creates_account_and_signs_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "newbie",
            "email": "",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert response.url == reverse("dashboard")
    assert User.objects.filter(username="newbie").exists()
    assert "Welcome, newbie" in client.get(reverse("dashboard")).content.decode()


def test_sign_up_refuses_mismatched_passwords_and_keeps_the_username(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "newbie",
            "password1": PASSWORD,
            "password2": PASSWORD + "x",
        },
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert "didn’t match" in html or "didn't match" in html
    assert 'value="newbie"' in html
    assert not User.objects.filter(username="newbie").exists()


def test_sign_in_and_out(client):
    UserFactory(username="ana")
    response = client.post(reverse("login"), {"username": "ana", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("dashboard")).status_code == 200
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("dashboard")).status_code == 302


def test_wrong_password_is_refused_with_a_message(client):
    UserFactory(username="ana")
    response = client.post(reverse("login"), {"username": "ana", "password": "nope"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()


def test_sign_out_needs_post(client):
    client.force_login(UserFactory(username="ana"))
    assert client.get(reverse("logout")).status_code == 405


def test_password_change(client):
    user = UserFactory(username="ana")
    client.force_login(user)
    new = "another-long-password-77"
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": new,
            "new_password2": new,
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)


def test_password_reset_mails_a_link_that_works_once(client):
    user = UserFactory(username="ana", email="ana@example.com")
    response = client.post(reverse("password_reset"), {"email": "ana@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form_url = client.get(link).url  # Django swaps the token for a session marker
    new = "reset-long-password-99"
    response = client.post(form_url, {"new_password1": new, "new_password2": new})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)
    assert "not valid any more" in client.get(link, follow=True).content.decode()


def test_password_reset_does_not_reveal_unknown_addresses(client):
    response = client.post(reverse("password_reset"), {"email": "ghost@example.com"})
    assert response.status_code == 302
    assert mail.outbox == []


class TestThrottling:
    """Keyed on username and IP together (AXES_LOCKOUT_PARAMETERS)."""

    def fail(self, client, username, ip, times=5):
        for _ in range(times):
            client.post(
                reverse("login"), {"username": username, "password": "wrong"}, REMOTE_ADDR=ip
            )

    def test_locks_the_username_from_that_address(self, client):
        UserFactory(username="ana")
        self.fail(client, "ana", "10.0.0.1")
        response = client.post(
            reverse("login"), {"username": "ana", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
        )
        assert response.status_code == 429
        assert "Too many failed sign-ins" in response.content.decode()

    def test_others_at_the_same_venue_can_still_sign_in(self, client):
        UserFactory(username="ana")
        UserFactory(username="bo")
        self.fail(client, "ana", "10.0.0.1")
        response = client.post(
            reverse("login"), {"username": "bo", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
        )
        assert response.status_code == 302

    def test_the_same_username_from_elsewhere_can_still_sign_in(self, client):
        UserFactory(username="ana")
        self.fail(client, "ana", "10.0.0.1")
        response = client.post(
            reverse("login"), {"username": "ana", "password": PASSWORD}, REMOTE_ADDR="10.0.0.2"
        )
        assert response.status_code == 302

    def test_four_failures_do_not_lock(self, client):
        UserFactory(username="ana")
        self.fail(client, "ana", "10.0.0.1", times=4)
        response = client.post(
            reverse("login"), {"username": "ana", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
        )
        assert response.status_code == 302


@pytest.mark.parametrize("look_alike", ["ADA", "Ａｄａ", "ada"])
def test_sign_up_refuses_a_username_that_looks_like_another(client, look_alike):
    UserFactory(username="Ada")
    response = client.post(
        reverse("signup"),
        {"username": look_alike, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 422
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == 1


def test_sign_up_refuses_invisible_characters_in_a_username(client):
    response = client.post(
        reverse("signup"),
        {"username": "Ada\u200b", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 422
    assert "Enter a valid username" in response.content.decode()
    assert not User.objects.exists()
