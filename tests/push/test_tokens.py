"""A stream's token (issue 28, core.push): what a checked view signed, and nothing else, opens
a stream. Forged, altered, expired, oversized tokens and topics that could break a frame are
refused; a token names at most MAX_TOPICS topics. And sending never fails the change that
announced it: off, or with Redis unreachable, `push.send` returns None."""

import time

import pytest
from django.core import signing

from core import push
from tests.integration.redis_fault import free_port

PUBLIC = "public:harbour-cup:home"
PRIVATE = "tournament:7"


def test_a_token_grants_exactly_the_topics_it_was_signed_for():
    token = push.token_for([PRIVATE, PUBLIC, PRIVATE])
    assert push.topics_of(token) == sorted([PRIVATE, PUBLIC])


@pytest.mark.parametrize(
    "tamper",
    [
        lambda token: token[:-1] + ("A" if token[-1] != "A" else "B"),  # signature altered
        lambda token: "." + token[1:] if token[0] != "." else token[1:],  # payload altered
        lambda token: token.replace(":", "", 1),
        lambda token: "",
        lambda token: "not-a-token",
    ],
    ids=["signature", "payload", "framing", "empty", "garbage"],
)
def test_an_altered_token_is_refused(tamper):
    assert push.topics_of(tamper(push.token_for([PRIVATE]))) is None


def test_a_token_signed_for_something_else_is_refused():
    # The site's key, another salt (a signed cookie, another form's token): not a stream's.
    assert push.topics_of(signing.dumps([PRIVATE], compress=True)) is None
    assert push.topics_of(signing.dumps([PRIVATE], salt="other", compress=True)) is None
    # Another key altogether: forged.
    forged = signing.dumps([PRIVATE], key="guessed", salt=push.TOKEN_SALT, compress=True)
    assert push.topics_of(forged) is None


def test_a_token_expires(monkeypatch):
    fresh = push.token_for([PRIVATE])
    then = int(time.time()) - push.TOKEN_SECONDS - 5
    monkeypatch.setattr(signing.TimestampSigner, "timestamp", lambda self: signing.b62_encode(then))
    old = push.token_for([PRIVATE])
    monkeypatch.undo()
    assert push.topics_of(fresh) == [PRIVATE]
    assert push.topics_of(old) is None
    assert push.topics_of(fresh, max_age=-1) is None


def test_an_oversized_or_odd_token_is_refused_even_when_signed():
    many = [f"tournament:{n}" for n in range(400)]
    big = signing.dumps(many, salt=push.TOKEN_SALT)  # signed, but not by token_for
    assert len(big) > 4096
    assert push.topics_of(big) is None
    # Signed, but not a list of valid topics: refused whole, not in part.
    for payload in ({"t": PRIVATE}, PRIVATE, [PRIVATE, 7], [PRIVATE, "tournament:7\nevent: x"]):
        assert push.topics_of(signing.dumps(payload, salt=push.TOKEN_SALT)) is None


def test_a_token_names_at_most_max_topics():
    topics = [f"tournament:{n}" for n in range(push.MAX_TOPICS + 5)]
    granted = push.topics_of(push.token_for(topics))
    assert granted is not None and len(granted) == push.MAX_TOPICS
    # Even one signed by hand with more is cut to the bound.
    signed = signing.dumps(topics, salt=push.TOKEN_SALT, compress=True)
    assert len(push.topics_of(signed)) == push.MAX_TOPICS


@pytest.mark.parametrize(
    "topic",
    [
        "tournament",  # no key
        "tournament:",
        ":7",
        "public:cup:home\n\nevent: change",  # would write a frame of its own
        "public:cup home",
        "public:<script>",
        "tournament:7,duel:3",  # the resume list's separator
        "tournament:7@3",  # the resume's
        "x:" + "a" * push.MAX_TOPIC_LENGTH,
    ],
)
def test_a_topic_that_could_break_a_frame_or_a_resume_is_never_signed(topic):
    assert not push.valid_topic(topic)
    assert push.topics_of(push.token_for([topic, PRIVATE])) == [PRIVATE]


# -- sending ---------------------------------------------------------------------------------


@pytest.fixture
def dead_redis(settings):
    """Push on, its Redis a port where nothing listens."""
    settings.PUSH_ENABLED = True
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/8"
    push.reset_client()
    yield
    push.reset_client()


def test_send_is_a_no_op_with_push_off(settings):
    settings.PUSH_ENABLED = False
    assert push.send(PRIVATE, 3) is None
    settings.PUSH_ENABLED, settings.REDIS_URL = True, ""
    assert push.send(PRIVATE, 3) is None
    assert push.stream([PRIVATE]) is None  # and pages get no stream: they poll


def test_send_never_raises_with_redis_unreachable(dead_redis):
    started = time.monotonic()
    assert push.send(PRIVATE, 3) is None
    assert push.send(PUBLIC, '"t7-v3"', "<div>3</div>", order=3) is None  # skipped: breaker
    push.on_change(PRIVATE, 4)  # the publish point's listener: no error either
    assert push.breaker.is_open
    assert time.monotonic() - started < 2


def test_a_private_topic_never_carries_content(dead_redis):
    with pytest.raises(ValueError, match="private"):
        push.send(PRIVATE, 3, "<div>secret</div>")


def test_a_page_is_given_its_stream_and_how_to_renew_it(settings):
    settings.PUSH_ENABLED, settings.REDIS_URL = True, "redis://127.0.0.1:6379/8"
    given = push.stream([PUBLIC, PRIVATE, PUBLIC])
    assert given is not None
    assert given["topics"] == f"{PUBLIC} {PRIVATE}"
    assert given["renew"] == "/push/token"
    path, _, query = given["url"].partition("?t=")
    assert path == settings.PUSH_PATH
    assert push.topics_of(query) == sorted([PUBLIC, PRIVATE])
