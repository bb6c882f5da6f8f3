"""The sign-up and password-reset limits count in Redis, shared by every web process, and the
window ends by Redis's own expiry (accounts.ratelimit)."""

import uuid

import pytest
import redis
from django.conf import settings as conf
from django.core.cache import cache
from django.urls import reverse

from accounts.ratelimit import _identity, _keys
from tests.conftest import services_missing
from tests.factories import PASSWORD

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _redis(settings):
    why = services_missing()
    if why:
        pytest.skip(why)
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "signup": (2, 120)}


def test_sign_up_counters_live_in_redis_and_expire_with_the_window(client):
    # A fresh address per run: Redis is shared and never flushed by the tests.
    ip = f"2001:db8::{uuid.uuid4().hex[:4]}"
    data = {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD + "x"}
    statuses = [client.post(reverse("signup"), data, REMOTE_ADDR=ip).status_code for _ in range(3)]
    assert statuses == [422, 422, 429]
    count_key, until_key = _keys("signup", _request(ip), _identity("newbie"))
    assert cache.get(count_key) == 3
    # Redis ends the window itself, and any other process (a new connection) sees the count.
    other = redis.Redis.from_url(conf.REDIS_URL)  # this test worker's database
    assert 0 < other.ttl(cache.make_key(until_key)) <= 120
    assert 0 < other.ttl(cache.make_key(count_key)) <= 120
    assert int(other.get(cache.make_key(count_key))) == 3
    cache.delete_many([count_key, until_key])


def _request(ip):
    from django.test import RequestFactory

    return RequestFactory().post("/", REMOTE_ADDR=ip)


def test_sign_ups_at_the_same_instant_on_redis_create_no_more_accounts_than_the_limit(settings):
    from tests.accounts.test_rate_limits import signups_at_once

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "signup_address": (4, 120)}
    ip = f"2001:db8::{uuid.uuid4().hex[:4]}"  # a fresh address: Redis is shared
    assert signups_at_once(8, ip, typos=1) == [302] * 3 + [422] + [429] * 4
    count_key, until_key = _keys("signup_address", _request(ip), _identity(""))
    assert cache.get(count_key) == 3  # the accounts made: the typo and the refused gave back
    cache.delete_many([count_key, until_key])
