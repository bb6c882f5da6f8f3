"""The breaker in front of each use of Redis (core.redis_guard): one failure makes the callers
skip Redis for a pause, then one caller tries again while the others keep skipping; a task
that cannot be sent is logged and skipped, never raised."""

import pytest
from kombu.exceptions import OperationalError

from core import redis_guard
from core.redis_guard import Breaker, Unavailable


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def breaker():
    breaker = Breaker("test", pause=5)
    breaker.clock = Clock()
    return breaker


def fail():
    raise ConnectionError("refused")


def test_a_failure_opens_the_breaker_for_its_pause(breaker):
    calls = []
    with pytest.raises(Unavailable):
        breaker.call(fail)
    with pytest.raises(Unavailable):
        breaker.call(lambda: calls.append(1))
    assert calls == []  # skipped: Redis not asked
    breaker.clock.now += 5
    assert breaker.call(lambda: calls.append(1) or "ok") == "ok"
    assert calls == [1] and not breaker.is_open


def test_after_the_pause_one_caller_tries_while_the_others_skip(breaker):
    with pytest.raises(Unavailable):
        breaker.call(fail)
    breaker.clock.now += 5
    assert breaker.allow() is True  # this one tries
    assert breaker.allow() is False  # the others keep skipping while it does
    breaker.failed(ConnectionError("still down"))
    breaker.clock.now += 4.9
    assert breaker.allow() is False
    breaker.clock.now += 0.1
    assert breaker.allow() is True
    breaker.succeeded()
    assert breaker.allow() is True and breaker.allow() is True


class FakeTask:
    name = "tests.fake"

    def __init__(self, error=None, eager=False):
        self.error = error
        self.sent = []
        self.app = type("App", (), {"conf": type("Conf", (), {"task_always_eager": eager})()})

    def apply_async(self, args, **options):
        if self.error:
            raise self.error
        self.sent.append(tuple(args))


@pytest.fixture(autouse=True)
def _closed():
    redis_guard.broker.reset()
    yield
    redis_guard.broker.reset()


def test_a_task_the_broker_refuses_is_skipped_and_the_next_ones_are_not_tried():
    down = FakeTask(OperationalError("Connection refused"))
    assert redis_guard.send(down, [1]) is False
    healthy = FakeTask()
    assert redis_guard.send(healthy, [2]) is False  # the breaker is open: not even tried
    assert healthy.sent == []
    redis_guard.broker.reset()
    assert redis_guard.send(healthy, [2]) is True and healthy.sent == [(2,)]


def test_an_error_that_is_not_the_brokers_is_logged_and_leaves_the_breaker_closed(caplog):
    assert redis_guard.send(FakeTask(ValueError("not serialisable")), [1]) is False
    assert "not sent" in caplog.text
    assert not redis_guard.broker.is_open


def test_eager_tasks_never_touch_the_breaker():
    assert redis_guard.send(FakeTask(OperationalError("x"), eager=True), [1]) is False
    assert not redis_guard.broker.is_open
    task = FakeTask(eager=True)
    assert redis_guard.send(task, [3]) is True and task.sent == [(3,)]


class Flaky:
    """Django's cache, failing while `down` as a Redis that is down does."""

    def __init__(self, real):
        self.real, self.down = real, False

    def __getattr__(self, name):
        if self.down:

            def fail(*args, **kwargs):
                raise ConnectionError("refused")

            return fail
        return getattr(self.real, name)


def test_a_write_that_must_land_is_made_once_the_cache_answers_again(monkeypatch):
    from django.core.cache import cache

    from core import shared_cache

    redis_guard.cache.reset()
    flaky = Flaky(cache)
    monkeypatch.setattr(shared_cache, "cache", flaky)
    cache.set("public-version:cup", (1, 7, "x"), 60)
    cache.set("other", "old", 60)
    flaky.down = True
    shared_cache.delete("public-version:cup", must_land=True)
    shared_cache.set("public-version:cup", (1, 8, "x"), 60, must_land=True)
    shared_cache.set("other", "new", 60)  # an ordinary write is simply lost
    flaky.down = False
    redis_guard.cache.reset()  # the pause is over
    assert shared_cache.get("anything") is shared_cache.MISSING  # the next call settles
    assert cache.get("public-version:cup") == (1, 8, "x")
    assert cache.get("other") == "old"
    assert not shared_cache._owed
