"""Tournament pages: the home page, creating a tournament, its overview (claim and
invitation links: `invitations.py`).

Thin: each reads through selectors or writes through one service. Managing a tournament
(players, groups, rounds, people, publishing) lives in the organiser pages
(`tournaments/views/organiser/`, under /t/<slug>/manage/); the old addresses of those pages
redirect there.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from accounts.permissions import Action, can, roles_of
from cardtable.forms import MAX_INTENT
from core.errors import ServiceError
from duels.forms import new_intent
from tournaments import services
from tournaments.access import tournament_view
from tournaments.forms import NewTournamentForm
from tournaments.models import FINAL_PHASES, Tournament
from tournaments.selectors import published_tournaments
from tournaments.selectors_referee import desk
from tournaments.services import checkin


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"tournaments": published_tournaments()})


@login_required
@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    form = NewTournamentForm(request.POST or None)
    # The form's own key: sent twice (Back, then the button again; a retried request) it
    # creates one tournament, and the second answer leads to it.
    intent = request.POST.get("intent", "")[:MAX_INTENT] or new_intent()
    if request.method == "POST" and form.is_valid():
        try:
            tournament, repeat = services.create_tournament_once(
                name=form.cleaned_data["name"],
                created_by=request.user,
                time_zone=form.cleaned_data["time_zone"],
                intent=request.POST.get("intent", "")[:MAX_INTENT],
                **form.settings(),
            )
        except ServiceError as err:
            form.add_error("name", err.message)
        else:
            if repeat:
                messages.info(
                    request,
                    _("“%(name)s” was already created by this form: here it is.")
                    % {"name": tournament.name},
                )
            else:
                messages.success(
                    request,
                    _("“%(name)s” is created. It stays private until you publish it.")
                    % {"name": tournament.name},
                )
            # Straight to the organiser's overview: its checklist says what comes next.
            return redirect("organiser:overview", slug=tournament.slug)
    return render(
        request,
        "tournaments/create.html",
        {"form": form, "intent": intent},
        status=422 if form.errors else 200,
    )


@tournament_view(Action.VIEW_PUBLIC)
def detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    user = request.user
    my_entry = tournament.entrants.filter(user=user).first() if user.is_authenticated else None
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": tournament,
            "roles": sorted(roles_of(user, tournament)),
            # A referee's page leads with their duel, or what they wait for (issue 26).
            "desk": desk(user, tournament),
            "entrants": tournament.entrants.all(),
            "my_entry": my_entry,
            # A check-in made by mistake is undone by the player too, until its phase starts.
            "may_undo_check_in": bool(my_entry and my_entry.checked_in_at)
            and not checkin.undo_blocker(tournament, my_entry),
            "may_manage": can(user, Action.START_PHASES, tournament),
            "may_run_rounds": can(user, Action.NAME_REPRESENTATIVES, tournament),
            "may_publish": can(user, Action.PUBLISH, tournament),
            "final_phases": [p.value for p in FINAL_PHASES],
        },
    )


@tournament_view(Action.MANAGE_REGISTRATION)
@require_GET
def entrants(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The players' page moved to the organiser pages; old links still lead there."""
    return redirect("organiser:players", slug=tournament.slug, permanent=True)


@tournament_view(Action.MANAGE_REFEREES)
@require_GET
def people(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Referees and co-organisers are managed on the organiser pages; old links lead there."""
    return redirect("organiser:people", slug=tournament.slug, permanent=True)
