"""Practice against the bot (docs/practice.md): signed-in people, their own duels only."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from cardtable.confirm import NeedsConfirmation
from cardtable.forms import MAX_FIELD, command_of, form_keys
from cardtable.page import TEMPLATE, card_table, log_html
from core.numbers import read_int
from games.split_uno import PRESETS

from . import services
from .game import Refused
from .models import PracticeDuel
from .pages import REFUSED, Pages, answer_move, show
from .seating import LAYOUTS, TICKED_VARIANTS, layout_label
from .selectors import online_tables_of, record_of
from .words import (
    ARCHIVED,
    DUEL_MOVED_ON,
    NO_SUCH_DUEL,
    UNREPLAYABLE_LISTED,
    bot_label,
    bot_level_label,
    ruleset_label,
    variant_label,
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
    command = command_of(post, seat=PERSON)
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
    except NeedsConfirmation as asked:
        # Nothing was played: the table again, asking once whether to end the game so.
        practice, view = services.open_duel(practice_id, request.user)
        confirm = {"why": asked.why, "choice": command.args.get("choice")}
        return _table(request, practice, view, confirm=confirm)


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
    only (cardtable/table_view.py); a finished duel stored the old way from its archive (its
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
        context["log_html"] = log_html(context["log"])
        return render(request, TEMPLATE, context, status=status)
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


def _names(seats: dict[str, Any], count: int) -> dict[str, str]:
    """Each seat's name as the page says it: the person's own, each bot's translated (the
    stored names, "Bot B", are the log's)."""
    return {
        letter: seat["name"] if letter == PERSON else bot_label(letter, count)
        for letter, seat in seats.items()
    }


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
