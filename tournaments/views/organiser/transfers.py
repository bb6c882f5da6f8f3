"""Changes of membership between rounds (TOURNAMENT.md "Fluid membership")."""

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.permissions import Action
from core.errors import ServiceError
from tournaments import format as fmt
from tournaments import services
from tournaments.access import tournament_view
from tournaments.forms_organiser import (
    WITHDRAW,
    TransferForm,
)
from tournaments.models import (
    Group,
    StandingRow,
    Tournament,
)

from ._common import (
    REFUSED,
    active_entrants,
    base_context,
    board_columns,
    confirmed,
    groups_of,
    render_page,
    succeeded,
    transfer_window,
)


def _verdict_words(verdict: fmt.ChangeVerdict, groups: list[Group]) -> tuple[str, str]:
    """(kind, words) for a change the board shows before it is applied."""
    name = {g.pk: g.name for g in groups}
    if verdict.code == "above_limit":
        over = next(g for g in groups if verdict.sizes[g.pk] > fmt.GROUP_MAX)
        return "refused", (
            _("Refused: %(group)s would have %(n)s members, and a group may have at most %(max)s.")
            % {"group": over.name, "n": verdict.sizes[over.pk], "max": fmt.GROUP_MAX}
        )
    if verdict.code == "both_below":
        return "refused", (
            _("Refused: both groups would be below %(min)s members (%(a)s and %(b)s).")
            % {
                "min": fmt.GROUP_MIN,
                "a": verdict.sizes[groups[0].pk],
                "b": verdict.sizes[groups[1].pk],
            }
        )
    if verdict.code == "elimination":
        sinking, standing = name[verdict.eliminated_group], name[verdict.phase_winner]
        n = verdict.sizes[verdict.eliminated_group]
        return "confirm", (
            ngettext(
                "%(group)s would have %(n)s member, below %(min)s: if you confirm, %(group)s is "
                "eliminated at once, its members are out of the tournament, and %(winner)s "
                "wins the group phase.",
                "%(group)s would have %(n)s members, below %(min)s: if you confirm, %(group)s "
                "is eliminated at once, its members are out of the tournament, and %(winner)s "
                "wins the group phase.",
                n,
            )
            % {"group": sinking, "n": n, "min": fmt.GROUP_MIN, "winner": standing}
        )
    if verdict.refused:
        return "refused", _("Refused: %(why)s") % {"why": verdict.message}
    if not verdict.moves:
        return "none", _("No change yet: choose another group for a player, or drag them.")
    n = len(verdict.moves)
    return (
        "ok",
        ngettext(
            "%(n)s change, within the limits of %(min)s to %(max)s members.",
            "%(n)s changes, within the limits of %(min)s to %(max)s members.",
            n,
        )
        % {"n": n, "min": fmt.GROUP_MIN, "max": fmt.GROUP_MAX},
    )


