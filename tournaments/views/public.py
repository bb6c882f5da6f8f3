"""Public and live pages of a tournament (issue 9), mounted under /t/<slug>/.

Visible to anyone once the tournament is published, and before that to its own people only
(`accounts.permissions.can_view`, through `tournament_view`: 404 to everyone else).

Live parts: each page's changing content is one partial, `live`, which polls its own URL
with htmx. The partial carries its version tag and sends it back as `If-None-Match`; an
unchanged poll is answered 304 after one query, and htmx (configured in base.html) swaps
nothing. Sending the tag ourselves matters: left to the browser cache, a 304 would reach
htmx as a 200 with the old body and be swapped in again (DESIGN.md, pitfalls). The live
partials are the same for everyone who may see the page, so one tag serves every viewer.
"""

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from accounts.permissions import Action, can
from core.http import cache_headers, not_modified, unchanged
from tournaments import live_cache
from tournaments.access import public_view, tournament_view
from tournaments.live_cache import SCREEN_PANELS, screen_tag
from tournaments.models import Tournament
from tournaments.presentation import rules_text
from tournaments.selectors_public import lines
from tournaments.selectors_public.screen import screen_language
from tournaments.selectors_schedule import local

# Parts that poll on their own: the panels, and the venue strip (clock, calls, next starts).
SCREEN_PARTS = (*SCREEN_PANELS, "call")


def fragment_response(body: str, tag: str) -> HttpResponse:
    # Only fragments carry the tag: a whole page holds a CSP nonce and a CSRF token of its
    # own, so it must never be answered 304 from an old copy.
    response = HttpResponse(body)
    response["ETag"] = tag
    cache_headers(response, fragment=True)
    return response


def live_page(
    request: HttpRequest, tournament: Tournament, page: str, cached: dict[str, Any] | None = None
) -> HttpResponse | None:
    """The whole page, or (htmx) its `live` partial, or a 304 when the poll's tag is current.

    The partial is the same for every viewer of a version: it comes from the shared cache,
    rendered once per version (`live_cache`), and the whole page embeds the same copy; only
    the page's frame, with its nonce, CSRF token and menu, is rendered for each request. An
    unchanged poll costs the queries of its tag. `cached`: the tournament came from the cache
    (`access.public_view`), with what it read there; None if a shared part is not there.
    """
    tag = live_cache.page_tag(tournament, page)
    if request.htmx:
        live_cache.remember_version(tournament)
        if unchanged(request, tag):
            return not_modified(tag)
        return fragment_response(live_cache.page_fragment(tournament, page, tag), tag)
    # The whole page around the shared parts (the partial and the tournament's nav, one read
    # of the cache): only the frame (nonce, CSRF token, menu) is rendered for this request.
    template, _ = live_cache.PAGES[page]
    parts = live_cache.page_parts(tournament, page, tag, cached=cached)
    if parts is None:
        return None
    live_html, nav_html = parts
    context = {
        "tournament": tournament,
        "page": page,
        "api": live_cache.api_links(tournament),
        "live_html": mark_safe(live_html),  # noqa: S308 - rendered by our templates, escaped
        "nav_html": mark_safe(nav_html),  # noqa: S308 - likewise
        "read_only": not request.user.is_authenticated,
        "push": live_cache.page_push(tournament, [page]),
    }
    response = render(request, template, context)
    cache_headers(response, fragment=False)
    return response


@require_safe
@public_view("home")
def home(
    request: HttpRequest, tournament: Tournament, cached: dict[str, Any] | None = None
) -> HttpResponse | None:
    """Phase, now playing, next up, last results."""
    return live_page(request, tournament, "home", cached)


@require_safe
@public_view("standings")
def standings(
    request: HttpRequest, tournament: Tournament, cached: dict[str, Any] | None = None
) -> HttpResponse | None:
    """Individual standings ("T3" for a shared rank) and the tie-break plan beside them."""
    return live_page(request, tournament, "standings", cached)


@require_safe
@public_view("groups")
def groups(
    request: HttpRequest, tournament: Tournament, cached: dict[str, Any] | None = None
) -> HttpResponse | None:
    """Group totals and members, with the charts of the race round by round."""
    return live_page(request, tournament, "groups", cached)


@require_safe
@public_view("rounds")
def rounds(
    request: HttpRequest, tournament: Tournament, cached: dict[str, Any] | None = None
) -> HttpResponse | None:
    """The 15 rounds: results and each group's membership at that round."""
    return live_page(request, tournament, "rounds", cached)


@require_safe
@public_view("tiebreaks")
def tiebreaks(
    request: HttpRequest, tournament: Tournament, cached: dict[str, Any] | None = None
) -> HttpResponse | None:
    """The tie-break knockouts with their draws and seeds (or what would be played now)."""
    return live_page(request, tournament, "tiebreaks", cached)


@require_safe
@public_view("bracket")
def bracket(
    request: HttpRequest, tournament: Tournament, cached: dict[str, Any] | None = None
) -> HttpResponse | None:
    """The Page playoff drawn as a bracket, with the placings."""
    return live_page(request, tournament, "bracket", cached)


