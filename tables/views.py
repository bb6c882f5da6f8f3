"""Casual tables (docs/tables.md): open a table, referee it in its console, share a record
link and invite co-referees. Thin: reads through `tables.selectors`, every write one call to
`tables.services`.

Who sees what: the owner and accepted co-referees referee a table; a live record link shows
its record and nothing else; to anyone else a table does not exist (404), signed in or not.
Like the duel console, every form posts with htmx and without it; htmx gets the console
partial back (refusals included, with their status) with, out of band, only the log lines the
page lacks since the revision it showed, gzipped; a plain post is redirected.

A console's forms carry the page's revision (`rev`) and its idempotency key (`intent`, one
per rendered console): the same form sent twice is answered "already recorded" with the table
as it is (200, nothing applied twice), so a 409 only ever means that someone else moved.
Posts are read by the refereed adapter's `parse`, the one reader of the consoles' moves.
"""

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core import push
from core.errors import ServiceError
from core.htmx import reload_when_gone
from core.numbers import read_int
from games.split_uno import COLORS, PRESETS, VARIANTS
from play.adapters.base import Command, Refused
from play.adapters.split_uno_refereed import parse
from play.effect_words import refusal
from play.services import Outcome

from . import forms, selectors, services, words
from .models import CasualTable

POLL_SECONDS = 2
KEYPAD = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)
STATUS_OF = {"conflict": 409, "closed": 409, "forbidden": 404, "hidden": 404, "illegal": 422}


def _console_url(table_id: int) -> str:
    return reverse("tables:console", args=[table_id])


def _table(request: HttpRequest, table_id: int) -> CasualTable:
    """The table, for its owner or a co-referee; Http404 for anyone else."""
    return selectors.refereed_table(request.user, table_id)


#: The console's own requests (a poll, a move) after the owner revoked this person, or deleted
#: the table: htmx reloads the whole page, which then says "not found", rather than draw a 404
#: page inside the console. Only the console's addresses: the record, the sharing page and its
#: posts answer an ordinary 404, with or without htmx.
_console_view = reload_when_gone(words.NO_SUCH_TABLE)


# Opening and listing --------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def index(request: HttpRequest) -> HttpResponse:
    """My tables, and the form that opens one."""
    error = None
    if request.method == "POST":
        try:
            table = services.open_table(owner=request.user, **forms.new_table(request.POST))
        except ServiceError as err:
            error = err.message
        else:
            return HttpResponseRedirect(_console_url(table.pk))
    return render(
        request,
        "tables/index.html",
        {
            "tables": selectors.tables_of(request.user),
            "presets": [(p, words.ruleset_label(p)) for p in PRESETS],
            "variants": [(v, words.variant_label(v)) for v in VARIANTS],
            "rows": [
                {
                    "i": i,
                    "name": request.POST.get(f"name_{i}", "")[: services.NAME_MAX],
                    # "no team" unless chosen: choosing teams is what plays the team variant.
                    "team": request.POST.get(f"team_{i}", "")[:1],
                }
                for i in range(1, services.MAX_SEATS + 1)
            ],
            "ruleset": request.POST.get("ruleset", "official"),
            "post_team": request.POST.get("variant_team") == "on",
            "error": error,
            "keep_note": words.keep_note(services.KEEP_TABLES),
            "keep": services.KEEP_TABLES,
            "max_numbers": services.MAX_STARTING_NUMBER_CARDS,
            "max_actions": services.MAX_STARTING_ACTION_CARDS,
        },
        status=422 if error else 200,
    )


# The console ---------------------------------------------------------------------------------


def _context(
    request: HttpRequest,
    view: selectors.TableView,
    error: str | None = None,
    notice: str | None = None,
) -> dict[str, Any]:
    return {
        "table": view.table,
        "table_line": words.table_line(
            view.table.ruleset, view.table.variants, len(view.table.seats)
        ),
        "view": view,
        "error": error,
        "notice": notice,
        "intent": services.new_intent(),  # this rendering's forms' idempotency key
        "is_owner": view.table.owner_id == request.user.pk,
        "keypad": KEYPAD,
        "colors": [(c, words.color_label(c)) for c in COLORS],
        # The log's moves line by line (templates/duels/_log.html): a round at six seats is
        # some twenty lines.
        "log_by_line": True,
        "poll_seconds": POLL_SECONDS,
        # Push (issue 28): a co-referee's move within a second; the poll slows meanwhile.
        "topic": f"game:{view.table.game_id}",
        # Only a whole page carries the stream (an htmx answer has no <head>).
        "push": None if request.htmx else push.stream([f"game:{view.table.game_id}"]),
    }


def _page_revision(request: HttpRequest) -> int | None:
    """The revision the asking page showed (its form's `rev`, its poll's `?rev=`), if any."""
    source = request.POST if request.method == "POST" else request.GET
    raw = source.get("rev", "")
    return read_int(raw) if raw else None


