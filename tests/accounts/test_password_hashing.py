"""Argon2id at OWASP's minimum is the production hasher, and older hashes are rewritten with
it at sign-in (issue 15). The other tests hash with MD5 (conftest): these put the production
list back, and each costs one or two real hashes (tens of milliseconds)."""

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher, check_password, identify_hasher
from django.urls import reverse

from accounts.hashers import OwaspArgon2PasswordHasher
from accounts.models import User
from config import settings as project_settings
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

OWASP_PARAMETERS = "m=19456,t=2,p=1"


@pytest.fixture
def production_hashers(settings):
    # The list config/settings.py declares, not the fast one the test suite swaps in.
    settings.PASSWORD_HASHERS = project_settings.PASSWORD_HASHERS
    return settings


def test_argon2_at_owasp_minimum_comes_first():
    assert project_settings.PASSWORD_HASHERS[0] == "accounts.hashers.OwaspArgon2PasswordHasher"
    hasher = OwaspArgon2PasswordHasher()
    # OWASP's floor for Argon2id: 19 MiB, 2 passes, 1 lane; never less.
    assert hasher.memory_cost >= 19 * 1024
    assert hasher.time_cost >= 2
    assert hasher.parallelism == 1


def test_a_new_password_is_stored_as_argon2id(production_hashers, client):
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    stored = User.objects.get(username="newbie").password
    assert stored.startswith(f"argon2$argon2id$v=19${OWASP_PARAMETERS}$")


def test_a_pbkdf2_hash_is_upgraded_at_sign_in(production_hashers, client):
    user = UserFactory(username="ana")
    # An account from before the change: a PBKDF2 hash (few iterations, to keep the test fast).
    user.password = PBKDF2PasswordHasher().encode(PASSWORD, "somesalt1234", iterations=1000)
    user.save(update_fields=["password"])

    response = client.post(reverse("login"), {"username": "ana", "password": PASSWORD})

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.password.startswith(f"argon2$argon2id$v=19${OWASP_PARAMETERS}$")
    assert check_password(PASSWORD, user.password)
    # And the next sign-in with the same password still works.
    client.post(reverse("logout"))
    again = client.post(reverse("login"), {"username": "ana", "password": PASSWORD})
    assert again.status_code == 302


def test_an_argon2_hash_with_other_parameters_is_rewritten(production_hashers, client):
    user = UserFactory(username="ana")
    heavier = OwaspArgon2PasswordHasher()
    heavier.memory_cost = 32 * 1024
    user.password = heavier.encode(PASSWORD, heavier.salt())
    user.save(update_fields=["password"])
    assert identify_hasher(user.password).algorithm == "argon2"

    client.post(reverse("login"), {"username": "ana", "password": PASSWORD})

    user.refresh_from_db()
    assert f"${OWASP_PARAMETERS}$" in user.password


def test_a_wrong_password_leaves_the_old_hash(production_hashers, client):
    user = UserFactory(username="ana")
    old = PBKDF2PasswordHasher().encode(PASSWORD, "somesalt1234", iterations=1000)
    user.password = old
    user.save(update_fields=["password"])

    response = client.post(reverse("login"), {"username": "ana", "password": "not it"})

    assert response.status_code == 200
    user.refresh_from_db()
    assert user.password == old
