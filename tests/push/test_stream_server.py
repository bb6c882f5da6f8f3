"""The stream server (issue 28, core.streams) without Redis: its hub fed directly, as its one
subscription would feed it. What a page's stream is sent, in what order, how often, and when
it ends. The same through real Redis: test_streams_redis.py."""

import asyncio
import json

import pytest

from core import push, streams
from tests.push.sse import Stream, fresh_hub, run

A, B = "tournament:1", "public:cup:home"


def message(n: int, version: int, **extra) -> str:
    """What the sender publishes after the topic ("<n> <json body>", core.push._SEND)."""
    return f"{n} {json.dumps({'v': version, **extra}, separators=(',', ':'))}"


# -- frames and a stream's queue ---------------------------------------------------------------


def test_a_message_becomes_one_frame_with_its_topic_and_number():
    n, frame = streams._frame(B, message(5, 3, html="<p>x</p>", tv=3))
    assert n == 5
    assert frame == (
        b'id: public:cup:home@5\nevent: change\ndata: {"t":"public:cup:home","n":5,'
        b'"v":3,"html":"<p>x</p>","tv":3}\n\n'
    )


@pytest.mark.parametrize("raw", ["", "5", "x {}", "5 v=3", "-1 {}", "\u00b2 {}"])
def test_a_malformed_message_is_dropped(raw):
    assert streams._frame(A, raw) is None


def frame(topic: str, n: int) -> tuple[int, bytes]:
    return n, f"{topic}@{n};".encode()


def test_a_stream_never_takes_an_older_message_after_a_newer_one():
    listener = streams.Listener([A], {})
    listener.offer(A, *frame(A, 3))
    listener.offer(A, *frame(A, 2))  # arrived late (a resume's stored copy, say)
    assert listener.take() == b"tournament:1@3;"
    listener.offer(A, *frame(A, 3))
    listener.offer(A, *frame(A, 1))
    assert listener.take() == b""
    assert not listener.pending


def test_a_slow_reader_gets_each_topics_latest_only():
    listener = streams.Listener([A, B], {})
    for n in (1, 2, 3):
        listener.offer(A, *frame(A, n))
    listener.offer(B, *frame(B, 9))
    listener.offer(A, *frame(A, 4))
    assert listener.wake.is_set()
    assert sorted(listener.take().split(b";")) == [b"", b"public:cup:home@9", b"tournament:1@4"]


def test_what_a_resuming_page_saw_is_not_sent_again():
    listener = streams.Listener([A], {A: 7})
    listener.offer(A, *frame(A, 7))
    listener.offer(A, *frame(A, 6))
    assert not listener.wake.is_set() and listener.take() == b""
    listener.offer(A, *frame(A, 8))
    assert listener.take() == b"tournament:1@8;"


@pytest.mark.parametrize(
    "seen",
    [
        "tournament:1@\u00b2",  # a digit to str.isdigit, not to int()
        "tournament:1@\u0663",
        "tournament:1@-3",
        "tournament:1@",
        "@4",
        ",,,",
    ],
)
def test_an_odd_resume_point_is_ignored_not_an_error(seen):
    # As the browser would send it: a header, or the page's own query parameter.
    assert streams._known({"headers": [(b"last-event-id", seen.encode())]}, {}) == {}
    assert streams._known({}, {"last": [seen]}) == {}


def test_a_huge_resume_point_is_read_within_bounds():
    huge = "tournament:1@" + "9" * 5000
    known = streams._known({"headers": [(b"last-event-id", huge.encode())]}, {"last": [huge]})
    assert set(known) <= {A}


def test_a_resume_point_is_each_topics_highest():
    scope = {"headers": [(b"last-event-id", b"tournament:1@4")]}
    assert streams._known(scope, {"last": ["tournament:1@2,public:cup:home@9"]}) == {A: 4, B: 9}


# -- coalescing ------------------------------------------------------------------------------


def test_a_topics_messages_are_fanned_out_at_most_once_an_interval_the_latest_winning():
    async def test():
        hub = fresh_hub(healthy=True)
        listener = streams.Listener([A], {})
        other = streams.Listener([B], {})
        hub.add(listener)
        hub.add(other)
        loop = asyncio.get_running_loop()
        hub.dispatch(A, message(1, 1))  # the first: at once
        started = loop.time()
        assert listener.take().count(b"event: change") == 1
        listener.wake.clear()  # as the stream does when it has taken what waited
        for n in (2, 3, 4):
            hub.dispatch(A, message(n, n))  # within the interval: held, the latest wins
        assert listener.take() == b""
        await asyncio.sleep(streams.COALESCE / 2)
        assert listener.take() == b""
        await listener.wake.wait()
        assert loop.time() - started >= streams.COALESCE * 0.9
        body = listener.take()
        assert body.count(b"event: change") == 1 and b"@4\n" in body
        assert hub.delivered == 2  # two fan-outs to one stream, for four messages
        assert other.take() == b""  # another topic's stream heard nothing
        hub.dispatch("tournament:99", message(1, 1))  # nobody follows it: dropped
        assert hub.delivered == 2

    run(test)


