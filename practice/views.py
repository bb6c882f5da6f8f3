"""Practice against the bot (docs/practice.md): signed-in people, their own duels only."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.numbers import read_int
from duels.words import choice_label, decision_text, finish_label
from games.split_uno import COLORS, PRESETS
from games.split_uno.constants import CARD_LABELS

from . import services
from .game import BOT_NAME, Game, Refused, Unreplayable, parse_move
from .models import PracticeDuel
from .seating import LAYOUTS, TICKED_VARIANTS, layout_label
from .words import UNREPLAYABLE, UNREPLAYABLE_TITLE

REFUSED = 422


@login_required
@require_http_methods(["GET", "POST"])
def index(request: HttpRequest) -> HttpResponse:
    """My practice duels, and a form to start one."""
    error = None
    chosen = request.POST.get("ruleset", "tournament")
    opponents_field = request.POST.get("opponents", "1")
    opponents = read_int(opponents_field, lo=1, hi=5)
    variants = tuple(request.POST.getlist("variants"))
    layout = request.POST.get("teams", "")
    if request.method == "POST":
        try:
            if opponents is None:
                raise Refused("Choose from 1 to 5 bot opponents.")
            practice = services.start_practice(
                request.user, chosen, opponents + 1, variants, layout
            )
        except Refused as err:
            error = str(err)
        else:
            return redirect("practice:table", practice.pk)
    duels = PracticeDuel.objects.filter(user=request.user)[:20]
    context = {
        "duels": duels,
        "presets": PRESETS,
        "chosen": chosen,
        "error": error,
        "opponent_counts": range(1, 6),
        "opponents": opponents or 1,
        "ticked_variants": TICKED_VARIANTS,
        "variants": variants,
        "layouts": [
            (layout_id, seats, layout_label(layout_id))
            for seats, ids in LAYOUTS.items()
            for layout_id in ids
        ],
        "layout": layout,
    }
    return render(request, "practice/index.html", context, status=REFUSED if error else 200)


@login_required
@require_safe
def table(request: HttpRequest, practice_id: int) -> HttpResponse:
    practice = get_object_or_404(PracticeDuel, pk=practice_id, user=request.user)
    try:
        return _table(request, practice, services.load(practice))
    except Unreplayable:
        return unreplayable(request, "practice:index")


@login_required
@require_POST
def move(request: HttpRequest, practice_id: int) -> HttpResponse:
    seen = request.POST.get("seen", "")
    try:
        services.play(practice_id, request.user, parse_move(request.POST), seen=read_int(seen))
    except PracticeDuel.DoesNotExist:
        raise Http404("No such practice duel.") from None
    except Unreplayable:
        return unreplayable(request, "practice:index", status=409)
    except Refused as err:
        practice = get_object_or_404(PracticeDuel, pk=practice_id, user=request.user)
        try:
            return _table(request, practice, services.load(practice), str(err), REFUSED)
        except Unreplayable:
            return unreplayable(request, "practice:index", status=409)
    return redirect("practice:table", practice_id)


def unreplayable(request: HttpRequest, back: str, status: int = 200) -> HttpResponse:
    """A stored game today's code cannot set out again (practice.game.Unreplayable): said in
    words, with the way back to the list; the game stays stored."""
    context = {"title": UNREPLAYABLE_TITLE, "words": UNREPLAYABLE, "back": back}
    return render(request, "practice/unreplayable.html", context, status=status)


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
    seating = practice.seating
    many = seating.seats > 2
    names = {letter: seat["name"] for letter, seat in state["seats"].items()}
    mine = seating.team_of("A")
    winner = state["winner"]
    result = None
    if game.finished:
        how = finish_label(state["finish"])
        result = (
            f"Drawn — {how}."
            if winner is None
            else f"{_winner_words(seating, winner, names)} — {how}."
            if many
            else f"You win — {how}."
            if winner == "A"
            else f"The bot wins — {how}."
        )
    other = BOT_NAME
    if asked is not None and many:
        pending = game.sim.table.pending
        other = names[game.sim.seats[pending.other]] if pending.other >= 0 else "each opponent"
    context = {
        "practice": practice,
        "state": state,
        "seats": [
            (_seat_label(letter, names, mine, many), letter, seat)
            for letter, seat in state["seats"].items()
        ],
        "error": error,
        "result": result,
        "free": game.free(),
        "blocked": game.blocked(),
        "reveals": game.reveals(),
        "out": game.out(),
        "numbers": game.my_numbers(),
        "actions": [
            {
                "card": c,
                "label": CARD_LABELS[c],
                "count": n,
                "playable": c in playable,
                "targeted": game.needs_target(c),
            }
            for c, n in game.my_actions()
        ],
        "colors": COLORS,
        "asked": None
        if asked is None
        else {
            "decision": asked[0].replace("_", " "),
            "question": decision_text(
                asked[0], practice.name, other, CARD_LABELS.get(game.sim.table.pending.card, "card")
            )
            if many
            else "",
            "choices": [(c, choice_label(asked[0], c, practice.name, other)) for c in asked[1]],
        },
        "log": list(reversed(game.log)),
        "seen": len(practice.moves),
        "many": many,
        "seating": seating,
        "table_words": practice.table_words,
        "targets": [(letter, names[letter]) for letter in game.targets()],
        "winners": seating.team_of(winner) if winner else (),
        "layout": ",".join("".join(team) for team in seating.teams),
    }
    template = "practice/table_many.html" if many else "practice/table.html"
    return render(request, template, context, status=status)


def _seat_label(letter: str, names: dict[str, str], mine: tuple[str, ...], many: bool) -> str:
    if letter == "A":
        return "You"
    if not many:
        return BOT_NAME
    return f"{names[letter]} (your partner)" if letter in mine else names[letter]


def _winner_words(seating, winner: str, names: dict[str, str]) -> str:
    """Who won, at more than two seats: "You win", "Your team wins", "Bot C wins",
    "Bot B + Bot D win"."""
    side = seating.team_of(winner)
    if "A" in side:
        return "Your team wins" if len(side) > 1 else "You win"
    return " + ".join(names[s] for s in side) + (" win" if len(side) > 1 else " wins")
