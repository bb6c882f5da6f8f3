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

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from accounts.permissions import Action, can
from core.http import cache_headers, live_attrs, not_modified, unchanged
from tournaments import selectors_public as sel
from tournaments.access import tournament_view
from tournaments.models import Tournament
from tournaments.presentation import rules_text
from tournaments.selectors_schedule import venue

SCREEN_PANELS = ("standings", "stage", "now")
# Parts that poll on their own: the panels, and the venue strip (clock, calls, next starts).
SCREEN_PARTS = (*SCREEN_PANELS, "call")


def live_page(
    request: HttpRequest,
    tournament: Tournament,
    template: str,
    page: str,
    tag: str,
    build: Callable[[], dict[str, Any]],
) -> HttpResponse:
    """The whole page, or (htmx) its `live` partial, or a 304 when the poll's tag is current.

    `build` runs only when something is rendered, so an unchanged poll costs the queries
    of its tag and nothing else.
    """
    fragment = bool(request.htmx)
    if fragment and unchanged(request, tag):
        return not_modified(tag)
    context = {
        "tournament": tournament,
        "page": page,
        "live": live_attrs(request, tag),
        "api": api_links(tournament),
        **build(),
    }
    response = render(request, template + ("#live" if fragment else ""), context)
    if fragment:
        # Only fragments carry the tag: a whole page holds a CSP nonce and a CSRF token of
        # its own, so it must never be answered 304 from an old copy.
        response["ETag"] = tag
    cache_headers(response, fragment=fragment)
    return response


def api_links(tournament: Tournament) -> dict[str, str]:
    """The read API's exports (tournaments/api.py serves them; the pages only link)."""
    base = f"/api/tournaments/{tournament.slug}"
    return {
        "standings_csv": f"{base}/standings.csv",
        "results_csv": f"{base}/results.csv",
        "standings_json": f"{base}/standings",
        "rounds_json": f"{base}/rounds",
        "groups_json": f"{base}/groups",
        "tiebreaks_json": f"{base}/tiebreaks",
        "bracket_json": f"{base}/bracket",
        "summary_json": base,
    }


@require_safe
@tournament_view(Action.VIEW_PUBLIC)
def home(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Phase, now playing, next up, last results."""
    # Duels starting and moving do not bump the version: now playing needs the open duels.
    tag = sel.etag(tournament, sel.live_fingerprint(tournament))
    return live_page(
        request, tournament, "public/home.html", "home", tag, lambda: sel.home(tournament)
    )


@require_safe
@tournament_view(Action.VIEW_PUBLIC)
def standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Individual standings ("T3" for a shared rank) and the tie-break plan beside them."""
    return live_page(
        request,
        tournament,
        "public/standings.html",
        "standings",
        sel.etag(tournament),
        lambda: sel.standings(tournament),
    )


@require_safe
@tournament_view(Action.VIEW_PUBLIC)
def groups(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Group totals and members, with the charts of the race round by round."""
    return live_page(
        request,
        tournament,
        "public/groups.html",
        "groups",
        sel.etag(tournament),
        lambda: sel.groups(tournament),
    )


@require_safe
@tournament_view(Action.VIEW_PUBLIC)
def rounds(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The 15 rounds: results and each group's membership at that round."""
    return live_page(
        request,
        tournament,
        "public/rounds.html",
        "rounds",
        sel.etag(tournament),
        lambda: sel.rounds(tournament),
    )


@require_safe
@tournament_view(Action.VIEW_PUBLIC)
def tiebreaks(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tie-break knockouts with their draws and seeds (or what would be played now)."""
    return live_page(
        request,
        tournament,
        "public/tiebreaks.html",
        "tiebreaks",
        sel.etag(tournament),
        lambda: sel.tiebreaks(tournament),
    )


@require_safe
@tournament_view(Action.VIEW_PUBLIC)
def bracket(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The Page playoff drawn as a bracket, with the placings."""
    return live_page(
        request,
        tournament,
        "public/bracket.html",
        "bracket",
        sel.etag(tournament),
        lambda: sel.bracket(tournament),
    )


@require_safe
@tournament_view(Action.VIEW_PUBLIC)
def screen(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The big screen: standings, the bracket (or the group race) and now playing, in turn.

    The panels take turns by one attribute that static/js/screen.js moves on (exactly one
    panel shows; nothing restarts when one refreshes); each panel polls on its own
    (`?panel=`), with its own tag. `?show=<panel>` pins one panel,
    for a venue with a screen per view.
    """
    panel = request.GET.get("panel", "")
    if request.htmx and panel:
        if panel not in SCREEN_PARTS:
            raise Http404("No such panel.")
        tag = _screen_tag(tournament, panel)
        if unchanged(request, tag):
            return not_modified(tag)
        context = {"tournament": tournament, **_screen_panel(request, tournament, panel, tag)}
        response = render(request, f"public/screen.html#panel_{panel}", context)
        response["ETag"] = tag
        cache_headers(response, fragment=True)
        return response
    shown = request.GET.get("show", "")
    panels = (shown,) if shown in SCREEN_PANELS else SCREEN_PANELS
    context: dict[str, Any] = {
        "tournament": tournament,
        "page": "screen",
        "pinned": shown in SCREEN_PANELS,
        "panels": panels,
    }
    for name in (*panels, "call"):
        context.update(_screen_panel(request, tournament, name, _screen_tag(tournament, name)))
    response = render(request, "public/screen.html", context)
    cache_headers(response, fragment=False)
    return response


def _screen_tag(tournament: Tournament, panel: str) -> str:
    if panel == "call":
        # A call bumps the version; the minute matters too, as "next" drops past starts.
        minute = timezone.now().strftime("%Y%m%d%H%M")
        return sel.etag(tournament, f"call-{minute}-" + sel.live_fingerprint(tournament))
    if panel == "now":
        return sel.etag(tournament, "now-" + sel.live_fingerprint(tournament))
    return sel.etag(tournament, panel)


def _screen_panel(
    request: HttpRequest, tournament: Tournament, panel: str, tag: str
) -> dict[str, Any]:
    url = f"{reverse('public:screen', kwargs={'slug': tournament.slug})}?panel={panel}"
    live = {f"live_{panel}": live_attrs(request, tag, url)}
    if panel == "standings":
        return {**live, "board": sel.screen_standings(tournament)}
    if panel == "call":
        return {**live, "venue": venue(tournament)}
    if panel == "stage":
        if tournament.playoff_seeding:
            return {**live, "stage": "bracket", "bracket": sel.bracket(tournament)}
        if tournament.tiebreak_seed and tournament.phase == "tie_breaks":
            return {**live, "stage": "tiebreaks", "tb": sel.tiebreaks(tournament)}
        return {**live, "stage": "groups", "race": sel.groups(tournament)}
    return {**live, "now": sel.now_playing(tournament, recent=1)}


@require_safe
@tournament_view(Action.VIEW_PUBLIC)
def sheet(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """A referee's score sheet for one duel, to print: the paper record of the duel when a
    device fails, signed by both players."""
    duel = sel.sheet(tournament, duel_id)
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
            "lines": range(1, sel.SHEET_LINES + 1),
        },
    )
    cache_headers(response, fragment=False)
    return response
