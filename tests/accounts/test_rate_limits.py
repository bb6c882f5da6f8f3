"""Rate limits on sign-up and password reset: per address and account together, 429 with words
and Retry-After, nothing stored, usable again later, claim links exempt (accounts.ratelimit)."""

import time

import pytest
from axes.helpers import get_client_ip_address
from django.core import mail
from django.core.cache import caches
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from core.http import client_ip
from tests.factories import PASSWORD, EntrantFactory, TournamentFactory, UserFactory
from tournaments import services

pytestmark = pytest.mark.django_db

VENUE = "203.0.113.7"
ELSEWHERE = "198.51.100.20"


@pytest.fixture(autouse=True)
def _limits(settings):
    settings.RATE_LIMITS = {
        "signup": (3, 600),
        "password_reset": (2, 3600),
        "signup_address": (4, 3600),
        "password_reset_address": (6, 3600),
    }
    # Each test starts with fresh counters and a clock it may move: a cache of its own (the
    # same counters on Redis: tests/integration/test_rate_limits_redis.py).
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    caches["default"].clear()


def sign_up(client, username, *, ip=VENUE, good=False, next_url=None):
    data = {
        "username": username,
        "email": "",
        "password1": PASSWORD,
        "password2": PASSWORD if good else PASSWORD + "x",
    }
    if next_url:
        data["next"] = next_url
    return client.post(reverse("signup"), data, REMOTE_ADDR=ip)


def reset(client, email, *, ip=VENUE):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=ip)


def test_sign_up_over_the_limit_is_429_with_words_and_stores_nothing(client):
    for _ in range(3):
        assert sign_up(client, "newbie").status_code == 422
    response = sign_up(client, "newbie", good=True)
    assert response.status_code == 429
    html = response.content.decode()
    assert "Too many sign-up attempts from your network for this account" in html
    assert "Nothing was saved" in html
    assert 0 < int(response["Retry-After"]) <= 600
    assert "Try again in 10 minutes" in html
    # The form is still there, with what was typed (not the passwords).
    assert '<form method="post"' in html and 'value="newbie"' in html
    assert PASSWORD not in html
    assert not User.objects.filter(username="newbie").exists()


def test_capitals_and_width_do_not_make_a_new_counter(client):
    for username in ("newbie", "NEWBIE", "Ｎｅｗｂｉｅ"):
        assert sign_up(client, username).status_code == 422
    assert sign_up(client, "NewBie", good=True).status_code == 429


def test_one_person_does_not_lock_out_the_venue_or_other_addresses(client):
    for _ in range(4):
        sign_up(client, "pest")
    assert sign_up(client, "pest").status_code == 429
    # Another player at the same venue, behind the same address.
    assert sign_up(client, "neighbour", good=True).status_code == 302
    client.logout()
    # The same name from another address.
    assert sign_up(client, "pest", ip=ELSEWHERE, good=True).status_code == 302
    assert User.objects.filter(username__in=["neighbour", "pest"]).count() == 2


def test_the_sign_up_form_works_again_after_the_window(client, monkeypatch):
    for _ in range(4):
        sign_up(client, "newbie")
    assert sign_up(client, "newbie", good=True).status_code == 429
    later = time.time() + 601
    monkeypatch.setattr(time, "time", lambda: later)
    assert sign_up(client, "newbie", good=True).status_code == 302
    assert User.objects.filter(username="newbie").exists()


def test_a_get_is_never_limited(client):
    for _ in range(5):
        sign_up(client, "newbie")
    assert client.get(reverse("signup"), REMOTE_ADDR=VENUE).status_code == 200


def _claim_link():
    tournament = TournamentFactory(slug="cup")
    entrant = EntrantFactory(tournament=tournament, name="Ada")
    token = services.issue_claim_link(entrant, tournament.created_by)
    return tournament, entrant, reverse("tournaments:claim", args=["cup", token])


