"""What every organiser page shares: the menu, the page-or-partial answer, the small reads."""

from collections.abc import Callable, Iterable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from accounts.models import TournamentRole
from accounts.permissions import Action, can
from core import push
from core.errors import ServiceError
from core.htmx import page_or_partial, redirect_after_post
from duels.models import Duel, DuelStatus
from tournaments import format as fmt
from tournaments import presentation
from tournaments.models import (
    FINAL_PHASES,
    AuditEntry,
    Entrant,
    EntrantStatus,
    Group,
    Phase,
    Tournament,
)
from tournaments.services.entrants import REGISTRATION_PHASES
from tournaments.services.groups import change_window, problem_text
from tournaments.services.groups import round_one_started as _round_one_started
from tournaments.services.schedule import zone_of

REFUSED = 422  # the request was understood and refused: the page says why
# The organiser pages in the order of an event, each with the action it needs.
NAV = (
    ("overview", gettext_lazy("Overview"), Action.START_PHASES),
    ("setup", gettext_lazy("Settings"), Action.MANAGE_SETTINGS),
    ("schedule", gettext_lazy("Schedule"), Action.MANAGE_SETTINGS),
    ("players", gettext_lazy("Players"), Action.MANAGE_REGISTRATION),
    ("check_in", gettext_lazy("Check-in"), Action.CHECK_IN_PLAYERS),
    ("groups", gettext_lazy("Groups"), Action.MANAGE_GROUPS),
    ("transfers", gettext_lazy("Transfers"), Action.MANAGE_GROUPS),
    ("rounds", gettext_lazy("Rounds"), Action.NAME_REPRESENTATIVES),
    ("results", gettext_lazy("Results"), Action.CORRECT_RESULTS),
    ("people", gettext_lazy("Referees & organisers"), Action.MANAGE_REFEREES),
    ("audit", gettext_lazy("Audit log"), Action.VIEW_AUDIT_LOG),
)


def base_context(request: HttpRequest, tournament: Tournament, current: str) -> dict[str, Any]:
    user = request.user
    return {
        "tournament": tournament,
        "nav": [
            {
                "name": name,
                "label": label,
                "current": name == current,
                "url": reverse(f"organiser:{name}", args=[tournament.slug]),
            }
            for name, label, action in NAV
            if can(user, action, tournament)
        ],
        "final": tournament.phase in FINAL_PHASES,
        # A referee is on their own path, not the organiser's (issue 26).
        "crumb": presentation.staff_crumb(can(user, Action.START_PHASES, tournament)),
        # Push (issue 28): the page hears of every change of the tournament's state.
        "tournament_topic": f"tournament:{tournament.pk}" if push.enabled() else "",
    }


