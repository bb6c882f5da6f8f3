"""Practice against the bot (docs/practice.md): signed-in people, their own duels only."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.numbers import read_int
from duels.forms import new_intent
from duels.words import choice_label, decision_text
from games.split_uno import COLORS, PRESETS
from games.split_uno.constants import CARD_LABELS
from play.adapters.base import Command

from . import services
from .game import Refused
from .models import PracticeDuel
from .pages import MAX_FIELD, REFUSED, Pages, answer_move, form_keys, show
from .seating import LAYOUTS, TICKED_VARIANTS, layout_label
from .words import (
    ARCHIVED,
    CHOOSE_TITLE,
    DUEL_MOVED_ON,
    NO_SUCH_DUEL,
    UNREPLAYABLE_LISTED,
    bot_label,
    color_label,
    decision_label,
    mine_drew,
    mine_hand,
    mine_lost,
    mine_took,
    result_line,
    ruleset_label,
    variant_label,
    you,
)

PERSON = services.PERSON


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
                raise Refused(gettext("Choose from 1 to 5 bot opponents."))
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
        "presets": [(p, ruleset_label(p)) for p in PRESETS],
        "chosen": chosen,
        "error": error,
        "opponent_counts": range(1, 6),
        "opponents": opponents or 1,
        "ticked_variants": [(v, variant_label(v)) for v in TICKED_VARIANTS],
        "variants": variants,
        "layouts": [
            (layout_id, seats, layout_label(layout_id))
            for seats, ids in LAYOUTS.items()
            for layout_id in ids
        ],
        "layout": layout,
        "unreplayable_words": gettext(UNREPLAYABLE_LISTED),
    }
    return render(request, "practice/index.html", context, status=REFUSED if error else 200)


@login_required
@require_safe
def table(request: HttpRequest, practice_id: int) -> HttpResponse:
    return show(request, PAGES, practice_id)


@login_required
@require_POST
def move(request: HttpRequest, practice_id: int) -> HttpResponse:
    """The person's move: parsed as the form sent it into the dealt adapter's command, then
    through the table core's write path with the page's revision and the form's idempotency
    key (``intent``): the same form sent twice is answered "already recorded"; another move
    from an older page is stale (409)."""
    post = request.POST
    revision, intent = form_keys(post)
    return answer_move(
        request,
        PAGES,
        practice_id,
        lambda: services.play_move(
            practice_id, request.user, command_of(post), revision=revision, intent=intent
        ),
    )


def command_of(post: Mapping[str, str]) -> Command:
    """The dealt adapter's command of the person's seat from a submitted form (checked by the
    adapter when applied). The hand's buttons say their move as ``play``: "seal:3",
    "play:block", "play:color_change:red" (the target, where one is named, in ``target``);
    the other forms say ``kind``: "answer" (``choice``), "choose" (``card``) or "resign"."""
    move = post.get("play", "")[: MAX_FIELD * 4]
    target = post.get("target", "")[:MAX_FIELD]
    args: dict[str, object] = {}
    if move:
        name, _, rest = move.partition(":")
        if name == "seal":
            args["card"] = _card(rest)
        elif name == "play":
            card, _, color = rest.partition(":")
            args["card"] = card
            if color:
                args["color"] = color
        else:
            name = "?"  # decisions, choices and resigning have forms of their own
        if target:
            args["target"] = target
        return Command(name, services.PERSON, args)
    name = post.get("kind", "")[:MAX_FIELD]
    if name == "answer":
        args["choice"] = post.get("choice", "")[: MAX_FIELD * 3]
    elif name == "choose":
        args["card"] = _card(post.get("card", "")[: MAX_FIELD * 3])
    return Command(name, services.PERSON, args)


def _card(text: str) -> object:
    """A number card's value as a number; any other text (an action card's name) as it is."""
    value = read_int(text, hi=9)
    return text if value is None else value


def _table(
    request: HttpRequest,
    practice: PracticeDuel,
    view: dict[str, Any] | None,
    error: str | None = None,
    status: int = 200,
    notice: str | None = None,
) -> HttpResponse:
    """The page, drawn from the person's seat's view of the game (``adapter.view``) only; a
    finished duel stored the old way from its archive (its result and log, read-only)."""
    seating = practice.seating
    many = seating.seats > 2
    template = "practice/table_many.html" if many else "practice/table.html"
    context: dict[str, Any] = {
        "practice": practice,
        "error": error,
        "notice": notice,
        "many": many,
        "seating": seating,
        "table_words": practice.table_words,
        "rules": ruleset_label(practice.ruleset),
        "layout": ",".join("".join(team) for team in seating.teams),
    }
    if view is None:
        context |= {
            "archived": True,
            "archived_words": gettext(ARCHIVED),
            "result": practice.archive.get("result", ""),
            "log": list(reversed(practice.archive.get("log", []))),
        }
        return render(request, template, context, status=status)
    state = view["state"]
    commands = view.get("commands", {})
    names = _names(state["seats"], seating.seats)
    mine = seating.team_of(PERSON)
    winner = state["winner"]
    finished = view["phase"] == "finished"
    result = (
        result_line(many, seating.team_of(winner or PERSON), winner, state["finish"], names)
        if finished
        else None
    )
    asked = commands.get("answer")
    held = Counter(view.get("hand", {}).get("numbers", []))
    actions = Counter(view.get("hand", {}).get("actions", []))
    playable = commands.get("play", {})
    choose = commands.get("choose")
    context |= {
        "state": state,
        "seats": [
            (_seat_label(letter, names, mine), letter, seat)
            for letter, seat in state["seats"].items()
        ],
        "result": result,
        "seals": "seal" in commands,
        "free": "seal" in commands or "play" in commands,
        "blocked": state["seats"][PERSON]["blocked"],
        "out": state["seats"][PERSON].get("out", False),
        "numbers": sorted(held.items()),
        "actions": [
            {
                "card": card,
                "label": CARD_LABELS[card],
                "count": count,
                "playable": card in playable.get("cards", ()),
                "targeted": many and card != "color_change",
            }
            for card, count in actions.items()
        ],
        "colors": [(c, color_label(c)) for c in COLORS],
        "asked": None if asked is None else _asked(asked, practice.name, names, many),
        "choose": None
        if choose is None
        else {
            "title": gettext(CHOOSE_TITLE[choose["what"]]),
            "cards": [
                (card, str(card) if choose["what"] == "shed" else CARD_LABELS[card])
                for card in choose["cards"]
            ],
        },
        "log": [
            {
                "number": e["n"],
                "by_bot": e["by"].startswith("bot:"),
                "lines": e["lines"] + _mine(e.get("mine") or {}, names),
            }
            for e in reversed(view["log"])
        ],
        # The game's revision the page was drawn at, and a fresh key for each form on it
        # (a callable: the template calls it at every use, so no two forms share a key).
        "revision": practice.game.revision,
        "intent": new_intent,
        "targets": [(letter, names[letter]) for letter in _targets(commands)],
        "winners": seating.team_of(winner) if winner else (),
    }
    return render(request, template, context, status=status)


def _names(seats: dict[str, Any], count: int) -> dict[str, str]:
    """Each seat's name as the page says it: the person's own, each bot's translated (the
    stored names, "Bot B", are the log's)."""
    return {
        letter: seat["name"] if letter == PERSON else bot_label(letter, count)
        for letter, seat in seats.items()
    }


