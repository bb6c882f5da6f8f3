"""Duel pages: the referee console (moves, undo, endings, corrections), the staff duels list,
the record download and the public replay. Mounted under /t/<slug>/duels/. A console is a
tournament page: its writes go through the tournament's services (refereeing, corrections),
which call `duels` for the duel's own rows.

Thin: reads go through the selectors, every write through one service call. One console
template serves both ways of using it: without JavaScript every form posts and redirects; with
htmx the same forms post in place and get the console partial back (4xx answers included, so
a refusal or a conflict is shown where the referee is looking).
"""

import json
import re
import zlib
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_POST

from accounts.permissions import Action, can
from core import push
from core.errors import ServiceError
from core.numbers import read_int
from duels import selectors
from duels import services as duels
from duels.forms import (
    ENDING_HELP,
    CorrectionForm,
    EndingForm,
    SeqForm,
    ending_choices,
    new_intent,
)
from duels.models import Duel, DuelStatus
from games.split_uno import COLORS
from play import clock
from play.adapters.base import Refused
from play.adapters.split_uno_refereed import parse, parse_ending
from play.effect_words import refusal
from tournaments import presentation
from tournaments import selectors_console as console_selectors
from tournaments.access import tournament_view
from tournaments.models import Tournament
from tournaments.push_topics import tournament_topic
from tournaments.services import refereeing
from tournaments.services.corrections import correct_result
from tournaments.views.organiser._common import confirmed

POLL_SECONDS = 2
KEYPAD = "1234567890"  # a phone's keypad order: the referee's thumb knows it
# How each refusal is answered: a stale page and a closed duel are conflicts with the current
# state, a move the rules forbid is unprocessable, the wrong person is forbidden.
INDENT = re.compile(r"\n\s+")
_COLOR_WORDS = {
    "red": pgettext_lazy("a card colour", "Red"),
    "yellow": pgettext_lazy("a card colour", "Yellow"),
    "green": pgettext_lazy("a card colour", "Green"),
    "blue": pgettext_lazy("a card colour", "Blue"),
}
COLOR_LABELS = tuple((color, _COLOR_WORDS.get(color, color.capitalize())) for color in COLORS)
# A repeat (the same form sent again, its key) is its stored outcome: the console as it is,
# with words (a plain post: the redirect the first send had). Something already recorded
# from another page ("recorded") is refused (docs/architecture.md).
STATUS_OF = {
    "conflict": 409,
    "closed": 409,
    "recorded": 409,
    "forbidden": 403,
    "illegal": 422,
    "repeat": 200,
}


def _url(name: str, tournament: Tournament, duel: Duel) -> str:
    return reverse(f"duels:{name}", kwargs={"slug": tournament.slug, "duel_id": duel.pk})


def _console_url(tournament: Tournament, duel: Duel) -> str:
    return _url("console", tournament, duel)


def _referee_duel(request: HttpRequest, tournament: Tournament, duel_id: int) -> Duel:
    """The duel, for someone who may referee it: never one of its own players."""
    duel = selectors.duel_in(tournament, duel_id, page=not request.htmx)
    if not can(request.user, Action.REFEREE_DUELS, tournament, players=selectors.player_ids(duel)):
        raise PermissionDenied(_("You play in this duel: another referee must run it."))
    return duel


def _names(view: selectors.ConsoleView) -> dict[str, str]:
    return {seat.letter: seat.name for seat in view.seats}


def _seat_names(duel: Duel) -> dict[str, str]:
    return {
        "A": duel.seat_a.name if duel.seat_a else "A",
        "B": duel.seat_b.name if duel.seat_b else "B",
    }


def _key(parts: list[str]) -> str:
    """A short key of what a part of the console shows, with the language it is written in."""
    return format(zlib.crc32("\x1f".join([get_language() or "", *parts]).encode()), "08x")


