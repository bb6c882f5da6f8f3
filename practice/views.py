"""Practice against the bot (docs/practice.md): signed-in people, their own duels only."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.numbers import read_int
from duels.forms import new_intent
from games.split_uno import COLORS, PRESETS, resolve_rules
from games.split_uno.constants import CARD_LABELS
from play.adapters.base import Command

from . import services
from .game import Refused
from .models import PracticeDuel
from .pages import MAX_FIELD, REFUSED, Pages, answer_move, form_keys, show
from .seating import LAYOUTS, TICKED_VARIANTS, layout_label
from .selectors import online_tables_of, record_of
from .table_view import mine_lines, table_of
from .words import (
    ARCHIVED,
    CHOOSE_TITLE,
    DUEL_MOVED_ON,
    NO_SUCH_DUEL,
    UNREPLAYABLE_LISTED,
    bot_label,
    bot_level_label,
    cannot_answer,
    color_label,
    consequence,
    decision_label,
    listing,
    question,
    result_line,
    ruleset_label,
    variant_label,
    you,
)

PERSON = services.PERSON


def set_up_choices() -> dict[str, Any]:
    """What a table's set-up form offers (practice's and an online table's): the presets,
    the variants ticked by a box, the team layouts by number of seats."""
    return {
        "presets": [(p, ruleset_label(p)) for p in PRESETS],
        "ticked_variants": [(v, variant_label(v)) for v in TICKED_VARIANTS],
        "layouts": [
            (layout_id, seats, layout_label(layout_id))
            for seats, ids in LAYOUTS.items()
            for layout_id in ids
        ],
    }


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
    bot = request.POST.get("bot", services.BOT)[: MAX_FIELD * 2]
    if request.method == "POST":
        try:
            if opponents is None:
                raise Refused(gettext("Choose from 1 to 5 bot opponents."))
            practice = services.start_practice(
                request.user, chosen, opponents + 1, variants, layout, bot
            )
        except Refused as err:
            error = str(err)
        else:
            return redirect("practice:table", practice.pk)
    duels = PracticeDuel.objects.filter(user=request.user)[:20]
    context = {
        "duels": duels,
        **set_up_choices(),
        "chosen": chosen,
        "error": error,
        "opponent_counts": range(1, 6),
        "opponents": opponents or 1,
        "variants": variants,
        "layout": layout,
        "bot_levels": [(b, bot_level_label(b)) for b in services.BOT_LEVELS],
        "record": record_of(request.user),
        "bot": bot,
        "unreplayable_words": gettext(UNREPLAYABLE_LISTED),
        "online_tables": online_tables_of(request.user),
    }
    return render(request, "practice/index.html", context, status=REFUSED if error else 200)


@login_required
@require_safe
def table(request: HttpRequest, practice_id: int) -> HttpResponse:
    return show(request, PAGES, practice_id)


#: A game waiting this long for bots that think in the worker has its bots woken again (a task
#: lost with a broker down, or one that stopped on a racing move).
WAKE_AFTER = timedelta(seconds=3)


def _open(practice_id: int, user: Any) -> tuple[PracticeDuel, dict[str, Any] | None]:
    """``services.open_duel``, waking the bots of a game that has waited for them too long."""
    practice, view = services.open_duel(practice_id, user)
    if (
        view is not None
        and practice.bot in services.WORKER_LEVELS
        and services.bots_awaited(view)
        and timezone.now() - practice.game.updated_at > WAKE_AFTER
    ):
        services.wake_the_bots(practice)
    return practice, view


@login_required
@require_POST
def move(request: HttpRequest, practice_id: int) -> HttpResponse:
    """The person's move: parsed as the form sent it into the dealt adapter's command, then
    through the table core's write path with the page's revision and the form's idempotency
    key (``intent``): the same form sent twice is answered "already recorded"; another move
    from an older page is stale (409)."""
    post = request.POST
    revision, intent = form_keys(post)
    command = command_of(post)
    try:
        return answer_move(
            request,
            PAGES,
            practice_id,
            lambda: services.play_move(
                practice_id,
                request.user,
                command,
                revision=revision,
                intent=intent,
                confirmed=post.get("confirm") == "yes",
            ),
        )
    except services.NeedsConfirmation as asked:
        # Nothing was played: the table again, asking once whether to end the game so.
        practice, view = services.open_duel(practice_id, request.user)
        confirm = {"why": asked.why, "choice": command.args.get("choice")}
        return _table(request, practice, view, confirm=confirm)


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
            if not color and card == "color_change":
                # The card table names the colour in a field of its own (select, then play).
                color = post.get("color", "")[:MAX_FIELD]
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
    confirm: dict[str, Any] | None = None,
) -> HttpResponse:
    """The card table, drawn from the person's seat's view of the game (``adapter.view``)
    only (practice/table_view.py); a finished duel stored the old way from its archive (its
    result and log, read-only). htmx gets the table and, out of band, the log and the line a
    screen reader announces; a plain request the whole page."""
    context: dict[str, Any] = {
        "practice": practice,
        "keep": _set_up(practice),
        "bot_level": bot_level_label(practice.bot, short=True),
        "home_url": reverse("practice:index"),
        "table_url": reverse("practice:table", args=[practice.pk]),
        "move_url": reverse("practice:move", args=[practice.pk]),
    }
    if view is None:
        seating = practice.seating
        context |= {
            "error": error,
            "notice": notice,
            "many": seating.seats > 2,
            "seating": seating,
            "rules": ruleset_label(practice.ruleset),
            "ruleset": practice.ruleset,
            "variant_labels": [variant_label(v) for v in seating.variants if v != "team"],
            "archived": True,
            "archived_words": gettext(ARCHIVED),
            "result": practice.archive.get("result", ""),
            "log": [
                {"number": "", "by_bot": False, "lines": [line]}
                for line in reversed(practice.archive.get("log", []))
            ],
        }
        return render(request, "practice/table.html", context, status=status)
    names = _names(view["state"]["seats"], practice.seating.seats)
    return card_table(
        request,
        practice,
        view,
        seat=PERSON,
        names=names,
        context=context,
        worker_bots=practice.bot in services.WORKER_LEVELS,
        error=error,
        status=status,
        notice=notice,
        confirm=confirm,
    )


def card_table(
    request: HttpRequest,
    binding: Any,
    view: dict[str, Any],
    *,
    seat: str,
    names: dict[str, str],
    context: dict[str, Any],
    worker_bots: bool = False,
    persons: bool = False,
    error: str | None = None,
    status: int = 200,
    notice: str | None = None,
    confirm: dict[str, Any] | None = None,
) -> HttpResponse:
    """The card table of ``seat`` (the person's), drawn from that seat's view of the game
    only: a practice duel's (seat A) or an online table's (any seat held by a person;
    practice/online_views.py). ``binding`` is the product's row (its ``ruleset``,
    ``seating``, ``variants``, ``options`` and ``game``); ``context`` the product's own keys
    (its addresses: ``home_url``, ``table_url``, ``move_url``; the bots' level).
    ``persons``: other seats are people's too (an online table), so the result names the
    winner even at two seats."""
    seating = binding.seating
    many = seating.seats > 2
    context = {
        **context,
        "error": error,
        "notice": notice,
        "many": many,
        "seating": seating,
        "rules": ruleset_label(binding.ruleset),
        "ruleset": binding.ruleset,
        # The meta line names every variant (teams show on the tiles).
        "variant_labels": [variant_label(v) for v in seating.variants if v != "team"],
    }
    state = view["state"]
    commands = view.get("commands", {})
    mine = seating.team_of(seat)
    labels = {letter: _seat_label(letter, names, mine, seat) for letter in state["seats"]}
    team_of = {letter: seating.team_of(letter) for letter in state["seats"]}
    targets = _targets(commands)
    table = table_of(view, names, labels, team_of, targets, seat)
    winner = state["winner"]
    finished = view["phase"] == "finished"
    result = (
        result_line(
            many or persons, seating.team_of(winner or seat), winner, state["finish"], names, seat
        )
        if finished
        else None
    )
    # Bots that think in the worker: while one is asked, the person waits (the page polls),
    # so that their move and the bot's never race.
    thinking = (
        [names[a["seat"]] for a in view["awaiting"] if a["seat"] in view["bots"]]
        if worker_bots and not finished
        else []
    )
    if thinking:
        commands = {}
    asked = commands.get("answer")
    choose = commands.get("choose")
    asked_words = None if asked is None else _asked(binding, asked, names, many, table, seat)
    seals = "seal" in commands
    free = seals or "play" in commands
    context |= {
        "state": state,
        "table": table,
        "result": result,
        "seals": seals,
        "free": free,
        "your_turn": bool(free or asked or choose),
        "thinking": listing(thinking),
        "blocked": state["seats"][seat]["blocked"],
        "out": state["seats"][seat].get("out", False),
        "colors": [(c, color_label(c)) for c in COLORS],
        "asked": asked_words,
        "confirm": confirm if asked_words is not None else None,
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
                "lines": e["lines"] + mine_lines(e.get("mine") or {}, names),
            }
            for e in reversed(view["log"])
        ],
        # The game's revision the page was drawn at, and a fresh key for each form on it
        # (a callable: the template calls it at every use, so no two forms share a key).
        "revision": binding.game.revision,
        "intent": new_intent,
        "targets": [(letter, names[letter]) for letter in targets],
        "news": _news(table, result),
    }
    template = "practice/table.html#answer" if request.htmx else "practice/table.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _set_up(practice: PracticeDuel) -> dict[str, Any]:
    """What *Play again* sends: the whole set-up of this duel (rules, seats, variants, teams,
    the bots' level), so the next duel is the same table."""
    seating = practice.seating
    return {
        "ruleset": practice.ruleset,
        "opponents": seating.seats - 1,
        "variants": [v for v in seating.variants if v != "team"],
        "teams": ",".join("".join(team) for team in seating.teams),
        "bot": practice.bot,
    }


def _news(table: Any, result: str | None) -> str:
    """The line a screen reader hears after a move (the page's live region): the game's
    result, else the last round's outcome and what happened since the move."""
    if result:
        return result
    parts = [table.last_round.words] if table.last_round else []
    return " ".join(parts + list(table.steps[-3:]))


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


def _asked(
    practice: PracticeDuel,
    asked: dict[str, Any],
    names: dict[str, str],
    many: bool,
    table: Any,
    seat: str = PERSON,
) -> dict[str, Any]:
    """The decision asked of the person: its question in the second person, each choice with
    what it does (a refusal that forfeits and a challenge that cannot succeed say so), and
    where the rules explain it. ``other`` and ``card`` are the dealt view's: the seat the
    decision is about and the card that raised it."""
    decision = asked["decision"]
    other = names.get(asked.get("other") or "", "")
    if not other:
        facing = [name for letter, name in names.items() if letter != seat]
        other = facing[0] if not many and facing else gettext("each opponent")
    card = asked.get("card")
    rules = resolve_rules(practice.ruleset, list(practice.variants), dict(practice.options))
    forfeit = decision == "dare" and rules.dare_refused == "forfeit"
    my_actions = practice_actions(table)
    hopeless = decision == "challenge" and rules.challenge == "two_cards" and my_actions == 1
    return {
        "name": decision,
        "decision": decision_label(decision),
        "question": question(decision, other, CARD_LABELS.get(card or "", card or "")),
        "choices": [
            {
                "value": c,
                "label": consequence(
                    decision,
                    c,
                    other,
                    card,
                    many=many,
                    forfeits=forfeit,
                    hopeless=hopeless and c != "pass",
                ),
                "ends": (forfeit and c == "refuse")
                or (hopeless and c != "pass")
                or (decision == "challenge" and c == "pass" and not many),
            }
            for c in asked["choices"]
        ],
        "forfeit": forfeit,
        "other": other,
        # A decision left with one choice by the person's own hand is still asked (answering
        # it for them at once would tell the others what they hold): the page says why.
        "note": cannot_answer(decision) if list(asked["choices"]) == ["pass"] else "",
    }


def practice_actions(table: Any) -> int:
    """The action cards the person holds (their tile's count: public)."""
    return next((t.action_cards for t in table.tiles if t.mine), 0)


def _seat_label(
    letter: str, names: dict[str, str], mine: tuple[str, ...], person: str = PERSON
) -> str:
    if letter == person:
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
    open=_open,
    draw=_table,
)
