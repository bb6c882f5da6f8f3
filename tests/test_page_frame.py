"""The cheap per-request parts of a page's frame: the message storage's signer made only when
a message is there (core.messages), the printed page's time worked out once a minute."""

import re

from django.contrib import messages
from django.http import HttpResponse
from django.template import engines
from django.test import RequestFactory
from django.utils import timezone

from core.messages import FallbackStorage
from tournaments.templatetags import public_frame


def test_a_request_without_a_message_makes_no_signer():
    request = RequestFactory().get("/")
    request.session = {}
    storage = FallbackStorage(request)
    assert list(storage) == []
    assert "signer" not in storage.storages[0].__dict__


def test_a_message_still_travels_in_its_signed_cookie():
    """Set in a cookie, read on the next request; a cookie someone changed is ignored."""
    first = RequestFactory().get("/")
    first.session = {}
    storage = FallbackStorage(first)
    storage.add(messages.INFO, "Saved.")
    response = HttpResponse()
    storage.update(response)
    value = response.cookies["messages"].value

    def read(cookie: str) -> list[str]:
        request = RequestFactory().get("/")
        request.session = {}
        request.COOKIES["messages"] = cookie
        return [str(m) for m in FallbackStorage(request)]

    assert read(value) == ["Saved."]
    assert read(value[:-3] + ("abc" if not value.endswith("abc") else "xyz")) == []


def test_printed_at_is_the_minute_as_the_now_tag_writes_it(monkeypatch):
    engine = engines["django"]
    ours = engine.from_string("{% load public_frame %}{% printed_at %}")
    django_s = engine.from_string('{% now "j F Y, H:i" %}')

    def agree() -> None:
        # Read ours on both sides of Django's: a minute may turn between two readings.
        before, theirs, after = ours.render({}), django_s.render({}), ours.render({})
        assert theirs in (before, after)
        assert re.fullmatch(r"\d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d", theirs)

    with timezone.override("Pacific/Kiritimati"):  # UTC+14: another day than UTC, mostly
        agree()
    with timezone.override("UTC"):
        agree()
    calls = []
    original = public_frame.dateformat.format
    monkeypatch.setattr(
        public_frame.dateformat, "format", lambda *a: calls.append(a) or original(*a)
    )
    monkeypatch.setattr(public_frame.time, "time", lambda: 1_800_000_000.0)
    public_frame._printed = ((None, None, -1), "")
    for _ in range(3):
        ours.render({})
    assert len(calls) == 1
    monkeypatch.setattr(public_frame.time, "time", lambda: 1_800_000_060.0)
    ours.render({})
    assert len(calls) == 2  # the next minute


def test_djangos_cookie_storage_still_makes_only_its_signer_in_init():
    """core.messages skips CookieStorage.__init__ for its signer alone: were Django to set
    anything else there, this says so before a message goes missing."""
    from django.contrib.messages.storage import base, cookie

    request = RequestFactory().get("/")
    theirs, plain = cookie.CookieStorage(request), base.BaseStorage(request)
    assert set(vars(theirs)) - set(vars(plain)) == {"signer"}


def test_every_request_uses_this_message_storage(client):
    response = client.get("/healthz")
    assert type(response.wsgi_request._messages) is FallbackStorage
