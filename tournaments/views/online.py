"""A player's online tournament duel (ONLINE.md 6; docs/online.md): the ready screen, then the
card table from their own seat only (cardtable/, the same page as practice and online tables),
live by a poll every 2 s (204 while nothing changed) and push on the game's topic. Only the
duel's two players see these pages (anyone else: 404); a move is for the player's own seat,
carries the page's revision and a fresh key per form, and a double post is harmless."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.permissions import Action, can
from cardtable.confirm import NeedsConfirmation, ending
from cardtable.forms import MAX_FIELD, command_of, countdown, form_keys
from cardtable.page import card_table
from cardtable.shared import Clocks, public_answer, seat_clocks
from cardtable.words import listing
from core import push
from core.errors import ServiceError
from core.numbers import read_int
from duels import services as duels
from duels.forms import EndingForm, new_intent
from duels.models import Duel, DuelStatus
from duels.selectors import player_ids
from duels.words import finish_label
from play import presence
from play.adapters.base import Command, Viewer
from play.errors import Forbidden, Hidden, Stale
from play.errors import Refused as Illegal
from play.selectors import seat_deadlines, view_of

from ..access import tournament_view
from ..models import Tournament
from ..services import online, online_rulings

NO_SUCH_DUEL = gettext_noop("There is no such online duel of yours.")
NO_SUCH_WATCHED = gettext_noop("There is no such online duel.")
MOVED_ON = gettext_noop("This duel moved on: here it is as it is now.")
ALREADY = gettext_noop("This move was already recorded: nothing changed.")
#: How often an open page asks whether anything changed, in seconds.
POLL_SECONDS = 2
REFUSED, STALE = 422, 409


def _open(duel_id: int, user: Any) -> tuple[Duel, str]:
    """The duel and the player's seat; 404 for anyone but its two players."""
    duel = (
        Duel.objects.select_related("tournament", "seat_a", "seat_b", "game", "round")
        .filter(pk=duel_id, online=True)
        .first()
    )
    seat = online.seat_of(duel, user) if duel is not None else None
    if duel is None or seat is None:
        raise Http404(gettext(NO_SUCH_DUEL))
    return duel, seat


def _fresh(duel_id: int, user: Any) -> tuple[Duel, str]:
    """As ``_open``, after a seat clock that ran out has played (ONLINE.md 3), and with the
    start tried again when both players are ready but the duel could not start then (its
    round not open yet): why it still waits is the duel's ``waits_because``."""
    duel, seat = _open(duel_id, user)
    why = ""
    if duel.status == DuelStatus.RUNNING:
        if online.check_clock(duel):  # a poll's usual path reads the duel once
            duel, seat = _open(duel_id, user)
    elif (
        duel.game_id is None
        and duel.status == DuelStatus.READY
        # The wait is over: a player not ready forfeits (no_show) now, not at the next beat.
        and online_rulings.rule_no_shows_for(duel).done
    ):
        duel, seat = _open(duel_id, user)
    if duel.game_id is None and duel.status == DuelStatus.READY and duel.ready_a and duel.ready_b:
        try:
            online.start_when_ready(duel_id=duel_id, user=user)
        except ServiceError as refused:
            why = str(refused)
        duel, seat = _open(duel_id, user)
    duel.waits_because = why
    return duel, seat


def _urls(duel: Duel) -> dict[str, str]:
    return {
        name: reverse(f"player:online_{name}", args=[duel.pk])
        for name in ("duel", "ready", "move", "poll", "resign", "beat")
    }


def _away_seats(duel: Duel, me: str) -> list[str]:
    """The players shown away (ONLINE.md 4: no beat for 10 s) while the duel runs, the
    reader's own seat left out."""
    if duel.status != DuelStatus.RUNNING or duel.game_id is None:
        return []
    return [s for s in presence.away(duel.game_id, ("A", "B")) if s != me]


