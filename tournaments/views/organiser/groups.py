"""The two groups: names and the split, while it is still set-up."""

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.permissions import Action
from core.errors import ServiceError
from tournaments import format as fmt
from tournaments import services
from tournaments.access import tournament_view
from tournaments.forms_organiser import (
    GroupNamesForm,
    SplitForm,
)
from tournaments.models import (
    Group,
    Tournament,
)

from ._common import (
    REFUSED,
    active_entrants,
    base_context,
    board_columns,
    groups_of,
    membership_words,
    render_page,
    split_editable,
    succeeded,
)


def _split_status(
    tournament: Tournament,
    groups: list[Group],
    assignment: dict[int, int | None],
    names: dict[int, str],
) -> dict[str, Any]:
    order = {g.order: g.pk for g in groups}
    membership = {pk: order[o] for pk, o in assignment.items() if o}
    sizes = fmt.group_sizes(membership, [g.pk for g in groups])
    problems = fmt.check_start(list(assignment), membership, [g.pk for g in groups])
    return {
        "sizes": [{"group": g, "size": sizes[g.pk]} for g in groups],
        "problems": membership_words(
            problems, groups, sizes, [names[pk] for pk, o in assignment.items() if not o]
        ),
    }


def _groups_context(
    request: HttpRequest, tournament: Tournament, form: SplitForm | None = None, **extra: Any
) -> dict[str, Any]:
    groups = groups_of(tournament)
    active = active_entrants(tournament)
    form = form or SplitForm(entrants=active, groups=groups)
    names = {e.pk: e.name for e in active}
    values = {e.pk: str(form[f"g{e.pk}"].value() or "") for e in active}
    assignment = {pk: int(v) if v in ("1", "2") else None for pk, v in values.items()}
    context = base_context(request, tournament, "groups")
    context.update(
        {
            "groups": groups,
            "form": form,
            "editable": split_editable(tournament),
            "columns": board_columns(
                active, groups, form, "g", lambda e: values[e.pk], with_none=True
            ),
            "status": _split_status(tournament, groups, assignment, names),
            "names_form": extra.pop("names_form", None)
            or GroupNamesForm(initial={"first": groups[0].name, "second": groups[1].name}),
            "split_seed": tournament.split_seed,
        }
    )
    context.update(extra)
    return context


@tournament_view(Action.MANAGE_GROUPS)
@require_http_methods(["GET", "POST"])
def groups(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method == "GET":
        return render_page(request, "organiser/groups.html", _groups_context(request, tournament))
    method = request.POST.get("method", "hand")
    form = SplitForm(
        request.POST, entrants=active_entrants(tournament), groups=groups_of(tournament)
    )
    if form.is_valid():
        try:
            services.split_groups(
                tournament, request.user, method, form.assignment() if method == "hand" else None
            )
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            done = {
                "hand": _("The split is saved."),
                "random": _("Split at random (the seed is stored)."),
                "alternating": _("Split alternately, in registration order."),
            }
            return succeeded(
                request, done.get(method, _("The split is saved.")), "groups", tournament
            )
    return render_page(
        request,
        "organiser/groups.html",
        _groups_context(request, tournament, form),
        partial="board",
        status=REFUSED,
    )


@tournament_view(Action.MANAGE_GROUPS)
@require_POST
def groups_check(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """htmx, on every change of a select: the sizes and what would still block round 1."""
    context = _groups_context(
        request,
        tournament,
        SplitForm(request.POST, entrants=active_entrants(tournament), groups=groups_of(tournament)),
    )
    return render_page(request, "organiser/groups.html", context, partial="split_status")


@tournament_view(Action.MANAGE_GROUPS)
@require_POST
def group_names(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = GroupNamesForm(request.POST)
    if form.is_valid():
        try:
            services.name_groups(
                tournament, request.user, form.cleaned_data["first"], form.cleaned_data["second"]
            )
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            return succeeded(request, _("The groups are renamed."), "groups", tournament)
    return render_page(
        request,
        "organiser/groups.html",
        _groups_context(request, tournament, names_form=form),
        status=REFUSED,
    )
