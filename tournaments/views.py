"""Tournament pages. Thin: each reads through selectors or writes through one service."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services as role_services
from accounts.forms import GrantRoleForm
from accounts.models import TournamentRole
from accounts.permissions import Action, can, roles_of, tournament_view

from . import services
from .errors import ServiceError
from .forms import EntrantForm, TournamentForm
from .models import Tournament
from .selectors import published_tournaments


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"tournaments": published_tournaments()})


@login_required
@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(
                name=form.cleaned_data["name"], created_by=request.user
            )
        except ServiceError as err:
            form.add_error("name", err.message)
        else:
            messages.success(request, f"“{tournament.name}” is created. It stays private "
                             "until you publish it.")
            return redirect(tournament)
    return render(request, "tournaments/create.html", {"form": form},
                  status=422 if form.errors else 200)


@tournament_view(Action.VIEW_PUBLIC)
def detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    user = request.user
    return render(request, "tournaments/detail.html", {
        "tournament": tournament,
        "roles": sorted(roles_of(user, tournament)),
        "entrants": tournament.entrants.all(),
        "my_entry": tournament.entrants.filter(user=user).first()
        if user.is_authenticated else None,
        "may_manage": can(user, Action.MANAGE_REGISTRATION, tournament),
        "may_manage_people": can(user, Action.MANAGE_REFEREES, tournament),
        "may_publish": can(user, Action.PUBLISH, tournament),
    })


@tournament_view(Action.PUBLISH)
@require_POST
def publish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    published = request.POST.get("published") == "1"
    services.set_published(tournament, published, request.user)
    messages.success(request, "Published: anyone can now follow it." if published
                     else "Unpublished: only its organisers, referees and players see it.")
    return redirect(tournament)


@tournament_view(Action.MANAGE_REGISTRATION)
@require_http_methods(["GET", "POST"])
def entrants(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = EntrantForm(request.POST or None)
    added = None
    if request.method == "POST" and form.is_valid():
        try:
            added = services.add_entrant(tournament, form.cleaned_data["name"], request.user).name
        except ServiceError as err:
            form.add_error("name", err.message)
        else:
            if not request.htmx:
                messages.success(request, f"{added} is registered.")
                return redirect("tournaments:entrants", slug=tournament.slug)
            form = EntrantForm()  # an empty field, ready for the next name
    # htmx gets only the panel (the form and the list); a plain post gets the whole page.
    template = "tournaments/entrants.html" + ("#panel" if request.htmx else "")
    response = render(request, template, {
        "tournament": tournament, "form": form, "added": added,
        "entrants": tournament.entrants.select_related("user"),
    }, status=422 if form.errors else 200)
    response["Vary"] = "HX-Request"
    return response


@tournament_view(Action.MANAGE_REGISTRATION)
@require_POST
def issue_claim(request: HttpRequest, tournament: Tournament, entrant_id: int) -> HttpResponse:
    entrant = get_object_or_404(tournament.entrants, pk=entrant_id)
    try:
        token = services.issue_claim_link(entrant, request.user)
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect("tournaments:entrants", slug=tournament.slug)
    link = request.build_absolute_uri(
        reverse("tournaments:claim", kwargs={"slug": tournament.slug, "token": token})
    )
    return render(request, "tournaments/claim_issued.html",
                  {"tournament": tournament, "entrant": entrant, "link": link})


@login_required
@require_http_methods(["GET", "POST"])
def claim(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    # No visibility check first: a valid token is what lets a player into a draft tournament.
    tournament = get_object_or_404(Tournament, slug=slug)
    try:
        entrant = services.find_claimable(tournament, token)
        if request.method == "POST":
            entrant = services.claim_entry(tournament, token, request.user)
            messages.success(request, f"You are now linked to {entrant.name}'s entry.")
            return redirect(tournament)
    except ServiceError as err:
        if not can(request.user, Action.VIEW_PUBLIC, tournament):
            raise Http404(err.message) from None
        return render(request, "tournaments/claim.html",
                      {"tournament": tournament, "error": err.message}, status=410)
    return render(request, "tournaments/claim.html",
                  {"tournament": tournament, "entrant": entrant})


@tournament_view(Action.MANAGE_REFEREES)
@require_http_methods(["GET", "POST"])
def people(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = GrantRoleForm(request.POST or None)
    if not can(request.user, Action.MANAGE_CO_ORGANISERS, tournament):
        form.fields["role"].choices = [("referee", "Referee")]
    if request.method == "POST" and form.is_valid():
        try:
            grant = role_services.grant_role(request.user, tournament,
                                             form.cleaned_data["username"],
                                             form.cleaned_data["role"])
        except ServiceError as err:
            form.add_error("username", err.message)
        else:
            messages.success(request, f"{grant.user.username} is now a "
                             f"{grant.get_role_display().lower()}.")
            return redirect("tournaments:people", slug=tournament.slug)
    return render(request, "tournaments/people.html", {
        "tournament": tournament, "form": form,
        "grants": TournamentRole.objects.filter(tournament=tournament).select_related("user"),
        "may_manage_co": can(request.user, Action.MANAGE_CO_ORGANISERS, tournament),
    }, status=422 if form.errors else 200)


@tournament_view(Action.MANAGE_REFEREES)
@require_POST
def revoke(request: HttpRequest, tournament: Tournament, grant_id: int) -> HttpResponse:
    try:
        role_services.revoke_role(request.user, tournament, grant_id)
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, "Role removed.")
    return redirect("tournaments:people", slug=tournament.slug)
