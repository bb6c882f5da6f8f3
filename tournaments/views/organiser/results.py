"""Results: corrections and voids, previewed before they are applied."""

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.permissions import Action
from core.errors import ServiceError
from duels.forms import new_intent
from duels.models import Duel, DuelKind, DuelStatus
from tournaments.access import tournament_view
from tournaments.forms_organiser import (
    RulingForm,
)
from tournaments.models import (
    Tournament,
)
from tournaments.services import corrections, previews

from ._common import (
    REFUSED,
    base_context,
    duel_row,
    duels_of,
    render_page,
    stored_outcome,
    succeeded,
)


@tournament_view(Action.CORRECT_RESULTS)
def results(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rows = [
        duel_row(tournament, d)
        for d in duels_of(tournament, status__in=[DuelStatus.FINISHED, DuelStatus.VOID]).order_by(
            "-finished_at", "-pk"
        )
    ]
    for row in rows:
        row["frozen"] = corrections.frozen_reason(tournament, row["duel"])
    context = base_context(request, tournament, "results")
    context["rows"] = rows
    context["any_frozen"] = any(row["frozen"] for row in rows)
    return render_page(request, "organiser/results.html", context)


def _ruling(
    tournament: Tournament, user: Any, duel: Duel, ruling: str, reason: str, **drawn_for: Any
) -> Callable[[], Any]:
    """The service call of a ruling; `drawn_for` (the version its preview showed and the
    form's key) only when it is recorded, never for the preview, which is drawn afresh."""
    if ruling.startswith("void_"):
        return lambda: corrections.void_result(
            tournament, user, duel, reason, replay=ruling == "void_replay", **drawn_for
        )
    return lambda: corrections.correct_result(
        tournament, user, duel, None if ruling == "none" else ruling, reason, **drawn_for
    )


def _version(tournament: Tournament) -> int:
    """The version as committed (a preview rolls back what it bumped on the row in memory)."""
    return Tournament.objects.values_list("standings_version", flat=True).get(pk=tournament.pk)


@tournament_view(Action.CORRECT_RESULTS)
@require_http_methods(["GET", "POST"])
def result(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    duel = get_object_or_404(
        duels_of(tournament, status__in=[DuelStatus.FINISHED, DuelStatus.VOID]), pk=duel_id
    )
    row = duel_row(tournament, duel)
    kinds = {
        "seat_a": row["seat_a"],
        "seat_b": row["seat_b"],
        "voidable": duel.kind in (DuelKind.GROUP, DuelKind.REPLAY),
    }
    # The page names what it was drawn for: the tournament's version and a key of its own.
    drawn_for = {"version": tournament.standings_version, "intent": new_intent()}
    form = RulingForm(request.POST or None, initial=drawn_for, **kinds)
    context = base_context(request, tournament, "results")
    context.update({"row": row, "form": form})
    frozen = corrections.frozen_reason(tournament, duel)
    if frozen:
        # Not offered in full and refused on submit: said before anything is typed.
        context["frozen"] = frozen
        status = REFUSED if request.method == "POST" else 200
        return render_page(
            request, "organiser/result.html", context, partial="ruling", status=status
        )
    status = 200
    if request.method == "POST":
        if not form.is_valid():
            status = REFUSED
        else:
            data = form.cleaned_data
            try:
                if "apply" not in request.POST:
                    apply = _ruling(tournament, request.user, duel, data["ruling"], data["reason"])
                    context["preview"] = previews.preview(tournament, apply)
                    # "Record this ruling" is for the preview just drawn: its version, and
                    # the form's key kept (or given, to a form posted without one).
                    posted = request.POST.copy()
                    posted["version"] = str(_version(tournament))
                    posted["intent"] = data.get("intent") or new_intent()
                    context["form"] = form = RulingForm(posted, **kinds)
                    form.is_valid()
                else:
                    _ruling(
                        tournament,
                        request.user,
                        duel,
                        data["ruling"],
                        data["reason"],
                        expected_version=data.get("version"),
                        intent=data.get("intent") or "",
                    )()
                    return succeeded(
                        request,
                        _(
                            "%(duel)s (%(a)s v %(b)s): the ruling is recorded and everything "
                            "after it recomputed."
                        )
                        % {"duel": row["title"], "a": row["seat_a"], "b": row["seat_b"]},
                        "results",
                        tournament,
                    )
            except ServiceError as err:
                if err.code == "repeat":  # this very ruling again: its stored outcome
                    return stored_outcome(request, err.message, "results", tournament)
                form.add_error(None, err.message)
                # Recorded already, or drawn for a state that is gone: nothing changed.
                status = 409 if err.code in ("recorded", "conflict") else REFUSED
    return render_page(request, "organiser/result.html", context, partial="ruling", status=status)
