"""What the pages of the two practice products share (the Split UNO duel, practice/views.py;
Trois and CPT-113, practice/game_views.py): opening the person's table, answering a move
posted through the table core's write path — 404 for someone else's, 409 for a page another
tab overtook or a game that cannot be replayed, 422 for a refused move, "already recorded"
for the same form again — and the page said to be one that cannot be replayed. Each product
names its own binding, addresses, words and page (``Pages``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from play.errors import Hidden, Stale
from play.errors import Refused as Illegal

from .game import Refused, Unreplayable
from .seat import Played
from .words import ALREADY_RECORDED, TOO_LATE, UNREPLAYABLE, UNREPLAYABLE_TITLE

REFUSED = 422
STALE = 409

#: The page of a table: (request, binding, the person's view, error=, status=, notice=).
Draw = Callable[..., HttpResponse]


@dataclass(frozen=True)
class Pages:
    """One product's part: its binding's ``DoesNotExist`` (``missing``) and the words of the
    404, the names of its list's and its table's addresses, the words of a page another tab
    overtook, how it opens a table (``open``: the binding and the person's view, raising
    ``missing`` or Unreplayable) and how it draws one (``draw``)."""

    missing: type[Exception]
    not_found: str  # English source strings (practice/words.py), translated when shown
    listing: str
    table: str
    moved_on: str
    open: Callable[[int, Any], tuple[Any, Any]]
    draw: Draw


def unreplayable(request: HttpRequest, back: str, status: int = 200) -> HttpResponse:
    """A stored game today's code cannot set out again (practice.game.Unreplayable): said in
    words, with the way back to the list; the game stays stored."""
    context = {"title": gettext(UNREPLAYABLE_TITLE), "words": gettext(UNREPLAYABLE), "back": back}
    return render(request, "practice/unreplayable.html", context, status=status)


def show(request: HttpRequest, pages: Pages, pk: int) -> HttpResponse:
    """The person's table as it is now."""
    try:
        binding, view = pages.open(pk, request.user)
    except pages.missing:
        raise Http404(gettext(pages.not_found)) from None
    except Unreplayable:
        return unreplayable(request, pages.listing)
    return pages.draw(request, binding, view)


def answer_move(
    request: HttpRequest, pages: Pages, pk: int, play: Callable[[], Played[Any]]
) -> HttpResponse:
    """The answer to a posted move: ``play`` parses the form and applies it through the write
    path (any of it may raise); the table again with why the move was not (or not again)
    made — a page another tab overtook, a refusal, a repeat, a game whose time ran out
    first — or to the table when it was."""
    try:
        played = play()
    except (pages.missing, Hidden):
        raise Http404(gettext(pages.not_found)) from None
    except Unreplayable:
        return unreplayable(request, pages.listing, status=STALE)
    except Stale:
        return _again(request, pages, pk, gettext(pages.moved_on), STALE)
    except (Refused, Illegal) as err:
        return _again(request, pages, pk, str(err), REFUSED)
    if played.repeat:
        return _again(request, pages, pk, gettext(ALREADY_RECORDED), 200, notice=True)
    if played.late:
        # The clock ended the game first: the table, its result and why the move was not
        # made (never a silent redirect to a finished game).
        return _again(request, pages, pk, gettext(TOO_LATE), 200, notice=True)
    if getattr(request, "htmx", False):
        # htmx swaps the table in place: it is drawn at once, not after a redirect.
        binding, view = pages.open(pk, request.user)
        return pages.draw(request, binding, view)
    return redirect(pages.table, pk)


def _again(
    request: HttpRequest, pages: Pages, pk: int, words: str, status: int, notice: bool = False
) -> HttpResponse:
    """The table as it is now, with why the move was not (or not again) made."""
    try:
        binding, view = pages.open(pk, request.user)
    except Unreplayable:
        return unreplayable(request, pages.listing, status=STALE)
    if notice:
        return pages.draw(request, binding, view, notice=words, status=status)
    return pages.draw(request, binding, view, error=words, status=status)
