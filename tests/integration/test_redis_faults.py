"""Redis stopped or frozen (SIGSTOP): sign-up, password reset, moves, the move that ends a duel,
organiser writes and public pages answer within a few seconds, never 500; nothing committed is
lost, and what Redis would have carried is redone once it is back (docs/operations.md,
"Redis down or frozen"). A Redis of the test's own, on a free port (tests/integration/
redis_fault.py); PostgreSQL as in production."""

import pickle
import time
from contextlib import nullcontext

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client

from accounts.models import DueNotification, Role, User
from accounts.services import grant_role
from config.celery import app
from duels.models import DuelStatus
from tests.conftest import services_missing
from tests.factories import PASSWORD, UserFactory, group_phase_duel
from tournaments.live_cache import version_entry, version_key

from .redis_fault import PrivateRedis, pointed_at, private_redis_missing

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

HTMX = {"HX-Request": "true"}
CEILING = 5.0  # seconds: no request may wait on Redis longer (docs/operations.md)


@pytest.fixture
def private_redis(settings):
    why = services_missing() or private_redis_missing()
    if why:
        pytest.skip(why)
    assert connection.vendor == "postgresql"
    private = PrivateRedis()
    private.start()
    try:
        with pointed_at(private, settings):
            yield private
    finally:
        private.stop()


def timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


@pytest.mark.parametrize("fault", ["stopped", "frozen"])
def test_the_site_answers_while_redis_is_stopped_or_frozen(private_redis, fault):
    duel, referee = group_phase_duel(published=True)
    tournament = duel.tournament
    organiser = tournament.created_by
    UserFactory(username="friend", notify_by_email=True, email="friend@example.org")
    console = Client()
    console.force_login(referee)
    manager = Client()
    manager.force_login(organiser)
    spectator = Client()
    base = f"/t/{tournament.slug}"
    # Redis up: the pools hold live connections (a frozen Redis keeps them open, unanswered).
    assert spectator.get(f"{base}/standings/").status_code == 200
    assert console.get(f"{base}/duels/{duel.pk}/").status_code == 200

    if fault == "stopped":
        private_redis.stop()
    context = private_redis.frozen() if fault == "frozen" else nullcontext()
    times: dict[str, float] = {}
    with context:
        response, times["public page"] = timed(lambda: spectator.get(f"{base}/standings/"))
        assert response.status_code == 200
        response, times["sign-up"] = timed(
            lambda: Client().post(
                "/accounts/signup/",
                {"username": "walkin", "password1": PASSWORD, "password2": PASSWORD},
                REMOTE_ADDR="203.0.113.9",
            )
        )
        assert response.status_code == 302  # fails open: the account is made
        response, times["password reset"] = timed(
            lambda: Client().post("/accounts/password_reset/", {"email": "friend@example.org"})
        )
        assert response.status_code == 503  # fails closed, in words
        assert "Try again in a minute" in response.content.decode()
        assert response["Retry-After"] == "60"
        move = {"seq": 0, "rev": 0, "type": "round", "card_A": 7, "card_B": 3}
        response, times["move"] = timed(
            lambda: console.post(f"{base}/duels/{duel.pk}/move/", move, headers=HTMX)
        )
        assert response.status_code == 200
        ending = {
            "seq": "1",
            "rev": "1",
            "ending": "forfeit_B",
            "reason": "No show",
            "confirm": "on",
        }
        response, times["ending move"] = timed(
            lambda: console.post(f"{base}/duels/{duel.pk}/end/", ending)
        )
        assert response.status_code < 400
        response, times["unpublish"] = timed(
            lambda: manager.post(f"{base}/manage/publish/", {"published": "0"})
        )
        assert response.status_code == 302
        response, times["publish"] = timed(
            lambda: manager.post(f"{base}/manage/publish/", {"published": "1"})
        )
        assert response.status_code == 302
        _, times["grant (notified)"] = timed(
            lambda: grant_role(organiser, tournament, "friend", Role.REFEREE)
        )
        response, times["public page again"] = timed(lambda: spectator.get(f"{base}/standings/"))
        assert response.status_code == 200
    print(f"Redis {fault}:", {what: round(seconds, 3) for what, seconds in times.items()})
    slow = {what: round(seconds, 2) for what, seconds in times.items() if seconds > CEILING}
    assert not slow, f"Redis {fault}: {slow} (all: {times})"

    # Nothing committed is lost: the result, the next round, the account, the grant.
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED and duel.result.winner_id == duel.seat_a_id
    assert tournament.rounds.get(number=1).status == "decided"
    assert User.objects.filter(username="walkin").exists()
    # The notification waits in the outbox for the sweep, whatever Redis did with its task.
    assert DueNotification.objects.filter(task="accounts.tasks.notify_role_granted").count() == 1
    if fault == "stopped":
        private_redis.start()  # an empty Redis on the same port: the sweeps redo the rest
    # Back: a task sent once the breaker's pause has passed reaches Redis (the clock moved on
    # rather than waited for).
    from core import redis_guard
    from tournaments.tasks import advance_tournament

    later = lambda: time.monotonic() + redis_guard.PAUSE + 0.1  # noqa: E731
    redis_guard.broker.clock = redis_guard.cache.clock = later
    before = private_redis.queued()
    try:
        assert redis_guard.send(advance_tournament, [tournament.pk])
        # The public version written while Redis was away is written now: a Redis back with
        # its data (frozen) does not answer polls from the version before the changes.
        assert spectator.get(f"{base}/standings/").status_code == 200
    finally:
        redis_guard.broker.clock = redis_guard.cache.clock = time.monotonic
    tournament.refresh_from_db()
    held = private_redis.client().get(cache.make_key(version_key(tournament.slug)))
    assert held is not None and pickle.loads(held) == version_entry(tournament)  # noqa: S301 - ours
    assert private_redis.queued() == before + 1
    assert app.conf.broker_url == private_redis.url
