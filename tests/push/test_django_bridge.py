"""Django inside the ASGI web process (config/django_bridge.py): one hand-off per request for
an ordinary response, chunk by chunk for a big streaming one, a request's body read whole and
bounded."""

import asyncio
from typing import Any

from config import django_bridge
from config.django_bridge import DjangoBridge
from tests.push.sse import run

SCOPE = {
    "type": "http",
    "http_version": "1.1",
    "method": "POST",
    "path": "/echo/",
    "query_string": b"a=1",
    "headers": [(b"content-type", b"text/plain"), (b"x-thing", b"yes")],
    "client": ("10.0.0.7", 5000),
    "server": ("testserver", 80),
}


class Streaming:
    """What Django hands a server for a StreamingHttpResponse: iterable, `streaming`."""

    streaming = True

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.closed = False

    def __iter__(self):
        return iter(self.chunks)

    def close(self) -> None:
        self.closed = True


def call(app, body_parts: list[bytes], *, gone: bool = False) -> list[dict[str, Any]]:
    """What the bridge sends for a request whose body comes in ``body_parts``; the client
    then waits for its answer, or, ``gone``, goes away."""
    sent: list[dict[str, Any]] = []
    parts = list(body_parts)

    async def receive():
        if parts:
            part = parts.pop(0)
            return {"type": "http.request", "body": part, "more_body": bool(parts)}
        if gone:
            return {"type": "http.disconnect"}
        await asyncio.Event().wait()  # as a server does: the client stays for its answer

    async def send(message):
        sent.append(message)

    async def test():
        await DjangoBridge(app, threads=2)(dict(SCOPE), receive, send)

    run(test)
    return sent


def test_a_request_reaches_django_whole_and_its_answer_leaves_in_one_piece():
    seen = {}

    def app(environ, start_response):
        seen["body"] = environ["wsgi.input"].read()
        seen["where"] = (environ["PATH_INFO"], environ["QUERY_STRING"], environ["REMOTE_ADDR"])
        seen["header"] = environ["HTTP_X_THING"]
        start_response("201 Created", [("Content-Type", "text/plain"), ("X-Answer", "42")])
        return [b"made ", b"it"]

    sent = call(app, [b"first ", b"second"])
    assert seen == {
        "body": b"first second",
        "where": ("/echo/", "a=1", "10.0.0.7"),
        "header": "yes",
    }
    assert sent[0]["status"] == 201 and (b"x-answer", b"42") in sent[0]["headers"]
    assert sent[1:] == [{"type": "http.response.body", "body": b"made it"}]


def test_a_big_streaming_answer_goes_chunk_by_chunk_and_is_closed(monkeypatch):
    monkeypatch.setattr(django_bridge, "HOLD_AT_MOST", 10)
    response = Streaming([b"0123456789", b"abcdefghij", b"KLMNOP"])

    def app(environ, start_response):
        start_response("200 OK", [("Content-Length", "26")])
        return response

    sent = call(app, [b""])
    bodies = [m["body"] for m in sent if m["type"] == "http.response.body"]
    assert bodies == [b"0123456789", b"abcdefghij", b"KLMNOP", b""]
    assert response.closed


def test_a_small_file_is_held_and_sent_at_once():
    response = Streaming([b"body {", b" color: red }"])

    def app(environ, start_response):
        start_response("200 OK", [("Content-Length", "19")])
        return response

    sent = call(app, [b""])
    assert sent[1:] == [{"type": "http.response.body", "body": b"body { color: red }"}]
    assert response.closed


def test_a_body_too_big_is_refused_before_django(monkeypatch):
    monkeypatch.setattr(django_bridge, "BODY_AT_MOST", 8)
    called = []

    def app(environ, start_response):
        called.append(True)
        start_response("200 OK", [])
        return [b""]

    sent = call(app, [b"12345", b"67890"])
    assert sent[0]["status"] == 413 and not called


def test_a_client_gone_before_its_body_came_costs_django_nothing():
    called = []

    def app(environ, start_response):
        called.append(True)
        return [b""]

    sent = call(app, [], gone=True)  # the client is gone before any of its body came
    assert sent == [] and called == []


def test_a_write_waiting_for_a_thread_is_served_before_the_reads_that_came_earlier():
    """Every thread busy, two polls then a move waiting: the move is served first, then the
    polls in their order of arrival (issue 31: a person's move waits behind no poll)."""
    import threading

    threads = django_bridge.Threads(1)
    busy, served = threading.Event(), []
    first = threads.submit(False, busy.wait, 10)
    polls = [threads.submit(False, served.append, name) for name in ("poll 1", "poll 2")]
    move = threads.submit(True, served.append, "move")
    busy.set()
    for future in [first, *polls, move]:
        future.result(timeout=10)
    threads.shutdown()
    assert served == ["move", "poll 1", "poll 2"]


def test_a_request_that_fails_hands_its_error_to_its_caller_and_the_thread_serves_on():
    threads = django_bridge.Threads(1)

    def fail() -> None:
        raise ValueError("no such table")

    failed = threads.submit(True, fail)
    after = threads.submit(False, lambda: "served")
    try:
        failed.result(timeout=10)
    except ValueError as error:
        assert str(error) == "no such table"
    else:
        raise AssertionError("the error was not handed on")
    assert after.result(timeout=10) == "served"
    threads.shutdown()


def test_each_thread_runs_the_stop_work_as_it_stops():
    """How each of Django's threads closes its database connection at shutdown."""
    import threading

    stopped = []
    threads = django_bridge.Threads(3, on_stop=lambda: stopped.append(threading.get_ident()))
    threads.submit(False, lambda: None).result(timeout=10)
    threads.shutdown(wait=True)
    assert len(set(stopped)) == 3


