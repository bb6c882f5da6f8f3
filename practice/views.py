"""Practice against the bot (docs/practice.md): signed-in people, their own duels only."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.numbers import read_int
from duels.engine import COLORS, PRESETS
from duels.engine.constants import CARD_LABELS
from duels.words import choice_label, finish_label

from . import services
from .game import BOT_NAME, Game, Refused, parse_move
from .models import PracticeDuel

REFUSED = 422


@login_required
@require_http_methods(["GET", "POST"])
def index(request: HttpRequest) -> HttpResponse:
    """My practice duels, and a form to start one."""
    error = None
    chosen = request.POST.get("ruleset", "tournament")
    if request.method == "POST":
        try:
            practice = services.start_practice(request.user, chosen)
        except Refused as err:
            error = str(err)
        else:
            return redirect("practice:table", practice.pk)
    duels = PracticeDuel.objects.filter(user=request.user)[:20]
    return render(
        request,
        "practice/index.html",
        {"duels": duels, "presets": PRESETS, "chosen": chosen, "error": error},
        status=REFUSED if error else 200,
    )


@login_required
@require_safe
def table(request: HttpRequest, practice_id: int) -> HttpResponse:
    practice = get_object_or_404(PracticeDuel, pk=practice_id, user=request.user)
    return _table(request, practice, services.load(practice))


@login_required
@require_POST
def move(request: HttpRequest, practice_id: int) -> HttpResponse:
    seen = request.POST.get("seen", "")
    try:
        services.play(practice_id, request.user, parse_move(request.POST), read_int(seen))
    except PracticeDuel.DoesNotExist:
        raise Http404("No such practice duel.") from None
    except Refused as err:
        practice = get_object_or_404(PracticeDuel, pk=practice_id, user=request.user)
        return _table(request, practice, services.load(practice), str(err), REFUSED)
    return redirect("practice:table", practice_id)


def _table(
    request: HttpRequest,
    practice: PracticeDuel,
    game: Game,
    error: str | None = None,
    status: int = 200,
) -> HttpResponse:
    state = game.state()
    asked = game.awaiting_me()
    playable = set(game.playable_actions())
    winner = state["winner"]
    result = None
    if game.finished:
        how = finish_label(state["finish"])
        result = (
            f"Drawn — {how}."
            if winner is None
            else f"You win — {how}."
            if winner == "A"
            else f"The bot wins — {how}."
        )
    context = {
        "practice": practice,
        "state": state,
        "seats": [("You", "A", state["seats"]["A"]), (BOT_NAME, "B", state["seats"]["B"])],
        "error": error,
        "result": result,
        "free": game.free(),
        "blocked": game.blocked(),
        "numbers": game.my_numbers(),
        "actions": [
            {"card": c, "label": CARD_LABELS[c], "count": n, "playable": c in playable}
            for c, n in game.my_actions()
        ],
        "colors": COLORS,
        "asked": None
        if asked is None
        else {
            "decision": asked[0].replace("_", " "),
            "choices": [(c, choice_label(asked[0], c, practice.name, BOT_NAME)) for c in asked[1]],
        },
        "log": list(reversed(game.log)),
        "seen": len(practice.moves),
    }
    return render(request, "practice/table.html", context, status=status)
