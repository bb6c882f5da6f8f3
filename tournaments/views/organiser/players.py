"""Registering players (one, a pasted list, a CSV), claim links, withdrawals."""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts.permissions import Action, can
from core.errors import ServiceError
from core.htmx import redirect_after_post
from core.qr import qr_svg
from tournaments import format as fmt
from tournaments import presentation, services
from tournaments.access import tournament_view
from tournaments.forms import EntrantForm
from tournaments.forms_organiser import (
    CsvForm,
    PasteForm,
    WithdrawForm,
)
from tournaments.models import (
    FINAL_PHASES,
    EntrantStatus,
    Tournament,
)
from tournaments.services import withdrawals
from tournaments.services.entrants import (
    NOT_REGISTERED,
    REGISTRATION_PHASES,
    UPLOAD_MAX_BYTES,
    removal_preview,
    unlink_entry,
    unlink_preview,
)
from tournaments.services.groups import withdrawal_preview

from ._common import (
    REFUSED,
    active_entrants,
    base_context,
    confirmed,
    posted_int,
    preview_or_confirm,
    render_page,
    succeeded,
)


def _players_context(request: HttpRequest, tournament: Tournament, **extra: Any) -> dict[str, Any]:
    entrants = list(tournament.entrants.select_related("user", "group"))
    context = base_context(request, tournament, "players")
    context.update(
        {
            "entrants": entrants,
            "active_count": sum(1 for e in entrants if e.status == EntrantStatus.ACTIVE),
            "registration_open": tournament.phase in REGISTRATION_PHASES,
            "may_withdraw": can(request.user, Action.WITHDRAW_PLAYERS, tournament)
            and tournament.phase not in FINAL_PHASES,
            # ONLINE.md 6: which account holds each entry, and unlinking one.
            "may_unlink": tournament.phase not in FINAL_PHASES,
            "form": EntrantForm(),
            "paste_form": PasteForm(),
            "csv_form": CsvForm(),
            "max_players": fmt.ENTRANTS_MAX,
        }
    )
    context.update(extra)
    if context["registration_open"] and (
        "added" in extra or request.GET.get("registered") == "1" or context["form"].errors
    ):
        # Keyboard flow: after each name the cursor is back in the name field for the next.
        context["form"].fields["name"].widget.attrs["autofocus"] = True
    preview = context.get("preview")
    if preview is not None:
        name = preview.entrant.name
        context["preview_forfeits"] = [
            presentation.forfeit_text(name, presentation.duel_title(f.duel), f.winner, f.walkover)
            for f in preview.forfeits
        ]
        context["preview_nominations"] = [presentation.duel_title(d) for d in preview.nominations]
    latest = withdrawals.latest(tournament)
    if latest is not None and context["may_withdraw"]:
        context["last_withdrawal"] = latest
        context["undo_blocker"] = withdrawals.undo_blocker(tournament, latest)
    if "withdraw_form" not in context:
        context["withdraw_form"] = WithdrawForm(
            entrants=[e for e in entrants if e.status == EntrantStatus.ACTIVE]
        )
    return context


def _players_page(
    request: HttpRequest, tournament: Tournament, status: int = 200, **extra: Any
) -> HttpResponse:
    return render_page(
        request,
        "organiser/players.html",
        _players_context(request, tournament, **extra),
        partial="panel",
        status=status,
    )


