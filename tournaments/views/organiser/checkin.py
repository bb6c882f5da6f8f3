"""Check-in (staff: organisers, co-organisers, referees): who is here, who is missing, and —
organisers — withdraw the no-shows in one action before the group phase or the playoffs."""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST, require_safe

from accounts.permissions import Action, can
from core.errors import ServiceError
from tournaments.access import tournament_view
from tournaments.models import EntrantStatus, Phase, Tournament
from tournaments.services import checkin
from tournaments.services.entrants import REGISTRATION_PHASES

from ._common import REFUSED, base_context, confirmed, render_page, succeeded


def _page(request: HttpRequest, tournament: Tournament, status: int = 200, **extra) -> HttpResponse:
    entrants = list(
        tournament.entrants.filter(status=EntrantStatus.ACTIVE)
        .select_related("group", "checked_in_by")
        .order_by("name")
    )
    context = base_context(request, tournament, "check_in")
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
    return succeeded(request, f"{entrant.name} is checked in.", "check_in", tournament)


@tournament_view(Action.WITHDRAW_PLAYERS)
@require_POST
def withdraw_no_shows(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        names = checkin.withdraw_no_shows(tournament, request.user, confirm=confirmed(request))
    except ServiceError as err:
        return _page(
            request, tournament, status=REFUSED, error=err.message, confirm=err.code == "confirm"
        )
    verb = "removed" if tournament.phase in REGISTRATION_PHASES else "withdrawn"
    return succeeded(
        request,
        f"{len(names)} no-show{'s' if len(names) != 1 else ''} {verb}: {', '.join(names)}.",
        "check_in",
        tournament,
    )
