"""Printable sheets and the poster: a sheet per unclaimed player (claim link and QR code), a
sheet per open referee invitation, and a poster of the public page's address.

Tokens are stored only as hashes, so a sheet cannot reprint a link: printing issues fresh
ones. The GET page says so (and whose links stop working) before anything changes; the POST
issues them and answers with the sheets, ready for the browser's Print. The referees' page
replaces only the links the organiser ticks (none by default): a link already sent keeps
working unless its box is ticked; so does the players' page ("all of them" is one tick).

Every page here is `never_cache` (no-store, private): the sheets carry fresh links, and a
printed page is not one to keep in a browser's or a proxy's cache either.
"""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from accounts.permissions import Action
from core.errors import ServiceError
from core.htmx import redirect_after_post
from core.qr import qr_svg
from tournaments.access import tournament_view
from tournaments.models import Tournament
from tournaments.services import invitations

from ._common import REFUSED, base_context

KINDS = {
    "players": {
        "view": "tournaments:claim",
        "heading": gettext_lazy("Players' claim sheets"),
        "noun": "player",
        "back": "players",
    },
    "referees": {
        "view": "tournaments:invite",
        "heading": gettext_lazy("Referees' invitation sheets"),
        "noun": "referee",
        "back": "people",
    },
}


def _ready(count: int, kind: str) -> str:
    """The printed sheets' status line, a whole sentence for each kind and number."""
    if kind == "players":
        words = ngettext(
            "%(n)d sheet ready: print this page (Ctrl+P). The earlier link of this player no "
            "longer works. This link is shown only now.",
            "%(n)d sheets ready: print this page (Ctrl+P). The earlier links of these "
            "%(n)d players no longer work. These links are shown only now.",
            count,
        )
    else:
        words = ngettext(
            "%(n)d sheet ready: print this page (Ctrl+P). The earlier link of this referee no "
            "longer works. This link is shown only now.",
            "%(n)d sheets ready: print this page (Ctrl+P). The earlier links of these "
            "%(n)d referees no longer work. These links are shown only now.",
            count,
        )
    return words % {"n": count}


def _ticked(request: HttpRequest, name: str) -> dict[int, str]:
    """The ticked players, each with the mark of the link the page showed ("12:ab…");
    anything garbled is no tick."""
    ticked = {}
    for value in request.POST.getlist(name):
        pk, _sep, mark = value.partition(":")
        if pk.isdecimal() and mark:
            ticked[int(pk)] = mark
    return ticked


def _sheets(request: HttpRequest, tournament: Tournament, kind: str) -> HttpResponse:
    info = KINDS[kind]
    context = base_context(request, tournament, info["back"])
    context.update({"kind": kind, "info": info})
    if kind == "players":
        # Each waiting player is a box to tick, carrying the mark of the link it replaces.
        context["players"] = [
            {"entrant": e, "mark": invitations.claim_sheet_mark(e)}
            for e in invitations.players_to_print(tournament)
        ]
        context["waiting"] = [p["entrant"].name for p in context["players"]]
    else:
        # Each waiting invitation is a box to tick: whose link is replaced, none by default.
        context["invitations"] = invitations.referee_invitations_to_print(tournament)
        context["waiting"] = [i.label or _("(no name)") for i in context["invitations"]]
    if request.method == "GET":
        return render(request, "organiser/print_sheets.html", context)
    try:
        if kind == "players":
            # "All of them" is one tick: every player the page listed, as it listed them.
            replace = _ticked(request, "listed" if request.POST.get("all") == "1" else "replace")
            context["ticked"] = set(replace)
            sheets = invitations.reissue_player_sheets(tournament, request.user, replace=replace)
        else:
            replace = [int(v) for v in request.POST.getlist("replace") if v.isdecimal()]
            context["ticked"] = set(replace)
            sheets = invitations.reissue_referee_sheets(tournament, request.user, replace=replace)
    except ServiceError as err:
        context["error"] = err.message
        if err.code == "done":
            messages.info(request, err.message)
            return redirect_after_post(
                request, reverse(f"organiser:print_{kind}", args=[tournament.slug])
            )
        return render(request, "organiser/print_sheets.html", context, status=REFUSED)
    rows = []
    for sheet in sheets:
        link = request.build_absolute_uri(
            reverse(info["view"], kwargs={"slug": tournament.slug, "token": sheet.token})
        )
        rows.append(
            {
                "sheet": sheet,
                "link": link,
                "qr": qr_svg(
                    link, title=_("QR code for %(name)s") % {"name": sheet.name}, size="sheet"
                ),
            }
        )
    context["rows"] = rows
    context["ready"] = _ready(len(rows), kind)
    return render(request, "organiser/print_sheets.html", context)


@tournament_view(Action.MANAGE_REGISTRATION)
@require_http_methods(["GET", "POST"])
@never_cache
def print_players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _sheets(request, tournament, "players")


@tournament_view(Action.MANAGE_REFEREES)
@require_http_methods(["GET", "POST"])
@never_cache
def print_referees(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _sheets(request, tournament, "referees")


@tournament_view(Action.PUBLISH)
@require_safe
@never_cache
def poster(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The public page's address in large type and as a QR code, to pin up at the venue."""
    link = request.build_absolute_uri(tournament.get_absolute_url())
    context = base_context(request, tournament, "people")
    context.update(
        {
            "link": link,
            "qr": qr_svg(
                link,
                title=_("QR code of %(name)s's page") % {"name": tournament.name},
                size="poster",
            ),
        }
    )
    return render(request, "organiser/poster.html", context)
