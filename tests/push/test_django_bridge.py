"""Django inside the ASGI web process (config/django_bridge.py): one hand-off per request for
an ordinary response, chunk by chunk for a big streaming one, a request's body read whole and
bounded."""

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


def call(app, body_parts: list[bytes]) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    parts = list(body_parts)

    async def receive():
        if parts:
            part = parts.pop(0)
            return {"type": "http.request", "body": part, "more_body": bool(parts)}
        return {"type": "http.disconnect"}

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

    sent = call(app, [])  # the client is gone before any of its body came
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
    import threading

    before = threading.active_count()
    threads = django_bridge.Threads(2)
    assert threading.active_count() == before
    assert threads.submit(True, lambda: "served").result(timeout=10) == "served"
    assert threading.active_count() == before + 2
    threads.shutdown(wait=True)
