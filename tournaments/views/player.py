"""A signed-in person's own pages: the dashboard, "my tournaments" and "my duels".

A player sees their own entry, group and duels even before the tournament is published
(TOURNAMENT.md "Who does what"): these pages read only the person's own entries, so they
need no per-tournament check.
"""

import hashlib

from django.contrib.auth.decorators import login_required
from django.db.models import Count, OuterRef, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from core import push
from core.http import cache_headers, live_attrs, not_modified, unchanged
from tournaments.models import Entrant, StartTime
from tournaments.selectors import tournaments_for_user
from tournaments.selectors_public import player as mine
from tournaments.selectors_referee import desks
from tournaments.selectors_schedule import next_for_players


@require_safe
@login_required
def my_tournaments(request: HttpRequest) -> HttpResponse:
    """The tournaments I play in (entry, group, rank, next duel: called to its table, or
    planned) and those I help run. Live: the entries poll like the public pages (issue 16),
    so a player waiting at the venue sees their call without reloading."""
    tag = _my_tournaments_tag(request)
    fragment = bool(request.htmx)
    if fragment and unchanged(request, tag):
        return not_modified(tag)
    entries = mine.my_entries(request.user)
    upcoming = next_for_players(request.user)
    topics = _my_topics(request)
    context = {
        "entries": [(e, upcoming.get(e.tournament.pk)) for e in entries],
        "live": live_attrs(request, tag, topic=topics),
        "push": None if fragment else push.stream(topics.split()),
    }
    if not fragment:
        context["staff"] = [row for row in tournaments_for_user(request.user) if row.roles]
    response = render(
        request, "public/my_tournaments.html" + ("#live" if fragment else ""), context
    )
    if fragment:
        response["ETag"] = tag  # only fragments: a page has its own nonce and CSRF token
    cache_headers(response, fragment=fragment)
    return response


def _my_tournaments_tag(request: HttpRequest) -> str:
    """My duels' digest and the versions of the tournaments I play in (two queries): a call,
    a table, a start time, a result, a check-in or a standings change all change it — and so
    does a planned start passing, which changes no version but is no longer shown (only a
    time still ahead is: `selectors_schedule.ahead`)."""
    passed = (
        StartTime.objects.filter(tournament=OuterRef("tournament"), starts_at__lt=timezone.now())
        .order_by()
        .values("tournament")
        .annotate(n=Count("pk"))
        .values("n")
    )
    versions = list(
        Entrant.objects.filter(user=request.user)
        .annotate(passed=Subquery(passed))
        .order_by("pk")
        .values_list(
            "pk",
            "status",
            "group_id",
            "checked_in_at",
            "tournament__standings_version",
            "passed",
        )
    )
    # The language the fragment is written in too: a 304 never keeps a fragment of another.
    digest = hashlib.blake2s(repr((get_language(), versions)).encode(), digest_size=6).hexdigest()
    return _my_tag(request)[:-1] + f'-{digest}"'


def _my_topics(request: HttpRequest) -> str:
    """The push topics of my pages (issue 28): the tournaments I play in, whose every change
    of state (a call, a table, a result) bumps their version. Empty with push off."""
    if not push.enabled():
        return ""
    ids = Entrant.objects.filter(user=request.user).values_list("tournament_id", flat=True)
    return " ".join(f"tournament:{pk}" for pk in sorted(set(ids))[: push.MAX_TOPICS])


def _my_tag(request: HttpRequest) -> str:
    """The tag of "my duels": a digest of my duels' state (one query). Results, tables and
    starts all show in it, whichever tournament they belong to."""
    rows = list(
        mine.my_duel_queryset(request.user)
        .order_by("pk")
        .values_list(
            "pk",
            "status",
            "seq",
            "table",
            "called_at",
            "result__winner_id",
            "tournament__standings_version",
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
    topics = _my_topics(request)
    context = {
        **mine.my_duels(request.user),
        "live": live_attrs(request, tag, topic=topics),
        "push": None if fragment else push.stream(topics.split()),
    }
    response = render(request, "public/my_duels.html" + ("#live" if fragment else ""), context)
    if fragment:
        response["ETag"] = tag  # only fragments: a page has its own nonce and CSRF token
    cache_headers(response, fragment=fragment)
    return response


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """After sign-in: a referee's duel first, one tap from its console and its paper sheet
    (issue 26), then the tournaments a person runs, referees or plays in."""
    rows = tournaments_for_user(request.user)
    return render(
        request, "accounts/dashboard.html", {"rows": rows, "desks": desks(request.user, rows)}
    )
