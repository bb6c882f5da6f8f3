"""The stream server (issue 28): Server-Sent Events to open pages, a bare ASGI endpoint.

It runs in every web process, beside Django (config/asgi.py: gunicorn's uvicorn workers
serve this endpoint on the event loop and Django through a thread pool), on the site's own
origin: the CSP's `connect-src 'self'` holds, no proxy routes paths, and an open stream costs
no thread — a small object, a task that notices the browser leaving, and the connection.

Each process keeps one Redis subscription (the channel `core.push.channel()`) and fans each
message out in-process to the streams following its topic. A stream's topics come from a
signed token that a checked Django view issued (`core.push.token_for`): this endpoint checks
the signature and the token's age, nothing else, and touches no database.

What a stream does for a page:
- `event: ready` at once: the page knows the stream works (a proxy that buffers never lets it
  through, and the page falls back to polling), with each topic's last version, so that a
  page drawn before a change can tell;
- `event: change` for each message of its topics, `id: <topic>@<number>`; a browser that
  reconnects sends it back (`Last-Event-ID`) and is sent each topic's last message that is
  newer (stored in Redis by the sender), so a short break loses nothing;
- a comment every `HEARTBEAT` seconds, so that proxies and the browser keep the stream open;
- its public topics marked as followed (`FOLLOW_REFRESH`), so that the worker renders a
  public part in a page's language only while a page shows it in that language (issue 29);
- messages of one topic at most every `COALESCE` seconds (the latest wins), and a stream
  that reads slowly gets only each topic's latest;
- it ends, with a retry hint, after `STREAM_SECONDS` (the browser comes back with a fresh
  token: access is checked again), when the process shuts down, and when Redis is lost
  (then new streams are refused, 503, until the subscription is back: pages poll meanwhile).
A process holds at most `STREAMS_MAX` streams; beyond that it answers 503 and the page polls.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import signal
import time
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings

from core import push

logger = logging.getLogger(__name__)

HEARTBEAT = 15.0  # seconds between comments on an idle stream
# The streams' heartbeats come from one task of the hub, a slice of the streams at a time: a
# timer per stream, armed and cancelled on its every wake, cost a third of a fan-out's CPU
# (docs/performance.md, "Push (issue 28)").
BEAT_SLICES = 15
COALESCE = 0.25  # seconds: a topic's messages are fanned out at most this often
PING_EVERY = 5.0  # seconds between the subscription's pings; two missed: reconnect
# The public topics this process's streams follow are marked in Redis (`core.push.followed`)
# as a stream opens and again this often: the worker renders a public part in a language
# other than the source one only where an open page shows it in that language (issue 29).
FOLLOW_REFRESH = 30.0
RECONNECT = (0.5, 1, 2, 5)  # seconds before each retry of a lost subscription

Scope = dict[str, Any]


def _number(text: str) -> bool:
    # ASCII digits only: str.isdigit() also says yes to "²" and "٣", which int() refuses or
    # reads, and a resume point or a message is never written with them.
    return text.isascii() and text.isdigit()


def _frame(topic: str, raw: str) -> tuple[int, bytes] | None:
    """A stored or published message ("<n> <json body>") as its SSE frame, built once for
    every stream that gets it."""
    number, _, body = raw.partition(" ")
    if not _number(number) or not body.startswith("{"):
        return None
    n = int(number)
    data = f'{{"t":{json.dumps(topic)},"n":{n},{body[1:]}' if body != "{}" else "{}"
    return n, f"id: {topic}@{n}\nevent: change\ndata: {data}\n\n".encode()


class Listener:
    """One open stream: its topics, what waits to be sent, what was sent."""

    __slots__ = ("topics", "pending", "sent", "wake", "closed", "why", "beat", "slot")

    def __init__(self, topics: list[str], sent: dict[str, int]) -> None:
        self.topics = topics
        self.pending: dict[str, tuple[int, bytes]] = {}
        self.sent = sent
        self.wake = asyncio.Event()
        self.closed = False
        self.why = ""
        self.beat = False  # the hub's heartbeat came: say something, check the stream's age
        self.slot = random.randrange(BEAT_SLICES)  # which slice of the heartbeat it beats in

    def offer(self, topic: str, n: int, frame: bytes) -> None:
        if n <= self.sent.get(topic, 0):
            return
        held = self.pending.get(topic)
        if held is None or held[0] < n:
            self.pending[topic] = (n, frame)  # a slow reader gets the topic's latest only
            self.wake.set()

    def take(self) -> bytes:
        frames = []
        for topic, (n, frame) in self.pending.items():
            if n > self.sent.get(topic, 0):
                self.sent[topic] = n
                frames.append(frame)
        self.pending.clear()
        return b"".join(frames)

    def close(self, why: str) -> None:
        self.closed, self.why = True, why
        self.wake.set()


class Hub:
    """The process's one subscription and its streams."""

    def __init__(self) -> None:
        self.by_topic: dict[str, set[Listener]] = {}
        self.count = 0
        self.healthy = False
        self.closing = False
        self.delivered = 0  # frames handed to streams, for /readyz and the benchmark
        self._task: asyncio.Task | None = None
        self._redis: Any = None
        self._held: dict[str, tuple[int, bytes]] = {}
        self._last_fanout: dict[str, float] = {}
        self._subscribed: asyncio.Event | None = None
        self._listeners: set[Listener] = set()
        self._beats: asyncio.Task | None = None
        self._marking: set[asyncio.Task] = set()
        self._marked_at = 0.0
        self.tried = False  # the subscription was tried once and lost or refused

    # -- the streams ---------------------------------------------------------------------

    def accepting(self) -> bool:
        return self.healthy and not self.closing and self.count < settings.STREAMS_MAX

    def add(self, listener: Listener) -> None:
        self.count += 1
        self._listeners.add(listener)
        fresh = [t for t in listener.topics if push.is_public(t) and t not in self.by_topic]
        for topic in listener.topics:
            self.by_topic.setdefault(topic, set()).add(listener)
        if self._beats is None or self._beats.done():
            self._beats = asyncio.get_running_loop().create_task(self._beat())
        if fresh:  # followed here from now on: marked at once, for the next change's renders
            self._mark_soon(fresh)

    def _mark_soon(self, topics: list[str]) -> None:
        task = asyncio.get_running_loop().create_task(self.mark(topics))
        self._marking.add(task)  # held until done (the loop keeps only a weak reference)
        task.add_done_callback(self._marking.discard)

    async def mark(self, topics: list[str]) -> None:
        """Marks these public topics as followed (`core.push.followed`), in one round trip;
        a Redis that fails costs the marks only (the worker then renders the source
        language alone, and a page's slower poll catches up)."""
        if self._redis is None or not topics:
            return
        try:
            async with asyncio.timeout(settings.REDIS_SOCKET_TIMEOUT):
                async with self._redis.pipeline(transaction=False) as pipe:
                    for topic in topics:
                        pipe.set(push.FOLLOW_PREFIX + topic, 1, ex=push.FOLLOW_SECONDS)
                    await pipe.execute()
        except Exception:  # noqa: BLE001 - a help only, as above
            logger.info("followed topics not marked", exc_info=True)

    def refresh_marks(self) -> None:
        """Every `FOLLOW_REFRESH` seconds (from the heartbeat task): the public topics
        followed here, marked again before their marks expire."""
        now = asyncio.get_running_loop().time()
        if now - self._marked_at < FOLLOW_REFRESH:
            return
        self._marked_at = now
        followed = [topic for topic in self.by_topic if push.is_public(topic)]
        if followed:
            self._mark_soon(followed)

    async def _beat(self) -> None:
        """Every stream's heartbeat, one slice of the streams every HEARTBEAT / BEAT_SLICES
        seconds (so that ten thousand streams do not all write in the same instant)."""
        turn = 0
        while self._listeners:
            await asyncio.sleep(HEARTBEAT / BEAT_SLICES)
            turn = (turn + 1) % BEAT_SLICES
            self.refresh_marks()
            for listener in list(self._listeners):
                if listener.slot == turn:
                    listener.beat = True
                    listener.wake.set()

    def remove(self, listener: Listener) -> None:
        self.count -= 1
        self._listeners.discard(listener)
        for topic in listener.topics:
            followers = self.by_topic.get(topic)
            if followers is not None:
                followers.discard(listener)
                if not followers:
                    del self.by_topic[topic]

    def close_all(self, why: str) -> None:
        for followers in list(self.by_topic.values()):
            for listener in list(followers):
                listener.close(why)

    def state(self) -> dict[str, Any]:
        return {
            "subscribed": self.healthy,
            "streams": self.count,
            "max": settings.STREAMS_MAX,
            "delivered": self.delivered,
        }

    # -- messages ------------------------------------------------------------------------

    def dispatch(self, topic: str, raw: str) -> None:
        """A message from the channel: fanned out now, or held until the topic's last
        fan-out is `COALESCE` old (the latest held wins)."""
        if topic not in self.by_topic:
            return
        framed = _frame(topic, raw)
        if framed is None:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        last = self._last_fanout.get(topic, 0.0)
        if now - last >= COALESCE and topic not in self._held:
            self._fan_out(topic, *framed, now)
            return
        if topic not in self._held:
            loop.call_at(last + COALESCE, self._release, topic)
        held = self._held.get(topic)
        if held is None or held[0] < framed[0]:
            self._held[topic] = framed

    def _release(self, topic: str) -> None:
        framed = self._held.pop(topic, None)
        if framed is not None:
            self._fan_out(topic, *framed, asyncio.get_running_loop().time())

    def _fan_out(self, topic: str, n: int, frame: bytes, now: float) -> None:
        self._last_fanout[topic] = now
        for listener in self.by_topic.get(topic, ()):
            listener.offer(topic, n, frame)
            self.delivered += 1

    async def _read(self, keys: list[str]) -> list[Any]:
        # Within the site's Redis timeout, not the subscription's (2 × PING_EVERY): a frozen
        # Redis, before the pings notice, would hold a new stream's `ready` past the page's
        # PUSH_READY_SECONDS, and the page would take it for a buffering proxy and poll.
        async with asyncio.timeout(settings.REDIS_SOCKET_TIMEOUT):
            return await self._redis.mget(keys)

    async def versions(self, topics: list[str]) -> dict[str, Any]:
        """Each topic's last version (a stream just opened tells its page, which reloads
        what is older: a page drawn before a change it has no stream for yet)."""
        if self._redis is None:
            return {}
        try:
            values = await self._read([push.VERSION_PREFIX + t for t in topics])
        except Exception:  # noqa: BLE001 - a help only: the page's poll catches up
            logger.info("stored versions unreadable", exc_info=True)
            return {}
        found = {}
        for topic, value in zip(topics, values, strict=True):
            if value and len(value) < 200:
                try:
                    found[topic] = json.loads(value)
                except ValueError:
                    continue
        return found

    async def stored(self, topics: list[str]) -> dict[str, tuple[int, bytes]]:
        """Each topic's last message as Redis keeps it (for a stream that resumes)."""
        if self._redis is None:
            return {}
        try:
            values = await self._read([push.LAST_PREFIX + t for t in topics])
        except Exception:  # noqa: BLE001 - resuming is a help: the page's poll catches up
            logger.info("stored messages unreadable", exc_info=True)
            return {}
        found = {}
        for topic, value in zip(topics, values, strict=True):
            framed = value and _frame(topic, value.decode())
            if framed:
                found[topic] = framed
        return found

    # -- the subscription ----------------------------------------------------------------

    @property
    def started(self) -> bool:
        """Does this process serve streams (its subscription was started)?"""
        return self._task is not None

    def start(self) -> None:
        if self._task is None and push.enabled():
            self._subscribed = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._subscribe())

    async def wait_subscribed(self, seconds: float) -> None:
        if self._subscribed is None:
            return
        try:
            async with asyncio.timeout(seconds):
                await self._subscribed.wait()
        except TimeoutError:
            pass

    async def stop(self) -> None:
        self.closing = True
        self.close_all("shutdown")
        if self._task is not None:
            self._task.cancel()
        if self._beats is not None:
            self._beats.cancel()

    async def _subscribe(self) -> None:
        import redis.asyncio as aioredis

        attempt = 0
        while not self.closing:
            client = aioredis.Redis.from_url(
                settings.REDIS_URL,
                socket_connect_timeout=settings.REDIS_CONNECT_TIMEOUT,
                socket_timeout=max(settings.REDIS_SOCKET_TIMEOUT, 2 * PING_EVERY),
                retry=None,
            )
            pubsub = client.pubsub()
            try:
                await pubsub.subscribe(push.channel())
                self._redis, self.healthy, attempt = client, True, 0
                if self._subscribed is not None:
                    self._subscribed.set()
                logger.info("stream hub subscribed")
                await self._listen(pubsub)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - any loss of Redis: close, retry
                if self.healthy:
                    logger.warning("stream hub lost Redis (%s): streams closed", exc)
            finally:
                self.healthy, self._redis, self.tried = False, None, True
                if self._subscribed is not None:
                    self._subscribed.clear()
                self.close_all("redis")
                try:
                    await pubsub.aclose()
                    await client.aclose()
                except Exception:  # noqa: BLE001 - closing what is lost already
                    logger.debug("closing the lost subscription failed", exc_info=True)
            await asyncio.sleep(RECONNECT[min(attempt, len(RECONNECT) - 1)])
            attempt += 1

    async def _listen(self, pubsub: Any) -> None:
        """Reads the channel; a ping every `PING_EVERY` s, and a Redis that stops answering
        them (frozen: the connection stays open, nothing comes back) counts as lost."""
        loop = asyncio.get_running_loop()
        last_pong = next_ping = loop.time()
        while not self.closing:
            now = loop.time()
            if now >= next_ping:
                await pubsub.ping()
                next_ping = now + PING_EVERY
            if now - last_pong > 2.5 * PING_EVERY:
                raise ConnectionError("Redis stopped answering the subscription's pings")
            message = await pubsub.get_message(timeout=1.0)
            if message is None:
                continue
            kind = message.get("type")
            if kind == "pong" or (kind == "message" and message.get("data") == b"PONG"):
                last_pong = loop.time()
                continue
            if kind != "message":
                continue
            data = message["data"]
            text = data.decode(errors="replace") if isinstance(data, bytes) else data
            topic, _, raw = text.partition(" ")
            try:
                self.dispatch(topic, raw)
            except Exception:  # one odd message must not end every stream (as a lost Redis)
                logger.warning("a message on the channel was dropped", exc_info=True)
            if len(self._last_fanout) > 10_000:  # a bound: only recent fan-outs matter
                cutoff = loop.time() - COALESCE
                self._last_fanout = {t: at for t, at in self._last_fanout.items() if at > cutoff}


