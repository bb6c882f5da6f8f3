"""The stream server through real Redis (issue 28): `push.send` (the Lua script: number, stored
copy, publish) reaches the streams of its topic through the hub's one subscription, and no
other; a page that reconnects is sent what it missed; the endpoint under uvicorn as the web
process runs it (a page that leaves is forgotten, a full process refuses with a retry hint,
a restart says bye). Redis lost, frozen or never there: test_streams_faults.py."""

import asyncio
import http.client
import random
import threading
import time

import pytest

from core import push, streams
from tests.push.sse import Stream, fresh_hub, run

pytestmark = pytest.mark.integration


def topic() -> str:
    # Topics of their own: the stored copies of an earlier run live on for an hour.
    return f"tournament:{random.randrange(10**12)}"


async def subscribed_hub() -> streams.Hub:
    hub = fresh_hub(healthy=False)
    hub.start()
    await hub.wait_subscribed(5)
    assert hub.healthy, "the hub did not subscribe to Redis"
    return hub


async def send(*args, **kwargs) -> int:
    """As a web process sends, at commit (a blocking client: in a thread, as Django runs)."""
    n = await asyncio.to_thread(push.send, *args, **kwargs)
    assert n is not None, "push.send was skipped"
    return n


def test_a_message_reaches_the_streams_of_its_topic_only(push_on):
    a, b = topic(), topic()
    public = f"public:cup-{random.randrange(10**9)}:home"

    async def test():
        hub = await subscribed_hub()
        mine = await Stream(push.token_for([a, public])).open()
        other = await Stream(push.token_for([b])).open()
        assert (await mine.frame())["event"] == "ready"
        assert (await other.frame())["event"] == "ready"
        n = await send(a, 42)
        assert await mine.event() == {
            "id": f"{a}@{n}",
            "event": "change",
            "data": {"t": a, "n": n, "v": 42},
        }
        m = await send(public, '"t1-v9"', "<div id=live>9</div>", order=9)
        change = await mine.event()
        assert change["data"] == {
            "t": public,
            "n": m,
            "v": '"t1-v9"',
            "tv": 9,
            "html": "<div id=live>9</div>",
        }
        assert await other.nothing_within(0.3)
        # A page opened later is told each topic's last version, to tell whether it is older.
        later = await Stream(push.token_for([a, b, public])).open()
        ready = await later.event()
        assert ready["data"]["versions"] == {a: 42, public: '"t1-v9"'}
        for page in (mine, other, later):
            page.leave()
            await page.finished()
        await hub.stop()

    run(test)


def test_a_page_that_reconnects_is_sent_only_what_it_missed(push_on):
    a, b = topic(), topic()

    async def test():
        hub = await subscribed_hub()
        numbers = [await send(a, v) for v in (1, 2, 3)]
        await send(b, 7)
        # Saw the second of a's messages, and nothing of b: a's last (newer) and b's last.
        page = await Stream(push.token_for([a, b]), last_event_id=f"{a}@{numbers[1]}").open()
        ready = await page.event()
        assert ready["data"]["resumed"] is True
        got = {}
        for _ in range(2):
            change = (await page.event())["data"]
            got[change["t"]] = (change["n"], change["v"])
        assert got == {a: (numbers[2], 3), b: (got[b][0], 7)}
        assert await page.nothing_within(0.3)  # nothing older, nothing twice
        page.leave()
        # Up to date already (its own resume list, after a renewal): nothing is sent again.
        last = f"{a}@{numbers[2]},{b}@{got[b][0]}"
        again = await Stream(push.token_for([a, b]), last=last).open()
        assert (await again.event())["data"]["resumed"] is True
        assert await again.nothing_within(0.3)
        n = await send(a, 4)
        assert (await again.event())["data"] == {"t": a, "n": n, "v": 4}
        again.leave()
        await hub.stop()

    run(test)


# -- under uvicorn, as the web process runs it --------------------------------------------


@pytest.fixture
def stream_server(push_on):
    """The stream endpoint under uvicorn in a thread (config/asgi.py routes /push/stream to
    it in production; Django is not needed for a stream)."""
    import uvicorn

    async def application(scope, receive, send):
        if scope["type"] == "lifespan":
            await streams.lifespan(receive, send)
        else:
            await streams.stream(scope, receive, send)

    server = uvicorn.Server(
        uvicorn.Config(application, host="127.0.0.1", port=0, lifespan="on", log_level="warning")
    )
    server.config.timeout_graceful_shutdown = 2
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    until(lambda: server.started, "the server did not start")
    until(lambda: streams.hub.healthy, "the hub did not subscribe")
    loop = next(iter(server.servers)).get_loop()
    yield server.servers[0].sockets[0].getsockname()[1], loop
    loop.call_soon_threadsafe(streams.close_streams)
    server.should_exit = True
    thread.join(10)


def until(condition, why: str, seconds: float = 5) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, why
        time.sleep(0.01)


def open_stream(port: int, topics: list[str]) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", f"/push/stream?t={push.token_for(topics)}")
    return connection.getresponse()


def read_event(response: http.client.HTTPResponse) -> dict[str, str]:
    frame: dict[str, str] = {}
    while True:
        line = response.readline().decode()
        assert line, "the stream ended"
        if line == "\n":
            if "event" in frame:
                return frame
            frame = {}
            continue
        name, _, value = line.rstrip("\n").partition(": ")
        frame[name] = value


def test_over_http_a_page_that_leaves_is_forgotten(stream_server):
    port, _ = stream_server
    a = topic()
    pages = [open_stream(port, [a]) for _ in range(2)]
    for page in pages:
        assert page.status == 200
        assert page.getheader("Content-Type").startswith("text/event-stream")
        assert read_event(page)["event"] == "ready"
    assert streams.hub.count == 2
    push.send(a, 5)
    for page in pages:
        assert read_event(page)["event"] == "change"
    for page in pages:
        page.close()  # the browser's tab closed: the server hears the connection end
    until(lambda: streams.hub.count == 0, "streams of pages that left are still held")
    assert streams.hub.by_topic == {}


def test_over_http_a_full_process_refuses_with_a_retry_hint(stream_server, settings):
    port, _ = stream_server
    settings.STREAMS_MAX = 1
    first = open_stream(port, [topic()])
    assert first.status == 200 and read_event(first)["event"] == "ready"
    second = open_stream(port, [topic()])
    assert second.status == 503
    assert int(second.getheader("Retry-After")) > 0
    assert "poll" in second.read().decode()
    first.close()


def test_over_http_a_restart_ends_streams_with_bye(stream_server):
    port, loop = stream_server
    page = open_stream(port, [topic()])
    assert read_event(page)["event"] == "ready"
    loop.call_soon_threadsafe(streams.close_streams)  # what SIGTERM does first
    bye = read_event(page)
    assert bye == {"event": "bye", "data": '{"why": "shutdown"}'}
    assert page.read() == b""  # and the response ends: the browser comes back later
    again = open_stream(port, [topic()])
    assert again.status == 503
