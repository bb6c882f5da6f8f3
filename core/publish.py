"""The one publish point (DESIGN.md): a write says "this game / tournament changed" here, and
the news leaves only once the write commits — never for a refused or rolled-back change.

A topic is a plain string: ``game:<pk>``, ``tournament:<pk>``; with it goes the version the
change made (a game's revision, a tournament's version), which a page fetching the news
carries so that no copy older than it answers. What hears it is connected with ``listen``:
push to open pages (`core.push`, issue 28, connected in CoreConfig.ready when Redis is
configured) and whatever else an app connects. Pages without push learn of a change by their
conditional poll. A listener that fails is logged and never fails the request, whose change
has committed already.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import transaction

logger = logging.getLogger(__name__)

Version = int | str | None
Listener = Callable[[str, Version], None]
_listeners: list[Listener] = []


def publish_at_commit(topic: str, version: Version = None) -> None:
    """Announces ``topic`` (at ``version``) to every listener once the current transaction
    commits (at once outside a transaction, as Django's on_commit does)."""
    transaction.on_commit(lambda: _deliver(topic, version))


def listen(listener: Listener) -> Callable[[], None]:
    """Connects ``listener``; returns what disconnects it."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener)


def _deliver(topic: str, version: Version) -> None:
    for listener in list(_listeners):
        try:
            listener(topic, version)
        except Exception:
            logger.exception("a listener failed on %s", topic)
