"""Online tables with friends (issue 31; docs/online.md): the host's form, the lobby with its
join link, the join page, and each person's own seat at the card table (the practice card
table's view, ``cardtable.page.card_table``, drawn from that seat's view only).

Who may do what: only the table's people see it (anyone else: 404, as for a practice game);
a person acts for their own seat only; the host's actions (the link, the order, removing,
starting, ending) are the host's (403 for the others); the join page needs an account."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from cardtable.confirm import NeedsConfirmation
from cardtable.forms import MAX_FIELD, MAX_INTENT, command_of, countdown, form_keys
from cardtable.page import card_table
from cardtable.shared import Clocks, public_answer
from cardtable.words import listing
from core import push
from core.htmx import reload_when_gone
from core.numbers import read_int
from core.qr import qr_svg
from duels.forms import new_intent
from play.errors import Forbidden, Stale
from play.errors import Refused as Illegal
from play.selectors import Restored, seat_deadlines

from . import online
from .game import Refused, Unreplayable
from .models import OnlineTable
from .pages import REFUSED, STALE
from .seat import person_view, watcher_view
from .views import set_up_choices
from .words import (
    ALREADY_RECORDED,
    bot_label,
    bot_level_label,
    ruleset_label,
    seat_names,
    variant_label,
)

NO_SUCH_TABLE = gettext_noop("There is no such online table.")
MOVED_ON = gettext_noop("This game moved on: here it is as it is now.")
#: How often an open page asks whether anything changed (the lobby, and the table for the
#: others' moves), in seconds.
POLL_SECONDS = 2
#: The seat clocks the form offers (seconds; 0 is none).
CLOCKS = (0, 10, 15, 20, 30, 45, 60, 90, 120)


def _missing() -> Http404:
    return Http404(gettext(NO_SUCH_TABLE))


@login_required
@require_http_methods(["GET", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    """The host's form: rules, seats, variants, teams, the bots' level, the seat clock, truth
    and dare."""
    post = request.POST
    chosen = post.get("ruleset", "tournament")[: MAX_FIELD * 2]
    seats = read_int(post.get("seats", "2")[:MAX_FIELD], lo=2, hi=6)
    variants = tuple(v[: MAX_FIELD * 2] for v in post.getlist("variants")[:8])
    layout = post.get("teams", "")[: MAX_FIELD * 2]
    bot = post.get("bot", online.BOT)[: MAX_FIELD * 2]
    clock_field = post.get("clock", "30")[:MAX_FIELD]
    clock = read_int(clock_field, lo=0, hi=online.CLOCK_MAX)
    truth_dare = post.get("truth_dare") == "on"
    # The form's own key: sent twice (Back, then the button again) it opens one table.
    intent = post.get("intent", "")[:MAX_INTENT] or new_intent()
    error = None
    if request.method == "POST":
        try:
            if seats is None:
                raise Refused(gettext("Choose from 2 to 6 seats."))
            if clock is None:
                raise Refused(
                    gettext("Choose a seat clock from %(lo)s to %(hi)s seconds, or none.")
                    % {"lo": online.CLOCK_MIN, "hi": online.CLOCK_MAX}
                )
            table = online.open_table(
                host=request.user,
                ruleset=chosen,
                seats=seats,
                variants=variants,
                layout=layout,
                bot=bot,
                seat_clock=clock or None,
                truth_dare=truth_dare,
                intent=post.get("intent", "")[:MAX_INTENT],
            )
        except Refused as err:
            error = str(err)
        else:
            return redirect("practice:online", table.pk)
    context = {
        **set_up_choices(),
        "chosen": chosen,
        "seat_counts": range(2, 7),
        "seats": seats or 2,
        "variants": variants,
        "layout": layout,
        "bot_levels": [(b, bot_level_label(b)) for b in online.BOT_LEVELS],
        "bot": bot,
        "clocks": CLOCKS,
        "clock": clock if clock is not None else 30,
        "truth_dare": truth_dare,
        "intent": intent,
        "error": error,
    }
    return render(request, "practice/online_new.html", context, status=REFUSED if error else 200)


def _lobby_context(request: HttpRequest, lobby: online.Lobby) -> dict[str, Any]:
    table = lobby.table
    host = table.host_id == request.user.pk
    link = (
        request.build_absolute_uri(reverse("practice:online_join", args=[table.join_token]))
        if host and table.join_token
        else ""
    )
    letters = table.seating.letters
    people = [
        {
            "player": p,
            "letter": letters[i],
            "name": p.user.get_username(),
            "host": p.user_id == table.host_id,
            "me": p.user_id == request.user.pk,
            "first": i == 0,
            "last": i == len(lobby.players) - 1,
        }
        for i, p in enumerate(lobby.players)
    ]
    bots = [bot_label(letter, 3) for letter in letters[len(lobby.players) :]]
    return {
        "online_table": table,
        "host": host,
        "people": people,
        "bots": bots,
        "bots_words": listing(bots),
        "bot_level": bot_level_label(table.bot, short=True),
        "rules": ruleset_label(table.ruleset),
        "variant_labels": [variant_label(v) for v in table.seating.variants if v != "team"],
        "link": link,
        "qr": qr_svg(link, title=gettext("QR code of this table's join link")) if link else "",
        "version": table.version,
        "poll_url": reverse("practice:online_poll", args=[table.pk]),
        "poll_seconds": POLL_SECONDS,
        "watch_link": watch_link_context(request, table),
        # Push: someone joining, leaving or the start reaches the lobby within a second
        # where push runs; the poll alone otherwise.
        "topic": online.table_topic(table.pk),
        "push": None if request.htmx else push.stream([online.table_topic(table.pk)]),
    }


def _ended(table: OnlineTable, players: list[Any]) -> str:
    """Why a table ended without a result: no person left in play (ONLINE.md 4), or the
    host's ending."""
    if table.status != OnlineTable.Status.ENDED:
        return ""
    if not any(p.active for p in players):
        return gettext("No person is left in play at this table: it ended without a result.")
    return gettext("The host ended this game: no result.")


