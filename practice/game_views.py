"""Trois and CPT-113 against the bots (docs/practice.md, "Other games"): signed-in people,
their own games only; every input bounded and checked before anything is stored."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.numbers import read_int
from games.cpt113.cards import COLOURS as CPT_COLOURS
from games.cpt113.cards import label as cpt_label
from games.cpt113.state import LETTERS, group_name
from games.trois.cards import COLOURS as TROIS_COLOURS
from games.trois.cards import label as trois_label

from . import game_clock, game_services
from .cpt113_table import Cpt113Table
from .cpt113_table import parse_move as parse_cpt113
from .game import Refused, Unreplayable
from .models import PracticeGame
from .trois_table import BOT_NAMES, TroisTable
from .trois_table import parse_move as parse_trois
from .views import unreplayable

REFUSED = 422
MAX_FIELD = 10


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
    games = PracticeGame.objects.filter(user=request.user)[:20]
    return render(
        request,
        "practice/games.html",
        {"games": games, "error": error},
        status=REFUSED if error else 200,
    )


@login_required
@require_safe
def table(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game, state = game_services.open_game(game_id, request.user)
    except PracticeGame.DoesNotExist:
        raise Http404("No such game.") from None
    except Unreplayable:
        return unreplayable(request, "practice:games")
    return _table(request, game, state)


@login_required
@require_POST
def move(request: HttpRequest, game_id: int) -> HttpResponse:
    post = request.POST
    seen = post.get("seen", "")[:MAX_FIELD]
    try:
        game = PracticeGame.objects.get(pk=game_id, user=request.user)
        kind = post.get("kind", "")[:MAX_FIELD]
        if game.kind == PracticeGame.Kind.TROIS:
            chosen = parse_trois(kind, post.getlist("cards"), post.get("top", "")[:MAX_FIELD])
        else:
            chosen = parse_cpt113(
                kind, post.get("card", "")[:MAX_FIELD], post.get("colour", "")[:MAX_FIELD]
            )
        game_services.play(game_id, request.user, chosen, seen=read_int(seen))
    except PracticeGame.DoesNotExist:
        raise Http404("No such game.") from None
    except Unreplayable:
        return unreplayable(request, "practice:games", status=409)
    except Refused as err:
        try:
            game, state = game_services.open_game(game_id, request.user)
        except Unreplayable:
            return unreplayable(request, "practice:games", status=409)
        return _table(request, game, state, str(err), REFUSED)
    return redirect("practice:game", game_id)


def _table(
    request: HttpRequest, game: PracticeGame, state, error: str | None = None, status: int = 200
) -> HttpResponse:
    context = {
        "game": game,
        "error": error,
        "seen": len(game.moves),
        "log": list(reversed(state.log)),
        "table": state,
    }
    if isinstance(state, TroisTable):
        context.update(_trois(game, state))
        template = "practice/trois.html"
    else:
        context.update(_cpt113(state))
        template = "practice/cpt113.html"
    return render(request, template, context, status=status)


def _result(winners: tuple[int, ...], names: list[str]) -> str:
    if winners == (0,):
        return "You win!"
    if 0 in winners:
        return "A tie — you share the win."
    if len(winners) == 1:
        return f"{names[winners[0]]} wins."
    return f"A tie between {' and '.join(names[w] for w in winners)}."


def _trois(game: PracticeGame, table: TroisTable) -> dict:
    state = table.state
    names = ["You", *BOT_NAMES]
    left = None
    if not table.finished and game.deadline is not None:
        seconds = max(0, int((game.deadline - game_clock.now()).total_seconds()))
        left = f"{seconds // 60}:{seconds % 60:02d}"
    return {
        "result": _result(state.winners, names) if table.finished else None,
        "ending": state.ending,
        "my_turn": table.my_turn(),
        "hand": table.hand(),
        # The cards show their colour's letter (seven colours, purple and magenta alike to
        # many eyes): the key says which is which.
        "colour_key": list(TROIS_COLOURS.items()),
        "can_take": table.can_take(),
        "groups": [[{"card": c, "label": trois_label(c)} for c in g] for g in table.groups()],
        "top": {"card": state.top, "label": trois_label(state.top)},
        # Hands are shown only once the game is over: nothing hidden before.
        "others": [
            {
                "name": BOT_NAMES[s - 1],
                "cards": len(state.hands[s]),
                "winner": s in state.winners,
                "shown": [trois_label(c) for c in state.hands[s]] if table.finished else [],
            }
            for s in range(1, 4)
        ],
        "deck": len(state.deck),
        "pile": len(state.pile),
        "wild_pile": [trois_label(c) for c in state.wild_pile],
        "time_left": left,
    }


def _cpt113(table: Cpt113Table) -> dict:
    state = table.state
    names = [f"Group {LETTERS[g]}" for g in range(state.groups)]
    names[0] = "Your group"
    groups = [
        {
            "name": group_name(g, capital=True) + (" (you and Partner)" if g == 0 else ""),
            "cards": len(state.hands[g]),
            "out": g in state.out,
            "winner": g in state.winners,
            "players": " and ".join(state.names[s] for s in (g, g + state.groups)),
            # Hands are shown only once the game is over: nothing hidden before.
            "shown": [cpt_label(c) for c in state.hands[g]] if table.finished and g != 0 else [],
        }
        for g in range(state.groups)
    ]
    on_turn = None if table.finished else state.names[state.seat]
    return {
        "result": _result(state.winners, names) if table.finished else None,
        "ending": state.ending,
        "out": 0 in state.out,
        "my_turn": table.my_turn(),
        "hand": table.hand(),
        "can_draw": table.can_draw(),
        "top": {"card": state.top, "label": cpt_label(state.top)},
        "colour": CPT_COLOURS[state.colour],
        "number": state.number,
        "direction": "clockwise" if state.direction == 1 else "anticlockwise",
        "groups_info": groups,
        "deck": len(state.deck),
        "on_turn": on_turn,
        "colours": list(CPT_COLOURS.items()),
    }
