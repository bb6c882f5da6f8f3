"""The card table (issue 30's design): a dealt Split UNO game drawn for one seat from that
seat's view only — its hand, the others' counts and face-up cards, the decision asked of it,
the log as it may read it. One page for every product that seats a person at a dealt game:
a practice duel (practice/views.py), an online table with friends (practice/online_views.py)
and an online tournament duel (tournaments/views/online.py). Each passes its own row (the
"binding": its rules, seating and game) and its own addresses; the template is
templates/cardtable/table.html."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from duels.forms import new_intent
from duels.words import color_label, ruleset_label, variant_label
from games.split_uno import COLORS, resolve_rules
from games.split_uno.constants import CARD_LABELS
from play.adapters.split_uno_dealt import MAX_SAID, SAYING_CARDS
from play.effect_words import said_words, say

from .table_view import mine_lines, table_of
from .words import (
    CHOOSE_TITLE,
    cannot_answer,
    consequence,
    decision_label,
    listing,
    question,
    result_line,
    you,
)

#: The template, and its partial an htmx request swaps.
TEMPLATE = "cardtable/table.html"


#: How many of the log's latest entries an answer shows (the page's link shows them all).
LOG_SHOWN = 60


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
    only: a practice duel's (seat A), an online table's or an online tournament duel's (any
    seat held by a person). ``binding`` is the product's row (its ``ruleset``,
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
    whole_log = request.GET.get("log") == "all" and not request.htmx
    entries = view["log"]
    # Only the entries the answer shows are drawn (the latest, LOG_SHOWN).
    log = [
        {
            "number": e["n"],
            "by_bot": e["by"].startswith("bot:"),
            "lines": e["lines"] + mine_lines(e.get("mine") or {}, names),
        }
        for e in reversed(entries if whole_log else entries[-LOG_SHOWN:])
    ]
    asked = commands.get("answer")
    choose = commands.get("choose")
    asked_words = None if asked is None else _asked(binding, asked, names, many, table, seat)
    seals = "seal" in commands
    free = seals or "play" in commands
    said = view.get("said")
    context |= {
        "state": state,
        "table": table,
        "result": result,
        "seals": seals,
        "free": free,
        "your_turn": bool(free or asked or choose),
        "thinking": listing(thinking),
        # A spectator's table (an online table's watch link) has no seat of its own: "".
        "blocked": state["seats"].get(seat, {}).get("blocked", False),
        "out": state["seats"].get(seat, {}).get("out", False),
        "colors": [(c, color_label(c)) for c in COLORS],
        "asked": asked_words,
        # The TRUTH or DARE being answered, its words for everyone at the table (ONLINE.md 2):
        # plain text, escaped by the template like every other line.
        "said": say({"say": "said", **said}, names, seat) if said else "",
        # The hand's TRUTH or DARE asks for the words it carries (``text``).
        "max_said": MAX_SAID,
        "saying": [c for c in commands.get("play", {}).get("cards", ()) if c in SAYING_CARDS],
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
        "log": log,
        # The latest entries only, at every answer: a long game's whole log made every poll's
        # answer tens of kB on a phone (the outside pass: 84 kB at the end of 205 moves).
        # The page's own link shows it whole (``?log=all``).
        "log_html": log_html(log),
        "log_hidden": 0 if whole_log else max(0, len(entries) - LOG_SHOWN),
        # The game's revision the page was drawn at, and a fresh key for each form on it
        # (a callable: the template calls it at every use, so no two forms share a key).
        "revision": binding.game.revision,
        "intent": new_intent,
        "targets": [(letter, names[letter]) for letter in targets],
        "news": _news(table, result),
    }
    template = f"{TEMPLATE}#answer" if request.htmx else TEMPLATE
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def log_html(log: list[dict[str, Any]]) -> SafeString:
    """The log's entries (``number``, ``by_bot``, ``lines``), latest first, as the template's
    loop drew them (each value localised and escaped as ``{{ value }}`` is): the longest part
    of the table, drawn at every answer, built here at a fraction of the loop's cost (issue
    31's capacity)."""
    out = []
    for entry in log:
        number = entry["number"]
        seq = "" if number == "" else f'<span class="log-seq">{_shown(number)}</span>'
        lines = "".join(f"<li>{_shown(line)}</li>" for line in entry["lines"])
        by_bot = ' class="by-bot"' if entry["by_bot"] else ""
        out.append(f'\n    <li{by_bot}>{seq}<ul class="log-lines">{lines}</ul></li>\n    ')
    return mark_safe("".join(out))  # noqa: S308 - every value escaped above


def _shown(value: Any) -> str:
    """A value as ``{{ value }}`` shows it in a template: localised, then escaped (an entry's
    number as ``localize`` writes an integer without thousands' separators, without its
    cost: 60 an answer)."""
    if type(value) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return conditional_escape(localize(value))


def _news(table: Any, result: str | None) -> str:
    """The line a screen reader hears after a move (the page's live region): the game's
    result, else the last round's outcome and what happened since the move."""
    if result:
        return result
    parts = [table.last_round.words] if table.last_round else []
    return " ".join(parts + list(table.steps[-3:]))


def _targets(commands: dict[str, Any]) -> list[str]:
    """The seats the person may name (their opponents in play); empty at two seats."""
    for name in ("seal", "play"):
        if commands.get(name, {}).get("targets"):
            return list(commands[name]["targets"])
    return []


def _asked(
    binding: Any,
    asked: dict[str, Any],
    names: dict[str, str],
    many: bool,
    table: Any,
    seat: str,
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
    rules = resolve_rules(binding.ruleset, list(binding.variants), dict(binding.options))
    forfeit = decision == "dare" and rules.dare_refused == "forfeit"
    my_actions = own_action_cards(table)
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
        # The question or dare itself (a person's own text: escaped where shown).
        "said": said_words(asked["said"]) if asked.get("said") else "",
        # A decision left with one choice by the person's own hand is still asked (answering
        # it for them at once would tell the others what they hold): the page says why.
        "note": cannot_answer(decision) if list(asked["choices"]) == ["pass"] else "",
    }


def own_action_cards(table: Any) -> int:
    """The action cards the person holds (their tile's count: public)."""
    return next((t.action_cards for t in table.tiles if t.mine), 0)


def _seat_label(letter: str, names: dict[str, str], mine: tuple[str, ...], person: str) -> str:
    if letter == person:
        return you()
    if letter in mine:
        return gettext("%(name)s (your partner)") % {"name": names[letter]}
    return names[letter]