def _targets(commands: dict[str, Any]) -> list[str]:
    """The seats the person may name (their opponents in play); empty at two seats."""
    for name in ("seal", "play"):
        if commands.get(name, {}).get("targets"):
            return list(commands[name]["targets"])
    return []


def _label(card: int | str) -> str:
    """A card as the log words it: a number card's value, an action card's label."""
    return str(card) if isinstance(card, int) else CARD_LABELS.get(card, card)


def _mine(mine: dict[str, Any], names: dict[str, str]) -> list[str]:
    """What only the person sees of an event (the dealt view's ``mine``), in words: the cards
    they drew, took or lost, their hand after a swap. Their seal and the deal show on the page
    itself (the hand), so they add no line."""
    lines = []
    if mine.get("drew"):
        lines.append(mine_drew(", ".join(_label(c) for c in mine["drew"])))
    lines += [mine_took(_label(c), names[s]) for s, c in mine.get("stole", ())]
    lines += [mine_lost(_label(c), names[s]) for s, c in mine.get("lost", ())]
    if mine.get("hand"):
        hand = [*mine["hand"]["numbers"], *mine["hand"]["actions"]]
        lines.append(mine_hand(", ".join(_label(c) for c in hand)))
    return lines


def _asked(asked: dict[str, Any], me: str, names: dict[str, str], many: bool) -> dict[str, Any]:
    """The decision asked of the person, with its choices in words; at more than two seats
    the question names the seat the decision is about and the card that raised it, as the
    engine has them (the dealt view's ``other`` and ``card``)."""
    decision = asked["decision"]
    # Translators: the card a decision answers, where the page cannot name it.
    some_card = pgettext("the card a decision answers", "card")
    other, card = bot_label("B", 2), some_card
    if many:
        seat = asked.get("other")
        each = gettext("each opponent")
        other = names.get(seat, each) if seat else each
        card = CARD_LABELS.get(asked.get("card") or "", some_card)
    return {
        "decision": decision_label(decision),
        "question": decision_text(decision, me, other, card) if many else "",
        "choices": [(c, choice_label(decision, c, me, other)) for c in asked["choices"]],
    }


def _seat_label(letter: str, names: dict[str, str], mine: tuple[str, ...]) -> str:
    if letter == PERSON:
        return you()
    if letter in mine:
        return gettext("%(name)s (your partner)") % {"name": names[letter]}
    return names[letter]


#: The duel's part in the pages practice shares (practice/pages.py).
PAGES = Pages(
    missing=PracticeDuel.DoesNotExist,
    not_found=NO_SUCH_DUEL,
    listing="practice:index",
    table="practice:table",
    moved_on=DUEL_MOVED_ON,
    open=services.open_duel,
    draw=_table,
)
