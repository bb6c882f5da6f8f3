"""Results: corrections and voids, previewed before they are applied."""

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_http_methods

from accounts.permissions import Action
from core.errors import ServiceError
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
    tournament: Tournament, user: Any, duel: Duel, ruling: str, reason: str
) -> Callable[[], Any]:
    if ruling.startswith("void_"):
        return lambda: corrections.void_result(
            tournament, user, duel, reason, replay=ruling == "void_replay"
        )
    return lambda: corrections.correct_result(
        tournament, user, duel, None if ruling == "none" else ruling, reason
    )


@tournament_view(Action.CORRECT_RESULTS)
@require_http_methods(["GET", "POST"])
def result(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    duel = get_object_or_404(
        duels_of(tournament, status__in=[DuelStatus.FINISHED, DuelStatus.VOID]), pk=duel_id
    )
    row = duel_row(tournament, duel)
    form = RulingForm(
        request.POST or None,
        seat_a=row["seat_a"],
        seat_b=row["seat_b"],
        voidable=duel.kind in (DuelKind.GROUP, DuelKind.REPLAY),
    )
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
            apply = _ruling(
                tournament,
                request.user,
                duel,
                form.cleaned_data["ruling"],
                form.cleaned_data["reason"],
            )
            try:
                if "apply" not in request.POST:
                    context["preview"] = previews.preview(tournament, apply)
                else:
                    apply()
                    return succeeded(
                        request,
                        f"{row['title']} ({row['seat_a']} v {row['seat_b']})"
                        ": the ruling is recorded and everything after it recomputed.",
                        "results",
                        tournament,
                    )
            except ServiceError as err:
                form.add_error(None, err.message)
                status = REFUSED
    return render_page(request, "organiser/result.html", context, partial="ruling", status=status)
