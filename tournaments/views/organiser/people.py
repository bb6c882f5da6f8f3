"""Referees and co-organisers: roles granted by username, and invitation links that grant a
role to someone who may not have an account yet."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services as role_services
from accounts.forms import GrantRoleForm, InviteForm
from accounts.models import Role, RoleInvitation, TournamentRole
from accounts.permissions import Action, can
from core.errors import ServiceError
from core.qr import qr_svg
from tournaments.access import tournament_view
from tournaments.models import Tournament
from tournaments.services import invitations

from ._common import REFUSED, base_context, render_page, succeeded

STATE_WORDS = {
    "pending": pgettext_lazy("invitation link", "Waiting"),
    "used": pgettext_lazy("invitation link", "Accepted"),
    "expired": pgettext_lazy("invitation link", "Expired"),
    "revoked": pgettext_lazy("invitation link", "Withdrawn"),
    "replaced": pgettext_lazy("invitation link", "Replaced by a newer sheet"),
}


def _limit_roles(form, may_manage_co: bool) -> None:
    # Only the organiser invites co-organisers (TOURNAMENT.md "Who does what").
    if not may_manage_co:
        form.fields["role"].choices = [(Role.REFEREE, _("Referee"))]


def _people_page(
    request: HttpRequest, tournament: Tournament, *, form=None, invite_form=None, issued=None
) -> HttpResponse:
    may_manage_co = can(request.user, Action.MANAGE_CO_ORGANISERS, tournament)
    form = form or GrantRoleForm()
    invite_form = invite_form or InviteForm()
    _limit_roles(form, may_manage_co)
    _limit_roles(invite_form, may_manage_co)
    now = timezone.now()
    rows = [
        {
            "invitation": i,
            "state": i.state(now),
            "state_text": STATE_WORDS[i.state(now)],
            "may_revoke": i.role == Role.REFEREE or may_manage_co,
        }
        for i in RoleInvitation.objects.filter(tournament=tournament).select_related("used_by")
    ]
    context = base_context(request, tournament, "people")
    context.update(
        {
            "form": form,
            "invite_form": invite_form,
            "may_manage_co": may_manage_co,
            "organiser": tournament.created_by,
            "grants": TournamentRole.objects.filter(tournament=tournament).select_related("user"),
            "invitations": rows,
            "issued": issued,
        }
    )
    refused = form.errors or invite_form.errors
    return render_page(
        request, "organiser/people.html", context, status=REFUSED if refused else 200
    )


@tournament_view(Action.MANAGE_REFEREES)
@require_http_methods(["GET", "POST"])
def people(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method == "GET":
        return _people_page(request, tournament)
    form = GrantRoleForm(request.POST)
    _limit_roles(form, can(request.user, Action.MANAGE_CO_ORGANISERS, tournament))
    if form.is_valid():
        try:
            grant = role_services.grant_role(
                request.user, tournament, form.cleaned_data["username"], form.cleaned_data["role"]
            )
        except ServiceError as err:
            form.add_error("username", err.message)
        else:
            return succeeded(
                request,
                (
                    _("%(name)s is now a co-organiser.")
                    if grant.role == Role.CO_ORGANISER
                    else _("%(name)s is now a referee.")
                )
                % {"name": grant.user.username},
                "people",
                tournament,
            )
    return _people_page(request, tournament, form=form)


@tournament_view(Action.MANAGE_REFEREES)
@require_POST
@never_cache  # the fresh invitation link is on the answer: never kept by any cache
def invite(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Issue an invitation link; it is shown once, with its QR code, on the page that answers."""
    form = InviteForm(request.POST)
    _limit_roles(form, can(request.user, Action.MANAGE_CO_ORGANISERS, tournament))
    if not form.is_valid():
        return _people_page(request, tournament, invite_form=form)
    try:
        invitation, token = invitations.issue_invitation(
            tournament,
            request.user,
            role=form.cleaned_data["role"],
            label=form.cleaned_data["label"],
        )
    except ServiceError as err:
        form.add_error(None, err.message)
        return _people_page(request, tournament, invite_form=form)
    link = request.build_absolute_uri(
        reverse("tournaments:invite", kwargs={"slug": tournament.slug, "token": token})
    )
    title = (
        _("QR code of the co-organiser invitation")
        if invitation.role == Role.CO_ORGANISER
        else _("QR code of the referee invitation")
    )
    issued = {"invitation": invitation, "link": link, "qr": qr_svg(link, title=title)}
    return _people_page(request, tournament, issued=issued)


@tournament_view(Action.MANAGE_REFEREES)
@require_POST
def revoke_invitation(
    request: HttpRequest, tournament: Tournament, invitation_id: int
) -> HttpResponse:
    try:
        invitations.revoke_invitation(tournament, request.user, invitation_id)
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect("organiser:people", slug=tournament.slug)
    return succeeded(
        request, _("Invitation withdrawn: its link no longer works."), "people", tournament
    )


@tournament_view(Action.MANAGE_REFEREES)
@require_POST
def revoke(request: HttpRequest, tournament: Tournament, grant_id: int) -> HttpResponse:
    try:
        role_services.revoke_role(request.user, tournament, grant_id)
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect("organiser:people", slug=tournament.slug)
    return succeeded(request, _("Role removed."), "people", tournament)