def _lobby(
    request: HttpRequest, lobby: online.Lobby, error: str | None = None, status: int = 200
) -> HttpResponse:
    context = _lobby_context(request, lobby) | {"error": error}
    template = "practice/online_lobby.html#lobby" if request.htmx else "practice/online_lobby.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _open(table_id: int, user: Any) -> online.Lobby:
    try:
        return online.lobby(table_id, user)
    except OnlineTable.DoesNotExist:
        raise _missing() from None


@login_required
@require_safe
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    """The lobby before the start; the person's own seat at the card table after it."""
    lobby = _open(table_id, request.user)
    if lobby.table.game_id is None:
        return _lobby(request, lobby)
    if lobby.table.status == OnlineTable.Status.PLAYING:
        if online.check_clock(lobby.table):
            lobby = _open(table_id, request.user)
        _beat(request, lobby)
    return _seat(request, lobby)


def _beat(request: HttpRequest, lobby: online.Lobby) -> None:
    """The person is here (their page loaded, a move, their visible page's beat)."""
    me = next((p for p in lobby.players if p.user_id == request.user.pk), None)
    if me is not None and me.active and me.seat:
        online.beat(lobby.table, me.seat)


@login_required
@require_POST
def beat(request: HttpRequest, table_id: int) -> HttpResponse:
    """A visible seat page's beat (static/js/presence.js, every 5 s; ONLINE.md 4): 204,
    nothing but a timestamp kept in the shared cache. For the table's people only (404)."""
    try:
        online.beat_by(table_id, request.user)
    except OnlineTable.DoesNotExist:
        raise _missing() from None
    return HttpResponse(status=204)


def _away(table: OnlineTable, players: list[Any], names: dict[str, str], me: str) -> Any:
    """The people shown away (ONLINE.md 4: no beat for 10 s), the reader's own seat left out,
    and the key the page's poll sends back (the poll redraws when it changes)."""
    seats = [s for s in online.away(table, players) if s != me]
    return [(s, names.get(s, s)) for s in seats], "".join(seats) or "-"


