"""A stream opened on the stream server's ASGI endpoint (core.streams.stream) as a server
would open it, read as a browser's EventSource reads it: frames, one at a time."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any
from urllib.parse import urlencode

from core import streams

WAIT = 10.0  # seconds: longest a test waits for a frame it expects (a busy CI machine)


def run(test, seconds: float = 30) -> None:
    """An asyncio test in a plain test (no pytest-asyncio here), on a loop of its own in a
    thread of its own: a browser test's Playwright keeps an event loop running in the main
    thread for the whole session, and a second one cannot run there."""
    failed: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(asyncio.wait_for(test(), seconds))
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            failed.append(exc)

    thread = threading.Thread(target=target, name="async-test")
    thread.start()
    thread.join(seconds + 5)
    assert not thread.is_alive(), "the asyncio test did not end"
    if failed:
        raise failed[0]


class Stream:
    def __init__(self, token: str, *, last: str = "", last_event_id: str = "") -> None:
        query = {"t": token, **({"last": last} if last else {})}
        headers = [(b"accept", b"text/event-stream")]
        if last_event_id:
            headers.append((b"last-event-id", last_event_id.encode("latin-1")))
        self.scope = {
            "type": "http",
            "method": "GET",
            "path": "/push/stream",
            "query_string": urlencode(query).encode(),
            "headers": headers,
        }
        self.status: int | None = None
        self.headers: dict[str, str] = {}
        self.body = b""  # what came and was not read as frames yet
        self._chunks: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._gone = asyncio.Event()
        self.task: asyncio.Task | None = None

    async def open(self) -> Stream:
        """Starts the request and returns once the response has started."""
        self.task = asyncio.get_running_loop().create_task(
            streams.stream(self.scope, self._receive, self._send)
        )
        async with asyncio.timeout(WAIT):
            while self.status is None:
                await asyncio.sleep(0.005)
        return self

    async def _receive(self) -> dict[str, Any]:
        await self._gone.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.headers = {k.decode(): v.decode() for k, v in message.get("headers", [])}
            return
        await self._chunks.put(message.get("body", b""))
        if not message.get("more_body"):
            await self._chunks.put(None)

    async def frame(self, wait: float = WAIT) -> dict[str, Any] | None:
        """The next frame ({"event", "data", "id", "retry", "comment"}), or None once the
        response has ended. Raises TimeoutError if nothing comes within `wait`."""
        async with asyncio.timeout(wait):
            while b"\n\n" not in self.body:
                chunk = await self._chunks.get()
                if chunk is None:
                    self._chunks.put_nowait(None)  # ended: every later read says so too
                    return None
                self.body += chunk
        block, _, self.body = self.body.partition(b"\n\n")
        frame: dict[str, Any] = {}
        for line in block.decode().split("\n"):
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "":
                frame["comment"] = value
            elif name == "data":
                frame["data"] = json.loads(value) if value.startswith(("{", "[")) else value
            else:
                frame[name] = value
        return frame

    async def event(self, wait: float = WAIT) -> dict[str, Any] | None:
        """The next frame that is an event (heartbeats skipped), or None at the end."""
        while True:
            frame = await self.frame(wait)
            if frame is None or "event" in frame:
                return frame

    async def nothing_within(self, seconds: float) -> bool:
        """True if no event (heartbeats aside) came within `seconds`."""
        try:
            await self.event(seconds)
        except TimeoutError:
            return True
        return False

    def leave(self) -> None:
        """The browser goes away (the server sees http.disconnect)."""
        self._gone.set()

    async def finished(self, wait: float = WAIT) -> None:
        assert self.task is not None
        async with asyncio.timeout(wait):
            await self.task


def fresh_hub(*, healthy: bool) -> streams.Hub:
    """A hub of the test's own (its loop's), as a starting server makes one. `healthy`
    without Redis: a hub that believes it is subscribed, fed by `dispatch` directly."""
    streams._fresh_hub()
    streams.hub.healthy = healthy
    return streams.hub
