"""The schedule (issue 16): the time zone and the start times; calling a duel to its table."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_http_methods, require_POST

from accounts.permissions import Action
from core.errors import ServiceError
from duels.models import Duel
from tournaments import presentation
from tournaments.access import tournament_view
from tournaments.forms_organiser import ScheduleForm
from tournaments.models import Tournament
from tournaments.selectors_schedule import start_times
from tournaments.services import refereeing
from tournaments.services.schedule import set_schedule

from ._common import REFUSED, base_context, render_page, succeeded


@tournament_view(Action.MANAGE_SETTINGS)
@require_http_methods(["GET", "POST"])
def schedule(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    starts = start_times(tournament)
    form = ScheduleForm(request.POST or None, tournament=tournament, starts=starts)
    if request.method == "POST" and form.is_valid():
        try:
            set_schedule(
                tournament,
                request.user,
                time_zone=form.cleaned_data["time_zone"],
                starts=form.starts(),
            )
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            return succeeded(request, "Schedule saved.", "schedule", tournament)
    context = base_context(request, tournament, "schedule")
    context["form"] = form
    return render_page(
        request, "organiser/schedule.html", context, status=REFUSED if form.errors else 200
    )


@tournament_view(Action.NAME_REPRESENTATIVES)
@require_POST
def call_duel(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """Call a waiting duel's players to its table (the table typed on the card)."""
    from .rounds import refused_on_rounds

    duel = get_object_or_404(Duel, tournament=tournament, pk=duel_id)
    try:
        duel = refereeing.call_duel(duel, request.user, request.POST.get("table") or "")
    except ServiceError as err:
        return refused_on_rounds(request, tournament, err.message)
    return succeeded(
        request,
        f"{presentation.duel_title(duel)} called to {presentation.table_label(duel.table)}.",
        "rounds",
        tournament,
    )
