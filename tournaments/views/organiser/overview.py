"""The overview: where the event stands, and the buttons that move its phases."""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import Role, RoleInvitation, TournamentRole
from accounts.permissions import Action, can
from core.errors import ServiceError
from tournaments import format as fmt
from tournaments import presentation, read_models, services
from tournaments.access import tournament_view
from tournaments.forms_organiser import (
    CancelForm,
)
from tournaments.models import (
    AuditEntry,
    Phase,
    Round,
    RoundStatus,
    Tournament,
)
from tournaments.presentation import rules_text
from tournaments.selectors import round_states
from tournaments.selectors_schedule import start_times
from tournaments.services import progression
from tournaments.services.entrants import REGISTRATION_PHASES
from tournaments.services.groups import round_one_blocked
from tournaments.services.lifecycle import OPEN

from ._common import (
    REFUSED,
    active_entrants,
    base_context,
    duel_row,
    duels_of,
    entry_rows,
    groups_of,
    membership_words,
    posted_int,
    preview_or_confirm,
    render_page,
    succeeded,
    transfer_window,
)


def _overview_context(request: HttpRequest, tournament: Tournament, **extra: Any) -> dict[str, Any]:
    user = request.user
    groups = groups_of(tournament)
    active = active_entrants(tournament)
    sizes = {g.pk: sum(1 for e in active if e.group_id == g.pk) for g in groups}
    context = base_context(request, tournament, "overview")
    context.update(
        {
            "active_count": len(active),
            "rules": rules_text(tournament.duel_preset, tournament.variants),
            "may": {
                "publish": can(user, Action.PUBLISH, tournament),
                "cancel": can(user, Action.CANCEL, tournament),
                "register": can(user, Action.MANAGE_REGISTRATION, tournament),
            },
            "cancel_form": extra.pop("cancel_form", None) or CancelForm(),
            # Who has not checked in, shown before starting the group phase or the playoffs.
            "not_checked_in": [e.name for e in active if e.checked_in_at is None],
        }
    )
    if tournament.phase in REGISTRATION_PHASES:
        membership = {e.pk: e.group_id for e in active if e.group_id}
        problems = fmt.check_start([e.pk for e in active], membership, [g.pk for g in groups])
        context["start_problems"] = membership_words(
            problems, groups, sizes, [e.name for e in active if not e.group_id]
        )
        context["checklist"] = _checklist(tournament, groups, sizes, active)
    elif tournament.phase == Phase.GROUP_PHASE:
        context["current_round"] = (
            Round.objects.filter(tournament=tournament, status=RoundStatus.OPEN)
            .values_list("number", flat=True)
            .first()
        )
        # Its duel named already: the overview then points to the duel, not to naming it.
        context["current_named"] = bool(context["current_round"]) and (
            duels_of(tournament, round__number=context["current_round"], status__in=OPEN).exists()
        )
        # A voided round whose replay is still due is not decided (selectors.round_state).
        states = round_states(tournament)
        context["decided"] = sum(1 for _number, state in states if state == "decided")
        context["replays_due"] = [n for n, state in states if state == "replay_due"]
        context["window"] = transfer_window(tournament)
        context["round_one_blocked"] = round_one_blocked(tournament)
    if tournament.phase in (Phase.GROUP_PHASE, Phase.TIE_BREAKS, Phase.PLAYOFFS, Phase.COMPLETE):
        context["open_duels"] = [
            duel_row(tournament, d)
            for d in duels_of(tournament, status__in=OPEN).order_by("created_at", "pk")
        ]
        context["behind"] = progression.pending(tournament)
    if tournament.tiebreak_seed:
        context["tiebreaks"] = read_models.tiebreaks(tournament)["planned"]
    if tournament.playoff_seeding:
        context["bracket"] = read_models.bracket(tournament)
    # What the automation did (entries without a person): the latest first.
    context["automation"] = entry_rows(
        tournament, AuditEntry.objects.filter(tournament=tournament, actor__isnull=True)[:8]
    )
    context.update(extra)
    return context


def _checklist(
    tournament: Tournament, groups: list[Any], sizes: dict[int, int], active: list[Any]
) -> dict[str, str]:
    """The checklist before the group phase, in words, as things are now (issue 26: it said
    "invite them by username" after two referees had joined by link)."""
    staff: dict[str, list[str]] = {Role.REFEREE: [], Role.CO_ORGANISER: []}
    for grant in (
        TournamentRole.objects.filter(tournament=tournament)
        .select_related("user")
        .order_by("user__username")
    ):
        staff.setdefault(grant.role, []).append(grant.user.staff_label)
    waiting = RoleInvitation.objects.filter(
        tournament=tournament,
        used_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    ).count()
    return {
        "groups": presentation.group_sizes_text([(g.name, sizes[g.pk]) for g in groups]),
        "staff": presentation.staff_text(staff[Role.REFEREE], staff[Role.CO_ORGANISER], waiting),
        "schedule": presentation.schedule_text(start_times(tournament), tournament.time_zone),
        "check_in": presentation.check_in_text(
            sum(1 for e in active if e.checked_in_at), len(active)
        ),
        "open_registration": presentation.OPEN_REGISTRATION_HELP,
    }