def _transfers_context(
    request: HttpRequest, tournament: Tournament, form: TransferForm | None = None, **extra: Any
) -> dict[str, Any]:
    groups = groups_of(tournament)
    active = [e for e in active_entrants(tournament) if e.group_id]
    form = form or TransferForm(entrants=active, groups=groups)
    by_order = {str(g.order): g.pk for g in groups}
    before = {e.pk: e.group_id for e in active}
    targets = {e.pk: form.target(e) for e in active}
    after = fmt.end_state(
        before, {pk: by_order.get(t) for pk, t in targets.items() if by_order.get(t) != before[pk]}
    )
    verdict = fmt.check_change(before, after, [g.pk for g in groups])
    kind, words = _verdict_words(verdict, groups)
    points = dict(
        StandingRow.objects.filter(tournament=tournament).values_list("entrant_id", "points")
    )
    is_open, why, _after_round = transfer_window(tournament)
    names = {e.pk: e.name for e in active}
    group_names = {g.pk: g.name for g in groups}
    columns = board_columns(
        active,
        groups,
        form,
        "to",
        lambda e: targets[e.pk] if targets[e.pk] != WITHDRAW else form.current[e.pk],
        with_none=False,
    )
    for column in columns:
        for row in column["rows"]:
            pk = row["entrant"].pk
            row.update(
                points=points.get(pk, 0),
                home=form.current[pk],
                moving=targets[pk] != form.current[pk],
                withdrawing=targets[pk] == WITHDRAW,
            )
    context = base_context(request, tournament, "transfers")
    context.update(
        {
            "groups": groups,
            "form": form,
            "open": is_open,
            "window": why,
            "columns": columns,
            "sizes": [
                {
                    "group": g,
                    "before": sum(1 for v in before.values() if v == g.pk),
                    "after": verdict.sizes.get(g.pk, 0),
                    "max": fmt.GROUP_MAX,
                }
                for g in groups
            ],
            "verdict": kind,
            "verdict_words": words,
            "moves": [
                _("%(name)s → %(group)s")
                % {"name": names[m.player], "group": group_names[m.target]}
                if m.target
                else _("%(name)s withdraws") % {"name": names[m.player]}
                for m in verdict.moves
            ],
            "sinking": group_names.get(verdict.eliminated_group, ""),
        }
    )
    context.update(extra)
    return context


@tournament_view(Action.MANAGE_GROUPS)
@require_http_methods(["GET", "POST"])
def transfers(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    template = "organiser/transfers.html"
    if request.method == "GET":
        return render_page(request, template, _transfers_context(request, tournament))
    active = [e for e in active_entrants(tournament) if e.group_id]
    form = TransferForm(request.POST, entrants=active, groups=groups_of(tournament))
    if not form.is_valid():
        return render_page(
            request,
            template,
            _transfers_context(request, tournament, form),
            partial="board",
            status=REFUSED,
        )
    changes = form.changes()
    if not changes:
        return render_page(
            request,
            template,
            _transfers_context(
                request,
                tournament,
                form,
                error=_("Nothing to apply: choose another group for at least one player."),
            ),
            partial="board",
            status=REFUSED,
        )
    try:
        verdict = services.change_groups(
            tournament,
            request.user,
            changes,
            confirm=confirmed(request),
            reason=form.cleaned_data["reason"],
        )
    except ServiceError as err:
        return render_page(
            request,
            template,
            _transfers_context(
                request, tournament, form, error=err.message, needs_confirm=err.code == "confirm"
            ),
            partial="board",
            status=REFUSED,
        )
    names = {e.pk: e.name for e in active}
    group_names = {g.pk: g.name for g in groups_of(tournament)}
    moves = "; ".join(
        _("%(name)s → %(group)s") % {"name": names[m.player], "group": group_names[m.target]}
        if m.target
        else _("%(name)s withdrawn") % {"name": names[m.player]}
        for m in verdict.moves
    )
    if verdict.needs_confirmation:
        done = _("Applied: %(moves)s. %(group)s is eliminated.") % {
            "moves": moves,
            "group": group_names[verdict.eliminated_group],
        }
    else:
        done = _("Applied: %(moves)s.") % {"moves": moves}
    tournament.refresh_from_db()
    if not request.htmx or verdict.needs_confirmation or not transfer_window(tournament)[0]:
        # After an elimination (or round 15) the window is shut: the whole page says so,
        # and no board is left offering to confirm anything.
        return succeeded(request, done, "transfers", tournament)
    return render_page(
        request,
        template,
        _transfers_context(request, tournament, notice=done),
        partial="board",
    )


@tournament_view(Action.MANAGE_GROUPS)
@require_POST
def transfers_check(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """htmx, on every change of the board: both sizes and the verdict, before applying."""
    active = [e for e in active_entrants(tournament) if e.group_id]
    form = TransferForm(request.POST, entrants=active, groups=groups_of(tournament))
    # The answer replaces the live region's content and, out of band, the buttons.
    return render_page(
        request,
        "organiser/transfers.html",
        _transfers_context(request, tournament, form, oob=True),
        partial="check",
    )