def _away(duel: Duel, names: dict[str, str], me: str) -> tuple[list[tuple[str, str]], str]:
    """The players shown away, by name, and the key a page's poll sends back (it redraws
    when it changes)."""
    seats = _away_seats(duel, me)
    return [(s, names[s]) for s in seats], "".join(seats) or "-"


def _same_presence(request: HttpRequest, duel: Duel, me: str) -> bool:
    """Whether the players away are those the page shows (a poll without its key does not
    ask)."""
    if "away" not in request.GET:
        return True
    return request.GET.get("away", "")[:MAX_FIELD] == ("".join(_away_seats(duel, me)) or "-")


def _names(duel: Duel) -> dict[str, str]:
    return {"A": duel.seat_a.name, "B": duel.seat_b.name}


def _binding(duel: Duel) -> SimpleNamespace:
    """The duel as the card table reads a product's row: its rules and a two-seat seating."""
    seating = SimpleNamespace(seats=2, teams=(), variants=tuple(duel.variants))
    seating.team_of = lambda letter: (letter,) if letter else ()
    return SimpleNamespace(
        ruleset=duel.ruleset,
        variants=list(duel.variants),
        options=dict(duel.options),
        seating=seating,
        game=duel.game,
    )


def _draw(
    request: HttpRequest,
    duel: Duel,
    seat: str,
    *,
    error: str | None = None,
    notice: str | None = None,
    status: int = 200,
    confirm: dict[str, Any] | None = None,
) -> HttpResponse:
    urls = _urls(duel)
    if not duels.is_dealt(duel):
        # Not started, or ended before it was dealt (a no-show forfeits a duel the tournament
        # records as any duel): the ready screen says which.
        return _ready(request, duel, seat, urls, error=error, status=status)
    view = view_of(duel.game_id, Viewer("seat", seat), person=seat)
    over = _over(view, duel)
    if over:
        view = {**view, "commands": {}}
    names = _names(duel)
    other = "B" if seat == "A" else "A"
    deadlines = {} if over else seat_deadlines(duel.game_id)
    awaited = [a["seat"] for a in view.get("awaiting", ()) if a["seat"] != seat]
    away, away_key = _away(duel, names, seat)
    context = {
        "online": {
            "tools": "tournaments/_online_duel_tools.html",
            "away": away,
            "away_key": away_key,
            "beat_url": "" if over else urls["beat"],
            "beat_seconds": presence.BEAT_SECONDS,
            "table": SimpleNamespace(version=online.state_key(duel)),
            "over": over,
            "ended": "" if view["phase"] == "finished" else _closed(duel),
            "poll_url": urls["poll"],
            "poll_seconds": POLL_SECONDS,
            "topic": f"game:{duel.game_id}",
            "clock": countdown(deadlines.get(seat)),
            "seat_clocks": [(other, countdown(deadlines[other]))] if other in deadlines else [],
            "my_seal": (view.get("my_seal") or {}).get("card"),
            "resign_url": urls["resign"],
            "may_resign": not over,
            "tournament_url": reverse("tournaments:detail", args=[duel.tournament.slug]),
            # A drawn duel is replayed with a new deal (TOURNAMENT.md; ONLINE.md 6): its ready
            # screen is one tap from the end of this one, on both devices.
            "replay_url": _replay_url(duel) if over else "",
            # ONLINE.md 5: after the end, each player sees the whole deal.
            "deal_url": _deal_url(duel) if view["phase"] == "finished" else "",
            "standings_url": reverse("public:standings", args=[duel.tournament.slug]),
        },
        "waiting": listing([names[s] for s in dict.fromkeys(awaited)]) if not over else "",
        "home_url": reverse("tournaments:detail", args=[duel.tournament.slug]),
        "home_label": duel.tournament.name,
        "push": None if request.htmx else push.stream([f"game:{duel.game_id}"]),
        "table_url": urls["duel"],
        "move_url": urls["move"],
    }
    return card_table(
        request,
        _binding(duel),
        view,
        seat=seat,
        names=names,
        context=context,
        persons=True,
        error=error,
        status=status,
        notice=notice,
        confirm=confirm,
    )


