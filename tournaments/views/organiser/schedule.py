"""The schedule (issue 16): the time zone and the start times; calling a duel to its table.

Issue 26: the whole evening planned from one time and an interval (`schedule_plan`), and
everything not yet played shifted when the night runs late (`schedule_shift`), beside an
estimate of the evening's length. Every form carries the schedule's state its page was drawn
at (`drawn`) and a key of its own (`intent`): sent twice, it changes the schedule once
(docs/architecture.md, "Every write names what it is for")."""

import re
from collections.abc import Callable
from datetime import UTC
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.permissions import Action
from core.errors import ServiceError
from duels.forms import new_intent
from duels.models import Duel
from tournaments import presentation
from tournaments.access import tournament_view
from tournaments.forms_organiser import PlanForm, ScheduleForm, ShiftForm
from tournaments.models import Tournament
from tournaments.selectors_schedule import duel_length, estimate, local, start_times
from tournaments.services import refereeing
from tournaments.services.schedule import (
    START_KEYS,
    plan_schedule,
    plan_starts,
    schedule_state,
    set_schedule,
    shift_schedule,
    zone_of,
)

from ._common import REFUSED, base_context, confirmed, render_page, stored_outcome, succeeded

DRAWN = re.compile(r"^[0-9a-f]{16}$")


def _page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    form: ScheduleForm | None = None,
    plan: PlanForm | None = None,
    shift: ShiftForm | None = None,
    confirm: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The schedule page: the plan with its estimate, the shift, every start time. A form
    posted and refused is drawn as it was sent, with why; the others afresh."""
    starts = start_times(tournament)
    # The plan as sent, where it was understood (a refusal by the service, or the question
    # before replacing times): the estimate is of that plan.
    planned = getattr(plan, "cleaned_data", {}) if plan is not None else {}
    gaps = {k: planned[k] for k in ("before_tie_breaks", "before_playoffs") if k in planned}
    guess = estimate(
        tournament,
        every=planned.get("every"),
        starts=starts,
        **({"gaps": sum(gaps.values())} if len(gaps) == 2 else {}),
    )
    context = base_context(request, tournament, "schedule")
    context.update(
        form=form or ScheduleForm(tournament=tournament, starts=starts),
        plan=plan or PlanForm(tournament=tournament, every=guess.suggested_every),
        shift=shift or ShiftForm(),
        estimate=guess,
        one_at_a_time=presentation.ONE_AT_A_TIME,
        zone=presentation.zone_label(tournament.time_zone),
        confirm=confirm,
        # What every form of this page is drawn for: the schedule as shown, and a key of
        # its own each (a shift's key is never taken for the plan's).
        drawn=schedule_state(tournament, starts),
        intents={name: new_intent() for name in ("confirm", "plan", "shift", "times")},
    )
    return render_page(request, "organiser/schedule.html", context, status=status)


def _write(
    request: HttpRequest,
    tournament: Tournament,
    form: Any,
    apply: Callable[[str, str], Any],
    done: Callable[[Any], str],
    page: Callable[[int], HttpResponse],
    confirm: Callable[[str], HttpResponse] | None = None,
) -> HttpResponse:
    """One write of this page, in DESIGN.md's order: the form's shape, what it was drawn for
    (missing: refused 422), then the service (the same key again: its stored outcome; a
    schedule changed since the page: 409, the page drawn afresh around the form as sent)."""
    if not form.is_valid():
        return page(REFUSED)
    drawn = request.POST.get("drawn", "")
    if not DRAWN.match(drawn):
        form.add_error(None, presentation.page_out_of_date())
        return page(REFUSED)
    intent = request.POST.get("intent", "")[:64]
    try:
        result = apply(drawn, intent)
    except ServiceError as err:
        if err.code == "repeat":
            return stored_outcome(request, err.message, "schedule", tournament)
        if err.code == "confirm" and confirm is not None:
            return confirm(err.message)
        form.add_error(None, err.message)
        return page(409 if err.code == "stale" else REFUSED)
    return succeeded(request, done(result), "schedule", tournament)


@tournament_view(Action.MANAGE_SETTINGS)
@require_http_methods(["GET", "POST"])
def schedule(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method != "POST":
        return _page(request, tournament)
    form = ScheduleForm(request.POST, tournament=tournament, starts=start_times(tournament))
    return _write(
        request,
        tournament,
        form,
        lambda drawn, intent: set_schedule(
            tournament,
            request.user,
            time_zone=form.cleaned_data["time_zone"],
            starts=form.starts(),
            drawn=drawn,
            intent=intent,
        ),
        lambda _result: _("Schedule saved."),
        lambda status: _page(request, tournament, form=form, status=status),
    )


@tournament_view(Action.MANAGE_SETTINGS)
@require_POST
def schedule_plan(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Fill every start time. Times already set that it changes are shown, old and new, and
    replaced only on the confirmation (`confirm=1`, with the state they were shown at)."""
    plan = PlanForm(request.POST, tournament=tournament, every=0)

    def apply(drawn: str, intent: str) -> Any:
        return plan_schedule(
            tournament,
            request.user,
            first=plan.cleaned_data["first"],
            every=plan.cleaned_data["every"],
            before_tie_breaks=plan.cleaned_data["before_tie_breaks"],
            before_playoffs=plan.cleaned_data["before_playoffs"],
            replace=confirmed(request),
            drawn=drawn,
            intent=intent,
        )

    def ask(message: str) -> HttpResponse:
        # Nothing written: what the plan would replace, old and new, to confirm.
        return _page(request, tournament, plan=plan, confirm=_preview(tournament, plan, message))

    return _write(
        request,
        tournament,
        plan,
        apply,
        lambda starts: _plan_done(tournament, starts, plan.cleaned_data["every"]),
        lambda status: _page(request, tournament, plan=plan, status=status),
        ask,
    )


