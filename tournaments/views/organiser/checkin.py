"""Check-in (staff: organisers, co-organisers, referees): who is here, who is missing, and —
organisers — withdraw the no-shows in one action before the group phase or the playoffs."""

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts.permissions import Action, can
from core.errors import ServiceError
from core.htmx import redirect_after_post
from tournaments import presentation
from tournaments.access import tournament_view
from tournaments.models import EntrantStatus, Phase, Tournament
from tournaments.services import checkin
from tournaments.services.entrants import REGISTRATION_PHASES

from ._common import REFUSED, base_context, preview_or_confirm, render_page, succeeded


def _page(request: HttpRequest, tournament: Tournament, status: int = 200, **extra) -> HttpResponse:
    entrants = list(
        tournament.entrants.filter(status=EntrantStatus.ACTIVE)
        .select_related("group", "checked_in_by")
        .order_by("name")
    )
    context = base_context(request, tournament, "check_in")
    started = checkin.group_phase_started_at(tournament)  # one read for every row
    for entrant in entrants:
        # Offered only while it can be undone; the service says why not otherwise.
        entrant.undoable = bool(entrant.checked_in_at) and not checkin.undo_blocker(
            tournament, entrant, started
        )
    context.update(
        {
            "entrants": entrants,
            "here": sum(1 for e in entrants if e.checked_in_at),
            "missing": [e for e in entrants if e.checked_in_at is None],
            "may_withdraw": can(request.user, Action.WITHDRAW_PLAYERS, tournament)
            and tournament.phase not in (Phase.PLAYOFFS, Phase.COMPLETE, Phase.CANCELLED),
            "removes": tournament.phase in REGISTRATION_PHASES,
        }
    )
    context.update(extra)
    return render_page(request, "organiser/check_in.html", context, status=status)


@tournament_view(Action.CHECK_IN_PLAYERS)
@require_safe
def check_in(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _page(request, tournament)


@tournament_view(Action.CHECK_IN_PLAYERS)
@require_POST
def check_in_player(request: HttpRequest, tournament: Tournament, entrant_id: int) -> HttpResponse:
    try:
        entrant = checkin.check_in(tournament, request.user, entrant_id)
    except ServiceError as err:
        return _page(request, tournament, status=REFUSED, error=err.message)
    return succeeded(
        request, _("%(name)s is checked in.") % {"name": entrant.name}, "check_in", tournament
    )


@tournament_view(Action.CHECK_IN_PLAYERS)
@require_POST
def undo_check_in(request: HttpRequest, tournament: Tournament, entrant_id: int) -> HttpResponse:
    try:
        entrant = checkin.undo_check_in(tournament, request.user, entrant_id=entrant_id)
    except ServiceError as err:
        if err.code == "done":
            messages.info(request, err.message)
            return redirect_after_post(
                request, reverse("organiser:check_in", args=[tournament.slug])
            )
        return _page(request, tournament, status=REFUSED, error=err.message)
    return succeeded(
        request,
        _("%(name)s's check-in is undone: not checked in.") % {"name": entrant.name},
        "check_in",
        tournament,
    )


def _expected(request: HttpRequest) -> list[int] | None:
    """The players the confirmation named; None when the list is missing or garbled (a
    confirmation names at least one player)."""
    try:
        expected = [int(pk) for pk in request.POST.getlist("expected")]
    except ValueError:
        return None
    return expected or None


@tournament_view(Action.WITHDRAW_PLAYERS)
@require_POST
def withdraw_no_shows(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Two posts: the first names who would be removed or withdrawn (and an elimination it
    causes), changing nothing; the second, with `confirm` and the players it named, does it."""
    removes = tournament.phase in REGISTRATION_PHASES

    def preview() -> tuple[dict[str, Any], str]:
        found = checkin.no_shows_preview(tournament)
        question = presentation.no_shows_question(len(found.entrants), removes=found.removes)
        return {"no_shows": found, "no_shows_question": question}, found.refusal

    def apply(expected: list[int]) -> str:
        names = checkin.withdraw_no_shows(tournament, request.user, confirm=True, expected=expected)
        return presentation.no_shows_done(names, removed=removes)

    return preview_or_confirm(
        request,
        tournament,
        preview=preview,
        drawn=_expected(request),
        apply=apply,
        page=lambda status, **extra: _page(request, tournament, status=status, **extra),
        back="check_in",
    )