def _result_words(duel: Duel) -> str:
    """A duel that ended before it was dealt (a no-show's forfeit): who won, and how."""
    result = getattr(duel, "result", None) if duel.status == DuelStatus.FINISHED else None
    if result is None:
        return ""
    if result.winner is None:
        return gettext("No winner.")
    return gettext("%(name)s won: %(how)s.") % {
        "name": result.winner.name,
        "how": finish_label(result.finish),
    }


def _replay_url(duel: Duel) -> str:
    replay = duel.replays.filter(online=True).exclude(status=DuelStatus.VOID).first()
    return reverse("player:online_duel", args=[replay.pk]) if replay is not None else ""


def _deal_url(duel: Duel) -> str:
    """The whole deal after the end (tournaments/views/online_deal.py)."""
    return reverse("public:online_deal", args=[duel.tournament.slug, duel.pk])


def _closed(duel: Duel) -> str:
    """A duel ended by the tournament rather than by play (void, abandoned), or stopped for a
    ruling (both players abandoned, ONLINE.md 6), in words."""
    if duel.status in (DuelStatus.VOID, DuelStatus.ABANDONED):
        return gettext("This duel was closed without a result.")
    if duels.is_stopped(duel):
        return gettext("Both players abandoned: the duel stops and the organisers rule on it.")
    return ""


def _over(view: dict[str, Any], duel: Duel) -> bool:
    """Nothing more is played: the game finished or stopped, or the duel is not running."""
    return view["phase"] in ("finished", "stopped") or duel.status != DuelStatus.RUNNING


def _ready(
    request: HttpRequest,
    duel: Duel,
    seat: str,
    urls: dict[str, str],
    *,
    error: str | None = None,
    status: int = 200,
) -> HttpResponse:
    other = "B" if seat == "A" else "A"
    names = _names(duel)
    context = {
        "duel": duel,
        "tournament": duel.tournament,
        "me": names[seat],
        "opponent": names[other],
        "i_am_ready": getattr(duel, f"ready_{seat.lower()}") is not None,
        "they_are_ready": getattr(duel, f"ready_{other.lower()}") is not None,
        "open": duel.status == DuelStatus.READY,
        "result": _result_words(duel),
        "wait": countdown(duel.ready_by) if duel.status == DuelStatus.READY else None,
        "version": online.state_key(duel),
        "urls": urls,
        "poll_seconds": POLL_SECONDS,
        "error": error or getattr(duel, "waits_because", ""),
    }
    template = "tournaments/online_ready.html"
    response = render(
        request, template + ("#ready" if request.htmx else ""), context, status=status
    )
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_safe
def duel_page(request: HttpRequest, duel_id: int) -> HttpResponse:
    """The player's duel: the ready screen before it starts, then their seat's card table."""
    duel, seat = _fresh(duel_id, request.user)
    if duel.status == DuelStatus.RUNNING:
        presence.beat(duel.game_id, seat)  # a page load is a sign of life too
    return _draw(request, duel, seat)


@login_required
@require_POST
def beat(request: HttpRequest, duel_id: int) -> HttpResponse:
    """A visible seat page's beat (static/js/presence.js, every 5 s; ONLINE.md 4): 204, a
    timestamp kept in the shared cache. For the duel's two players only (404)."""
    duel, seat = _open(duel_id, request.user)
    if duel.status == DuelStatus.RUNNING:
        presence.beat(duel.game_id, seat)
    return HttpResponse(status=204)