def _console_response(
    request: HttpRequest,
    table: CasualTable,
    *,
    error: str | None = None,
    notice: str | None = None,
    status: int = 200,
    undo: bool = False,
    after: Outcome | None = None,
) -> HttpResponse:
    """htmx gets the console partial and, out of band, the line a screen reader announces and
    the log lines the asking page lacks (keyed by the revision it showed: only the new lines,
    the lines undone since marked so, or for a page too far behind its latest lines); a plain
    request gets the whole page, the only answer with the whole log (issue 27)."""
    view = selectors.console(table, after)
    context = _context(request, view, error, notice)
    if request.htmx:
        context["log_update"] = view.log_since(_page_revision(request))
        # An undo's own answer says which move it took back (the log strikes it through).
        context["undone"] = view.last_undone if undo else None
        body = render_to_string("tables/console.html#answer", context, request)
        response = HttpResponse(body, status=status)
    else:
        response = render(request, "tables/console.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _write(
    request: HttpRequest,
    table: CasualTable,
    apply: Callable[[], Outcome],
    done: str,
    repeat: str,
    *,
    undo: bool = False,
) -> HttpResponse:
    """One write and its answer: a refusal with its status; a repeat (the same form sent
    again) as the first send was answered, with `repeat`'s words; else `done`."""
    try:
        outcome = apply()
    except ServiceError as err:
        fresh = _table(request, table.pk)
        return _console_response(
            request, fresh, error=err.message, status=STATUS_OF.get(err.code, 422)
        )
    if not request.htmx:
        if outcome.repeat:
            messages.info(request, repeat)
        else:
            messages.success(request, done)
        return HttpResponseRedirect(_console_url(table.pk))
    return _console_response(
        request,
        _table(request, table.pk),
        notice=repeat if outcome.repeat else None,
        undo=undo and not outcome.repeat,
        after=outcome,
    )


@_console_view
@require_GET
@never_cache
def console(request: HttpRequest, table_id: int) -> HttpResponse:
    return _console_response(request, _table(request, table_id))


@_console_view
@require_GET
@never_cache
@gzip_page  # a phone on a table's Wi-Fi (htmx answers carry no CSRF token: `form_keys`)
def poll(request: HttpRequest, table_id: int) -> HttpResponse:
    """204 while the table is as the page shows it, else the current console."""
    table = _table(request, table_id)
    if request.GET.get("rev") == str(table.game.revision):
        response = HttpResponse(status=204)
        patch_vary_headers(response, ["HX-Request"])
        return response
    return _console_response(request, table)


def _append(
    request: HttpRequest, table_id: int, what: str, data: dict[str, str], done: str
) -> HttpResponse:
    """A move or an ending: the posted form (`data`) read by the refereed adapter's `parse`
    (refused in words), then applied by the table core under the page's revision and key.
    `what` says which form ("move" or "end")."""
    table = _table(request, table_id)
    try:
        command: Command = parse(data, table.letters, noun="game")
    except Refused as err:
        return _console_response(request, table, error=refusal(err), status=422)
    return _write(
        request,
        table,
        lambda: services.append_event(
            table_id=table.pk,
            actor=request.user,
            event=command,
            expected_revision=forms.revision(request.POST),
            key=services.intent_key(request.POST.get("intent", "")),
            game_id=table.game_id,
        ),
        done,
        gettext(words.ALREADY_RECORDED),
    )


@_console_view
@require_POST
@gzip_page  # a phone on a table's Wi-Fi (htmx answers carry no CSRF token: `form_keys`)
def move(request: HttpRequest, table_id: int) -> HttpResponse:
    data = request.POST.dict()
    data.setdefault("type", "")  # a post without a kind of move is none, never an ending
    return _append(request, table_id, "move", data, gettext("Move entered."))


