"""Push to open pages (issue 28), the sending side: what the web processes and the worker do.

A change is announced once, at commit, through the one publish point (`core.publish`); this
module is its listener when push is on (Redis configured). It stores the topic's last message
and publishes it on one Redis channel in a single round trip (a Lua script: the topic's next
message number, the stored copy a reconnecting stream resumes from, the publish). The stream
processes (`core.streams`) hold the open pages and fan each message out to the streams of
its topic.

A message is the topic, a number that orders the topic's messages (from Redis, so it holds
across processes; at least Redis's clock in milliseconds, so it keeps growing after a Redis
restart that lost the counter — a page drops a number it has passed), the domain's version
(a game's revision, a tournament's version, a public fragment's tag) and, on a **public**
topic only, the fragment itself, rendered once for every spectator. A **private** topic (a
console, a table, `/me/`, the organiser's pages) carries only its topic and version: the page
fetches what changed through its own checked view.

Who may listen to what is decided by the Django view that issues a stream's token (a page
lists its topics; `token_for` signs them): the stream server only checks the signature and
its age. A topic kind registers its access check (`register`), used by the token view that a
page asks when its token has expired (`core.views.stream_token`).

Redis may fail; the site may not: a send is skipped while its breaker is open and never fails
the committed change. A message lost that way is caught by the pages' slower poll (every
`PUSH_POLL_SECONDS` while a stream is up).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest

from core import redis_guard

logger = logging.getLogger(__name__)

LAST_PREFIX = "push:last:"  # the topic's last message, for a stream that resumes
SEQ_PREFIX = "push:n:"  # the topic's message counter
VERSION_PREFIX = "push:v:"  # the topic's last version, told to a stream as it opens
FOLLOW_PREFIX = "push:f:"  # a public topic an open page follows (core.streams marks it)
FOLLOW_SECONDS = 90  # a mark outlives the stream servers' refresh (every 30 s) with room
KEEP_SECONDS = 3600  # a page away longer than this reloads its news by its poll anyway
TOKEN_SALT = "core.push.stream"  # noqa: S105 - a signing salt, not a secret
MAX_TOPICS = 16  # a page follows a handful; a token is bounded like every input
MAX_TOPIC_LENGTH = 120

breaker = redis_guard.Breaker("push")

# KEYS: the topic's counter, its stored copy, its version. ARGV: the topic, the message's JSON
# body, the keep time, the channel, the version as JSON. The number goes in front of the body
# ("<n> <json>"), so that nobody has to parse JSON in Lua, and the stream server reads it
# without parsing the body either.
# The number is one more than the last, and never less than Redis's clock in milliseconds: a
# Redis restarted empty (compose keeps no data) would otherwise count from 1 again, and every
# open page, resuming from the numbers it saw, would drop each message until it got past them.
_SEND = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local n = (tonumber(redis.call('GET', KEYS[1])) or 0) + 1
if n < now then n = now end
n = string.format('%d', n)
redis.call('SET', KEYS[1], n, 'EX', tonumber(ARGV[3]) * 24)
local message = n .. ' ' .. ARGV[2]
redis.call('SET', KEYS[2], message, 'EX', tonumber(ARGV[3]))
redis.call('SET', KEYS[3], ARGV[5], 'EX', tonumber(ARGV[3]))
redis.call('PUBLISH', ARGV[4], ARGV[1] .. ' ' .. message)
return n
"""


def channel() -> str:
    """The one channel every stream process subscribes to. Redis's channels are shared by
    all its numbered databases: the database's number keeps two sites (or two test workers)
    on one Redis apart, as their keys are."""
    from urllib.parse import urlsplit

    number = urlsplit(settings.REDIS_URL).path.strip("/") or "0"
    return f"push.{number}"


def enabled() -> bool:
    """Push runs where Redis is configured; the embedded default polls."""
    return bool(settings.REDIS_URL) and getattr(settings, "PUSH_ENABLED", True)


_client_lock = threading.Lock()
_client: Any = None
_script: Any = None


def _redis() -> tuple[Any, Any]:
    global _client, _script
    with _client_lock:
        if _client is None:
            import redis

            # One try and short timeouts (retry=None): the breaker skips a Redis that failed.
            _client = redis.Redis.from_url(
                settings.REDIS_URL,
                socket_timeout=settings.REDIS_SOCKET_TIMEOUT,
                socket_connect_timeout=settings.REDIS_CONNECT_TIMEOUT,
                retry=None,
            )
            _script = _client.register_script(_SEND)
        return _client, _script


def reset_client() -> None:
    """Forget the client (a test that points REDIS_URL elsewhere)."""
    global _client, _script
    with _client_lock:
        _client = _script = None
    breaker.reset()


def is_public(topic: str) -> bool:
    return topic.startswith("public:")