@login_required
@require_safe
def poll(request: HttpRequest, duel_id: int) -> HttpResponse:
    """204 while nothing changed since the page was drawn (the game's revision and the duel's
    state key ``v``); else the page's part as it is now (the ready screen that turns into the
    card table loads in full)."""
    duel, seat = _fresh(duel_id, request.user)
    get = request.GET
    revision = read_int(get.get("revision", "")[:MAX_FIELD])
    if (
        get.get("v", "")[:40] == online.state_key(duel)
        and revision == duel.revision
        and _same_presence(request, duel, seat)
    ):
        return HttpResponse(status=204)
    if get.get("screen") == "ready" and duel.game_id is not None:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = _urls(duel)["duel"]
        return response
    return _draw(request, duel, seat)


@login_required
@require_POST
def ready(request: HttpRequest, duel_id: int) -> HttpResponse:
    """The player is ready (twice is once); when both are, the duel starts."""
    _open(duel_id, request.user)
    try:
        online.ready(duel_id=duel_id, user=request.user)
    except Hidden:
        raise Http404(gettext(NO_SUCH_DUEL)) from None
    except ServiceError as refused:
        duel, seat = _open(duel_id, request.user)
        return _draw(request, duel, seat, error=str(refused), status=REFUSED)
    if request.htmx:
        duel, seat = _open(duel_id, request.user)
        if duel.game_id is None:
            return _draw(request, duel, seat)
        response = HttpResponse(status=204)
        response["HX-Redirect"] = _urls(duel)["duel"]
        return response
    return redirect(_urls(_open(duel_id, request.user)[0])["duel"])


@login_required
@require_POST
def move(request: HttpRequest, duel_id: int) -> HttpResponse:
    """A move of the player's seat from the card table's forms."""
    duel, seat = _open(duel_id, request.user)
    revision, intent = form_keys(request.POST)
    command = command_of(request.POST, seat=seat)
    confirmed = request.POST.get("confirm", "")[:MAX_FIELD] == "yes"
    if not confirmed and command.name == "answer" and duel.game_id is not None:
        view = view_of(duel.game_id, Viewer("seat", seat), person=seat)
        why = ending(_binding(duel), view, command, seat)
        if why is not None and revision == duel.revision:
            confirm = {"choice": command.args.get("choice"), "why": why}
            return _draw(request, duel, seat, confirm=confirm)
    return _played(request, duel_id, command, revision, intent)


def _played(
    request: HttpRequest, duel_id: int, command: Command, revision: int | None, intent: str
) -> HttpResponse:
    try:
        played = online.play_move(
            duel_id=duel_id, user=request.user, command=command, revision=revision, intent=intent
        )
    except Hidden:
        raise Http404(gettext(NO_SUCH_DUEL)) from None
    except Stale:
        duel, seat = _fresh(duel_id, request.user)
        return _draw(request, duel, seat, error=gettext(MOVED_ON), status=STALE)
    except (Illegal, ServiceError, Forbidden, NeedsConfirmation) as refused:
        duel, seat = _fresh(duel_id, request.user)
        words = str(getattr(refused, "message", "") or refused) or gettext("Not allowed.")
        return _draw(request, duel, seat, error=words, status=REFUSED)
    duel, seat = _open(duel_id, request.user)
    if played.repeat:
        return _draw(request, duel, seat, notice=gettext(ALREADY))
    if request.htmx:
        return _draw(request, duel, seat)
    return redirect(_urls(duel)["duel"])


@login_required
@require_http_methods(["GET", "POST"])
def resign(request: HttpRequest, duel_id: int) -> HttpResponse:
    """Resigning, confirmed on a page of its own (works without JavaScript): a forfeit with
    reason ``abandoned`` (ONLINE.md 4); the other player wins."""
    duel, seat = _open(duel_id, request.user)
    if duel.status != DuelStatus.RUNNING:
        return redirect(_urls(duel)["duel"])
    if request.method == "POST":
        # Resigning is the same decision whatever moved since the page (the clock, the other
        # seat): it goes at the duel's current revision; its key keeps it once.
        _revision, intent = form_keys(request.POST)
        answer = _played(request, duel_id, Command("resign", seat, {}), duel.revision, intent)
        if answer.status_code < 400:
            return redirect(_urls(duel)["duel"])  # the address is the duel's, not /resign/
        return answer
    other = _names(duel)["B" if seat == "A" else "A"]
    return render(
        request,
        "tournaments/online_resign.html",
        {
            "duel": duel,
            "other": other,
            "urls": _urls(duel),
            "revision": duel.revision,
            "intent": new_intent(),
        },
    )


