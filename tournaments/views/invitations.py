"""The links a person is given: a player's claim link and a role invitation.

Both work before the person is signed in: a signed-out visitor sees what the link is for and
is offered "Create an account" or "Sign in", both carrying the link as `next`, so they come
back here and finish. No visibility check first: a live link is what lets a person into a
draft tournament; a token that names nothing answers 404 to whoever could not see the
tournament anyway, a used, expired or withdrawn one 410 with what became of it.
"""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts import services as role_services
from accounts.notifications import WORDS, switch_on
from accounts.permissions import Action, can
from core.errors import ServiceError
from tournaments import services
from tournaments.models import Tournament
from tournaments.services import invitations

GONE = 410


def _refused(request: HttpRequest, tournament: Tournament, err: ServiceError, template: str):
    # A token that names nothing may be a guess: a private tournament stays unknown. One that
    # was real (used, expired, withdrawn) came from the organiser: say what became of it.
    if err.code == "unknown" and not can(request.user, Action.VIEW_PUBLIC, tournament):
        raise Http404(err.message)
    context = {"tournament": tournament, "error": err.message, "used": err.code == "used"}
    return render(request, template, context, status=GONE)


# Both pages are reached by a link that works once and is the key: never kept by the browser
# or any shared cache (`never_cache`: no-store, private).


@require_http_methods(["GET", "POST"])
@never_cache
def claim(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    template = "tournaments/claim.html"
    try:
        entrant = services.find_claimable(tournament, token)
        if request.method == "POST" and request.user.is_authenticated:
            entrant = services.claim_entry(tournament, token, request.user)
            messages.success(
                request, _("You are now linked to %(name)s's entry.") % {"name": entrant.name}
            )
            # The claim form's checkbox (accounts/templatetags/notify.py): e-mails on too.
            if request.POST.get("notify") == "on" and switch_on(request.user):
                messages.success(request, WORDS["on"])
            return redirect(tournament)
    except ServiceError as err:
        return _refused(request, tournament, err, template)
    context = {"tournament": tournament, "entrant": entrant, "here": request.path}
    return render(request, template, context)


@require_http_methods(["GET", "POST"])
@never_cache
def invite(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    template = "tournaments/invite.html"
    try:
        invitation = role_services.find_invitation(tournament, token)
        if request.method == "POST" and request.user.is_authenticated:
            grant = invitations.accept_invitation(tournament, token, request.user)
            messages.success(
                request,
                (
                    _("You are now a referee of %(tournament)s.")
                    if grant.role == "referee"
                    else _("You are now a co-organiser of %(tournament)s.")
                    if grant.role == "co_organiser"
                    else _("You are now an organiser of %(tournament)s.")
                )
                % {"tournament": tournament.name},
            )
            return redirect(tournament)
    except ServiceError as err:
        return _refused(request, tournament, err, template)
    context = {"tournament": tournament, "invitation": invitation, "here": request.path}
    return render(request, template, context)
