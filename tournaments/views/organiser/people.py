"""Referees and co-organisers."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services as role_services
from accounts.forms import GrantRoleForm
from accounts.models import Role, TournamentRole
from accounts.permissions import Action, can
from core.errors import ServiceError
from tournaments.access import tournament_view
from tournaments.models import (
    Tournament,
)

from ._common import (
    REFUSED,
    base_context,
    render_page,
    succeeded,
)


@tournament_view(Action.MANAGE_REFEREES)
@require_http_methods(["GET", "POST"])
def people(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    may_manage_co = can(request.user, Action.MANAGE_CO_ORGANISERS, tournament)
    form = GrantRoleForm(request.POST or None)
    if not may_manage_co:
        form.fields["role"].choices = [(Role.REFEREE, "Referee")]
    if request.method == "POST" and form.is_valid():
        try:
            grant = role_services.grant_role(
                request.user, tournament, form.cleaned_data["username"], form.cleaned_data["role"]
            )
        except ServiceError as err:
            form.add_error("username", err.message)
        else:
            return succeeded(
                request,
                f"{grant.user.username} is now a {grant.get_role_display().lower()}.",
                "people",
                tournament,
            )
    context = base_context(request, tournament, "people")
    context.update(
        {
            "form": form,
            "may_manage_co": may_manage_co,
            "grants": TournamentRole.objects.filter(tournament=tournament).select_related("user"),
        }
    )
    return render_page(
        request, "organiser/people.html", context, status=REFUSED if form.errors else 200
    )


@tournament_view(Action.MANAGE_REFEREES)
@require_POST
def revoke(request: HttpRequest, tournament: Tournament, grant_id: int) -> HttpResponse:
    try:
        role_services.revoke_role(request.user, tournament, grant_id)
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect("organiser:people", slug=tournament.slug)
    return succeeded(request, "Role removed.", "people", tournament)
