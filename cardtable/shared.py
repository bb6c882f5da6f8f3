"""The public card table drawn once per change and shared (issue 31's capacity): the htmx
answer of a spectator's poll (an online table's watch link, an online tournament duel's public
page) is the same for every spectator of the game at that moment, so it is rendered once and
kept in the shared cache (``core.shared_cache``: Redis where configured, else this process's
memory); five spectators of a table cost one render and four cache reads, not five renders.

What is shared is only what is the same for everyone who may see it: the table's partial for
the public viewer, which holds no hand, no form, no CSRF token and no CSP nonce (a referee's
page, with its endings form, is never shared, nor a whole page: each carries its own nonce
and stream token). The key names the game, its revision and its row's last change (a
deadline or a set-up changed without a new revision), the language, and everything else the
caller draws beside the game (who is away, the seats' clock deadlines, the names, the
product's own state): a change of any is another key, so nothing is ever invalidated.

The seat clocks' time left and the server's "now" (``cardtable.forms.countdown``) are the
only part that differs from one instant to the next: the shared copy is drawn with marks in
their place, and each answer puts the figures of its own instant in them."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

from core import shared_cache
from play import clock

from .forms import countdown

#: How long a drawn table is kept: a revision's copy is dead once the game moves on, so it
#: only needs to outlive the spectators' polls of one revision (pushed at once, else every
#: 2 s, at the latest the 30 s slow poll). About 7 kB in Redis each: at the target's 38 moves
#: a second, some 8 MB kept at any moment.
FRAGMENT_SECONDS = 30
#: The random mark's length (hex digits): the figures' places in a shared copy.
MARK_DIGITS = 16

Clocks = list[tuple[str, dict[str, Any] | None]]


def seat_clocks(deadlines: Mapping[str, datetime], mark: str = "") -> Clocks:
    """Every seat's clock while it is asked something (ONLINE.md 3), as the card table shows
    them on the tiles: the time left now (``countdown``), or, with ``mark``, the marks a shared
    copy carries in place of the time left and of the server's now."""
    if not mark:
        return [(letter, countdown(at)) for letter, at in sorted(deadlines.items())]
    return [
        (
            letter,
            {
                "left": f"{mark}left-{letter}{mark}",
                "deadline": int(at.timestamp() * 1000),
                "now": f"{mark}now{mark}",
            },
        )
        for letter, at in sorted(deadlines.items())
    ]


def public_answer(
    request: HttpRequest,
    *,
    game: Any,
    parts: Sequence[Any],
    deadlines: Mapping[str, datetime],
    draw: Callable[[Clocks], HttpResponse],
) -> HttpResponse:
    """The public card table's htmx answer, drawn by ``draw(seat_clocks)`` once for ``game``
    (its revision and last change), the request's language, the ``deadlines`` of the seat
    clocks and ``parts`` (whatever else the caller draws beside the game), and shared. A
    request that is not htmx's (a whole page) is drawn for itself. An answer that is not a
    200 is not shared."""
    if not request.htmx:
        return draw(seat_clocks(deadlines))
    stamp = game.updated_at.timestamp() if game.updated_at else None
    shown = sorted((letter, at.timestamp()) for letter, at in deadlines.items())
    source = repr((translation.get_language(), game.pk, game.revision, stamp, shown, *parts))
    key = "cardtable:public:" + hashlib.sha256(source.encode()).hexdigest()
    drawn: list[HttpResponse] = []

    def render() -> str:
        mark = secrets.token_hex(MARK_DIGITS // 2)
        response = draw(seat_clocks(deadlines, mark))
        drawn.append(response)
        if response.status_code != 200:
            raise _NotShared()
        return mark + response.content.decode()

    try:
        copy = shared_cache.render_once(key, render, FRAGMENT_SECONDS)
    except _NotShared:
        return drawn[0]
    mark, text = copy[:MARK_DIGITS], copy[MARK_DIGITS:]
    response = HttpResponse(_with_figures(text, mark, deadlines))
    patch_vary_headers(response, ["HX-Request"])
    return response


class _NotShared(Exception):
    """The draw answered other than 200: answered as it is, kept nowhere."""


def _with_figures(text: str, mark: str, deadlines: Mapping[str, datetime]) -> str:
    """A shared copy with this instant's figures in its marks: the time left on each seat's
    clock and the server's now, as ``countdown`` says them."""
    if mark not in text:
        return text
    now = clock.now()
    text = text.replace(f"{mark}now{mark}", str(int(now.timestamp() * 1000)))
    for letter, at in deadlines.items():
        left = countdown(at)
        assert left is not None
        text = text.replace(f"{mark}left-{letter}{mark}", left["left"])
    return text