def test_a_sign_up_through_a_live_claim_link_is_not_counted(client):
    _tournament, _entrant, link = _claim_link()
    for _ in range(5):
        assert sign_up(client, "ada", next_url=link).status_code == 422
    assert sign_up(client, "ada", next_url=link, good=True).status_code == 302
    assert User.objects.filter(username="ada").exists()


def test_a_dead_or_unrelated_next_does_not_exempt(client):
    _tournament, entrant, link = _claim_link()
    guessed = reverse("tournaments:claim", args=["cup", "guessed-token"])
    for n, next_url in enumerate((guessed, "/t/cup/", "javascript:alert(1)", "/nowhere/")):
        for _ in range(3):
            assert sign_up(client, f"user{n}", next_url=next_url).status_code == 422
        assert sign_up(client, f"user{n}", next_url=next_url).status_code == 429
    # A link that has expired no longer exempts.
    type(entrant).objects.filter(pk=entrant.pk).update(claim_expires_at=timezone.now())
    for _ in range(3):
        sign_up(client, "late", next_url=link)
    assert sign_up(client, "late", next_url=link).status_code == 429


def test_password_reset_over_the_limit_is_429_and_sends_nothing(client):
    UserFactory(username="ana", email="ana@example.com")
    assert reset(client, "ana@example.com").status_code == 302
    assert reset(client, "ANA@example.com").status_code == 302
    assert len(mail.outbox) == 2
    response = reset(client, "ana@example.com")
    assert response.status_code == 429
    html = response.content.decode()
    assert "Too many password reset requests from your network" in html
    assert "nothing was sent" in html
    assert 'value="ana@example.com"' in html
    assert int(response["Retry-After"]) > 0
    assert len(mail.outbox) == 2


def test_password_reset_limits_one_address_and_e_mail_together(client, monkeypatch):
    UserFactory(username="ana", email="ana@example.com")
    UserFactory(username="bo", email="bo@example.com")
    for _ in range(3):
        reset(client, "ana@example.com")
    assert reset(client, "ana@example.com").status_code == 429
    # Another account from the same address, and the same account from elsewhere, go through.
    assert reset(client, "bo@example.com").status_code == 302
    assert reset(client, "ana@example.com", ip=ELSEWHERE).status_code == 302
    # And an hour later the blocked pair may ask again.
    later = time.time() + 3601
    monkeypatch.setattr(time, "time", lambda: later)
    outbox = len(mail.outbox)
    assert reset(client, "ana@example.com").status_code == 302
    assert len(mail.outbox) == outbox + 1


def test_the_client_address_is_remote_addr_unless_proxies_are_trusted(settings):
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 192.0.2.44"
    )
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip(request) == "10.0.0.1"
    settings.TRUSTED_PROXY_COUNT = 1
    # The entry our proxy appended, never the one the client wrote itself.
    assert client_ip(request) == "192.0.2.44"
    # Sign-in throttling sees the same address.
    assert get_client_ip_address(request) == "192.0.2.44"
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_ip(request) == "6.6.6.6"
    garbage = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="not-an-ip")
    assert client_ip(garbage) == "10.0.0.1"


def test_one_address_creates_at_most_its_accounts_and_typos_never_count(client):
    for n in range(4):
        assert sign_up(client, f"player{n}").status_code == 422  # a typo: not counted
        assert sign_up(client, f"player{n}", good=True).status_code == 302
        client.logout()
    response = sign_up(client, "player4", good=True)
    assert response.status_code == 429
    assert "Too many sign-up attempts from your network." in response.content.decode()
    assert 0 < int(response["Retry-After"]) <= 3600
    assert not User.objects.filter(username="player4").exists()
    # Another address is not concerned.
    assert sign_up(client, "player4", ip=ELSEWHERE, good=True).status_code == 302


def test_claim_link_sign_ups_never_count_against_the_address(client):
    tournament = TournamentFactory(slug="cup")
    for n in range(6):
        entrant = EntrantFactory(tournament=tournament, name=f"Player {n}")
        token = services.issue_claim_link(entrant, tournament.created_by)
        link = reverse("tournaments:claim", args=["cup", token])
        assert sign_up(client, f"player{n}", next_url=link, good=True).status_code == 302
        client.logout()
    # The address's own allowance is still whole.
    for n in range(4):
        assert sign_up(client, f"walkin{n}", good=True).status_code == 302
        client.logout()


