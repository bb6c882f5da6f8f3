"""A player checks themselves in on the day, from the tournament's page or from /me/ (the
staff's page is the organiser pages')."""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.permissions import Action
from core.errors import ServiceError
from core.http import safe_next
from tournaments.access import tournament_view
from tournaments.models import Tournament
from tournaments.services import checkin


@tournament_view(Action.VIEW_OWN_ENTRY)
@require_POST
def check_in_myself(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    entry = tournament.entrants.filter(user=request.user).first()
    if entry is None:  # pragma: no cover - VIEW_OWN_ENTRY means an entry exists
        return redirect_to_login(request.get_full_path())
    try:
        checkin.check_in(tournament, request.user, entry.pk)
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(
            request, _("You are checked in as %(name)s. Have a good game!") % {"name": entry.name}
        )
    return redirect(safe_next(request) or tournament)  # back where the button was


@tournament_view(Action.VIEW_OWN_ENTRY)
@require_POST
def undo_my_check_in(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A player's check-in made by mistake, undone by the player, until its phase starts."""
    entry = tournament.entrants.filter(user=request.user).first()
    if entry is None:  # pragma: no cover - VIEW_OWN_ENTRY means an entry exists
        return redirect_to_login(request.get_full_path())
    try:
        checkin.undo_check_in(tournament, request.user, entrant_id=entry.pk)
    except ServiceError as err:
        (messages.info if err.code == "done" else messages.error)(request, err.message)
    else:
        messages.success(request, _("Your check-in as %(name)s is undone.") % {"name": entry.name})
    return redirect(safe_next(request) or tournament)