def _seat(
    request: HttpRequest,
    lobby: online.Lobby,
    *,
    error: str | None = None,
    notice: str | None = None,
    status: int = 200,
    confirm: dict[str, Any] | None = None,
    restored: Restored | None = None,
) -> HttpResponse:
    """The card table of the person's own seat, drawn from that seat's view only (from
    ``restored``, the table this request's move left, while no one moved since)."""
    table = lobby.table
    me = next(p for p in lobby.players if p.user_id == request.user.pk)
    if not me.seat:
        # Someone who never held a seat (the table ended in its lobby).
        return _lobby(request, lobby)
    # A bot holds their old seat: they watch the game as the public does (ONLINE.md 5), in
    # the public words, their old seat the bot's (no "you" for the bot's moves).
    watching = not me.active and not table.over
    seat = "" if watching else me.seat
    try:
        game_id: int = table.game_id  # type: ignore[assignment]
        view = (
            watcher_view(game_id, game=table.game)
            if watching
            else person_view(game_id, me.seat, game=table.game, restored=restored)
        )
    except Unreplayable:
        raise _missing() from None
    persons = {p.seat for p in lobby.players if p.seat}
    names = seat_names(lobby.players, view["state"]["seats"])
    over = table.over or view["phase"] == "finished"
    if over or not me.active:
        view = {**view, "commands": {}}
    awaited = [a["seat"] for a in view.get("awaiting", ()) if a["seat"] != seat]
    # The card the person sealed this round (their own, never another's: ONLINE.md 5).
    my_seal = (view.get("my_seal") or {}).get("card")
    # Every seat's clock while it is asked something (ONLINE.md 3: the clock shows on every
    # device): the person's own counts down in the headline, the others' on their tiles.
    deadlines = {} if over else seat_deadlines(table.game_id)
    deadline = deadlines.pop(me.seat, None) if me.active else None
    host = table.host_id == request.user.pk
    away, away_key = _away(table, lobby.players, names, seat)
    context = {
        "online": {
            "tools": "practice/_online_tools.html",
            "table": table,
            "host": host,
            "over": over,
            "ended": _ended(table, lobby.players),
            "watching": watching,
            "watch_link": watch_link_context(request, table),
            "away": away,
            "away_key": away_key,
            "beat_url": reverse("practice:online_beat", args=[table.pk]) if seat else "",
            "beat_seconds": online.BEAT_SECONDS,
            "poll_url": reverse("practice:online_poll", args=[table.pk]),
            "poll_seconds": POLL_SECONDS,
            "topic": f"game:{table.game_id}",
            "table_topic": online.table_topic(table.pk),
            "clock": countdown(deadline),
            "seat_clocks": [
                (letter, countdown(at))
                for letter, at in sorted(deadlines.items())
                if letter != seat
            ],
            "my_seal": my_seal,
            "resign_url": reverse("practice:online_resign", args=[table.pk]),
            "end_url": reverse("practice:online_end", args=[table.pk]),
            "rematch_url": reverse("practice:online_rematch", args=[table.pk]),
            "rematch": table.rematch_id,
            # ONLINE.md 5: after the end, every seat sees the whole deal.
            "deal_url": reverse("practice:online_deal", args=[table.pk])
            if view["phase"] == "finished"
            else "",
            "may_resign": me.active and not over,
        },
        "waiting": listing([names[s] for s in dict.fromkeys(awaited)]) if not over else "",
        "bot_level": bot_level_label(table.bot, short=True) if len(persons) < table.seats else "",
        "home_url": reverse("practice:index") + "#online-heading",
        # Push (docs/architecture.md, "Push to open pages"): the game's news sooner than the
        # poll, where push runs; the poll alone otherwise.
        "push": None
        if request.htmx
        else push.stream([f"game:{table.game_id}", online.table_topic(table.pk)]),
        "table_url": reverse("practice:online", args=[table.pk]),
        "move_url": reverse("practice:online_move", args=[table.pk]),
    }
    return card_table(
        request,
        table,
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


@login_required
@require_safe
@reload_when_gone(NO_SUCH_TABLE)
def poll(request: HttpRequest, table_id: int) -> HttpResponse:
    """What a page polls (every 2 s): 204 while nothing changed since it was drawn (the
    lobby's ``version``; at the table its game's ``revision`` and the table's version ``v``),
    else the lobby or the table as it is now; a lobby whose game started (or a table page
    of a table that has none) is sent to load the page in full."""
    lobby = _open(table_id, request.user)
    if lobby.table.status == OnlineTable.Status.PLAYING and online.check_clock(lobby.table):
        lobby = _open(table_id, request.user)
    table = lobby.table
    get = request.GET
    version = read_int(get.get("version", "")[:MAX_FIELD])
    in_lobby = table.game_id is None and table.status == OnlineTable.Status.LOBBY
    if "version" in get:  # the lobby's page
        if in_lobby:
            return HttpResponse(status=204) if version == table.version else _lobby(request, lobby)
        return _load(table)
    if table.game_id is None:
        return _load(table)
    revision = read_int(get.get("revision", "")[:MAX_FIELD])
    seen = read_int(get.get("v", "")[:MAX_FIELD])
    if (
        revision == table.game.revision  # type: ignore[union-attr]
        and seen == table.version
        and _same_presence(get, table, lobby.players, request.user.pk)
    ):
        return HttpResponse(status=204)
    return _seat(request, lobby)


def _same_presence(get: Any, table: OnlineTable, players: list[Any], user_pk: Any) -> bool:
    """Whether the people away are those the page shows (its ``away`` key; a poll without
    one does not ask)."""
    if "away" not in get:
        return True
    me = next((p for p in players if p.user_id == user_pk), None)
    mine = me.seat if me is not None and me.active else ""
    seats = [s for s in online.away(table, players) if s != mine]
    return get.get("away", "")[:MAX_FIELD] == ("".join(seats) or "-")


def _load(table: OnlineTable) -> HttpResponse:
    """htmx told to load the table's page in full (``HX-Redirect``)."""
    response = HttpResponse(status=204)
    response["HX-Redirect"] = reverse("practice:online", args=[table.pk])
    return response


@login_required
@require_POST
def lobby_action(request: HttpRequest, table_id: int) -> HttpResponse:
    """The lobby's forms: ``do`` = link, revoke, up, down, remove, start (the host's), leave
    (a person's). Each carries the lobby's version it was drawn at."""
    post = request.POST
    do = post.get("do", "")[:MAX_FIELD]
    version = read_int(post.get("version", "")[:MAX_FIELD])
    player = read_int(post.get("player", "")[: MAX_FIELD * 2]) or 0
    user = request.user
    try:
        if do == "link":
            online.new_link(table_id=table_id, user=user, version=version)
        elif do == "revoke":
            online.revoke_link(table_id=table_id, user=user, version=version)
        elif do in ("up", "down"):
            online.move(
                table_id=table_id, user=user, player_id=player, up=do == "up", version=version
            )
        elif do == "remove":
            if post.get("confirm") != "yes":
                # Removing is confirmed on its own page, which names the person.
                return redirect("practice:online_remove", table_id, player)
            online.remove(table_id=table_id, user=user, player_id=player, version=version)
        elif do == "start":
            online.start(table_id=table_id, user=user, version=version)
        elif do == "leave":
            online.leave(table_id=table_id, user=user)
            return redirect(reverse("practice:index") + "#online-heading")
        else:
            raise Refused(gettext("Unknown action."))
    except OnlineTable.DoesNotExist:
        raise _missing() from None
    except Forbidden as err:
        return _lobby(request, _open(table_id, user), str(err), 403)
    except Refused as err:
        lobby = _open(table_id, user)
        if lobby.table.game_id is not None:
            return redirect("practice:online", table_id)
        return _lobby(request, lobby, str(err), STALE if "changed" in str(err) else REFUSED)
    return redirect("practice:online", table_id)


@login_required
@require_POST
@reload_when_gone(NO_SUCH_TABLE)
def move(request: HttpRequest, table_id: int) -> HttpResponse:
    """The person's move for their own seat (the card table's forms, as practice's)."""
    revision, intent = form_keys(request.POST)
    command = command_of(request.POST, seat="")
    if command.name == "resign":
        return _again(request, table_id, gettext("Resign from its own page."), REFUSED)
    try:
        return _moved(
            request,
            table_id,
            lambda: online.play_move(
                table_id,
                request.user,
                command,
                revision=revision,
                intent=intent,
                confirmed=request.POST.get("confirm") == "yes",
            ),
        )
    except NeedsConfirmation as asked:
        # Nothing was played: the table again, asking once whether to end the game so.
        confirm = {"why": asked.why, "choice": command.args.get("choice")}
        return _seat(request, _open(table_id, request.user), confirm=confirm)


def _moved(request: HttpRequest, table_id: int, play: Any) -> HttpResponse:
    try:
        played = play()
    except OnlineTable.DoesNotExist:
        raise _missing() from None
    except Unreplayable:
        raise _missing() from None
    except Forbidden:
        return _again(request, table_id, gettext("This is not your seat's move."), 403)
    except Stale:
        return _again(request, table_id, gettext(MOVED_ON), STALE)
    except (Refused, Illegal) as err:
        return _again(request, table_id, str(err), REFUSED)
    if played.repeat:
        return _again(request, table_id, gettext(ALREADY_RECORDED), 200, notice=True)
    lobby = _open(table_id, request.user)
    _beat(request, lobby)
    if request.htmx:
        return _seat(request, lobby, restored=played.restored)
    return redirect("practice:online", table_id)


def _again(
    request: HttpRequest, table_id: int, words: str, status: int, notice: bool = False
) -> HttpResponse:
    lobby = _open(table_id, request.user)
    if lobby.table.game_id is None:
        return _lobby(request, lobby, words, status)
    if notice:
        return _seat(request, lobby, notice=words, status=status)
    return _seat(request, lobby, error=words, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def resign(request: HttpRequest, table_id: int) -> HttpResponse:
    """Resigning, confirmed on a page of its own (no script needed): GET asks, POST with
    ``confirm`` resigns."""
    lobby = _open(table_id, request.user)
    table = lobby.table
    me = next(p for p in lobby.players if p.user_id == request.user.pk)
    if table.game_id is None or table.over or not me.active:
        return redirect("practice:online", table_id)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        revision, intent = form_keys(request.POST)
        return _moved(
            request,
            table_id,
            lambda: online.resign(table_id, request.user, revision=revision, intent=intent),
        )
    others = [p.user.get_username() for p in lobby.players if p.user_id != request.user.pk]
    context = {
        "online_table": table,
        "forfeits": online.forfeits(table),
        "bot_level": bot_level_label(table.bot, short=True),
        "others": listing(others) if others else bot_label("B", 3),
        "revision": table.game.revision,  # type: ignore[union-attr]
        "intent": new_intent(),
        "back": reverse("practice:online", args=[table_id]),
    }
    return render(request, "practice/online_resign.html", context)


@login_required
@require_safe
def remove(request: HttpRequest, table_id: int, player_id: int) -> HttpResponse:
    """The host's Remove, confirmed on a page of its own that names the person (works
    without JavaScript); its form posts to the lobby's (``do=remove``, ``confirm``)."""
    lobby = _open(table_id, request.user)
    table = lobby.table
    back = reverse("practice:online", args=[table_id])
    if table.host_id != request.user.pk:
        return render(
            request,
            "practice/online_remove.html",
            {"forbidden": gettext(online.NOT_HOST), "back": back},
            status=403,
        )
    player = next(
        (p for p in lobby.players if p.pk == player_id and p.user_id != table.host_id), None
    )
    if table.status != OnlineTable.Status.LOBBY or player is None:
        return redirect(back)
    context = {
        "online_table": table,
        "player": player,
        "name": player.user.get_username(),
        "version": table.version,
        "back": back,
    }
    return render(request, "practice/online_remove.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def end(request: HttpRequest, table_id: int) -> HttpResponse:
    """The host ends the table (no result), confirmed on a page of its own."""
    lobby = _open(table_id, request.user)
    table = lobby.table
    if table.host_id != request.user.pk:
        return render(
            request,
            "practice/online_confirm.html",
            {
                "forbidden": gettext(online.NOT_HOST),
                "back": reverse("practice:online", args=[table_id]),
            },
            status=403,
        )
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        online.end(table_id=table_id, user=request.user)
        return redirect("practice:online", table_id)
    if table.over:
        return redirect("practice:online", table_id)
    return render(
        request,
        "practice/online_confirm.html",
        {"online_table": table, "back": reverse("practice:online", args=[table_id])},
    )


@login_required
@require_POST
def rematch(request: HttpRequest, table_id: int) -> HttpResponse:
    """A new table with the same settings and people (the one rematch, however often asked)."""
    try:
        new_table = online.rematch(table_id=table_id, user=request.user)
    except OnlineTable.DoesNotExist:
        raise _missing() from None
    except Refused as err:
        return _again(request, table_id, str(err), REFUSED)
    return redirect("practice:online", new_table.pk)


@login_required
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """The join link: the table and who is there, and a button to take a seat (an account
    needed: signing in comes back here). A link that admits no one is 404, in words."""
    token = token[: MAX_INTENT * 2]
    try:
        found = online.table_of_link(token)
    except online.LinkDead:
        return render(
            request, "practice/online_join.html", {"dead": gettext(online.DEAD_LINK)}, status=404
        )
    if found.players.filter(user=request.user).exists():
        return redirect("practice:online", found.pk)
    error = None
    if request.method == "POST":
        try:
            joined = online.join(token=token, user=request.user)
        except online.LinkDead:
            return render(
                request,
                "practice/online_join.html",
                {"dead": gettext(online.DEAD_LINK)},
                status=404,
            )
        except Refused as err:
            error = str(err)
        else:
            return redirect("practice:online", joined.pk)
    people = [p.user.get_username() for p in found.players.select_related("user")]
    context = {
        "online_table": found,
        "rules": ruleset_label(found.ruleset),
        "people": listing(people),
        "free": found.seats - len(people),
        "error": error,
    }
    return render(request, "practice/online_join.html", context, status=REFUSED if error else 200)


# -- the watch link (ONLINE.md 5: spectators of an online table) ------------------------------

DEAD_WATCH_LINK = gettext_noop("This watch link no longer works: ask the host for the new one.")


@login_required
@require_POST
def watch_link(request: HttpRequest, table_id: int) -> HttpResponse:
    """The host's watch link: ``do`` = issue (a new one; the old one dead) or revoke, at any
    time (the lobby, the game, after its end). The form carries the table's version."""
    post = request.POST
    do = post.get("do", "")[:MAX_FIELD]
    version = read_int(post.get("version", "")[:MAX_FIELD])
    try:
        if do == "issue":
            online.new_watch_link(table_id=table_id, user=request.user, version=version)
        elif do == "revoke":
            online.revoke_watch_link(table_id=table_id, user=request.user, version=version)
        else:
            raise Refused(gettext("Unknown action."))
    except OnlineTable.DoesNotExist:
        raise _missing() from None
    except Forbidden as err:
        return _again(request, table_id, str(err), 403)
    except Refused as err:
        return _again(request, table_id, str(err), STALE if "changed" in str(err) else REFUSED)
    return redirect(reverse("practice:online", args=[table_id]) + "#watch-title")


def watch_link_context(request: HttpRequest, table: OnlineTable) -> dict[str, Any]:
    """What the host's lobby and table show of the watch link: its address and the table's
    version for the forms (empty for anyone but the host)."""
    if table.host_id != request.user.pk:
        return {}
    url = (
        request.build_absolute_uri(reverse("practice:online_watch", args=[table.watch_token]))
        if table.watch_token
        else ""
    )
    return {
        "url": url,
        "action": reverse("practice:online_watch_link", args=[table.pk]),
        "version": table.version,
    }


def _watched(token: str) -> OnlineTable:
    try:
        return online.table_of_watch_link(token[: MAX_INTENT * 2])
    except online.LinkDead:
        raise Http404(gettext(DEAD_WATCH_LINK)) from None


def _dead_watch(request: HttpRequest) -> HttpResponse:
    return render(
        request, "practice/online_watch.html", {"dead": gettext(DEAD_WATCH_LINK)}, status=404
    )


@require_safe
def watch(request: HttpRequest, token: str) -> HttpResponse:
    """The table as the public sees it (ONLINE.md 5), for whoever holds its live watch link,
    signed in or not (the table's own people too): counts, face-up cards, sealed yes/no,
    streaks, blocks, the log of public facts; never a hand nor a sealed card's value; no form.
    Before the start, who is at the table; after the end, the finished table (the public
    replay: public facts only). A dead link is 404 in words."""
    try:
        table = _watched(token)
    except Http404:
        return _dead_watch(request)
    online.remember_watching(request, table, table.watch_token or "")
    if table.status == OnlineTable.Status.PLAYING and online.check_clock(table):
        table = _watched(token)
    return _watch(request, table)


@require_safe
@reload_when_gone(DEAD_WATCH_LINK)
def watch_poll(request: HttpRequest, token: str) -> HttpResponse:
    """The watch page's poll (every 2 s): 204 while nothing changed since it was drawn, else
    the page's part as it is now; a lobby whose game started loads the table in full."""
    table = _watched(token)
    if table.status == OnlineTable.Status.PLAYING and online.check_clock(table):
        table = _watched(token)
    get = request.GET
    seen = read_int(get.get("v", "")[:MAX_FIELD])
    if table.game_id is None:
        if seen == table.version:
            return HttpResponse(status=204)
        return _watch(request, table)
    if "revision" not in get:  # a lobby's page, its game started since
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("practice:online_watch", args=[table.watch_token])
        return response
    revision = read_int(get.get("revision", "")[:MAX_FIELD])
    players = _people(table)
    away = online.away(table, players)
    if (
        revision == table.game.revision  # type: ignore[union-attr]
        and seen == table.version
        and ("away" not in get or get.get("away", "")[:MAX_FIELD] == ("".join(away) or "-"))
    ):
        return HttpResponse(status=204)
    return _watch(request, table, players, away)


def _people(table: OnlineTable) -> list[Any]:
    return online.people(table)


def _watch(
    request: HttpRequest,
    table: OnlineTable,
    players: list[Any] | None = None,
    away: list[str] | None = None,
) -> HttpResponse:
    """The watch page, or its poll's part; the latter drawn once per change for every
    spectator of the table (``cardtable.shared``: it holds nothing of any viewer's own)."""
    players = _people(table) if players is None else players
    poll_url = reverse("practice:online_watch_poll", args=[table.watch_token])
    if table.game_id is None:
        letters = table.seating.letters
        context = {
            "online_table": table,
            "people": [(letters[i], p.user.get_username()) for i, p in enumerate(players)],
            "bots": [bot_label(letter, 3) for letter in letters[len(players) :]],
            "rules": ruleset_label(table.ruleset),
            "variant_labels": [variant_label(v) for v in table.seating.variants if v != "team"],
            "poll_url": poll_url,
            "poll_seconds": POLL_SECONDS,
            "version": table.version,
        }
        template = "practice/online_watch.html"
        response = render(request, template + "#watch" if request.htmx else template, context)
        patch_vary_headers(response, ["HX-Request"])
        return response
    away = online.away(table, players) if away is None else away
    deadlines = {} if table.over else seat_deadlines(table.game_id)
    people = tuple((p.seat, p.user.get_username(), p.active) for p in players)
    state = (table.pk, table.version, table.status, table.watch_token, table.rematch_id)
    return public_answer(
        request,
        game=table.game,
        parts=("practice:online_watch", state, table.bot, people, tuple(away)),
        deadlines=deadlines,
        draw=lambda clocks: _draw_watched(request, table, players, away, clocks, poll_url),
    )


def _draw_watched(
    request: HttpRequest,
    table: OnlineTable,
    players: list[Any],
    away_seats: list[str],
    clocks: Clocks,
    poll_url: str,
) -> HttpResponse:
    try:
        view = watcher_view(table.game_id, game=table.game)  # type: ignore[arg-type]
    except Unreplayable:
        raise _missing() from None
    persons = {p.seat for p in players if p.seat}
    names = seat_names(players, view["state"]["seats"])
    over = table.over or view["phase"] == "finished"
    view = {**view, "commands": {}}
    awaited = [a["seat"] for a in view.get("awaiting", ())]
    context = {
        "online": {
            "table": table,
            "away": [(s, names.get(s, s)) for s in away_seats],
            "away_key": "".join(away_seats) or "-",
            "watching": True,
            "over": over,
            "ended": _ended(table, players),
            "poll_url": poll_url,
            "poll_seconds": POLL_SECONDS,
            "topic": f"game:{table.game_id}",
            "seat_clocks": [] if over else clocks,
        },
        "waiting": listing([names[s] for s in dict.fromkeys(awaited)]) if not over else "",
        "bot_level": bot_level_label(table.bot, short=True) if len(persons) < table.seats else "",
        "home_url": reverse("practice:online_watch", args=[table.watch_token]),
        "push": None if request.htmx else push.stream([f"game:{table.game_id}"]),
        "table_url": reverse("practice:online_watch", args=[table.watch_token]),
        "move_url": "",
    }
    return card_table(request, table, view, seat="", names=names, context=context, persons=True)