def test_one_address_sends_at_most_its_reset_posts(client):
    for n in range(6):
        assert reset(client, f"person{n}@example.com").status_code == 302
    response = reset(client, "person6@example.com")
    assert response.status_code == 429
    assert "Retry-After" in response


class _Down:
    """A cache whose every call fails as a Redis that is down does."""

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            from redis.exceptions import ConnectionError

            raise ConnectionError("Connection refused")

        return fail


@pytest.fixture
def cache_down(monkeypatch):
    from accounts import ratelimit
    from core import redis_guard

    monkeypatch.setattr(ratelimit, "cache", _Down())
    redis_guard.cache.reset()
    yield
    redis_guard.cache.reset()


def test_with_the_counters_unreachable_sign_up_fails_open(client, cache_down):
    response = sign_up(client, "newbie", good=True)
    assert response.status_code == 302
    assert User.objects.filter(username="newbie").exists()


def test_with_the_counters_unreachable_a_reset_says_to_try_again_and_sends_nothing(
    client, cache_down
):
    UserFactory(username="ana", email="ana@example.com")
    response = reset(client, "ana@example.com")
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    html = response.content.decode()
    assert "We cannot take password reset requests just now" in html
    assert "Try again in a minute" in html and 'value="ana@example.com"' in html
    assert mail.outbox == []


def signups_at_once(n, ip, typos=0):
    """`n` sign-ups from one address posted at the same instant through the sign-up limits:
    the statuses they got. The first `typos` let through are refused by the form (422, no
    account), the others make an account. A post let through waits until every post has
    either reached the view or been refused, so all are in flight together, whatever the
    threads' timing."""
    import threading

    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpResponse

    from accounts.forms import SignUpForm
    from accounts.ratelimit import limited

    arrived, entered, lock, go = [0], [0], threading.Lock(), threading.Event()

    def arrive():
        with lock:
            arrived[0] += 1

    def view(request):
        with lock:
            typo = entered[0] < typos
            entered[0] += 1
        arrive()
        go.wait(10)
        if typo:
            return HttpResponse(status=422)
        request._signed_up = True  # as accounts.views.signup says once it made the account
        return HttpResponse(status=302)

    wrapped = limited(
        "signup",
        identity_field="username",
        template="registration/signup.html",
        form_class=SignUpForm,
        keep=("username",),
        what="sign-up attempts",
        per_address="signup_address",
        per_address_counts=lambda request, response: getattr(request, "_signed_up", False),
        fail_open=True,
    )(view)
    statuses = []

    def one(i):
        request = RequestFactory().post("/accounts/signup/", {"username": f"p{i}"}, REMOTE_ADDR=ip)
        request.user = AnonymousUser()
        response = wrapped(request)
        if response.status_code == 429:
            arrive()
        statuses.append(response.status_code)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 10
    while arrived[0] < n and time.monotonic() < deadline:
        time.sleep(0.005)
    go.set()
    for thread in threads:
        thread.join()
    return sorted(statuses)


def test_sign_ups_at_the_same_instant_create_no_more_accounts_than_the_limit():
    # The address's count is taken before the work, atomically: it used to be checked first
    # and counted after the account was made, so eight posts at once made eight accounts.
    assert signups_at_once(8, VENUE) == [302] * 4 + [429] * 4
    assert signups_at_once(1, VENUE) == [429]  # and the address's allowance is spent


def test_posts_that_made_no_account_give_their_count_back(client):
    # Two typos and two accounts let through, four refused: only the two accounts count.
    assert signups_at_once(8, VENUE, typos=2) == [302] * 2 + [422] * 2 + [429] * 4
    for n in range(2):
        assert sign_up(client, f"walkin{n}", good=True).status_code == 302
        client.logout()
    assert sign_up(client, "walkin2", good=True).status_code == 429
