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

The threads (`Threads`) take the waiting requests writes first: a move is the next request
served however many polls wait (issue 31's capacity; docs/performance.md, "Writes first, two
threads"). The standard library's thread pool serves in order of arrival only.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import logging
import queue
import threading
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


class Threads:
    """Django's threads, taking the waiting requests writes first, each kind in its order of
    arrival. A person's move waits behind no poll: when every thread is busy (a crowd of
    pages polling), the move is the next request served, so its answer's time is its own
    work's, not the crowd's (issue 31's capacity, docs/performance.md "Writes first")."""

    _STOP = 2  # after every request: a thread stops once the queue holds nothing else

    def __init__(self, count: int, on_stop: Callable[[], Any] = lambda: None) -> None:
        self.count = count
        self._on_stop = on_stop
        self._queue: queue.PriorityQueue[tuple[int, int, Any]] = queue.PriorityQueue()
        self._order = itertools.count()
        self._threads: list[threading.Thread] = []
        self._starting = threading.Lock()

    def submit(self, first: bool, work: Callable[..., Any], *args: Any) -> Future[Any]:
        # The threads start with the first request, not with the application: an application
        # built before a fork (gunicorn's preload_app) would otherwise leave its threads in the
        # parent, and every request of the child would wait for ever.
        if not self._threads:
            self._start()
        future: Future[Any] = Future()
        self._queue.put((0 if first else 1, next(self._order), (future, work, args)))
        return future

    def _start(self) -> None:
        with self._starting:
            if self._threads:
                return
            threads = [
                threading.Thread(target=self._serve, name=f"django_{i}", daemon=True)
                for i in range(self.count)
            ]
            for thread in threads:
                thread.start()
            self._threads = threads

    def shutdown(self, wait: bool = True) -> None:
        for _ in self._threads:
            self._queue.put((self._STOP, next(self._order), None))
        if wait:
            for thread in self._threads:
                thread.join()

    def _serve(self) -> None:
        while True:
            _, _, item = self._queue.get()
            if item is None:
                self._on_stop()
                return
            future, work, args = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = work(*args)
            except BaseException as error:  # noqa: BLE001 - handed to the awaiting request
                future.set_exception(error)
            else:
                future.set_result(result)


class DjangoBridge:
    def __init__(self, wsgi_app: Callable[..., Iterable[bytes]], threads: int) -> None:
        self.app = wsgi_app
        # Each thread closes its database connection as it stops (kept open between requests,
        # CONN_MAX_AGE): left open, it would outlive the process's shutdown, or keep a test's
        # database from being dropped.
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
        first = scope.get("method") in WRITES
        whole = await asyncio.wrap_future(
            self.threads.submit(first, self._run, environ, loop, send), loop=loop
        )
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