def send(
    topic: str,
    version: int | str | None = None,
    html: str | None = None,
    *,
    order: int | None = None,
) -> int | None:
    """Publish now (the caller is past its commit). Returns the message's number, or None if
    push is off or Redis was skipped or failed (logged; the pages' poll catches up).

    `html`, only on a public topic: the fragment itself. `order`: the tournament version it
    was rendered at, so that a page never swaps in a fragment older than the one it shows."""
    if not enabled():
        return None
    body: dict[str, Any] = {"v": version}
    if order is not None:
        body["tv"] = order
    if html is not None:
        if not is_public(topic):
            raise ValueError(f"a private topic carries no content: {topic}")
        body["html"] = html
    text = json.dumps(body, separators=(",", ":"))
    try:
        _, script = _redis()
        return int(
            breaker.call(
                lambda: script(
                    keys=[SEQ_PREFIX + topic, LAST_PREFIX + topic, VERSION_PREFIX + topic],
                    args=[topic, text, KEEP_SECONDS, channel(), json.dumps(version)],
                )
            )
        )
    except redis_guard.Unavailable:
        logger.info("push skipped for %s (Redis unavailable)", topic)
        return None


def followed(topics: list[str]) -> set[str] | None:
    """Which of these public topics an open page follows now, as the stream servers mark them
    (`core.streams`: at a stream's opening, then every `FOLLOW_REFRESH` seconds, each mark
    kept `FOLLOW_SECONDS`), in one round trip; None when push is off or Redis is skipped.

    The worker asks before rendering a public part in a language other than the source one
    (issue 29, `tournaments.live_cache.wanted`): a language nobody watches is not rendered."""
    if not enabled() or not topics:
        return None
    try:
        client, _ = _redis()
        values = breaker.call(lambda: client.mget([FOLLOW_PREFIX + t for t in topics]))
    except redis_guard.Unavailable:
        logger.info("followed topics unreadable (Redis unavailable)")
        return None
    return {topic for topic, value in zip(topics, values, strict=True) if value}


def on_change(topic: str, version: int | str | None) -> None:
    """`core.publish`'s listener: a private topic's news, at commit."""
    if not is_public(topic):
        send(topic, version)


# -- tokens: which topics a stream may follow ------------------------------------------------

TOKEN_SECONDS = 600  # to open a stream; an open stream ends after STREAM_SECONDS anyway


def valid_topic(topic: str) -> bool:
    kind, _, rest = topic.partition(":")
    return (
        0 < len(topic) <= MAX_TOPIC_LENGTH
        and bool(kind)
        and bool(rest)
        and all(c.isalnum() or c in ":-_." for c in topic)
    )


def token_for(topics: Iterable[str]) -> str:
    """A signed, time-stamped list of topics: what the page's viewer was checked for."""
    chosen = sorted({t for t in topics if valid_topic(t)})[:MAX_TOPICS]
    return signing.dumps(chosen, salt=TOKEN_SALT, compress=True)


def topics_of(token: str, max_age: float = TOKEN_SECONDS) -> list[str] | None:
    """The topics a token grants, or None if it is forged, altered or too old."""
    if not token or len(token) > 4096:
        return None
    try:
        topics = signing.loads(token, salt=TOKEN_SALT, max_age=max_age)
    except signing.BadSignature:  # SignatureExpired is one
        return None
    if not isinstance(topics, list) or not all(
        isinstance(t, str) and valid_topic(t) for t in topics
    ):
        return None
    return topics[:MAX_TOPICS]


# -- who may follow a topic (for the token view) ---------------------------------------------

Check = Callable[[HttpRequest, str], bool]
_checks: dict[str, list[Check]] = {}


def register(kind: str, check: Check) -> None:
    """`check(request, key)` says whether the request's viewer may follow `<kind>:<key>`.
    Several apps may register for one kind (a game is a duel's, a table's or a practice
    game): a topic is allowed if one of them allows it."""
    checks = _checks.setdefault(kind, [])
    if check not in checks:
        checks.append(check)


def allowed(request: HttpRequest, topic: str) -> bool:
    if not valid_topic(topic):
        return False
    kind, _, key = topic.partition(":")
    for check in _checks.get(kind, ()):
        try:
            if check(request, key):
                return True
        except Exception:  # noqa: BLE001 - a malformed key is a refusal, not an error page
            logger.info("topic refused: %s", topic, exc_info=True)
    return False


def stream(topics: Iterable[str]) -> dict[str, str] | None:
    """What a page puts in its `push` meta tag for topics its view has checked already: the
    stream's address and how to renew it; None when push is off (the page polls)."""
    chosen = sorted(set(topics))
    if not enabled() or not chosen:
        return None
    from django.urls import reverse

    return {
        "url": f"{settings.PUSH_PATH}?t={token_for(chosen)}",
        "renew": reverse("stream_token"),
        "topics": " ".join(chosen),
        "slow": str(settings.PUSH_POLL_SECONDS),
        "ready": str(settings.PUSH_READY_SECONDS),
    }
