"""Presence (ONLINE.md 4): while a person's seat page is visible it beats every few seconds
(static/js/presence.js); the others see "Ada is away" after 10 s without one. A beat is a
timestamp in the shared cache (Redis where configured), never a database row; an unreachable
cache drops beats and shows nobody away (fail open: a Redis outage must not mark a whole table
away). For any product that seats people at a game: online tables, online tournament duels."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import timezone

from core import redis_guard, shared_cache

#: A visible seat page beats this often, in seconds.
BEAT_SECONDS = 5
#: A person with no beat for this long is shown away.
AWAY_SECONDS = 10
#: How long a beat is kept in the cache (beyond it, no beat: away).
BEAT_KEPT = 120


def _key(game_id: int, seat: str) -> str:
    return f"presence:{game_id}:{seat}"


def now() -> float:
    """The presence clock (seconds): Django's, which a test moves."""
    return timezone.now().timestamp()


def beat(game_id: int, seat: str) -> None:
    """The person at ``seat`` of game ``game_id`` is here now (their page visible, a page
    load, a move)."""
    if seat:
        shared_cache.set(_key(game_id, seat), now(), BEAT_KEPT)


def away(game_id: int, seats: Iterable[str]) -> list[str]:
    """Of ``seats`` (people's seats still in play), those whose last beat is older than
    AWAY_SECONDS, in order, read in one round trip; none when the cache cannot be reached."""
    keys = {_key(game_id, s): s for s in sorted(seats)}
    if not keys:
        return []
    try:
        seen = shared_cache.call(lambda: shared_cache.cache.get_many(list(keys)))
    except redis_guard.Unavailable:
        return []
    moment = now()
    return [
        seat
        for key, seat in keys.items()
        if not isinstance(seen.get(key), float) or moment - seen[key] > AWAY_SECONDS
    ]