def _pads_key(view: selectors.ConsoleView, may_move: bool) -> str:
    """What the round form's pads show ("" without pads): which seat's pad is open, and the
    seats' names (the legends). A move's answer leaves the page's own pads in place (htmx's
    `hx-preserve`) when the page names the same key: they change only when a pad opens or
    closes, and rebuilding them was half of what a move's swap walked (issue 26)."""
    if not (may_move and view.can_play_round):
        return ""
    return _key([f"{seat.letter}{'+' if seat.reveals else '-'}{seat.name}" for seat in view.seats])


def _actions_key(view: selectors.ConsoleView, may_move: bool) -> str:
    """What the seats' action cards show ("" without any): each acting seat's name and
    cards. Kept across an answer as the pads are: most moves leave them as they were."""
    if not (may_move and view.acting):
        return ""
    return _key(
        [
            f"{seat.letter}{seat.name}:{','.join(c.value for c in seat.actions)}"
            f":{int(seat.color_change)}"
            for seat in view.acting
        ]
    )


def _context(
    request: HttpRequest,
    tournament: Tournament,
    view: selectors.ConsoleView,
    *,
    error: str | None = None,
    ending_form: EndingForm | None = None,
    correction_form: CorrectionForm | None = None,
) -> dict[str, Any]:
    duel, user = view.duel, request.user
    organiser = can(user, Action.CORRECT_RESULTS, tournament, players=selectors.player_ids(duel))
    # The service has the last word; this only hides buttons that would be refused.
    may_move = view.playing and (duel.referee_id in (None, user.pk) or organiser)
    may_correct = organiser and view.finished
    # Taking a duel is an explicit, confirmed choice of an organiser, never a move's effect.
    may_take = organiser and view.playing and duel.referee_id != user.pk
    names = _names(view)
    topics = f"duel:{duel.pk} {tournament_topic(tournament)}"
    return {
        "tournament": tournament,
        "duel": duel,
        "view": view,
        "error": error,
        "may_move": may_move,
        "may_correct": may_correct,
        "may_take": may_take,
        "take_url": _url("take", tournament, duel) if may_take else "",
        # The referee a running duel was taken from is told who took it (one read, only for
        # someone who is not the duel's referee: never on the referee's own moves).
        "taken_words": refereeing.taken_from(duel, user) if view.playing else None,
        "keypad": KEYPAD,
        "pads_key": _pads_key(view, may_move),
        "actions_key": _actions_key(view, may_move),
        "colors": COLOR_LABELS,
        # One key per rendered console: every form sent from it carries it (console.js, or
        # the plain page's hidden input), so the same form sent again is known as a repeat.
        "intent": new_intent(),
        # Reversed once here, not by each form of the partial.
        "move_url": _url("move", tournament, duel),
        "undo_url": _url("undo", tournament, duel),
        "poll_url": _url("poll", tournament, duel),
        "poll_seconds": POLL_SECONDS,
        # Push (issue 28): another device's move, a ruling, a withdrawal within a second.
        "topics": topics,
        # Only a whole page carries the stream (an htmx answer has no <head>): no token
        # signed on every move's answer.
        "push": None if request.htmx else push.stream(topics.split()),
        # Built only when a posted ending is shown back with its errors; otherwise the
        # template writes the fresh form from its choices (no form object on a move's answer).
        "ending_form": ending_form,
        "ending_choices": ending_choices(names) if may_move else (),
        "ending_help": ENDING_HELP,
        "correction_form": correction_form
        or (CorrectionForm(names=names) if may_correct else None),
        # What a correction is drawn for (as the Results page's ruling): the version now.
        "ruling_version": console_selectors.committed_version(tournament) if may_correct else None,
    }


def _current(
    request: HttpRequest, tournament: Tournament, duel_id: int, *, status: int = 200, **extra: Any
) -> HttpResponse:
    """The console as it is now in the database, read afresh."""
    view = console_selectors.console(selectors.duel_in(tournament, duel_id))
    return _console_response(request, _context(request, tournament, view, **extra), status)


def _page_revision(request: HttpRequest) -> int | None:
    """The revision the asking page showed (its form's `rev`, its poll's `?rev=`), if any."""
    source = request.POST if request.method == "POST" else request.GET
    raw = source.get("rev", "")
    return read_int(raw) if raw else None


