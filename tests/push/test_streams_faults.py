"""Streams when Redis fails (issue 28): pages poll instead, and push comes back by itself.

- no Redis at all for the hub: a stream is refused (503, with a retry hint) — the page polls;
- Redis stopped while streams are open: they end (bye), new ones are refused while it is
  down, and once it is back the hub subscribes again: a new stream is ready and gets news;
- Redis frozen (SIGSTOP: connections stay open, nothing answers): the subscription's pings
  go unanswered and the hub counts Redis as lost within 2.5 × PING_EVERY (and a poll's turn).

A Redis of the test's own (tests/integration/redis_fault.py), so the shared one is never
stopped; no database is needed."""

import asyncio
import time

import pytest

from core import push, streams
from tests.integration.redis_fault import PrivateRedis, free_port, private_redis_missing
from tests.push.sse import Stream, fresh_hub, run

A = "tournament:1"


@pytest.fixture
def fast_hub(monkeypatch):
    monkeypatch.setattr(streams, "RECONNECT", (0.1, 0.2))
    monkeypatch.setattr(streams, "PING_EVERY", 0.4)


@pytest.fixture
def private_redis(settings, fast_hub):
    why = private_redis_missing()
    if why:
        pytest.skip(why)
    private = PrivateRedis()
    private.start()
    settings.PUSH_ENABLED = True
    settings.REDIS_URL = private.url
    push.reset_client()
    try:
        yield private
    finally:
        private.stop()
        push.reset_client()


async def subscribed(hub: streams.Hub, seconds: float = 5) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not hub.healthy:
        assert asyncio.get_running_loop().time() < deadline, "the hub did not subscribe"
        await asyncio.sleep(0.02)


async def refused(token: str) -> bool:
    stream = await Stream(token).open()
    if stream.status == 200:
        stream.leave()
        await stream.finished()
        return False
    assert stream.status == 503 and int(stream.headers["retry-after"]) > 0
    return True


def test_without_redis_a_stream_is_refused_and_the_page_polls(settings, fast_hub):
    settings.PUSH_ENABLED = True
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    push.reset_client()

    async def test():
        hub = fresh_hub(healthy=False)
        started = time.monotonic()
        assert await refused(push.token_for([A]))
        assert time.monotonic() - started < 3  # the page is not kept waiting
        assert hub.count == 0
        await hub.stop()

    try:
        run(test)
    finally:
        push.reset_client()


@pytest.mark.integration
def test_redis_stopped_ends_streams_refuses_new_ones_and_comes_back(private_redis):
    token = push.token_for([A])

    async def test():
        hub = fresh_hub(healthy=False)
        hub.start()
        await subscribed(hub)
        pages = [await Stream(token).open() for _ in range(2)]
        for page in pages:
            assert (await page.event())["event"] == "ready"
        for version in (1, 2, 3):  # news before: the pages saw message `seen`
            seen = await asyncio.to_thread(push.send, A, version)
        for page in pages:  # the first at once, the latest after the coalescing interval
            while (await page.event())["data"]["n"] != seen:
                pass

        private_redis.stop()
        for page in pages:
            assert await page.event() == {"event": "bye", "data": {"why": "redis"}}
            assert await page.frame() is None
        assert hub.count == 0 and not hub.healthy
        for _ in range(3):  # refused while it is down, whichever retry the hub is at
            assert await refused(token)

        private_redis.start()  # back, on the same port, empty (as compose runs it: no save)
        await subscribed(hub)
        # A page comes back saying what it saw (its EventSource's Last-Event-ID, or its own
        # list after renewing its token), and a fresh one.
        back = await Stream(token, last_event_id=f"{A}@{seen}").open()
        fresh = await Stream(token).open()
        for page in (back, fresh):
            assert (await page.event())["event"] == "ready"
        push.reset_client()  # the sender's breaker would wait out its pause (5 s) first
        n = await asyncio.to_thread(push.send, A, 9)
        assert n is not None and n > seen  # a page drops a number it has passed already
        for page in (back, fresh):
            assert (await page.event())["data"] == {"t": A, "n": n, "v": 9}
            page.leave()
        await hub.stop()

    run(test)


@pytest.mark.integration
def test_a_frozen_redis_is_noticed_by_the_pings(private_redis):
    token = push.token_for([A])

    async def test():
        hub = fresh_hub(healthy=False)
        hub.start()
        await subscribed(hub)
        page = await Stream(token).open()
        assert (await page.event())["event"] == "ready"
        loop = asyncio.get_running_loop()
        with private_redis.frozen():
            frozen_at = loop.time()
            bye = await page.event(wait=10)
            noticed = loop.time() - frozen_at
            assert bye == {"event": "bye", "data": {"why": "redis"}}
            # 2.5 pings' time, and the one-second read that was under way.
            assert noticed <= 2.5 * streams.PING_EVERY + 1.5, noticed
            # While frozen, across the hub's retries: no stream is promised news.
            until = loop.time() + 2
            while loop.time() < until:
                assert await refused(token)
        await subscribed(hub, seconds=10)
        page = await Stream(token).open()
        assert (await page.event())["event"] == "ready"
        page.leave()
        await hub.stop()

    run(test)


@pytest.mark.integration
def test_a_frozen_redis_does_not_hold_back_a_new_streams_ready(private_redis, monkeypatch):
    """Before the pings notice a freeze (up to 2.5 × PING_EVERY as the site runs), a page
    that opens its stream is told `ready` at once: held back longer than PUSH_READY_SECONDS,
    the page takes its stream for a buffering proxy and polls for good."""
    monkeypatch.setattr(streams, "PING_EVERY", 5.0)  # as the site runs
    token = push.token_for([A])

    async def test():
        hub = fresh_hub(healthy=False)
        hub.start()
        await subscribed(hub)
        await asyncio.to_thread(push.send, A, 1)  # a version for the ready to read
        with private_redis.frozen():
            page = await Stream(token).open()
            ready = await page.event(wait=2)
            assert ready["event"] == "ready"
            page.leave()
            await page.finished()
        await hub.stop()

    run(test)