# Everyone else's view: the public, the referee (ONLINE.md 5, 6) ----------------------------------


def _watched(tournament: Tournament, duel_id: int) -> Duel:
    duel = (
        Duel.objects.select_related("tournament", "seat_a", "seat_b", "game", "round")
        .filter(tournament=tournament, pk=duel_id, online=True)
        .first()
    )
    if duel is None:
        raise Http404(gettext(NO_SUCH_WATCHED))
    if duel.status == DuelStatus.RUNNING and online.check_clock(duel):
        duel.refresh_from_db()
    return duel


def _may_end(request: HttpRequest, tournament: Tournament, duel: Duel) -> bool:
    """A referee or organiser who does not play in it may end a running online duel."""
    return duel.status == DuelStatus.RUNNING and can(
        request.user, Action.REFEREE_DUELS, tournament, players=player_ids(duel)
    )


def _watch(
    request: HttpRequest,
    tournament: Tournament,
    duel: Duel,
    *,
    form: EndingForm | None = None,
    error: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """The duel as the public sees it (counts, face-up cards, sealed yes/no, the public log;
    never a hand), live by the same poll and push; a referee's page adds the endings."""
    names = _names(duel)
    poll_url = reverse("public:online_poll", args=[tournament.slug, duel.pk])
    if not duels.is_dealt(duel):
        context = {
            "duel": duel,
            "tournament": tournament,
            "names": names,
            "ready": {"A": duel.ready_a is not None, "B": duel.ready_b is not None},
            "version": online.state_key(duel),
            "poll_url": poll_url,
            "poll_seconds": POLL_SECONDS,
        }
        template = "tournaments/online_watch.html"
        response = render(
            request, template + ("#waiting" if request.htmx else ""), context, status=status
        )
        patch_vary_headers(response, ["HX-Request"])
        return response
    may_end = _may_end(request, tournament, duel)
    if may_end and form is None:
        form = _ending_form(duel)
    away = _away_seats(duel, "")
    running = duel.status == DuelStatus.RUNNING
    deadlines = seat_deadlines(duel.game_id) if running else {}

    # The whole deal's link is an organiser's (ONLINE.md 5): their page is their own.
    organiser = request.user.is_authenticated and can(
        request.user, Action.CORRECT_RESULTS, tournament
    )

    def draw(clocks: Clocks) -> HttpResponse:
        return _draw_watched(
            request,
            tournament,
            duel,
            names,
            away,
            clocks,
            poll_url,
            form,
            may_end,
            error,
            status,
            organiser,
        )

    if may_end or organiser or error or status != 200:
        return draw(seat_clocks(deadlines))  # a referee's page: forms of their own
    # The public's part, the same for every spectator: drawn once per change (cardtable.shared).
    parts = ("public:online_watch", tournament.slug, tournament.name, duel.pk)
    parts += (online.state_key(duel), tuple(names.items()), tuple(away))
    return public_answer(request, game=duel.game, parts=parts, deadlines=deadlines, draw=draw)


def _draw_watched(
    request: HttpRequest,
    tournament: Tournament,
    duel: Duel,
    names: dict[str, str],
    away_seats: list[str],
    clocks: Clocks,
    poll_url: str,
    form: EndingForm | None,
    may_end: bool,
    error: str | None,
    status: int,
    organiser: bool,
) -> HttpResponse:
    view = {**view_of(duel.game_id, Viewer("public")), "commands": {}}
    over = _over(view, duel)
    awaited = [a["seat"] for a in view.get("awaiting", ())]
    context = {
        "online": {
            "tools": "tournaments/_online_duel_watch_tools.html",
            "away": [(s, names[s]) for s in away_seats],
            "away_key": "".join(away_seats) or "-",
            "watching": True,
            "table": SimpleNamespace(version=online.state_key(duel)),
            "over": over,
            "ended": "" if view["phase"] == "finished" else _closed(duel),
            "deal_url": _deal_url(duel) if view["phase"] == "finished" and organiser else "",
            "poll_url": poll_url,
            "poll_seconds": POLL_SECONDS,
            "topic": f"game:{duel.game_id}",
            "clock": None,
            # Every seat's clock while it is asked something (ONLINE.md 3: on every device).
            "seat_clocks": [] if over else clocks,
            "my_seal": None,
            "ending_form": form if may_end else None,
            "end_url": reverse("public:online_end", args=[tournament.slug, duel.pk]),
            "standings_url": reverse("public:standings", args=[tournament.slug]),
        },
        "waiting": listing([names[s] for s in dict.fromkeys(awaited)]) if not over else "",
        "home_url": reverse("tournaments:detail", args=[tournament.slug]),
        "home_label": tournament.name,
        "push": None if request.htmx else push.stream([f"game:{duel.game_id}"]),
        "table_url": reverse("public:online_watch", args=[tournament.slug, duel.pk]),
        "move_url": "",
    }
    return card_table(
        request,
        _binding(duel),
        view,
        seat="",
        names=names,
        context=context,
        persons=True,
        error=error,
        status=status,
    )


def _ending_form(duel: Duel, data: Any = None) -> EndingForm:
    form = EndingForm(data, names=_names(duel))
    # No time limit online: the seat clock bounds the duel (ONLINE.md 3).
    form.fields["ending"].choices = [
        c for c in form.fields["ending"].choices if c[0] in online.ENDINGS
    ]
    return form


@tournament_view(Action.VIEW_PUBLIC)
@require_safe
def watch(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """An online duel as the room (and its referee) sees it."""
    return _watch(request, tournament, _watched(tournament, duel_id))


@tournament_view(Action.VIEW_PUBLIC)
@require_safe
def watch_poll(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """204 while nothing changed since the page was drawn; else the page's part as it is now
    (the waiting screen that turns into the table loads in full)."""
    duel = _watched(tournament, duel_id)
    get = request.GET
    revision = read_int(get.get("revision", "")[:MAX_FIELD])
    if (
        get.get("v", "")[:40] == online.state_key(duel)
        and revision == duel.revision
        and _same_presence(request, duel, "")
    ):
        return HttpResponse(status=204)
    if get.get("screen") == "waiting" and duel.game_id is not None:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("public:online_watch", args=[tournament.slug, duel.pk])
        return response
    return _watch(request, tournament, duel)


@tournament_view(Action.REFEREE_DUELS)
@require_POST
def end(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """A referee ends a running online duel: a forfeit or an adjudication, with a reason and
    a ticked confirmation (it cannot be undone; an organiser's correction changes the result
    that counts, never the record)."""
    duel = _watched(tournament, duel_id)
    form = _ending_form(duel, request.POST)
    if not form.is_valid():
        return _watch(request, tournament, duel, form=form, status=REFUSED)
    try:
        online.end_duel(
            duel_id=duel.pk,
            user=request.user,
            ending=form.cleaned_data["ending"],
            reason=form.cleaned_data["reason"],
        )
    except ServiceError as refused:
        duel = _watched(tournament, duel_id)
        return _watch(request, tournament, duel, form=form, error=str(refused), status=REFUSED)
    return redirect(reverse("public:online_watch", args=[tournament.slug, duel.pk]))