# -- the endpoint ----------------------------------------------------------------------------


def test_a_stream_says_ready_first_then_its_topics_messages_only():
    async def test():
        hub = fresh_hub(healthy=True)
        stream = await Stream(push.token_for([A])).open()
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.headers["cache-control"] == "no-store"
        assert stream.headers["x-accel-buffering"] == "no"
        ready = await stream.frame()
        assert ready["event"] == "ready"
        assert ready["data"] == {"topics": [A], "resumed": False, "versions": {}}
        assert 1000 <= int(ready["retry"]) <= 4000
        hub.dispatch(B, message(1, 1))
        hub.dispatch(A, message(2, 5))
        change = await stream.event()
        assert change == {
            "id": f"{A}@2",
            "event": "change",
            "data": {"t": A, "n": 2, "v": 5},
        }
        stream.leave()
        await stream.finished()

    run(test)


@pytest.mark.parametrize("token", ["", "forged", push.TOKEN_SALT])
def test_a_stream_with_a_bad_token_is_refused(token):
    async def test():
        fresh_hub(healthy=True)
        stream = await Stream(token).open()
        assert stream.status == 403
        await stream.finished()
        assert streams.hub.count == 0

    run(test)


def test_streams_beyond_the_bound_are_refused_with_a_retry_hint(settings):
    settings.STREAMS_MAX = 1

    async def test():
        hub = fresh_hub(healthy=True)
        first = await Stream(push.token_for([A])).open()
        second = await Stream(push.token_for([A])).open()
        assert (first.status, second.status) == (200, 503)
        assert int(second.headers["retry-after"]) > 0
        assert hub.count == 1
        first.leave()
        await first.finished()
        third = await Stream(push.token_for([A])).open()  # room again
        assert third.status == 200
        third.leave()
        await third.finished()

    run(test)


def test_a_hub_without_its_subscription_refuses_streams():
    async def test():
        fresh_hub(healthy=False)
        stream = await Stream(push.token_for([A])).open()
        assert stream.status == 503 and stream.headers["retry-after"]
        assert streams.hub.count == 0

    run(test)


def test_an_idle_stream_gets_heartbeats(monkeypatch):
    monkeypatch.setattr(streams, "HEARTBEAT", 0.05)

    async def test():
        fresh_hub(healthy=True)
        stream = await Stream(push.token_for([A])).open()
        assert (await stream.frame())["event"] == "ready"
        assert await stream.frame(1) == {"comment": "hb"}
        assert await stream.frame(1) == {"comment": "hb"}
        stream.leave()
        await stream.finished()

    run(test)


def test_a_stream_whose_page_left_is_forgotten():
    async def test():
        hub = fresh_hub(healthy=True)
        pages = [await Stream(push.token_for([A, B])).open() for _ in range(3)]
        assert hub.count == 3 and len(hub.by_topic[A]) == 3
        for page in pages:
            page.leave()
        for page in pages:
            await page.finished()
        assert hub.count == 0 and hub.by_topic == {}
        hub.dispatch(A, message(1, 1))  # nobody to tell: nothing fails
        assert hub.delivered == 0

    run(test)


def test_a_shutdown_ends_every_stream_with_bye_and_refuses_new_ones():
    async def test():
        hub = fresh_hub(healthy=True)
        pages = [await Stream(push.token_for([topic])).open() for topic in (A, B)]
        for page in pages:
            assert (await page.event())["event"] == "ready"
        streams.close_streams()
        for page in pages:
            assert await page.event() == {"event": "bye", "data": {"why": "shutdown"}}
            assert await page.frame() is None  # the response ended
            await page.finished()
        assert hub.count == 0
        late = await Stream(push.token_for([A])).open()
        assert late.status == 503

    run(test)


def test_a_busy_stream_still_ends_for_renewal(settings, monkeypatch):
    """A stream's access is checked again when it renews its token: a stream ends after
    STREAM_SECONDS even if its topic never stays quiet for a heartbeat."""
    settings.STREAM_SECONDS = 0.3
    monkeypatch.setattr(streams, "HEARTBEAT", 10.0)
    monkeypatch.setattr(streams, "COALESCE", 0.0)

    async def test():
        hub = fresh_hub(healthy=True)
        stream = await Stream(push.token_for([A])).open()
        assert (await stream.event())["event"] == "ready"
        n = 0
        loop = asyncio.get_running_loop()
        started = loop.time()
        while True:
            n += 1
            hub.dispatch(A, message(n, n))
            got = await stream.event()
            if got["event"] == "bye":
                break
            assert loop.time() - started < 2, "the stream never ended"
            await asyncio.sleep(0.02)
        assert got["data"] == {"why": "renew"}
        await stream.finished()

    run(test)