@tournament_view(Action.MANAGE_REGISTRATION)
@require_http_methods(["GET", "POST"])
def players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The players; a POST registers one (the panel comes back, ready for the next name)."""
    if request.method == "GET":
        return _players_page(request, tournament)
    form = EntrantForm(request.POST)
    if form.is_valid():
        try:
            added = services.add_entrant(tournament, form.cleaned_data["name"], request.user)
        except ServiceError as err:
            form.add_error("name", err.message)
        else:
            if not request.htmx:
                messages.success(request, _("%(name)s is registered.") % {"name": added.name})
                return redirect(
                    reverse("organiser:players", args=[tournament.slug]) + "?registered=1"
                )
            return _players_page(request, tournament, added=added.name)
    return _players_page(request, tournament, status=REFUSED, form=form)


REPORT_REFUSED_SHOWN = 20


def _register_many(
    request: HttpRequest,
    tournament: Tournament,
    form: Any,
    apply: Callable[[], list[services.LineReport]],
    field: str,
) -> HttpResponse:
    if not form.is_valid():
        return _players_page(request, tournament, status=REFUSED, **{field: form})
    try:
        report = apply()
    except ServiceError as err:
        form.add_error(None, err.message)
        return _players_page(request, tournament, status=REFUSED, **{field: form})
    refused = [line for line in report if not line.added]
    # The report is summarised: every registered line, the first refused ones, and a count.
    shown = [line for line in report if line.added] + refused[:REPORT_REFUSED_SHOWN]
    extra: dict[str, Any] = {
        "report": sorted(shown, key=lambda line: line.line),
        "report_more": max(0, len(refused) - REPORT_REFUSED_SHOWN),
        "report_added": len(report) - len(refused),
        "report_refused": len(refused),
    }
    if field == "paste_form" and refused:
        # Nothing typed is lost: the lines that could not be registered stay, to be fixed.
        extra[field] = PasteForm(initial={"names": "\n".join(r.text for r in refused)})
    # Good lines are registered even when others are refused: 200, with the report.
    return _players_page(request, tournament, **extra)


@tournament_view(Action.MANAGE_REGISTRATION)
@require_POST
def register_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PasteForm(request.POST)
    return _register_many(
        request,
        tournament,
        form,
        lambda: services.register_list(tournament, form.cleaned_data["names"], request.user),
        "paste_form",
    )


@tournament_view(Action.MANAGE_REGISTRATION)
@require_POST
def register_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = CsvForm(request.POST, request.FILES)
    return _register_many(
        request,
        tournament,
        form,
        # One byte more than the limit is enough for the service to refuse a larger file.
        lambda: services.register_csv(
            tournament, form.cleaned_data["file"].read(UPLOAD_MAX_BYTES + 1), request.user
        ),
        "csv_form",
    )


@tournament_view(Action.MANAGE_REGISTRATION)
@require_POST
@never_cache  # the fresh claim link is on the answer: never kept by any cache
def issue_claim(request: HttpRequest, tournament: Tournament, entrant_id: int) -> HttpResponse:
    entrant = get_object_or_404(tournament.entrants, pk=entrant_id)
    try:
        token = services.issue_claim_link(entrant, request.user)
    except ServiceError as err:
        return _players_page(request, tournament, status=REFUSED, error=err.message)
    link = request.build_absolute_uri(
        reverse("tournaments:claim", kwargs={"slug": tournament.slug, "token": token})
    )
    context = base_context(request, tournament, "players")
    context.update(
        {
            "entrant": entrant,
            "link": link,
            "qr": qr_svg(
                link, title=_("QR code of %(name)s's claim link") % {"name": entrant.name}
            ),
        }
    )
    return render(request, "tournaments/claim_issued.html", context)


@tournament_view(Action.WITHDRAW_PLAYERS)
@require_POST
def withdraw(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Two posts: the first shows what the withdrawal would do (the forfeit it causes, who
    wins it, an elimination) and changes nothing; the second, with `confirm` and the version
    the first was drawn from, withdraws. The same confirmation sent twice changes nothing."""
    # A confirmation may name a player withdrawn since: the service then says so ("done").
    choices = tournament.entrants.all() if confirmed(request) else active_entrants(tournament)
    form = WithdrawForm(request.POST, entrants=choices)
    if not form.is_valid():
        return _players_page(request, tournament, status=REFUSED, withdraw_form=form)
    entrant = tournament.entrants.get(pk=form.cleaned_data["entrant"])

    def preview() -> tuple[dict[str, Any], str]:
        if entrant.status != EntrantStatus.ACTIVE:
            return {}, presentation.not_active_text(entrant.name)
        found = withdrawal_preview(tournament, entrant)
        return {"preview": found}, found.refusal

    def apply(version: int) -> str:
        forfeits = withdrawal_preview(tournament, entrant).forfeits  # what the words name
        services.withdraw(
            tournament,
            request.user,
            entrant.pk,
            form.cleaned_data["reason"],
            confirm=True,
            expected_version=version,
        )
        return presentation.withdrawn_text(
            entrant.name,
            [(presentation.duel_title(f.duel), f.winner, f.walkover) for f in forfeits],
        )

    def page(status: int, error: str = "", **extra: Any) -> HttpResponse:
        if error:
            form.add_error(None, error)
        return _players_page(request, tournament, status=status, withdraw_form=form, **extra)

    return preview_or_confirm(
        request,
        tournament,
        preview=preview,
        drawn=posted_int(request, "version"),
        apply=apply,
        page=page,
        back="players",
    )


