"""Guesses on one account from many addresses are slowed by a growing delay, never a lockout
of its owner (accounts.signin.paced); axes's lockout says when it ends (Retry-After)."""

import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import signin
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def post(client, username, password, ip):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_guesses_from_many_addresses_slow_down_and_say_how_long(client):
    UserFactory(username="ana")
    statuses = []
    for n in range(6):  # six addresses, four guesses each: under axes's limit at each
        statuses += [post(client, "ana", f"guess{k}", f"10.0.0.{n}").status_code for k in range(4)]
    # The first guesses were checked (the form again, 200); then each had to wait.
    checked = statuses.count(200)
    assert checked == signin.PACE_FREE
    assert statuses.count(429) == 24 - checked
    response = post(client, "ana", "guess", "10.0.0.9")
    assert response.status_code == 429
    wait = int(response["Retry-After"])
    assert 0 < wait <= signin.PACE_CAP_SECONDS
    assert "Nothing is locked" in response.content.decode()
    assert 'value="ana"' in response.content.decode()


def test_the_wait_grows_and_is_capped():
    UserFactory(username="ana")
    waits = []
    for failures in range(signin.PACE_FREE, signin.PACE_FREE + 12):
        AccessAttempt.objects.all().delete()
        AccessAttempt.objects.create(
            username="ana", ip_address="10.0.0.1", failures_since_start=failures
        )
        waits.append(signin.pace_seconds("ana"))
    assert waits == sorted(waits) and waits[0] == signin.PACE_BASE_SECONDS
    assert waits[-1] == signin.PACE_CAP_SECONDS


def test_the_owner_is_never_locked_out(client):
    UserFactory(username="ana")
    AccessAttempt.objects.create(username="ana", ip_address="10.0.0.1", failures_since_start=40)
    assert post(client, "ana", PASSWORD, "192.0.2.1").status_code == 429
    # At worst the owner waits the cap once: then the right password signs in.
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time
        - timedelta(seconds=signin.PACE_CAP_SECONDS)
    )
    assert post(client, "ana", PASSWORD, "192.0.2.1").status_code == 302


def test_a_browser_the_owner_signed_in_from_is_not_slowed(client):
    UserFactory(username="ana")
    assert post(client, "ana", PASSWORD, "192.0.2.1").status_code == 302
    assert client.cookies[signin.KNOWN_COOKIE].value
    client.post(reverse("logout"))
    AccessAttempt.objects.create(username="ana", ip_address="10.0.0.1", failures_since_start=40)
    # Another browser waits; the owner's own does not, even from another address.
    assert post(Client(), "ana", PASSWORD, "192.0.2.1").status_code == 429
    assert post(client, "ana", PASSWORD, "198.51.100.7").status_code == 302


def test_axes_lockout_says_when_it_ends(client):
    UserFactory(username="ana")
    for _ in range(5):
        post(client, "ana", "wrong", "10.0.0.1")
    response = post(client, "ana", PASSWORD, "10.0.0.1")
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    wait = int(response["Retry-After"])
    assert 800 < wait <= 900  # the 15-minute cool-off from the last failure
    assert "Wait 15 minutes" in response.content.decode()


def guessed(failures=40, ip="10.0.0.1"):
    """`ana`'s account after many guesses from elsewhere, the last one just now."""
    return AccessAttempt.objects.create(
        username="ana", ip_address=ip, user_agent="guesser", failures_since_start=failures
    )


def test_a_successful_sign_in_starts_the_pacing_again(client):
    # One guess every few minutes used to keep the owner waiting on every new browser.
    UserFactory(username="ana")
    assert post(client, "ana", PASSWORD, "192.0.2.1").status_code == 302
    client.post(reverse("logout"))
    attempt = guessed()
    assert post(Client(), "ana", PASSWORD, "192.0.2.1").status_code == 429
    assert post(client, "ana", PASSWORD, "198.51.100.7").status_code == 302  # a known browser
    assert signin.pace_seconds("ana") == 0
    assert post(Client(), "ana", PASSWORD, "192.0.2.1").status_code == 302  # a new one
    # Axes's own count is left whole: the guesser's address stays locked out.
    attempt.refresh_from_db()
    assert attempt.failures_since_start == 40
    # Guesses after the reset count again, on the rows axes had and on new ones.
    AccessAttempt.objects.filter(pk=attempt.pk).update(failures_since_start=40 + signin.PACE_FREE)
    guessed(failures=3, ip="10.0.0.2")
    assert signin.pace_seconds("ana") > 0


def test_a_password_reset_starts_the_pacing_again(client):
    UserFactory(username="ana", email="ana@example.com")
    guessed()
    assert signin.pace_seconds("ana") > 0
    assert client.post(reverse("password_reset"), {"email": "ana@example.com"}).status_code == 302
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form_url = client.get(link).url
    new = "reset-long-password-99"
    response = client.post(form_url, {"new_password1": new, "new_password2": new})
    assert response.status_code == 302
    assert signin.pace_seconds("ana") == 0
    assert post(Client(), "ana", new, "192.0.2.1").status_code == 302


def test_starting_points_are_forgotten_with_the_failures_they_refer_to():
    from accounts.models import SignInPaceReset
    from accounts.tasks import forget_old_sign_in_failures

    attempt = guessed()
    signin.reset_pacing("ana")
    long_ago = timezone.now() - timedelta(days=3)
    SignInPaceReset.objects.update(reset_at=long_ago)
    forget_old_sign_in_failures()
    assert SignInPaceReset.objects.count() == 1  # its failures are still counted by axes
    AccessAttempt.objects.filter(pk=attempt.pk).update(attempt_time=long_ago)
    forget_old_sign_in_failures()
    assert not AccessAttempt.objects.exists() and not SignInPaceReset.objects.exists()
    signin.reset_pacing("ana")  # nothing counted: no row kept
    assert not SignInPaceReset.objects.exists()