@tournament_view(Action.START_PHASES)
def overview(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render_page(request, "organiser/overview.html", _overview_context(request, tournament))


def _phase_action(
    request: HttpRequest, tournament: Tournament, apply: Callable[[], Any], done: str
) -> HttpResponse:
    """A button on the overview: one service call; a refusal is shown there, with 422."""
    try:
        apply()
    except ServiceError as err:
        return render_page(
            request,
            "organiser/overview.html",
            _overview_context(request, tournament, error=err.message),
            status=REFUSED,
        )
    return succeeded(request, done, "overview", tournament)


@tournament_view(Action.MANAGE_REGISTRATION)
@require_POST
def open_registration(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _phase_action(
        request,
        tournament,
        lambda: services.open_registration(tournament, request.user),
        _("Registration is open."),
    )


@tournament_view(Action.START_PHASES)
@require_POST
def start_group_phase(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _phase_action(
        request,
        tournament,
        lambda: services.start_group_phase(tournament, request.user),
        _("The group phase has started: round 1 is open."),
    )


@tournament_view(Action.START_PHASES)
@require_POST
def start_playoffs(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Two posts: the first names what starting freezes (every group-phase and tie-break
    result) and the bracket it announces, changing nothing; the second, with `confirm` and
    the version the first was drawn from, starts. The same confirmation twice changes
    nothing the second time, and says so."""

    def preview() -> tuple[dict[str, Any], str]:
        blocker = progression.playoffs_blocker(tournament)
        return ({} if blocker else {"playoffs_preview": _playoffs_words(tournament)}), blocker

    def apply(version: int) -> str:
        progression.start_playoffs(tournament, request.user, expected_version=version)
        return presentation.PLAYOFFS_STARTED

    return preview_or_confirm(
        request,
        tournament,
        preview=preview,
        drawn=posted_int(request, "version"),
        apply=apply,
        page=lambda status, **extra: render_page(
            request,
            "organiser/overview.html",
            _overview_context(request, tournament, **extra),
            status=status,
        ),
        back="overview",
    )


def _playoffs_words(tournament: Tournament) -> dict[str, Any]:
    """The confirmation's content: the bracket it announces and what freezes."""
    preview = progression.playoffs_preview(tournament)
    names = dict(tournament.entrants.values_list("pk", "name"))
    vacant = presentation.VACANT_SEAT
    seeds = [names.get(pk, vacant) for pk in preview.seeding]
    seeds += [vacant] * (4 - len(seeds))
    return {
        "version": preview.version,
        "q1": presentation.pairing_text(seeds[0], seeds[1]),
        "e1": presentation.pairing_text(seeds[2], seeds[3]),
        "frozen": presentation.frozen_text(preview.frozen_group, preview.frozen_tiebreak),
    }


@tournament_view(Action.START_PHASES)
@require_POST
def catch_up(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    # The automation repairs itself within a minute where a worker runs; on the embedded
    # default there is no beat, so the organiser may take the step now. `sync` is idempotent.
    return _phase_action(
        request,
        tournament,
        lambda: progression.sync(tournament),
        _("The automation has caught up."),
    )


@tournament_view(Action.PUBLISH)
@require_POST
def publish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    published = request.POST.get("published") == "1"
    services.set_published(tournament, published, request.user)
    messages.success(
        request,
        _("Published: anyone can now follow it.")
        if published
        else _("Unpublished: only its organisers, referees and players see it."),
    )
    # Back to the page the button was on (the overview, or the public overview).
    back = request.POST.get("back")
    if back == "detail":
        return redirect(tournament)
    return redirect("organiser:overview", slug=tournament.slug)


@tournament_view(Action.CANCEL)
@require_POST
def cancel(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = CancelForm(request.POST)
    if not form.is_valid():
        return render_page(
            request,
            "organiser/overview.html",
            _overview_context(request, tournament, cancel_form=form, cancel_open=True),
            status=REFUSED,
        )
    try:
        services.cancel(tournament, request.user, form.cleaned_data["reason"])
    except ServiceError as err:
        form.add_error("reason", err.message)
        return render_page(
            request,
            "organiser/overview.html",
            _overview_context(request, tournament, cancel_form=form, cancel_open=True),
            status=REFUSED,
        )
    return succeeded(request, _("The tournament is cancelled."), "overview", tournament)