hub = Hub()


# -- the endpoint ---------------------------------------------------------------------------


async def _refuse(send: Any, status: int, text: str, retry_after: int | None = None) -> None:
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"cache-control", b"no-store")]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": text.encode()})


def _known(scope: Scope, query: dict[str, list[str]]) -> dict[str, int]:
    """What the page says it has seen: `Last-Event-ID` ("<topic>@<n>", sent back by the
    browser when it reconnects), or `last` in the query (the page's own, after it renewed its
    token) as "<topic>@<n>,…"."""
    seen = ""
    for name, value in scope.get("headers", ()):
        if name == b"last-event-id":
            seen = value.decode("latin-1")[:2000]
    seen = ",".join(filter(None, [seen, *query.get("last", [])]))[:4000]
    known: dict[str, int] = {}
    for item in seen.split(","):
        topic, _, number = item.strip().rpartition("@")
        if topic and _number(number):
            known[topic] = max(known.get(topic, 0), int(number))
    return known


async def _watch_disconnect(receive: Any, listener: Listener) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            listener.close("gone")
            return


async def stream(scope: Scope, receive: Any, send: Any) -> None:
    if scope["method"] not in ("GET", "HEAD"):
        await _refuse(send, 405, "Streams are read with GET.")
        return
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")[:8000])
    topics = push.topics_of((query.get("t") or [""])[0])
    if topics is None:
        await _refuse(send, 403, "This stream's token is not valid (or too old): reload.")
        return
    own = hub  # the process's hub as this stream found it (a test's server may renew it)
    own.start()
    if not own.healthy and not own.closing and not own.tried:
        # A hub just started: its subscription is on its way (one that failed already is
        # not waited for: the page polls meanwhile).
        await own.wait_subscribed(1.0)
    if not own.accepting():
        await _refuse(send, 503, "No stream now: the page polls instead.", retry_after=30)
        return
    known = {t: n for t, n in _known(scope, query).items() if t in topics}
    listener = Listener(topics, dict(known))
    own.add(listener)
    watcher = asyncio.get_running_loop().create_task(_watch_disconnect(receive, listener))
    try:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/event-stream; charset=utf-8"),
                    (b"cache-control", b"no-store"),
                    # nginx and some others buffer a response unless told not to.
                    (b"x-accel-buffering", b"no"),
                ],
            }
        )
        retry = random.randint(1000, 4000)  # after a restart, a crowd comes back spread out
        versions = {} if known else await own.versions(topics)
        ready = json.dumps({"topics": topics, "resumed": bool(known), "versions": versions})
        await send(
            {
                "type": "http.response.body",
                "body": f"retry: {retry}\nevent: ready\ndata: {ready}\n\n".encode(),
                "more_body": True,
            }
        )
        if known:  # a reconnect: each topic's last message, if newer than what it saw
            for topic, (n, frame) in (await own.stored(topics)).items():
                listener.offer(topic, n, frame)
        ends = time.monotonic() + settings.STREAM_SECONDS * random.uniform(0.8, 1.0)
        while not listener.closed:
            await listener.wake.wait()
            listener.wake.clear()
            # Checked on every turn, not only when idle: a stream whose topic never stays
            # quiet for a heartbeat (a running duel) must renew too, or its access is never
            # checked again.
            if time.monotonic() >= ends:
                listener.close("renew")
                break
            body = listener.take()
            if listener.beat:
                listener.beat = False
                body = body or b": hb\n\n"
            if body:
                await send({"type": "http.response.body", "body": body, "more_body": True})
        if listener.why != "gone":
            end = json.dumps({"why": listener.why})
            await send(
                {
                    "type": "http.response.body",
                    "body": f"event: bye\ndata: {end}\n\n".encode(),
                    "more_body": False,
                }
            )
    except OSError:  # the connection went away while writing
        pass
    finally:
        own.remove(listener)
        watcher.cancel()


async def lifespan(receive: Any, send: Any) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            _fresh_hub()
            hub.start()
            _close_on_terminate()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await hub.stop()
            await send({"type": "lifespan.shutdown.complete"})
            return


def _fresh_hub() -> None:
    """A server starting in a process where another ran (a test's) gets a hub of its own:
    the one before belonged to a loop that is gone."""
    global hub
    hub = Hub()


def _close_on_terminate() -> None:
    """The server waits for open responses to end before it shuts down (and tells the
    application only after): streams never end by themselves, so a graceful restart would
    wait its whole timeout and then cut them. The signal that starts the shutdown closes them
    first, each with its retry hint, and the server's own handler then runs as before."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            previous = signal.getsignal(sig)
        except ValueError:  # not the main thread (a test's server): nothing to chain
            return

        def handler(number: int, frame: Any, previous: Any = previous) -> None:
            loop.call_soon_threadsafe(close_streams)
            if callable(previous):
                previous(number, frame)

        try:
            signal.signal(sig, handler)
        except ValueError:
            return


def close_streams() -> None:
    """Every stream ends now, with its retry hint, and none is accepted (a shutdown)."""
    hub.closing = True
    hub.close_all("shutdown")
