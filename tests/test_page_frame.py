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
    with timezone.override("Europe/Paris"):
        assert ours.render({}) == django_s.render({})
        assert re.fullmatch(r"\d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d", ours.render({}))
    with timezone.override("UTC"):
        assert ours.render({}) == django_s.render({})
    calls = []
    original = public_frame.dateformat.format
    monkeypatch.setattr(
        public_frame.dateformat, "format", lambda *a: calls.append(a) or original(*a)
    )
    public_frame._printed = ((None, -1), "")
    for _ in range(3):
        ours.render({})
    assert len(calls) == 1