def _console_response(
    request: HttpRequest, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """htmx gets the console partial and, out of band, the line a screen reader announces and
    the log lines the asking page lacks (keyed by the revision it showed); a plain request
    gets the whole page, the only answer with the whole log."""
    if request.htmx:
        view = context["view"]
        context["log_update"] = log_update = view.log_since(_page_revision(request))
        # The ending form changed (shown back with errors, or gone with the duel's end), or
        # the page may be far behind: it comes too. Otherwise the page keeps its own.
        # A console that may not move (a duel taken from this referee) has no ending form:
        # the empty one comes with every answer, so the form goes with the move pad.
        context["ending_changed"] = bool(
            context.get("ending_form")
            or not view.playing
            or not context["may_move"]
            or log_update.reset is not None
        )
        # The page's pads and action cards stay (hx-preserve) when they would come back the
        # same: console.js names the keys of those it shows with every request of the console.
        source = request.POST if request.method == "POST" else request.GET
        for part in ("pads", "actions"):
            key = context[f"{part}_key"]
            context[f"{part}_kept"] = bool(key) and source.get(part) == key
        # One render for every part (the context processors run once).
        body = render_to_string("duels/console.html#answer", context, request)
        # The template's indentation and blank lines are a tenth of a move's answer.
        response = HttpResponse(INDENT.sub("\n", body), status=status)
    else:
        context["title"] = presentation.duel_title(context["duel"])
        response = render(request, "duels/console.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _write(
    request: HttpRequest,
    tournament: Tournament,
    duel: Duel,
    seq_form: SeqForm,
    apply: Callable[[], Any],
    done: str,
    *,
    undo: bool = False,
    redo: bool = False,
    ending: bool = False,
    **forms: Any,
) -> HttpResponse:
    """Run one service call for a posted form and answer with the console.

    The service compares the page's sequence number and revision under the duel's lock
    before anything else (after an undo and a new move `seq` is back where it was, and only
    the revision tells that page it is stale).
    """
    rev, seq = seq_form.cleaned_data.get("rev"), seq_form.cleaned_data["seq"]
    try:
        played, refused = apply(), None
    except Duel.DoesNotExist:
        raise Http404(_("No such duel.")) from None
    except ServiceError as err:
        played, refused = None, err
    if refused is not None:
        err = refused
        fresh = _referee_duel(request, tournament, duel.pk)  # a player is refused first
        stale = rev != fresh.revision if rev is not None else seq != fresh.seq
        if err.code not in ("conflict", "repeat", "recorded") and stale:
            # The page was stale, and that is what the referee must hear first, whichever
            # check the service met first (a lost race for an unassigned duel is refused as
            # "assigned to the winner" before the sequence number is compared).
            err = duels.Conflict(fresh.seq)
        view = console_selectors.console(fresh)  # the state someone else left, ready for a move
        message = err.message
        if isinstance(err, duels.Conflict):
            message = (
                console_selectors.lost_race_words(tournament, fresh, view, rev, result=ending)
                or message
            )
        if err.code == "repeat":
            if not request.htmx:  # the first send's answer: back to the console, with words
                return _stored_outcome(request, tournament, duel, message)
            forms = {}  # the stored outcome: nothing to show back
        return _console_response(
            request,
            _context(request, tournament, view, error=message, **forms),
            status=STATUS_OF.get(err.code, 422),
        )
    if not request.htmx:
        messages.success(request, done)
        return HttpResponseRedirect(_console_url(tournament, duel))
    if isinstance(played, tuple):  # a move: the row as it left it, and the log with it
        view = console_selectors.console_after_move(played[0])
    else:  # an undo, never of a duel's first move: the row read before it
        view = console_selectors.console_after_write(tournament, duel, started=False)
    context = _context(request, tournament, view)
    # The undo's own answer offers "Redo" (the next answer, of anything, takes it away).
    context["undone"] = view.last_undone if undo else None
    context["redone"] = redo  # said to a screen reader: the news line is otherwise a move's
    return _console_response(request, context)


def _stored_outcome(
    request: HttpRequest, tournament: Tournament, duel: Duel, message: str
) -> HttpResponse:
    """A plain post sent again with its key: the answer its first send had (the redirect to
    the console), with the words "already … Nothing changed"."""
    messages.info(request, message)
    return HttpResponseRedirect(_console_url(tournament, duel))


def _refuse(
    request: HttpRequest,
    tournament: Tournament,
    duel: Duel,
    form: Any,
    *,
    error: str | None = None,
    **forms: Any,
) -> HttpResponse:
    """A form without the shape of a move, or with nothing to do: nothing is sent to the
    service, nothing changes."""
    # Each message once: a form without its seq and its rev is out of date once, not twice.
    message = error or " ".join(
        dict.fromkeys(str(e) for errors in form.errors.values() for e in errors)
    )
    view = console_selectors.console(duel)
    return _console_response(
        request, _context(request, tournament, view, error=message, **forms), status=422
    )


@tournament_view(Action.REFEREE_DUELS)
@require_GET
def duel_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "duels/list.html",
        {
            "tournament": tournament,
            "duels": console_selectors.staff_duels(tournament),
            "may_manage": can(request.user, Action.MANAGE_REGISTRATION, tournament),
            "may_manage_people": can(request.user, Action.MANAGE_REFEREES, tournament),
        },
    )