def render_page(
    request: HttpRequest,
    template: str,
    context: dict[str, Any],
    *,
    partial: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """htmx gets the named partial; a plain request the whole page."""
    return page_or_partial(request, template, context, partial=partial, status=status)


def succeeded(request: HttpRequest, text: str, to: str, tournament: Tournament) -> HttpResponse:
    """A change went through: say so on the page it leads to. A form posted by htmx is told
    to load that page itself, never handed the whole page to draw inside the form."""
    messages.success(request, text)
    return redirect_after_post(request, reverse(f"organiser:{to}", args=[tournament.slug]))


def stored_outcome(
    request: HttpRequest, text: str, to: str, tournament: Tournament
) -> HttpResponse:
    """A form sent again with its key (the same device retrying): the answer its first send
    had — the page it leads to (htmx: HX-Redirect) — with words that say it was already
    recorded and nothing changed (docs/architecture.md, "Every write names what it is for")."""
    messages.info(request, text)
    return redirect_after_post(request, reverse(f"organiser:{to}", args=[tournament.slug]))


def confirmed(request: HttpRequest) -> bool:
    """The person confirmed (a box ticked, a button pressed, each sending `confirm=1`): the
    one reading of a confirmation, so `confirm=0` or `confirm=` never counts as one."""
    return request.POST.get("confirm") == "1"


def posted_int(request: HttpRequest, name: str) -> int | None:
    """A whole number the form carried; None when it is missing or garbled."""
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        return None


def preview_or_confirm(
    request: HttpRequest,
    tournament: Tournament,
    *,
    preview: Callable[[], tuple[dict[str, Any], str]],
    drawn: Any,
    apply: Callable[[Any], str],
    page: Callable[..., HttpResponse],
    back: str,
) -> HttpResponse:
    """The one shape of a confirmation (DESIGN.md: nothing irreversible without one).

    The first post (no `confirm=1`) changes nothing: `preview()` gives the context that names
    what the change does, and why it would be refused ("" when it would not). The second
    carries `drawn`, what that preview was drawn from (a version, the players named, the
    account linked), parsed by the view; None when missing or garbled, and then nothing is
    done: a confirmation that cannot say what it confirmed confirms nothing. `apply(drawn)`
    writes and returns the words of success. A service's "done" (the same confirmation
    again) is told on the page it leads to; its "stale" asks again with a fresh preview.
    `page(status, **extra)` draws the page."""

    def ask_again(message: str) -> HttpResponse:
        context, refusal = preview()
        if refusal:
            return page(409, error=f"{message} {refusal}")
        return page(409, stale=message, **context)

    if not confirmed(request):
        context, refusal = preview()
        return page(REFUSED, error=refusal) if refusal else page(200, **context)
    if drawn is None:
        return ask_again(presentation.CONFIRM_OUT_OF_DATE)
    try:
        done = apply(drawn)
    except ServiceError as err:
        if err.code == "done":
            messages.info(request, err.message)
            return redirect_after_post(
                request, reverse(f"organiser:{back}", args=[tournament.slug])
            )
        if err.code == "stale":
            return ask_again(err.message)
        return page(REFUSED, error=err.message)
    return succeeded(request, done, back, tournament)


def groups_of(tournament: Tournament) -> list[Group]:
    return list(tournament.groups.order_by("order"))


def active_entrants(tournament: Tournament) -> list[Entrant]:
    return list(tournament.entrants.filter(status=EntrantStatus.ACTIVE).order_by("name"))


def console_url(tournament: Tournament, duel_id: int) -> str | None:
    # The referee console is built beside these pages; until its routes exist, no link.
    try:
        return reverse("duels:console", kwargs={"slug": tournament.slug, "duel_id": duel_id})
    except NoReverseMatch:
        return None


def duel_row(tournament: Tournament, duel: Duel) -> dict[str, Any]:
    result = (
        getattr(duel, "result", None)
        if duel.status in (DuelStatus.FINISHED, DuelStatus.VOID)
        else None
    )
    return {
        "duel": duel,
        "title": presentation.duel_title(duel),
        "console": console_url(tournament, duel.pk),
        "seat_a": duel.seat_a.name if duel.seat_a_id else pgettext("playoff seat", "vacant"),
        "seat_b": duel.seat_b.name if duel.seat_b_id else pgettext("playoff seat", "vacant"),
        "result": result,
        "finish_text": presentation.finish_label(result.finish) if result else "",
    }


def duels_of(tournament: Tournament, **filters: Any) -> QuerySet[Duel]:
    return Duel.objects.filter(tournament=tournament, **filters).select_related(
        "seat_a", "seat_b", "round", "referee", "result"
    )


def membership_words(
    problems: Iterable[fmt.Problem], groups: list[Group], sizes: dict[int, int], unplaced: list[str]
) -> list[str]:
    """What stops round 1, in names: the format rules speak in ids."""
    out = []
    for problem in problems:
        if problem.code == "entrant_count":
            out.append(problem_text(problem, {}, groups, sum(sizes.values()) + len(unplaced)))
        elif problem.code == "not_in_group":
            out.append(_("Not in a group yet: %(names)s.") % {"names": ", ".join(unplaced)})
    for group in groups:
        size = sizes.get(group.pk, 0)
        if not fmt.GROUP_MIN <= size <= fmt.GROUP_MAX:
            out.append(
                ngettext(
                    "%(group)s has %(n)s member; a group needs %(min)s to %(max)s.",
                    "%(group)s has %(n)s members; a group needs %(min)s to %(max)s.",
                    size,
                )
                % {"group": group.name, "n": size, "min": fmt.GROUP_MIN, "max": fmt.GROUP_MAX}
            )
    return out


def split_editable(tournament: Tournament) -> bool:
    """TOURNAMENT.md "Split": set-up until round 1's duel starts."""
    return tournament.phase in REGISTRATION_PHASES or (
        tournament.phase == Phase.GROUP_PHASE and not _round_one_started(tournament)
    )


def transfer_window(tournament: Tournament) -> tuple[bool, str, int]:
    """The change window as `change_groups` will judge it; the service has the last word."""
    window = change_window(tournament)
    return window.open, window.reason, window.after_round


def referees_of(tournament: Tournament) -> list[Any]:
    """Everyone who may referee: the organiser, co-organisers and referees."""
    ids = set(
        TournamentRole.objects.filter(tournament=tournament).values_list("user_id", flat=True)
    )
    ids.add(tournament.created_by_id)
    return list(get_user_model().objects.filter(pk__in=ids).order_by("username"))


def entry_rows(tournament: Tournament, entries: Iterable[AuditEntry]) -> list[dict[str, Any]]:
    """Audit entries in words: who did what, with names for ids and titles for duels."""
    entries = list(entries)
    names = dict(Entrant.objects.filter(tournament=tournament).values_list("pk", "name"))
    groups = {g.pk: g.name for g in groups_of(tournament)}
    duels = {
        d.pk: presentation.duel_title(d)
        for d in Duel.objects.filter(tournament=tournament)
        .select_related("round")
        .only("pk", "kind", "stage", "round")
    }
    users = {
        user.pk: user.staff_label
        for user in get_user_model()
        .objects.filter(
            pk__in={
                e.detail.get(key)
                for e in entries
                for key in ("referee", "previous")  # "previous": a taken duel's referee
                if isinstance(e.detail.get(key), int)
            }
        )
        .only("pk", "username", "display_name")
    }
    zone = zone_of(tournament)  # the times in it as the venue's clock reads them
    return [
        {
            "entry": e,
            "label": presentation.action_text(e.action),
            "detail": presentation.audit_text(
                e.detail, entrants=names, groups=groups, duels=duels, users=users, zone=zone
            ),
            "reason": presentation.reason_text(e.reason),
        }
        for e in entries
    ]


def board_columns(
    entrants: list[Entrant],
    groups: list[Group],
    form: Any,
    prefix: str,
    target: Callable[[Entrant], str],
    with_none: bool,
) -> list[dict[str, Any]]:
    """The board's columns, each player in the column the form puts them in now, with the
    select that moves them (drag and drop only changes that select)."""
    columns = [{"value": str(g.order), "name": g.name, "rows": []} for g in groups]
    if with_none:
        columns.insert(0, {"value": "", "name": _("No group yet"), "rows": []})
    by_value = {c["value"]: c for c in columns}
    for entrant in entrants:
        by_value.get(target(entrant), columns[0])["rows"].append(
            {"entrant": entrant, "field": form[f"{prefix}{entrant.pk}"]}
        )
    return columns