def _plan_done(tournament: Tournament, starts: dict[str, Any], every: int) -> str:
    """The plan's success, and the warning when its slots are shorter than a duel."""
    words = presentation.plan_done(
        len(START_KEYS), local(tournament, starts["round:1"]), local(tournament, starts["GF"])
    )
    duel, _spread = duel_length(tournament)
    if every * 60 < duel:
        words += " " + presentation.short_slots_text(every, duel)
    return words


def _preview(tournament: Tournament, plan: PlanForm, message: str) -> dict[str, Any]:
    """The confirmation of a plan: each time it changes, old → new, and the plan as sent."""
    data = plan.cleaned_data
    new = plan_starts(
        data["first"],
        every=data["every"],
        before_tie_breaks=data["before_tie_breaks"],
        before_playoffs=data["before_playoffs"],
        zone=zone_of(tournament),
    )
    old = start_times(tournament)
    return {
        "message": message,
        "rows": [
            {
                "label": presentation.start_key_label(k),
                "old": old.get(k),
                "new": new[k],
            }
            for k in START_KEYS
            if old.get(k) is None or old[k].astimezone(UTC) != new[k].astimezone(UTC)
        ],
        "fields": {
            "first": plan.data.get("first", ""),
            "every": data["every"],
            "before_tie_breaks": data["before_tie_breaks"],
            "before_playoffs": data["before_playoffs"],
        },
    }


@tournament_view(Action.MANAGE_SETTINGS)
@require_POST
def schedule_shift(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Move every start time not yet played by the minutes typed (negative: earlier)."""
    shift = ShiftForm(request.POST)
    return _write(
        request,
        tournament,
        shift,
        lambda drawn, intent: shift_schedule(
            tournament,
            request.user,
            minutes=shift.cleaned_data["minutes"],
            drawn=drawn,
            intent=intent,
        ),
        lambda moved: presentation.shift_done(shift.cleaned_data["minutes"], len(moved)),
        lambda status: _page(request, tournament, shift=shift, status=status),
    )


@tournament_view(Action.NAME_REPRESENTATIVES)
@require_POST
def call_duel(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """Call a waiting duel's players to its table (the table typed on the card)."""
    from .rounds import refused_on_rounds

    duel = get_object_or_404(Duel, tournament=tournament, pk=duel_id)
    try:
        duel = refereeing.call_duel(duel, request.user, request.POST.get("table") or "")
    except ServiceError as err:
        return refused_on_rounds(request, tournament, err.message)
    return succeeded(
        request,
        _("%(duel)s called to %(table)s.")
        % {"duel": presentation.duel_title(duel), "table": presentation.table_label(duel.table)},
        "rounds",
        tournament,
    )
