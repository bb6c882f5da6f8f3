"""Django (WSGI) inside the web process's ASGI application (config/asgi.py), one hand-off per
request.

a2wsgi runs Django in a thread pool, but hands every message of a response (its start, each
chunk, a static file in 4 kB blocks) from the thread to the event loop and waits for each:
on busy cores each hand-off costs a sleep and a wake, and the standings page served 38 % fewer
requests a second than under gunicorn's threaded workers, a static file 40 % fewer
(docs/performance.md, "Push (issue 28)"). Here the event loop reads the request's body, one
thread runs Django and joins its whole response, and the loop sends it: one hand-off. A
response too big to hold, or of unknown length and streaming, is sent chunk by chunk from the
thread, as a2wsgi does. a2wsgi's `build_environ` makes the WSGI environ (its own is tested
against the WSGI specification; no need to write another).

The threads (`Threads`) take the waiting requests writes first, a read overtaken for at most
READ_GRACE (issue 31's capacity; docs/performance.md, "Writes first, two threads"); a request
whose client went away while it waited is never served. The standard library's thread pool
serves in order of arrival only.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import logging
import math
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from typing import Any

from a2wsgi.wsgi import build_environ

logger = logging.getLogger(__name__)

HOLD_AT_MOST = 1 << 20  # bytes of a response joined in the thread; beyond, sent as it comes
BODY_AT_MOST = 16 << 20  # bytes of a request's body read before Django sees it; beyond: 413
Send = Callable[[dict[str, Any]], Any]


#: The methods of a request that changes something (a move, a form): served first.
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: The probes (a container's health check, a load balancer's): served first too, or a busy
#: process would be taken for a dead one.
PROBES = frozenset({"/healthz", "/readyz"})
#: How long a read (a poll, a page) may be overtaken by writes that came after it, in
#: seconds: writes go first, but never starve the reads behind them for longer. Not shorter:
#: on a full machine the reads wait 2-3 s at issue 31's target, and a read due sooner is
#: served before the moves that come after it (with 0.5 s a move's p95 was 1.4 s, with 5 s
#: 150-173 ms; docs/performance.md, "Writes first, two threads").
READ_GRACE = 10.0


class Threads:
    """Django's threads, taking the waiting requests writes first: each request is due when
    it comes, a read READ_GRACE later, and the threads serve the earliest due. A person's move
    waits behind no poll that came less than READ_GRACE before it (issue 31's capacity,
    docs/performance.md "Writes first, two threads"); a read waits behind later writes at most
    that long."""

    def __init__(
        self,
        count: int,
        on_stop: Callable[[], Any] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if count < 1:
            raise ValueError(f"Django needs at least one thread, not {count}")
        self.count = count
        self._on_stop = on_stop
        self._clock = clock
        self._queue: queue.PriorityQueue[tuple[float, int, Any]] = queue.PriorityQueue()
        self._order = itertools.count()
        self._threads: list[threading.Thread] = []
        self._pid: int | None = None
        self._closed = False
        self._lock = threading.Lock()

    def submit(self, first: bool, work: Callable[..., Any], *args: Any) -> Future[Any]:
        with self._lock:
            if self._closed:
                raise RuntimeError("Django's threads are shut down")
            # The threads start with the first request, in the process that serves it: an
            # application built before a fork (gunicorn's preload_app) would otherwise leave
            # them in the parent, and every request of the child would wait for ever.
            if self._pid != os.getpid():
                self._start()
            future: Future[Any] = Future()
            due = self._clock() + (0.0 if first else READ_GRACE)
            self._queue.put((due, next(self._order), (future, work, args)))
        return future

    def _start(self) -> None:
        self._queue = queue.PriorityQueue()  # a forked child's: the parent's is not its own
        self._threads = [
            threading.Thread(target=self._serve, args=(self._queue,), name=f"django_{i}")
            for i in range(self.count)
        ]
        for thread in self._threads:
            thread.daemon = True
            thread.start()
        self._pid = os.getpid()

    def shutdown(self, wait: bool = True) -> None:
        """Stops the threads once they have served every request already waiting; each runs
        ``on_stop`` as it stops."""
        with self._lock:
            self._closed = True
            threads = self._threads if self._pid == os.getpid() else []
            for _ in threads:
                self._queue.put((math.inf, next(self._order), None))
        if wait:
            for thread in threads:
                thread.join()

    def _serve(self, waiting: queue.PriorityQueue[tuple[float, int, Any]]) -> None:
        while True:
            _, _, item = waiting.get()
            if item is None:
                self._on_stop()
                return
            future, work, args = item
            if future.set_running_or_notify_cancel():
                try:
                    result = work(*args)
                except BaseException as error:  # noqa: BLE001 - handed to the awaiting request
                    future.set_exception(error)
                else:
                    future.set_result(result)
            # An idle thread holds nothing of the request it served (its body, its answer).
            del item, future, work, args
            result = None


class DjangoBridge:
    def __init__(self, wsgi_app: Callable[..., Iterable[bytes]], threads: int) -> None:
        self.app = wsgi_app
        # Each thread closes its database connection as it stops (kept open between requests,
        # CONN_MAX_AGE) when the pool is shut down: a test's server does, so that its
        # database can be dropped; a web process's connections end with the process.
        self.threads = Threads(threads, on_stop=_close_connections)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Send) -> None:
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > BODY_AT_MOST:
                await _answer(send, 413, b"The request is too large.")
                return
            if not message.get("more_body", False):
                break
        environ = build_environ(scope, io.BytesIO(bytes(body)))  # type: ignore[arg-type]
        loop = asyncio.get_running_loop()
        first = scope.get("method") in WRITES or scope.get("path") in PROBES
        work = asyncio.wrap_future(
            self.threads.submit(first, self._run, environ, loop, send), loop=loop
        )
        whole = await _unless_gone(work, receive)
        if whole is _GONE:
            return
        if whole is not None:
            status, headers, content = whole
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": content})

    def _run(
        self, environ: dict[str, Any], loop: asyncio.AbstractEventLoop, send: Send
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes] | None:
        """In a thread: Django's response, whole; or, too big to hold, already sent chunk by
        chunk from here (None)."""
        started: dict[str, Any] = {}

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None):
            started["status"] = int(status.split(" ", 1)[0])
            started["headers"] = [
                (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers
            ]
            return lambda data: None  # the legacy write(): Django never uses it

        iterable = self.app(environ, start_response)
        try:
            length = _length(started["headers"])
            if length is not None and length <= HOLD_AT_MOST or not _streaming(iterable):
                return started["status"], started["headers"], b"".join(iterable)
            self._stream(iterable, started, loop, send)
            return None
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()

    @staticmethod
    def _stream(
        iterable: Iterable[bytes],
        started: dict[str, Any],
        loop: asyncio.AbstractEventLoop,
        send: Send,
    ) -> None:
        def out(message: dict[str, Any]) -> None:
            asyncio.run_coroutine_threadsafe(send(message), loop).result()

        status, headers = started["status"], started["headers"]
        out({"type": "http.response.start", "status": status, "headers": headers})
        for chunk in iterable:
            if chunk:
                out({"type": "http.response.body", "body": chunk, "more_body": True})
        out({"type": "http.response.body", "body": b""})


_GONE = object()


async def _unless_gone(work: asyncio.Future[Any], receive: Any) -> Any:
    """``work``'s result, or _GONE when the client went away first: a request still waiting
    for a thread is then never served (a reloaded page's poll costs no thread), one already
    running finishes unheard."""
    gone = asyncio.ensure_future(_disconnected(receive))
    try:
        await asyncio.wait({work, gone}, return_when=asyncio.FIRST_COMPLETED)
        if work.done():
            return work.result()
        work.cancel()
        return _GONE
    finally:
        gone.cancel()


async def _disconnected(receive: Any) -> None:
    # The body read, the server's next message is the client's going away (or, once the
    # answer is sent, the end of the exchange: this waiter is cancelled by then). A server
    # that says anything else has no going away to tell: nothing to wait for.
    if (await receive())["type"] != "http.disconnect":
        await asyncio.get_running_loop().create_future()


def _close_connections() -> None:
    from django.db import connections

    connections.close_all()


def _length(headers: list[tuple[bytes, bytes]]) -> int | None:
    for name, value in headers:
        if name == b"content-length" and value.isdigit():
            return int(value)
    return None


def _streaming(iterable: Any) -> bool:
    # Django's response is the iterable it hands to the server: a StreamingHttpResponse (or a
    # FileResponse, as WhiteNoise's) says so; an ordinary response holds its content already.
    return bool(getattr(iterable, "streaming", False))


async def _answer(send: Send, status: int, text: bytes) -> None:
    headers = [(b"content-type", b"text/plain; charset=utf-8")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": text})
