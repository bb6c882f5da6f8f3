"""Trois and CPT-113 against the bots (docs/practice.md, "Other games"): signed-in people,
their own games only; every input bounded and checked before anything is stored."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from cardtable.forms import MAX_FIELD, countdown, form_keys
from cardtable.words import you
from core import push
from core.numbers import read_int
from duels.forms import new_intent
from games.cpt113.cards import COLOURS as CPT_COLOURS
from games.cpt113.cards import is_wild
from games.cpt113.state import LETTERS
from games.trois.cards import COLOURS as TROIS_COLOURS
from games.trois.cards import sort_key as trois_sort_key
from play.models import GameStatus

from . import game_services, words
from .game import Refused
from .game_forms import parse_cpt113, parse_trois
from .game_services import BOT_NAMES, PARTNER, PERSON
from .game_table import last_plays, since_my_move, top_player
from .game_table import news as table_news
from .models import PracticeGame
from .pages import REFUSED, Pages, answer_move, show
from .seat import Played
from .words import (
    GAME_MOVED_ON,
    NO_SUCH_GAME,
    cpt_colour,
    cpt_label,
    direction_label,
    game_result,
    group_name,
    numbered_bot,
    trois_colour,
    trois_label,
)


@login_required
@require_http_methods(["GET", "POST"])
def index(request: HttpRequest) -> HttpResponse:
    """My games of Trois and CPT-113, and the forms to start one."""
    error = None
    if request.method == "POST":
        kind = request.POST.get("kind", "")[:MAX_FIELD]
        groups = request.POST.get("groups", "")[:MAX_FIELD]
        try:
            game = game_services.start_game(request.user, kind, read_int(groups, hi=99) or 0)
        except Refused as err:
            error = str(err)
        else:
            return redirect("practice:game", game.pk)
    games = PracticeGame.objects.filter(user=request.user).select_related("game")[:20]
    return render(
        request,
        "practice/games.html",
        {"games": games, "error": error},
        status=REFUSED if error else 200,
    )


@login_required
@require_safe
def table(request: HttpRequest, game_id: int) -> HttpResponse:
    return show(request, PAGES, game_id)


@login_required
@require_POST
def move(request: HttpRequest, game_id: int) -> HttpResponse:
    """The person's move: parsed as the form sent it, then through the table core's write
    path with the page's revision and the form's idempotency key (``intent``): the same form
    sent twice is answered "already recorded"; another move from an older page is stale
    (409)."""
    post = request.POST
    revision, intent = form_keys(post)

    def play() -> Played[PracticeGame]:
        game = PracticeGame.objects.get(pk=game_id, user=request.user)
        kind = post.get("kind", "")[:MAX_FIELD]
        if game.kind == PracticeGame.Kind.TROIS:
            chosen = parse_trois(kind, post.getlist("cards"), post.get("top", "")[:MAX_FIELD])
        else:
            # A wild's colour button says both in one field ("W4:G": one tap plays it).
            card, _, colour = post.get("play", "")[:MAX_FIELD].partition(":")
            if not card:
                card, colour = post.get("card", ""), post.get("colour", "")
            chosen = parse_cpt113(kind, card[:MAX_FIELD], colour[:MAX_FIELD])
        return game_services.play_move(
            game_id, request.user, chosen, revision=revision, intent=intent
        )

    return answer_move(request, PAGES, game_id, play)


def _table(
    request: HttpRequest,
    game: PracticeGame,
    view: dict,
    error: str | None = None,
    status: int = 200,
    notice: str | None = None,
) -> HttpResponse:
    """The card table (issue 30), drawn from the person's seat's view of the game
    (``adapter.view``, its log as stored and in words) only. htmx gets the table and, out of
    band, the log and the line a screen reader announces; a plain request the whole page."""
    context = {
        "game": game,
        "error": error,
        "notice": notice,
        # The game's revision the page was drawn at, and a fresh key for each form on it
        # (a callable: the template calls it at every use, so no two forms share a key).
        "revision": game.game.revision,
        "intent": new_intent,
        "log": [
            {"number": e["event"], "by_bot": e["by"].startswith("bot:"), "lines": e["lines"]}
            for e in reversed(view["log"])
        ],
        "steps": since_my_move(view["log"]),
    }
    if game.kind == PracticeGame.Kind.TROIS:
        context.update(_trois(game, view))
        template = "practice/trois.html"
        if game.game.deadline and game.game.status == GameStatus.PLAYING:
            # The clock may end the game while the page is open (issue 28): its news
            # reloads the page.
            context["topic"] = f"game:{game.game_id}"
            context["push"] = push.stream([context["topic"]])
    else:
        context.update(_cpt113(view))
        template = "practice/cpt113.html"
    context["news"] = " ".join(
        w for w in (notice or error, table_news(context["result"], context["steps"])) if w
    )
    if request.htmx:
        template += "#answer"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


#: Trois's bots as the page names them (translated), by their stored names.
def _bot_names() -> list[str]:
    return [numbered_bot(i) for i in range(1, len(BOT_NAMES) + 1)]


def trois_card(card: str, on_top: bool = False) -> dict[str, Any]:
    """A Trois card as the table shows it: its colour letter and number on its face (the
    colour's edge round it; the key says which letter is which), its name for a reader."""
    return {
        "card": card,
        "face": card,
        "colour": card[0],
        "label": trois_label(card),
        "top": on_top,
    }


def cpt_card(card: str, named: str = "", on_top: bool = False) -> dict[str, Any]:
    """A CPT-113 card as the table shows it: its name on its face (a wild's named colour
    beside it), its colour's edge round it."""
    return {
        "card": card,
        "face": cpt_label(card),
        "colour": "W" if is_wild(card) else card[0],
        "label": cpt_label(card),
        "named": cpt_colour(named) if named else "",
        "top": on_top,
    }


def _clock(game: PracticeGame, finished: bool) -> dict[str, Any] | None:
    """Trois's time left, by the server's clock: the page shows it and a small script
    (static/js/countdown.js) counts it down from the deadline and the server's now, both
    sent; at zero it asks the server, which calls time."""
    return None if finished else countdown(game.game.deadline)


def _trois(game: PracticeGame, view: dict) -> dict:
    letters = [seat["seat"] for seat in view["seats"]]
    legal = view["legal"]
    playable = set(legal["by_colour"]) | set(legal["by_number"]) if legal else set()
    finished = view["finished"]
    shown = view.get("hands", {}) if finished else {}
    plays = last_plays(view["facts"], len(letters))
    on_top = top_player(plays)
    names = [you(), *_bot_names()]
    return {
        "result": game_result([letters.index(w) for w in view["winners"]], ["", *_bot_names()])
        if finished
        else None,
        "ending": view["ending"],
        "my_turn": legal is not None,
        "hand": [
            {**trois_card(c), "playable": c in playable}
            for c in sorted(view["hand"], key=trois_sort_key)
        ],
        # The cards show their colour's letter (seven colours, purple and magenta alike to
        # many eyes): the key says which is which.
        "colour_key": [(letter, trois_colour(letter)) for letter in TROIS_COLOURS],
        "can_take": bool(legal and legal["can_take"]),
        # The combinations on offer: the matching colour and number groups of two or more.
        "groups": [
            [trois_card(c) for c in group]
            for group in ((legal["by_colour"], legal["by_number"]) if legal else ())
            if len(group) > 1
        ],
        "top": trois_card(view["top"]),
        "top_by": names[on_top] if on_top is not None else "",
        # Every seat round the table, the person's first; hands are shown only once the game
        # is over (the view has them only then).
        "tiles": [
            {
                "letter": seat["seat"],
                "label": names[i],
                "mine": seat["seat"] == PERSON,
                "cards": seat["cards"],
                "winner": seat["winner"],
                "on_turn": view["turn"] == seat["seat"],
                "took": plays[i].took,
                "played": [
                    trois_card(c, on_top=i == on_top and n == len(plays[i].cards) - 1)
                    for n, c in enumerate(plays[i].cards)
                ],
                "shown": [trois_label(c) for c in shown.get(seat["seat"], [])]
                if seat["seat"] != PERSON
                else [],
            }
            for i, seat in enumerate(view["seats"])
        ],
        "deck": view["deck"],
        "pile": view["pile"],
        "wild_pile": [trois_label(c) for c in view["wild_pile"]],
        "clock": _clock(game, finished),
    }


def _cpt113(view: dict) -> dict:
    # The stored names are the log's; the page translates the bot partner's and calls the
    # person "You".
    names = {
        seat["seat"]: you()
        if i == 0
        else words.partner()
        if seat["name"] == PARTNER
        else seat["name"]
        for i, seat in enumerate(view["seats"])
    }
    order = [seat["seat"] for seat in view["seats"]]
    legal = view["legal"]
    playable = set(legal["playable"]) if legal else set()
    finished = view["finished"]
    shown = view.get("hands", {}) if finished else {}
    plays = last_plays(view["facts"], len(order))
    on_top = top_player(plays)
    result_names = [group_name(g["group"]) for g in view["groups"]]
    result_names[0] = gettext("Your group")
    tiles = [
        {
            "letter": info["group"],
            "label": gettext("You and Partner") if g == 0 else group_name(info["group"]),
            "mine": g == 0,
            "cards": info["cards"],
            "out": info["out"],
            "winner": info["winner"],
            "on_turn": view["turn"] in info["seats"],
            # Each of the group's two players with its last play face-up.
            "players": [
                {
                    "name": names[s],
                    "mine": s == PERSON,
                    "on_turn": view["turn"] == s,
                    "took": plays[order.index(s)].took,
                    "played": [
                        cpt_card(c, plays[order.index(s)].named, on_top=order.index(s) == on_top)
                        for c in plays[order.index(s)].cards
                    ],
                }
                for s in info["seats"]
            ],
            # Hands are shown only once the game is over, a group that dropped out's not.
            "shown": [cpt_label(c) for c in shown.get(info["group"], [])]
            if g != 0 and not info["out"]
            else [],
        }
        for g, info in enumerate(view["groups"])
    ]
    return {
        "result": game_result([LETTERS.index(w) for w in view["winners"]], result_names)
        if finished
        else None,
        "ending": view["ending"],
        "out": view["groups"][0]["out"],
        "my_turn": legal is not None,
        "hand": [
            {**cpt_card(c), "wild": is_wild(c), "playable": c in playable} for c in view["hand"]
        ],
        "can_draw": bool(legal and legal["can_draw"]),
        "top": cpt_card(view["top"]),
        "top_by": names[order[on_top]] if on_top is not None else "",
        "colour": cpt_colour(view["colour"]),
        "number": view["number"],
        "direction": direction_label(view["direction"]),
        "tiles": tiles,
        "deck": view["deck"],
        "on_turn": names[view["turn"]] if view["turn"] else None,
        "colours": [(letter, cpt_colour(letter)) for letter in CPT_COLOURS],
    }


#: Trois and CPT-113's part in the pages practice shares (practice/pages.py).
PAGES = Pages(
    missing=PracticeGame.DoesNotExist,
    not_found=NO_SUCH_GAME,
    listing="practice:games",
    table="practice:game",
    moved_on=GAME_MOVED_ON,
    open=game_services.open_game,
    draw=_table,
)
