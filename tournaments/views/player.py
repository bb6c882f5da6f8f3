"""A signed-in person's own pages: the dashboard, "my tournaments" and "my duels".

A player sees their own entry, group and duels even before the tournament is published
(TOURNAMENT.md "Who does what"): these pages read only the person's own entries, so they
need no per-tournament check.
"""

import hashlib

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from core.http import cache_headers, live_attrs, not_modified, unchanged
from tournaments import selectors_public as sel
from tournaments.selectors import tournaments_for_user


@require_safe
@login_required
def my_tournaments(request: HttpRequest) -> HttpResponse:
    """The tournaments I play in (entry, group, rank, next duel) and those I help run."""
    entries = sel.my_entries(request.user)
    staff = [row for row in tournaments_for_user(request.user) if row.roles]
    return render(request, "public/my_tournaments.html", {"entries": entries, "staff": staff})


def _my_tag(request: HttpRequest) -> str:
    """The tag of "my duels": a digest of my duels' state (one query). Results, tables and
    starts all show in it, whichever tournament they belong to."""
    rows = list(
        sel.my_duel_queryset(request.user)
        .order_by("pk")
        .values_list(
            "pk", "status", "seq", "table", "result__winner_id", "tournament__standings_version"
        )
    )
    return f'"u{request.user.pk}-{hashlib.blake2s(repr(rows).encode(), digest_size=6).hexdigest()}"'


@require_safe
@login_required
def my_duels(request: HttpRequest) -> HttpResponse:
    """My next duels (with their table) and the ones I played, with results. Live: a player
    waiting at the venue sees their table appear without reloading."""
    tag = _my_tag(request)
    fragment = bool(request.htmx)
    if fragment and unchanged(request, tag):
        return not_modified(tag)
    context = {**sel.my_duels(request.user), "live": live_attrs(request, tag)}
    response = render(request, "public/my_duels.html" + ("#live" if fragment else ""), context)
    if fragment:
        response["ETag"] = tag  # only fragments: a page has its own nonce and CSRF token
    cache_headers(response, fragment=fragment)
    return response


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """After sign-in: the tournaments a person runs, referees or plays in."""
    return render(request, "accounts/dashboard.html", {"rows": tournaments_for_user(request.user)})