@tournament_view(Action.WITHDRAW_PLAYERS)
@require_POST
def undo_withdrawal(
    request: HttpRequest, tournament: Tournament, withdrawal_id: int
) -> HttpResponse:
    """Undo a withdrawal made by mistake, or say why it can no longer be undone."""
    try:
        withdrawal = withdrawals.undo_withdrawal(
            tournament, request.user, withdrawal_id=withdrawal_id
        )
    except ServiceError as err:
        if err.code == "done":
            messages.info(request, err.message)
            return redirect_after_post(
                request, reverse("organiser:players", args=[tournament.slug])
            )
        return _players_page(request, tournament, status=REFUSED, error=err.message)
    return succeeded(
        request,
        presentation.undone_text(
            withdrawal.entrant.name, withdrawal.group.name if withdrawal.group else ""
        ),
        "players",
        tournament,
    )


@tournament_view(Action.MANAGE_REGISTRATION)
@require_POST
def remove(request: HttpRequest, tournament: Tournament, entrant_id: int) -> HttpResponse:
    """Remove a player outright before the group phase (a mistyped name): no withdrawal kept.
    Two posts: the first names the entry, the account it is linked to and that a removal
    cannot be undone; the second, with `confirm` and that account (0: none), removes."""

    def preview() -> tuple[dict[str, Any], str]:
        entrant = tournament.entrants.select_related("user").filter(pk=entrant_id).first()
        if entrant is None:
            return {}, str(NOT_REGISTERED)
        removal = removal_preview(tournament, entrant)
        return {"removal": removal}, removal.refusal

    def apply(account: int) -> str:
        name = services.remove_entrant(
            tournament, request.user, entrant_id, expected_account=account
        )
        return presentation.removed_text(name)

    return preview_or_confirm(
        request,
        tournament,
        preview=preview,
        drawn=posted_int(request, "account"),
        apply=apply,
        page=lambda status, **extra: _players_page(request, tournament, status=status, **extra),
        back="players",
    )


@tournament_view(Action.MANAGE_REGISTRATION)
@require_POST
def unlink(request: HttpRequest, tournament: Tournament, entrant_id: int) -> HttpResponse:
    """Unlink an entry from the account that claimed it (ONLINE.md 6). Two posts: the first
    names the entry and the account, and that the entry must be claimed again by a new claim
    link; the second, with `confirm` and that account's id, unlinks. Audited."""

    def preview() -> tuple[dict[str, Any], str]:
        entrant = tournament.entrants.select_related("user").filter(pk=entrant_id).first()
        if entrant is None:
            return {}, str(NOT_REGISTERED)
        unlinking = unlink_preview(tournament, entrant)
        return {"unlinking": unlinking}, unlinking.refusal

    def apply(account: int) -> str:
        entrant = unlink_entry(tournament, request.user, entrant_id, expected_account=account)
        return _(
            "%(name)s's entry is no longer linked to an account: give them a new claim link "
            "to claim it again."
        ) % {"name": entrant.name}

    return preview_or_confirm(
        request,
        tournament,
        preview=preview,
        drawn=posted_int(request, "account"),
        apply=apply,
        page=lambda status, **extra: _players_page(request, tournament, status=status, **extra),
        back="players",
    )
