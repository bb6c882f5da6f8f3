"""The one publish point (DESIGN.md): a write says "this game / tournament changed" here, and
the news leaves only once the write commits — never for a refused or rolled-back change.

A topic is a plain string: ``game:<pk>``, ``tournament:<pk>``. What hears it is connected
with ``listen``: nothing yet (a later step of issue 27 connects push to open pages; until then
pages learn of a change by their conditional poll). A listener that fails is logged and never
fails the request, whose change has committed already.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import transaction

logger = logging.getLogger(__name__)

Listener = Callable[[str], None]
_listeners: list[Listener] = []


def publish_at_commit(topic: str) -> None:
    """Announces ``topic`` to every listener once the current transaction commits (at once
    outside a transaction, as Django's on_commit does)."""
    transaction.on_commit(lambda: _deliver(topic))


def listen(listener: Listener) -> Callable[[], None]:
    """Connects ``listener``; returns what disconnects it."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener)


def _deliver(topic: str) -> None:
    for listener in list(_listeners):
        try:
            listener(topic)
        except Exception:
            logger.exception("a listener failed on %s", topic)