@_console_view
@require_POST
@gzip_page  # a phone on a table's Wi-Fi (htmx answers carry no CSRF token: `form_keys`)
def undo(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table(request, table_id)
    return _write(
        request,
        table,
        lambda: services.undo(
            table_id=table.pk,
            actor=request.user,
            expected_revision=forms.revision(request.POST),
            key=services.intent_key(request.POST.get("intent", "")),
            game_id=table.game_id,
        ),
        gettext("The last move is undone (it stays in the log, struck through)."),
        gettext(words.ALREADY_UNDONE),
        undo=True,
    )


@_console_view
@require_POST
@gzip_page  # a phone on a table's Wi-Fi (htmx answers carry no CSRF token: `form_keys`)
def end(request: HttpRequest, table_id: int) -> HttpResponse:
    data = request.POST.dict()
    data.pop("type", None)  # an ending, whatever else is posted: `parse` reads one so
    data.setdefault("ending", "")
    return _append(request, table_id, "end", data, gettext("The game is ended."))


@require_GET
def record(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table's record (RULES.md section 8, teams per 11.9) as a file: active moves only."""
    table = _table(request, table_id)
    body = json.dumps(services.record_of(table), ensure_ascii=False, indent=1)
    response = HttpResponse(body + "\n", content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="table-{table.pk}.json"'
    return response


# Sharing: the record link and co-referees ----------------------------------------------------


def _sharing(
    request: HttpRequest,
    table: CasualTable,
    *,
    replay_link: str = "",
    invite_link: str = "",
    error: str | None = None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "tables/sharing.html",
        {
            "table": table,
            "co_referees": selectors.co_referees(table),
            "replay_link": replay_link,
            "invite_link": invite_link,
            "error": error,
            "max_co_referees": services.MAX_CO_REFEREES,
            "invitation_days": settings.TABLE_INVITATION_DAYS,
        },
        status=status,
    )


def _owned(request: HttpRequest, table_id: int) -> CasualTable:
    """The table, for its owner; a co-referee may not share it (404 as for anyone else:
    a co-referee knows the table, but sharing it is the owner's)."""
    table = _table(request, table_id)
    if table.owner_id != request.user.pk:
        raise Http404(gettext("Only the owner shares a table."))
    return table


# The sharing page, its answers and the pages a link opens show a fresh link or are reached by
# one: never kept by the browser or any shared cache (`never_cache`: no-store, private).


@require_GET
@never_cache
def sharing(request: HttpRequest, table_id: int) -> HttpResponse:
    return _sharing(request, _owned(request, table_id))


@require_POST
@never_cache
def share(request: HttpRequest, table_id: int) -> HttpResponse:
    """Make a record link, revoke it, invite a co-referee or revoke one (`do`)."""
    table = _owned(request, table_id)
    action = request.POST.get("do", "")
    try:
        if action == "replay_link":
            token = services.make_replay_link(table_id=table.pk, actor=request.user)
            link = request.build_absolute_uri(reverse("tables:replay", args=[token]))
            return _sharing(request, _owned(request, table_id), replay_link=link)
        if action == "revoke_replay_link":
            services.revoke_replay_link(table_id=table.pk, actor=request.user)
            done = gettext(words.RECORD_LINK_REVOKED)
        elif action == "invite":
            token = services.invite_co_referee(table_id=table.pk, actor=request.user)
            link = request.build_absolute_uri(reverse("tables:invitation", args=[token]))
            return _sharing(request, table, invite_link=link)
        elif action == "revoke_invite":
            invite_id = read_int(request.POST.get("invite", ""))
            if invite_id is None:
                raise ServiceError(gettext("Say which invitation to revoke."))
            services.revoke_co_referee(table_id=table.pk, actor=request.user, invite_id=invite_id)
            done = gettext("Revoked: that link and that co-referee no longer open the table.")
        else:
            raise ServiceError(gettext("That is not something this page does."))
    except ServiceError as err:
        return _sharing(
            request,
            _owned(request, table_id),
            error=err.message,
            status=STATUS_OF.get(err.code, 422),
        )
    messages.success(request, done)
    return HttpResponseRedirect(reverse("tables:sharing", args=[table.pk]))


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation to co-referee: shown with until when it works, then accepted by a button
    (a link preview that opens the address must not use it up). A token that names nothing
    open is a 404, as a guess would be; an expired one says so, and when (410)."""
    invite = None
    try:
        if request.method == "POST":
            table = services.accept_invitation(token=token, user=request.user)
            messages.success(request, gettext("You now referee this table."))
            return HttpResponseRedirect(_console_url(table.pk))
        invite = services.invitation(token)
    except ServiceError as err:
        if err.code == "closed" and request.method == "GET":
            raise Http404(err.message) from None
        error, status = err.message, (410 if err.code == "expired" else 422)
    else:
        error, status = None, 200
    return render(
        request, "tables/invitation.html", {"invite": invite, "error": error}, status=status
    )


@require_GET
@never_cache
def replay(request: HttpRequest, token: str) -> HttpResponse:
    """The record of a table whose owner made this link; 404 once it is revoked."""
    table = services.table_for_replay(token)
    if table is None:
        raise Http404(gettext(words.RECORD_LINK_GONE))
    view = selectors.replay(table, read_int(request.GET.get("step", "")))
    template = "tables/replay.html" + ("#replay" if request.htmx else "")
    line = words.table_line(table.ruleset, table.variants, len(table.seats))
    response = render(request, template, {"table": table, "view": view, "table_line": line})
    patch_vary_headers(response, ["HX-Request"])
    response["Referrer-Policy"] = "no-referrer"  # the link is the key: never leak it onwards
    return response