def test_the_threads_start_with_the_first_request_not_before():
    """An application built before gunicorn forks (preload_app) must not leave its threads in
    the parent: they start when the first request comes, in the process that serves it."""
    threads = django_bridge.Threads(2)
    assert threads._threads == []
    assert threads.submit(True, lambda: "served").result(timeout=10) == "served"
    assert len(threads._threads) == 2 and all(t.is_alive() for t in threads._threads)
    threads.shutdown(wait=True)


class Clock:
    """The pool's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def blocked(count: int = 1, **options: Any):
    """A pool of ``count`` threads, each kept busy until the returned event is set."""
    import threading

    threads = django_bridge.Threads(count, **options)
    busy = threading.Event()
    for _ in range(count):
        threads.submit(True, busy.wait, 10)
    return threads, busy


def test_a_read_is_overtaken_by_later_writes_for_its_grace_only():
    """Writes never starve the reads: a poll waiting longer than READ_GRACE is served before
    the writes that came after that."""
    clock = Clock()
    threads, busy = blocked(clock=clock)
    served: list[str] = []
    futures = [threads.submit(False, served.append, "poll")]
    clock.now += django_bridge.READ_GRACE / 2
    futures.append(threads.submit(True, served.append, "move within the grace"))
    clock.now += django_bridge.READ_GRACE
    futures.append(threads.submit(True, served.append, "move after it"))
    busy.set()
    for future in futures:
        future.result(timeout=10)
    threads.shutdown()
    assert served == ["move within the grace", "poll", "move after it"]


def test_a_request_cancelled_while_it_waits_is_never_served():
    threads, busy = blocked()
    served: list[str] = []
    dropped = threads.submit(False, served.append, "a poll whose page went away")
    kept = threads.submit(False, served.append, "the next")
    assert dropped.cancel()
    busy.set()
    kept.result(timeout=10)
    threads.shutdown()
    assert served == ["the next"]


def test_a_client_gone_while_its_request_waits_costs_django_nothing():
    """A reloaded page's poll, still waiting for a thread when its connection closes, is
    never served: the bridge answers nothing and Django never sees it."""
    bridge = DjangoBridge(lambda environ, start: [b""], threads=1)
    called = []

    def app(environ, start_response):
        called.append(True)
        start_response("200 OK", [])
        return [b""]

    bridge.app = app
    import threading

    busy = threading.Event()
    bridge.threads.submit(True, busy.wait, 10)
    sent: list[dict[str, Any]] = []
    parts = [b""]

    async def receive():
        if parts:
            parts.pop()
            return {"type": "http.request", "body": b"", "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    async def test():
        await bridge(dict(SCOPE, method="GET"), receive, send)

    run(test)
    busy.set()
    bridge.threads.shutdown()
    assert sent == [] and called == []


def test_a_post_goes_first_and_a_get_waits_its_grace():
    """The bridge tells the pool which requests go first: writes (by the method) and the
    health probes (by the path), nothing the client could claim otherwise."""
    seen = []

    def app(environ, start_response):
        start_response("204 No Content", [])
        return [b""]

    bridge = DjangoBridge(app, threads=1)
    submit = bridge.threads.submit

    def recording(first, work, *args):
        seen.append(first)
        return submit(first, work, *args)

    bridge.threads.submit = recording  # type: ignore[method-assign]
    bodies: list[bytes] = []

    async def receive():
        if not bodies:
            bodies.append(b"")
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client waits for its answer

    async def send(message):
        pass

    async def test():
        for method, path in [
            ("POST", "/echo/"),
            ("GET", "/echo/"),
            ("DELETE", "/echo/"),
            ("HEAD", "/echo/"),
            ("GET", "/healthz"),  # a probe must not wait behind the crowd's polls
        ]:
            bodies.clear()
            await bridge(dict(SCOPE, method=method, path=path), receive, send)

    run(test)
    bridge.threads.shutdown()
    assert seen == [True, False, True, False, True]


def test_every_error_is_handed_to_the_request_even_one_that_is_no_exception():
    class Stopped(BaseException):
        pass

    threads = django_bridge.Threads(1)

    def stop() -> None:
        raise Stopped()

    failed = threads.submit(True, stop)
    assert isinstance(failed.exception(timeout=10), Stopped)
    assert threads.submit(True, lambda: "served").result(timeout=10) == "served"
    threads.shutdown()


def test_shutting_down_serves_what_waits_then_refuses_more():
    threads, busy = blocked()
    served: list[str] = []
    waiting = [threads.submit(False, served.append, n) for n in ("one", "two")]
    threads.shutdown(wait=False)
    busy.set()
    for future in waiting:
        future.result(timeout=10)
    assert served == ["one", "two"]
    try:
        threads.submit(True, served.append, "late")
    except RuntimeError:
        pass
    else:
        raise AssertionError("a request was taken after the shutdown")


def test_a_pool_without_threads_is_refused():
    try:
        django_bridge.Threads(0)
    except ValueError:
        pass
    else:
        raise AssertionError("a pool of no thread would leave every request waiting")


def test_a_forked_process_starts_threads_of_its_own(monkeypatch):
    """After a fork the parent's threads are not the child's: the first request in the child
    starts its own."""
    threads = django_bridge.Threads(1)
    assert threads.submit(True, lambda: "parent").result(timeout=10) == "parent"
    parent_threads = list(threads._threads)
    monkeypatch.setattr(django_bridge.os, "getpid", lambda: -1)
    assert threads.submit(True, lambda: "child").result(timeout=10) == "child"
    assert threads._threads and threads._threads[0] not in parent_threads
    threads.shutdown()