def _keep_time(tournament: Tournament, duel_id: int) -> bool:
    """Warn, or end the duel at its deadline, when the time says so: beat and the one clock's
    sweep do this with a worker; on the embedded default (no worker, no beat) the console's
    own load and poll are what notice (`play.clock.check_on_request`). Both are idempotent.
    One small query while neither is due. Returns whether the duel was ended."""
    row = (
        Duel.objects.filter(
            pk=duel_id,
            tournament=tournament,
            status=DuelStatus.RUNNING,
            game__deadline__isnull=False,
        )
        .values_list("game_id", "game__deadline", "warned_at")
        .first()
    )
    if row is None:
        return False
    game_id, deadline, warned = row
    now = clock.now()
    if now < deadline - refereeing.WARNING_BEFORE or (warned and now < deadline):
        return False
    if not warned:
        refereeing.warn_time_limit(Duel.objects.get(pk=duel_id), now)
    return now >= deadline and clock.check_on_request(game_id, now=now)


@tournament_view(Action.REFEREE_DUELS)
@require_GET
@never_cache
def console(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    _keep_time(tournament, duel_id)
    if Duel.objects.filter(tournament=tournament, pk=duel_id, online=True).exists():
        # Its players play it (ONLINE.md 6): staff watch it, and a referee who does not play
        # in it may end it, on its public page (an organiser who plays sees it there too).
        return redirect("public:online_watch", tournament.slug, duel_id)
    duel = _referee_duel(request, tournament, duel_id)
    return _console_response(
        request, _context(request, tournament, console_selectors.console(duel))
    )


@tournament_view(Action.REFEREE_DUELS)
@require_GET
@never_cache
@gzip_page  # a phone on a table's Wi-Fi: ~2 kB instead of ~6 (the answers carry no CSRF token)
def poll(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """204 while the duel is as the page shows it (nothing swapped, no focus lost), else the
    current console. One small query for an unchanged duel.

    "As the page shows it": its revision, and its referee and table (`ref`, `at`): a duel
    taken from the referee whose console is open redraws it read-only, saying who took it."""
    state = selectors.poll_state(tournament, duel_id)
    if state is None:
        raise Http404(_("No such duel."))
    revision, referee_id, table = state
    # A poll that names no referee or table (a script, a page drawn before they were sent)
    # is compared on what it names.
    asked = request.GET
    unchanged = (
        asked.get("rev") == str(revision)
        and asked.get("ref", str(referee_id or "")) == str(referee_id or "")
        and asked.get("at", table) == table
    )
    if unchanged and not _keep_time(tournament, duel_id):
        response = HttpResponse(status=204)
        patch_vary_headers(response, ["HX-Request"])
        return response
    duel = _referee_duel(request, tournament, duel_id)
    return _console_response(
        request, _context(request, tournament, console_selectors.console(duel))
    )


@tournament_view(Action.REFEREE_DUELS)
@require_POST
@gzip_page  # a phone on a table's Wi-Fi: ~2 kB instead of ~6 (the answers carry no CSRF token)
def move(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """The console's hot path: the duel is read once, locked, by the service (its seats, its
    referee); the view checks there who may play it, before its checks, as every other view
    of the console does beforehand (`_referee_duel`): its players never."""
    form = SeqForm(request.POST)
    try:
        # The one reader of the move vocabulary, the casual tables' too (issue 27).
        command = parse(request.POST, duels.SEATS, noun="duel")
    except Refused as err:
        form.is_valid()
        duel = _referee_duel(request, tournament, duel_id)
        return _refuse(request, tournament, duel, form, error=refusal(err))
    if not form.is_valid():
        return _refuse(request, tournament, _referee_duel(request, tournament, duel_id), form)
    duel = Duel(pk=duel_id, tournament=tournament)  # not read yet: `play_move` locks and reads it
    return _write(
        request,
        tournament,
        duel,
        form,
        lambda: refereeing.play_move(
            duel,
            request.user,
            command,
            form.cleaned_data["seq"],
            form.cleaned_data.get("rev"),
            intent=form.cleaned_data.get("intent") or "",
        ),
        _("Move entered."),
    )


@tournament_view(Action.REFEREE_DUELS)
@require_POST
@gzip_page  # a phone on a table's Wi-Fi: ~2 kB instead of ~6 (the answers carry no CSRF token)
def undo(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    duel = _referee_duel(request, tournament, duel_id)
    form = SeqForm(request.POST)
    if not form.is_valid():
        return _refuse(request, tournament, duel, form)
    if form.cleaned_data["seq"] == 0:
        # The page showed no move: nothing to undo (and the service expects one to exist).
        return _refuse(request, tournament, duel, form, error=_("There is no move to undo."))
    return _write(
        request,
        tournament,
        duel,
        form,
        lambda: refereeing.undo_last_event(
            duel,
            request.user,
            form.cleaned_data["seq"],
            form.cleaned_data.get("rev"),
            intent=form.cleaned_data.get("intent") or "",
        ),
        _("The last move is undone (it stays in the log, struck through)."),
        undo=True,
    )


@tournament_view(Action.REFEREE_DUELS)
@require_POST
@gzip_page  # a phone on a table's Wi-Fi: ~2 kB instead of ~6 (the answers carry no CSRF token)
def redo(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """ "Undone — Redo": the move just undone, entered again through the normal checked path,
    only while nothing else happened since (the service checks)."""
    duel = _referee_duel(request, tournament, duel_id)
    form = SeqForm(request.POST)
    if not form.is_valid():
        return _refuse(request, tournament, duel, form)
    return _write(
        request,
        tournament,
        duel,
        form,
        lambda: refereeing.redo_undone(
            duel,
            request.user,
            form.cleaned_data["seq"],
            form.cleaned_data.get("rev"),
            intent=form.cleaned_data.get("intent") or "",
        ),
        _("The undone move is entered again."),
        redo=True,
    )


@tournament_view(Action.REFEREE_DUELS)
@require_POST
@gzip_page  # a phone on a table's Wi-Fi: ~2 kB instead of ~6 (the answers carry no CSRF token)
def end(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """Forfeit, time limit or adjudication, confirmed and with a reason."""
    duel = _referee_duel(request, tournament, duel_id)
    seq_form = SeqForm(request.POST)
    form = EndingForm(request.POST, names=_seat_names(duel))
    if not (seq_form.is_valid() and form.is_valid()):
        return _refuse(
            request, tournament, duel, seq_form if seq_form.errors else form, ending_form=form
        )
    try:
        command = parse_ending(request.POST, duels.SEATS, noun="duel")  # the form shows errors
    except Refused as err:
        return _refuse(request, tournament, duel, seq_form, error=refusal(err), ending_form=form)
    return _write(
        request,
        tournament,
        duel,
        seq_form,
        lambda: refereeing.play_move(
            duel,
            request.user,
            command,
            seq_form.cleaned_data["seq"],
            seq_form.cleaned_data.get("rev"),
            intent=seq_form.cleaned_data.get("intent") or "",
        ),
        _("The duel is ended."),
        ending=True,
        ending_form=form,
    )


@tournament_view(Action.CORRECT_RESULTS)
@require_POST
def take(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """An organiser takes the duel to run it (confirmed; the referee it is taken from sees who
    took it). Given back from the Rounds page, like any assignment."""
    duel = _referee_duel(request, tournament, duel_id)
    try:
        refereeing.take_duel(duel, request.user, confirm=confirmed(request))
    except ServiceError as err:
        return _current(
            request, tournament, duel.pk, status=STATUS_OF.get(err.code, 422), error=err.message
        )
    if not request.htmx:
        messages.success(request, _("The duel is yours: you run it from this console."))
        return HttpResponseRedirect(_console_url(tournament, duel))
    return _current(request, tournament, duel.pk)


@tournament_view(Action.CORRECT_RESULTS)
@require_POST
def correct(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """An organiser's correction of a finished duel's result, with a public reason."""
    duel = selectors.duel_in(tournament, duel_id)
    # Who may, before the form (DESIGN.md's order): one of its players hears that, not that
    # their page is out of date. The service checks again under the lock.
    if not can(
        request.user, Action.CORRECT_RESULTS, tournament, players=selectors.player_ids(duel)
    ):
        raise PermissionDenied(_("You play in this duel: another organiser must correct it."))
    form = CorrectionForm(request.POST, names=_seat_names(duel))
    if not form.is_valid():
        return _refuse(request, tournament, duel, form, correction_form=form)
    try:
        correct_result(
            tournament,
            request.user,
            duel,
            form.winner_seat,
            form.cleaned_data["reason"],
            expected_version=form.cleaned_data.get("version"),
            intent=form.cleaned_data.get("intent") or "",
        )
    except ServiceError as err:
        if err.code == "repeat":  # this console's own correction again: its stored outcome
            if not request.htmx:
                return _stored_outcome(request, tournament, duel, err.message)
            return _current(request, tournament, duel.pk, error=err.message)
        return _current(
            request,
            tournament,
            duel.pk,
            status=STATUS_OF.get(err.code, 422),
            error=err.message,
            correction_form=form,
        )
    if not request.htmx:
        messages.success(request, _("The result is corrected; standings follow."))
        return HttpResponseRedirect(_console_url(tournament, duel))
    return _current(request, tournament, duel.pk)


def _public_duel(tournament: Tournament, duel_id: int) -> Duel:
    duel = get_object_or_404(
        Duel.objects.select_related("seat_a", "seat_b", "round"), pk=duel_id, tournament=tournament
    )
    if duel.seat_a is None or duel.seat_b is None:
        raise Http404(_("This duel has no players yet."))
    duel.title = presentation.duel_title(duel)
    return duel


@tournament_view(Action.VIEW_PUBLIC)
@require_GET
def record(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """The duel's record (RULES.md section 8) as a file: active moves only."""
    duel = _public_duel(tournament, duel_id)
    body = json.dumps(duels.record_of(duel), ensure_ascii=False, indent=1)
    response = HttpResponse(body + "\n", content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{tournament.slug}-duel-{duel.pk}.json"'
    )
    return response


@tournament_view(Action.VIEW_PUBLIC)
@require_GET
def replay(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """Step through a duel event by event, the state beside it. `?step=n` is the state after
    the first n moves; htmx swaps only the stepper."""
    duel = _public_duel(tournament, duel_id)
    step = request.GET.get("step", "")
    view = selectors.replay(duel, read_int(step))
    template = "duels/replay.html" + ("#replay" if request.htmx else "")
    response = render(
        request,
        template,
        {
            "tournament": tournament,
            "duel": duel,
            "view": view,
            "may_referee": can(
                request.user, Action.REFEREE_DUELS, tournament, players=selectors.player_ids(duel)
            ),
        },
    )
    patch_vary_headers(response, ["HX-Request"])
    return response