@require_safe
@public_view("screen")
def screen(
    request: HttpRequest, tournament: Tournament, cached: dict[str, Any] | None = None
) -> HttpResponse | None:
    """The big screen: standings, the bracket (or the group race) and now playing, in turn.

    The panels take turns by one attribute that static/js/screen.js moves on (exactly one
    panel shows; nothing restarts when one refreshes); each panel polls on its own
    (`?panel=`), with its own tag, and is served from the shared cache like a page's live
    partial. `?show=<panel>` pins one panel, for a venue with a screen per view.

    The page and its panels are in the tournament's language (`screen_language`): the whole
    answer, the page's `<html lang>` and every panel a poll brings, is rendered under it.
    """
    language = screen_language(tournament)
    if not language:
        return _screen(request, tournament, cached, fixed=False)  # the viewer's language
    with translation.override(language):
        response = _screen(request, tournament, cached, fixed=True)
    if response is not None:
        response["Content-Language"] = language
    return response


def _screen(
    request: HttpRequest, tournament: Tournament, cached: dict[str, Any] | None, *, fixed: bool
) -> HttpResponse | None:
    """`fixed`: the screen speaks the tournament's language (no language menu)."""
    panel = request.GET.get("panel", "")
    if request.htmx and panel:
        if panel not in SCREEN_PARTS:
            raise Http404("No such panel.")
        live_cache.remember_version(tournament)
        tag = screen_tag(tournament, panel)
        if unchanged(request, tag):
            return not_modified(tag)
        return fragment_response(live_cache.screen_fragment(tournament, panel, tag), tag)
    shown = request.GET.get("show", "")
    panels = (shown,) if shown in SCREEN_PANELS else SCREEN_PANELS
    # The panels and the venue strip are the shared parts of their versions (one read of the
    # cache); only the frame and the clock's first reading are rendered for this request.
    parts = live_cache.screen_parts(tournament, (*panels, "call"), cached=cached)
    if parts is None:
        return None  # the lean start found a part missing: the full path renders it
    context: dict[str, Any] = {
        "tournament": tournament,
        "page": "screen",
        # A screen in the tournament's language offers no menu: it would change nothing.
        "language_fixed": fixed,
        "pinned": shown in SCREEN_PANELS,
        "panels": panels,
        "clock": {"zone": tournament.time_zone, "now": local(tournament, timezone.now())},
        "parts": {name: mark_safe(html) for name, html in parts.items()},  # noqa: S308
        "read_only": not request.user.is_authenticated,
        "push": live_cache.page_push(tournament, [f"screen-{p}" for p in (*panels, "call")]),
    }
    response = render(request, "public/screen.html", context)
    cache_headers(response, fragment=False)
    return response


@require_safe
@tournament_view(Action.VIEW_PUBLIC)
def sheet(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """A referee's score sheet for one duel, to print: the paper record of the duel when a
    device fails, signed by both players."""
    duel = lines.sheet(tournament, duel_id)
    if duel is None:
        raise Http404("No such duel.")
    gifts: dict[str, Any] = {}
    if can(request.user, Action.REFEREE_DUELS, tournament) and duel.status in ("pending", "ready"):
        # A pending shared card is hidden from the public until the duel starts
        # (TOURNAMENT.md): only the tournament's referees and organisers see it here.
        from duels.models import Duel
        from tournaments.services.shared_cards import pending_gifts

        gifts = pending_gifts(Duel.objects.select_related("seat_a", "seat_b").get(pk=duel.id))
    response = render(
        request,
        "public/sheet.html",
        {
            "tournament": tournament,
            "page": "sheet",
            "duel": duel,
            "gifts": sorted(gifts),
            "rules": rules_text(tournament.duel_preset, tournament.variants),
            "lines": range(1, lines.SHEET_LINES + 1),
        },
    )
    cache_headers(response, fragment=False)
    return response


@require_safe
@tournament_view(Action.VIEW_PUBLIC)
def watch(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """One duel's table as the room sees it, for a phone (issue 28): its `live` partial polls
    like every public page's, tagged by the version and the duel's revision, and is rendered
    once per tag and shared (`live_cache.watch_fragment`); only the frame is this request's.
    Public when the tournament is (`tournament_view`); nothing hidden in a refereed duel is
    read (`selectors_public.watch`)."""
    duel = lines.duel_queryset(tournament=tournament, pk=duel_id).first()
    if duel is None:
        raise Http404("No such duel.")
    if duel.online:
        # Played online: its table is the dealt game's public view (ONLINE.md 5).
        return redirect("public:online_watch", tournament.slug, duel.pk)
    tag = live_cache.watch_tag(tournament, duel)
    if request.htmx:
        live_cache.remember_version(tournament)
        if unchanged(request, tag):
            return not_modified(tag)
        return fragment_response(live_cache.watch_fragment(tournament, duel, tag), tag)
    live_html = live_cache.watch_fragment(tournament, duel, tag)
    context = {
        "tournament": tournament,
        "page": "watch",
        "line": lines.duel_line(duel),
        "live_html": mark_safe(live_html),  # noqa: S308 - rendered by our templates, escaped
        "read_only": not request.user.is_authenticated,
        "push": live_cache.page_push(tournament, [f"watch-{duel.pk}"]),
    }
    response = render(request, "public/watch.html", context)
    cache_headers(response, fragment=False)
    return response
