"""Organiser pages (issue 8): set-up, players, groups and transfers, rounds, results, people,
the audit log and the phases. Mounted under /t/<slug>/manage/.

Thin: every view goes through `tournament_view(Action…)`, every write is one service call (a
naming and its referee are two, inside one transaction), and a refusal (`ServiceError`) is
shown on the page that was posted, with status 422 and the form as it was typed. Without
JavaScript every form posts and redirects; with htmx the same forms post in place and get
their page's named partial back (`Vary: HX-Request`).
"""

from collections.abc import Callable, Iterable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services as role_services
from accounts.forms import GrantRoleForm
from accounts.models import Role, TournamentRole
from accounts.permissions import Action, can, tournament_view
from duels.models import Duel, DuelKind, DuelStatus

from . import format as fmt
from . import read_models, services
from .errors import ServiceError
from .forms import EntrantForm
from .forms_organiser import (
    WITHDRAW,
    AuditFilterForm,
    CancelForm,
    CsvForm,
    GroupNamesForm,
    PasteForm,
    RepresentativesForm,
    RulingForm,
    SettingsForm,
    SharedCardForm,
    SplitForm,
    TransferForm,
    WithdrawForm,
)
from .models import (
    FINAL_PHASES,
    AuditEntry,
    Entrant,
    EntrantStatus,
    Group,
    GroupTotal,
    Phase,
    Round,
    RoundStatus,
    StandingRow,
    Tournament,
)
from .services import corrections, progression
from .services.entrants import REGISTRATION_PHASES
from .services.groups import change_window
from .services.groups import round_one_started as _round_one_started

REFUSED = 422  # the request was understood and refused: the page says why
OPEN_DUEL = (DuelStatus.PENDING, DuelStatus.READY, DuelStatus.RUNNING)
# The organiser pages in the order of an event, each with the action it needs.
NAV = (
    ("overview", "Overview", Action.START_PHASES),
    ("setup", "Settings", Action.MANAGE_SETTINGS),
    ("players", "Players", Action.MANAGE_REGISTRATION),
    ("groups", "Groups", Action.MANAGE_GROUPS),
    ("transfers", "Transfers", Action.MANAGE_GROUPS),
    ("rounds", "Rounds", Action.NAME_REPRESENTATIVES),
    ("results", "Results", Action.CORRECT_RESULTS),
    ("people", "Referees & organisers", Action.MANAGE_REFEREES),
    ("audit", "Audit log", Action.VIEW_AUDIT_LOG),
)


# ---- shared helpers ---------------------------------------------------------------------

def _base(request: HttpRequest, tournament: Tournament, current: str) -> dict[str, Any]:
    user = request.user
    return {
        "tournament": tournament,
        "nav": [{"name": name, "label": label, "current": name == current,
                 "url": reverse(f"organiser:{name}", args=[tournament.slug])}
                for name, label, action in NAV if can(user, action, tournament)],
        "final": tournament.phase in FINAL_PHASES,
    }


def _render(request: HttpRequest, template: str, context: dict[str, Any], *,
            partial: str | None = None, status: int = 200) -> HttpResponse:
    """htmx gets the named partial; a plain request the whole page."""
    name = f"{template}#{partial}" if partial and request.htmx else template
    response = render(request, name, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _done(request: HttpRequest, text: str, to: str, tournament: Tournament) -> HttpResponse:
    messages.success(request, text)
    return redirect(f"organiser:{to}", slug=tournament.slug)


def _confirmed(request: HttpRequest) -> bool:
    """The organiser pressed the button that confirms an elimination."""
    return request.POST.get("confirm") == "1"


def _groups(tournament: Tournament) -> list[Group]:
    return list(tournament.groups.order_by("order"))


def _active(tournament: Tournament) -> list[Entrant]:
    return list(tournament.entrants.filter(status=EntrantStatus.ACTIVE).order_by("name"))


def _console_url(tournament: Tournament, duel_id: int) -> str | None:
    # The referee console is built beside these pages; until its routes exist, no link.
    try:
        return reverse("duels:console", kwargs={"slug": tournament.slug, "duel_id": duel_id})
    except NoReverseMatch:
        return None


def _duel_title(duel: Duel) -> str:
    if duel.round_id:
        return f"Round {duel.round.number}" + (" (replay)" if duel.kind == DuelKind.REPLAY
                                                else "")
    if duel.kind == DuelKind.PLAYOFF:
        return fmt.STAGE_NAMES.get(duel.stage, duel.stage)
    return f"Tie-break {duel.stage}"


def _duel_row(tournament: Tournament, duel: Duel) -> dict[str, Any]:
    result = getattr(duel, "result", None) if duel.status in (DuelStatus.FINISHED,
                                                              DuelStatus.VOID) else None
    return {
        "duel": duel, "title": _duel_title(duel), "console": _console_url(tournament, duel.pk),
        "seat_a": duel.seat_a.name if duel.seat_a_id else "vacant",
        "seat_b": duel.seat_b.name if duel.seat_b_id else "vacant",
        "result": result,
    }


def _duels(tournament: Tournament, **filters: Any) -> QuerySet[Duel]:
    return (Duel.objects.filter(tournament=tournament, **filters)
            .select_related("seat_a", "seat_b", "round", "referee", "result"))


def _membership_words(problems: Iterable[fmt.Problem], groups: list[Group],
                      sizes: dict[int, int], unplaced: list[str]) -> list[str]:
    """What stops round 1, in names: the format rules speak in ids."""
    out = []
    for problem in problems:
        if problem.code == "entrant_count":
            out.append(problem.message)
        elif problem.code == "not_in_group":
            out.append("Not in a group yet: " + ", ".join(unplaced) + ".")
    for group in groups:
        size = sizes.get(group.pk, 0)
        if not fmt.GROUP_MIN <= size <= fmt.GROUP_MAX:
            out.append(f"{group.name} has {size} member{'s' if size != 1 else ''}; a group "
                       f"needs {fmt.GROUP_MIN} to {fmt.GROUP_MAX}.")
    return out


def _split_editable(tournament: Tournament) -> bool:
    """TOURNAMENT.md "Split": set-up until round 1's duel starts."""
    return tournament.phase in REGISTRATION_PHASES or (
        tournament.phase == Phase.GROUP_PHASE and not _round_one_started(tournament))


def _transfer_window(tournament: Tournament) -> tuple[bool, str, int]:
    """The change window as `change_groups` will judge it; the service has the last word."""
    window = change_window(tournament)
    return window.open, window.reason, window.after_round


def _referees(tournament: Tournament) -> list[Any]:
    """Everyone who may referee: the organiser, co-organisers and referees."""
    ids = set(TournamentRole.objects.filter(tournament=tournament).values_list("user_id",
                                                                             flat=True))
    ids.add(tournament.created_by_id)
    return list(get_user_model().objects.filter(pk__in=ids).order_by("username"))


# ---- overview and phases ----------------------------------------------------------------

def _overview_context(request: HttpRequest, tournament: Tournament,
                      **extra: Any) -> dict[str, Any]:
    user = request.user
    groups = _groups(tournament)
    active = _active(tournament)
    sizes = {g.pk: sum(1 for e in active if e.group_id == g.pk) for g in groups}
    context = _base(request, tournament, "overview")
    context.update({
        "groups": [{"group": g, "size": sizes[g.pk]} for g in groups],
        "active_count": len(active),
        "may": {"publish": can(user, Action.PUBLISH, tournament),
                "cancel": can(user, Action.CANCEL, tournament),
                "register": can(user, Action.MANAGE_REGISTRATION, tournament)},
        "cancel_form": extra.pop("cancel_form", None) or CancelForm(),
    })
    if tournament.phase in REGISTRATION_PHASES:
        membership = {e.pk: e.group_id for e in active if e.group_id}
        problems = fmt.check_start([e.pk for e in active], membership, [g.pk for g in groups])
        context["start_problems"] = _membership_words(
            problems, groups, sizes, [e.name for e in active if not e.group_id])
    elif tournament.phase == Phase.GROUP_PHASE:
        context["current_round"] = (Round.objects.filter(tournament=tournament,
                                                         status=RoundStatus.OPEN)
                                    .values_list("number", flat=True).first())
        context["decided"] = Round.objects.filter(tournament=tournament,
                                                  status=RoundStatus.DECIDED).count()
        context["window"] = _transfer_window(tournament)
    if tournament.phase in (Phase.GROUP_PHASE, Phase.TIE_BREAKS, Phase.PLAYOFFS,
                            Phase.COMPLETE):
        context["open_duels"] = [_duel_row(tournament, d) for d in _duels(
            tournament, status__in=OPEN_DUEL).order_by("created_at", "pk")]
        context["behind"] = progression.pending(tournament)
    if tournament.tiebreak_seed:
        context["tiebreaks"] = read_models.tiebreaks(tournament)["planned"]
    if tournament.playoff_seeding:
        context["bracket"] = read_models.bracket(tournament)
    # What the automation did (entries without a person): the latest first.
    context["automation"] = _entry_rows(tournament, AuditEntry.objects.filter(
        tournament=tournament, actor__isnull=True)[:8])
    context.update(extra)
    return context


@tournament_view(Action.START_PHASES)
def overview(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _render(request, "organiser/overview.html", _overview_context(request, tournament))


def _phase_action(request: HttpRequest, tournament: Tournament, apply: Callable[[], Any],
                  done: str) -> HttpResponse:
    """A button on the overview: one service call; a refusal is shown there, with 422."""
    try:
        apply()
    except ServiceError as err:
        return _render(request, "organiser/overview.html",
                       _overview_context(request, tournament, error=err.message),
                       status=REFUSED)
    return _done(request, done, "overview", tournament)


@tournament_view(Action.MANAGE_REGISTRATION)
@require_POST
def open_registration(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _phase_action(request, tournament,
                         lambda: services.open_registration(tournament, request.user),
                         "Registration is open.")


@tournament_view(Action.START_PHASES)
@require_POST
def start_group_phase(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _phase_action(request, tournament,
                         lambda: services.start_group_phase(tournament, request.user),
                         "The group phase has started: round 1 is open.")


@tournament_view(Action.START_PHASES)
@require_POST
def start_playoffs(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _phase_action(request, tournament,
                         lambda: progression.start_playoffs(tournament, request.user),
                         "The playoffs have started: the bracket is announced.")


@tournament_view(Action.START_PHASES)
@require_POST
def catch_up(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    # The automation repairs itself within a minute where a worker runs; on the embedded
    # default there is no beat, so the organiser may take the step now. `sync` is idempotent.
    return _phase_action(request, tournament, lambda: progression.sync(tournament),
                         "The automation has caught up.")


@tournament_view(Action.PUBLISH)
@require_POST
def publish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    published = request.POST.get("published") == "1"
    services.set_published(tournament, published, request.user)
    messages.success(request, "Published: anyone can now follow it." if published
                     else "Unpublished: only its organisers, referees and players see it.")
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
        return _render(request, "organiser/overview.html",
                       _overview_context(request, tournament, cancel_form=form,
                                         cancel_open=True), status=REFUSED)
    try:
        services.cancel(tournament, request.user, form.cleaned_data["reason"])
    except ServiceError as err:
        form.add_error("reason", err.message)
        return _render(request, "organiser/overview.html",
                       _overview_context(request, tournament, cancel_form=form,
                                         cancel_open=True), status=REFUSED)
    return _done(request, "The tournament is cancelled.", "overview", tournament)


# ---- settings ---------------------------------------------------------------------------

@tournament_view(Action.MANAGE_SETTINGS)
@require_http_methods(["GET", "POST"])
def setup(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = SettingsForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            services.configure(tournament, request.user, **form.changes())
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            return _done(request, "Settings saved.", "setup", tournament)
    context = _base(request, tournament, "setup")
    context["form"] = form
    return _render(request, "organiser/setup.html", context,
                   status=REFUSED if form.errors else 200)


# ---- players ----------------------------------------------------------------------------

def _players_context(request: HttpRequest, tournament: Tournament,
                     **extra: Any) -> dict[str, Any]:
    entrants = list(tournament.entrants.select_related("user", "group"))
    context = _base(request, tournament, "players")
    context.update({
        "entrants": entrants,
        "active_count": sum(1 for e in entrants if e.status == EntrantStatus.ACTIVE),
        "registration_open": tournament.phase in REGISTRATION_PHASES,
        "may_withdraw": can(request.user, Action.WITHDRAW_PLAYERS, tournament)
        and tournament.phase not in FINAL_PHASES,
        "form": EntrantForm(), "paste_form": PasteForm(), "csv_form": CsvForm(),
        "max_players": fmt.ENTRANTS_MAX,
    })
    context.update(extra)
    if "withdraw_form" not in context:
        context["withdraw_form"] = WithdrawForm(
            entrants=[e for e in entrants if e.status == EntrantStatus.ACTIVE])
    return context


def _players_page(request: HttpRequest, tournament: Tournament, status: int = 200,
                  **extra: Any) -> HttpResponse:
    return _render(request, "organiser/players.html",
                   _players_context(request, tournament, **extra), partial="panel",
                   status=status)


@tournament_view(Action.MANAGE_REGISTRATION)
@require_http_methods(["GET", "POST"])
def players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The players; a POST registers one (the panel comes back, ready for the next name)."""
    if request.method == "GET":
        return _players_page(request, tournament)
    form = EntrantForm(request.POST)
    if form.is_valid():
        try:
            added = services.add_entrant(tournament, form.cleaned_data["name"], request.user)
        except ServiceError as err:
            form.add_error("name", err.message)
        else:
            if not request.htmx:
                return _done(request, f"{added.name} is registered.", "players", tournament)
            return _players_page(request, tournament, added=added.name)
    return _players_page(request, tournament, status=REFUSED, form=form)


def _register_many(request: HttpRequest, tournament: Tournament, form: Any,
                   apply: Callable[[], list[services.LineReport]], field: str) -> HttpResponse:
    if not form.is_valid():
        return _players_page(request, tournament, status=REFUSED, **{field: form})
    try:
        report = apply()
    except ServiceError as err:
        form.add_error(None, err.message)
        return _players_page(request, tournament, status=REFUSED, **{field: form})
    refused = [line for line in report if not line.added]
    extra: dict[str, Any] = {"report": report, "report_added": len(report) - len(refused),
                             "report_refused": len(refused)}
    if field == "paste_form" and refused:
        # Nothing typed is lost: the lines that could not be registered stay, to be fixed.
        extra[field] = PasteForm(initial={"names": "\n".join(r.text for r in refused)})
    # Good lines are registered even when others are refused: 200, with the report.
    return _players_page(request, tournament, **extra)


@tournament_view(Action.MANAGE_REGISTRATION)
@require_POST
def register_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PasteForm(request.POST)
    return _register_many(request, tournament, form, lambda: services.register_list(
        tournament, form.cleaned_data["names"], request.user), "paste_form")


@tournament_view(Action.MANAGE_REGISTRATION)
@require_POST
def register_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = CsvForm(request.POST, request.FILES)
    return _register_many(request, tournament, form, lambda: services.register_csv(
        tournament, form.cleaned_data["file"].read(), request.user), "csv_form")


@tournament_view(Action.MANAGE_REGISTRATION)
@require_POST
def issue_claim(request: HttpRequest, tournament: Tournament, entrant_id: int) -> HttpResponse:
    entrant = get_object_or_404(tournament.entrants, pk=entrant_id)
    try:
        token = services.issue_claim_link(entrant, request.user)
    except ServiceError as err:
        return _players_page(request, tournament, status=REFUSED, error=err.message)
    link = request.build_absolute_uri(
        reverse("tournaments:claim", kwargs={"slug": tournament.slug, "token": token}))
    context = _base(request, tournament, "players")
    context.update({"entrant": entrant, "link": link})
    return render(request, "tournaments/claim_issued.html", context)


@tournament_view(Action.WITHDRAW_PLAYERS)
@require_POST
def withdraw(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = WithdrawForm(request.POST, entrants=_active(tournament))
    if not form.is_valid():
        return _players_page(request, tournament, status=REFUSED, withdraw_form=form)
    entrant = tournament.entrants.get(pk=form.cleaned_data["entrant"])
    try:
        services.withdraw(tournament, request.user, entrant.pk, form.cleaned_data["reason"],
                          confirm=_confirmed(request))
    except ServiceError as err:
        form.add_error(None, err.message)
        return _players_page(request, tournament, status=REFUSED, withdraw_form=form,
                             withdraw_confirm=err.code == "confirm")
    return _done(request, f"{entrant.name} is withdrawn.", "players", tournament)


# ---- groups: the split (set-up) ---------------------------------------------------------

def _board_columns(entrants: list[Entrant], groups: list[Group], form: Any, prefix: str,
                   target: Callable[[Entrant], str], with_none: bool) -> list[dict[str, Any]]:
    """The board's columns, each player in the column the form puts them in now, with the
    select that moves them (drag and drop only changes that select)."""
    columns = [{"value": str(g.order), "name": g.name, "rows": []} for g in groups]
    if with_none:
        columns.insert(0, {"value": "", "name": "No group yet", "rows": []})
    by_value = {c["value"]: c for c in columns}
    for entrant in entrants:
        by_value.get(target(entrant), columns[0])["rows"].append(
            {"entrant": entrant, "field": form[f"{prefix}{entrant.pk}"]})
    return columns


def _split_status(tournament: Tournament, groups: list[Group],
                  assignment: dict[int, int | None], names: dict[int, str]) -> dict[str, Any]:
    order = {g.order: g.pk for g in groups}
    membership = {pk: order[o] for pk, o in assignment.items() if o}
    sizes = fmt.group_sizes(membership, [g.pk for g in groups])
    problems = fmt.check_start(list(assignment), membership, [g.pk for g in groups])
    return {"sizes": [{"group": g, "size": sizes[g.pk]} for g in groups],
            "problems": _membership_words(problems, groups, sizes,
                                          [names[pk] for pk, o in assignment.items() if not o])}


def _groups_context(request: HttpRequest, tournament: Tournament,
                    form: SplitForm | None = None, **extra: Any) -> dict[str, Any]:
    groups = _groups(tournament)
    active = _active(tournament)
    form = form or SplitForm(entrants=active, groups=groups)
    names = {e.pk: e.name for e in active}
    values = {e.pk: str(form[f"g{e.pk}"].value() or "") for e in active}
    assignment = {pk: int(v) if v in ("1", "2") else None for pk, v in values.items()}
    context = _base(request, tournament, "groups")
    context.update({
        "groups": groups, "form": form, "editable": _split_editable(tournament),
        "columns": _board_columns(active, groups, form, "g", lambda e: values[e.pk],
                                  with_none=True),
        "status": _split_status(tournament, groups, assignment, names),
        "names_form": extra.pop("names_form", None) or GroupNamesForm(
            initial={"first": groups[0].name, "second": groups[1].name}),
        "split_seed": tournament.split_seed,
    })
    context.update(extra)
    return context


@tournament_view(Action.MANAGE_GROUPS)
@require_http_methods(["GET", "POST"])
def groups(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method == "GET":
        return _render(request, "organiser/groups.html", _groups_context(request, tournament))
    method = request.POST.get("method", "hand")
    form = SplitForm(request.POST, entrants=_active(tournament), groups=_groups(tournament))
    if form.is_valid():
        try:
            services.split_groups(tournament, request.user, method,
                                  form.assignment() if method == "hand" else None)
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            done = {"hand": "The split is saved.", "random": "Split at random (the seed is "
                    "stored).", "alternating": "Split alternately, in registration order."}
            return _done(request, done.get(method, "The split is saved."), "groups",
                         tournament)
    return _render(request, "organiser/groups.html", _groups_context(request, tournament, form),
                   partial="board", status=REFUSED)


@tournament_view(Action.MANAGE_GROUPS)
@require_POST
def groups_check(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """htmx, on every change of a select: the sizes and what would still block round 1."""
    context = _groups_context(request, tournament, SplitForm(
        request.POST, entrants=_active(tournament), groups=_groups(tournament)))
    return _render(request, "organiser/groups.html", context, partial="split_status")


@tournament_view(Action.MANAGE_GROUPS)
@require_POST
def group_names(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = GroupNamesForm(request.POST)
    if form.is_valid():
        try:
            services.name_groups(tournament, request.user, form.cleaned_data["first"],
                                 form.cleaned_data["second"])
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            return _done(request, "The groups are renamed.", "groups", tournament)
    return _render(request, "organiser/groups.html",
                   _groups_context(request, tournament, names_form=form), status=REFUSED)


# ---- transfers between rounds -----------------------------------------------------------

def _verdict_words(verdict: fmt.ChangeVerdict, groups: list[Group]) -> tuple[str, str]:
    """(kind, words) for a change the board shows before it is applied."""
    name = {g.pk: g.name for g in groups}
    if verdict.code == "above_limit":
        over = next(g for g in groups if verdict.sizes[g.pk] > fmt.GROUP_MAX)
        return "refused", (f"Refused: {over.name} would have {verdict.sizes[over.pk]} "
                           f"members, and a group may have at most {fmt.GROUP_MAX}.")
    if verdict.code == "both_below":
        return "refused", (f"Refused: both groups would be below {fmt.GROUP_MIN} members "
                           f"({verdict.sizes[groups[0].pk]} and "
                           f"{verdict.sizes[groups[1].pk]}).")
    if verdict.code == "elimination":
        sinking, standing = name[verdict.eliminated_group], name[verdict.phase_winner]
        n = verdict.sizes[verdict.eliminated_group]
        return "confirm", (f"{sinking} would have {n} member{'s' if n != 1 else ''}, below "
                           f"{fmt.GROUP_MIN}: if you confirm, {sinking} is eliminated at once, "
                           f"its members are out of the tournament, and {standing} wins the "
                           "group phase.")
    if verdict.refused:
        return "refused", "Refused: " + verdict.message
    if not verdict.moves:
        return "none", "No change yet: choose another group for a player, or drag them."
    n = len(verdict.moves)
    return "ok", f"{n} change{'s' if n != 1 else ''}, within the limits of {fmt.GROUP_MIN} " \
                 f"to {fmt.GROUP_MAX} members."


def _transfers_context(request: HttpRequest, tournament: Tournament,
                       form: TransferForm | None = None, **extra: Any) -> dict[str, Any]:
    groups = _groups(tournament)
    active = [e for e in _active(tournament) if e.group_id]
    form = form or TransferForm(entrants=active, groups=groups)
    by_order = {str(g.order): g.pk for g in groups}
    before = {e.pk: e.group_id for e in active}
    targets = {e.pk: form.target(e) for e in active}
    after = fmt.end_state(before, {pk: by_order.get(t) for pk, t in targets.items()
                                   if by_order.get(t) != before[pk]})
    verdict = fmt.check_change(before, after, [g.pk for g in groups])
    kind, words = _verdict_words(verdict, groups)
    points = dict(StandingRow.objects.filter(tournament=tournament)
                  .values_list("entrant_id", "points"))
    is_open, why, _after_round = _transfer_window(tournament)
    names = {e.pk: e.name for e in active}
    group_names = {g.pk: g.name for g in groups}
    columns = _board_columns(active, groups, form, "to",
                             lambda e: targets[e.pk] if targets[e.pk] != WITHDRAW
                             else form.current[e.pk], with_none=False)
    for column in columns:
        for row in column["rows"]:
            pk = row["entrant"].pk
            row.update(points=points.get(pk, 0), home=form.current[pk],
                       moving=targets[pk] != form.current[pk], withdrawing=targets[pk] == WITHDRAW)
    context = _base(request, tournament, "transfers")
    context.update({
        "groups": groups, "form": form, "open": is_open, "window": why, "columns": columns,
        "sizes": [{"group": g, "before": sum(1 for v in before.values() if v == g.pk),
                   "after": verdict.sizes.get(g.pk, 0), "max": fmt.GROUP_MAX} for g in groups],
        "verdict": kind, "verdict_words": words,
        "moves": [f"{names[m.player]} → {group_names[m.target]}" if m.target
                  else f"{names[m.player]} withdraws" for m in verdict.moves],
        "sinking": group_names.get(verdict.eliminated_group, ""),
    })
    context.update(extra)
    return context


@tournament_view(Action.MANAGE_GROUPS)
@require_http_methods(["GET", "POST"])
def transfers(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    template = "organiser/transfers.html"
    if request.method == "GET":
        return _render(request, template, _transfers_context(request, tournament))
    active = [e for e in _active(tournament) if e.group_id]
    form = TransferForm(request.POST, entrants=active, groups=_groups(tournament))
    if not form.is_valid():
        return _render(request, template, _transfers_context(request, tournament, form),
                       partial="board", status=REFUSED)
    changes = form.changes()
    if not changes:
        return _render(request, template, _transfers_context(
            request, tournament, form, error="Nothing to apply: choose another group for at "
            "least one player."), partial="board", status=REFUSED)
    try:
        verdict = services.change_groups(tournament, request.user, changes,
                                         confirm=_confirmed(request),
                                         reason=form.cleaned_data["reason"])
    except ServiceError as err:
        return _render(request, template, _transfers_context(
            request, tournament, form, error=err.message,
            needs_confirm=err.code == "confirm"), partial="board", status=REFUSED)
    names = {e.pk: e.name for e in active}
    group_names = {g.pk: g.name for g in _groups(tournament)}
    done = "; ".join(f"{names[m.player]} → {group_names[m.target]}" if m.target
                     else f"{names[m.player]} withdrawn" for m in verdict.moves) + "."
    if verdict.needs_confirmation:
        done += f" {group_names[verdict.eliminated_group]} is eliminated."
    if not request.htmx:
        return _done(request, f"Applied: {done}", "transfers", tournament)
    return _render(request, template, _transfers_context(request, tournament,
                                                         notice=f"Applied: {done}"),
                   partial="board")


@tournament_view(Action.MANAGE_GROUPS)
@require_POST
def transfers_check(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """htmx, on every change of the board: both sizes and the verdict, before applying."""
    active = [e for e in _active(tournament) if e.group_id]
    form = TransferForm(request.POST, entrants=active, groups=_groups(tournament))
    # The answer replaces the live region's content and, out of band, the buttons.
    return _render(request, "organiser/transfers.html",
                   _transfers_context(request, tournament, form, oob=True), partial="check")


# ---- rounds -----------------------------------------------------------------------------

def _rounds_context(request: HttpRequest, tournament: Tournament,
                    **extra: Any) -> dict[str, Any]:
    user = request.user
    groups = _groups(tournament)
    active = _active(tournament)
    members: dict[int, list[Entrant]] = {}
    for entrant in active:
        if entrant.group_id:
            members.setdefault(entrant.group_id, []).append(entrant)
    open_round = Round.objects.filter(tournament=tournament, status=RoundStatus.OPEN).first()
    duel = None
    if open_round is not None:
        duel = _duels(tournament, round=open_round, status__in=OPEN_DUEL).first()
    assigns = can(user, Action.MANAGE_REFEREES, tournament)
    referees = _referees(tournament) if assigns else None
    open_duels = [_duel_row(tournament, d) for d in _duels(
        tournament, status__in=OPEN_DUEL).order_by("created_at", "pk")]
    context = _base(request, tournament, "rounds")
    context.update({
        "groups": groups, "round": open_round, "duel": duel,
        "duel_row": _duel_row(tournament, duel) if duel else None,
        # The representatives may be replaced until the duel's first event (not a replay).
        "may_name": open_round is not None and tournament.phase == Phase.GROUP_PHASE
        and (duel is None or (duel.seq == 0 and duel.kind == DuelKind.GROUP)),
        "playing": [r for r in open_duels if r["duel"].status == DuelStatus.RUNNING],
        "next_up": [r for r in open_duels if r["duel"].status != DuelStatus.RUNNING],
        "rounds": [{**r, "label": dict(RoundStatus.choices)[r["status"]]}
                   for r in read_models.rounds(tournament)],
        "assigns": assigns, "referees": referees or [],
        "may_share": tournament.shared_cards and tournament.phase == Phase.GROUP_PHASE
        and can(user, Action.RECORD_SHARED_CARD, tournament),
        "group_phase": tournament.phase == Phase.GROUP_PHASE,
    })
    if "form" not in extra:
        initial = {}
        if duel is not None:
            by_group = {duel.group_a_id: duel.seat_a_id, duel.group_b_id: duel.seat_b_id}
            initial = {"first": by_group.get(groups[0].pk), "second": by_group.get(groups[1].pk),
                       "table": duel.table, "referee": duel.referee_id}
        context["form"] = RepresentativesForm(initial=initial, groups=groups, members=members,
                                              referees=referees)
    if "card_form" not in extra:
        context["card_form"] = SharedCardForm(entrants=[e for e in active if e.group_id])
    context.update(extra)
    return context


@tournament_view(Action.NAME_REPRESENTATIVES)
def rounds(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _render(request, "organiser/rounds.html", _rounds_context(request, tournament))


@tournament_view(Action.NAME_REPRESENTATIVES)
@require_POST
def name_representatives(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = _rounds_context(request, tournament)
    rnd = context["round"]
    form = RepresentativesForm(request.POST, groups=context["groups"],
                               members={g.pk: [e for e in _active(tournament)
                                               if e.group_id == g.pk]
                                        for g in context["groups"]},
                               referees=context["referees"] if context["assigns"] else None)
    if rnd is not None and form.is_valid():
        data = form.cleaned_data
        try:
            # Naming and assigning are one step for the organiser: both or neither.
            with transaction.atomic():
                duel = services.name_representatives(tournament, request.user, rnd.number,
                                                      data["first"], data["second"],
                                                      data["table"])
                referee = data.get("referee")
                if referee is not None and referee != duel.referee_id:
                    from duels.services import assign_referee

                    assign_referee(duel, request.user,
                                   get_user_model().objects.get(pk=referee))
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            return _done(request, f"Round {rnd.number}: {duel.seat_a.name} v "
                         f"{duel.seat_b.name} is ready for a referee.", "rounds", tournament)
    elif rnd is None:
        form.add_error(None, "No round is open: representatives are named for the open round.")
    return _render(request, "organiser/rounds.html",
                   _rounds_context(request, tournament, form=form), status=REFUSED)


@tournament_view(Action.NAME_REPRESENTATIVES)
@require_POST
def assign_referee(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    from duels.services import assign_referee as assign

    duel = get_object_or_404(Duel, tournament=tournament, pk=duel_id)
    referee_id = request.POST.get("referee") or ""
    referee = (get_user_model().objects.filter(pk=int(referee_id)).first()
               if referee_id.isdigit() else None)
    table = request.POST.get("table")  # None when the form has no table field
    try:
        assign(duel, request.user, referee, table)
    except ServiceError as err:
        return _render(request, "organiser/rounds.html",
                       _rounds_context(request, tournament, error=err.message), status=REFUSED)
    who = referee.username if referee else "any referee"
    where = f" at {duel.table}" if duel.table else ""
    return _done(request, f"{_duel_title(duel)} is open for {who}{where}.", "rounds", tournament)


@tournament_view(Action.RECORD_SHARED_CARD)
@require_POST
def shared_card(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = SharedCardForm(request.POST, entrants=[e for e in _active(tournament)
                                                  if e.group_id])
    if form.is_valid():
        try:
            card = services.record_shared_card(tournament, request.user,
                                               form.cleaned_data["giver"],
                                               form.cleaned_data["receiver"])
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            return _done(request, f"{card.giver.name} gives {card.receiver.name} one action "
                         "card for their next group duel.", "rounds", tournament)
    return _render(request, "organiser/rounds.html",
                   _rounds_context(request, tournament, card_form=form), status=REFUSED)


# ---- results: corrections and voids -----------------------------------------------------

@tournament_view(Action.CORRECT_RESULTS)
def results(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rows = [_duel_row(tournament, d) for d in _duels(
        tournament, status__in=[DuelStatus.FINISHED, DuelStatus.VOID]
    ).order_by("-finished_at", "-pk")]
    context = _base(request, tournament, "results")
    context["rows"] = rows
    return _render(request, "organiser/results.html", context)


class _Rollback(Exception):
    """Undoes a dry run."""


def _snapshot(tournament: Tournament) -> dict[str, Any]:
    """What a correction can change, in names: standings, totals, duels, rounds, phase."""
    return {
        "points": {name: (points, rank) for name, points, rank in StandingRow.objects.filter(
            tournament=tournament).values_list("entrant__name", "points", "rank")},
        "totals": dict(GroupTotal.objects.filter(group__tournament=tournament)
                       .values_list("group__name", "total")),
        "duels": {d.pk: (d.status, f"{_duel_title(d)}: {_duel_row(tournament, d)['seat_a']} v "
                                   f"{_duel_row(tournament, d)['seat_b']}")
                  for d in _duels(tournament)},
        "rounds": dict(Round.objects.filter(tournament=tournament)
                       .values_list("number", "status")),
        "phase": Tournament.objects.values_list("phase", flat=True).get(pk=tournament.pk),
        "settled": Tournament.objects.filter(pk=tournament.pk,
                                             top_four_settled_at__isnull=False).exists(),
    }


def _rank(rank: int | None) -> str:
    return str(rank) if rank is not None else "no rank"


def _differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    out = []
    rank_only = []
    for name, (points, rank) in sorted(after["points"].items()):
        old_points, old_rank = before["points"].get(name, (0, None))
        if old_points != points:
            out.append(f"{name}: {old_points} → {points} points, rank {_rank(old_rank)} → "
                       f"{_rank(rank)}.")
        elif old_rank != rank:
            rank_only.append(f"{name} ({_rank(old_rank)} → {_rank(rank)})")
    if rank_only:
        # Every player level on points moves with one result: a count reads better than 20
        # lines, and the names are given when they are few.
        out.append(f"Ranks move for {len(rank_only)} other player"
                   f"{'s' if len(rank_only) != 1 else ''} whose points do not change"
                   + (": " + ", ".join(rank_only) + "." if len(rank_only) <= 5 else "."))
    for name, total in after["totals"].items():
        if before["totals"].get(name) != total:
            out.append(f"Total of {name}: {before['totals'].get(name, 0)} → {total}.")
    statuses = dict(DuelStatus.choices)
    for pk, (status, label) in after["duels"].items():
        old = before["duels"].get(pk)
        if old is None:
            out.append(f"New duel to play — {label}.")
        elif old[0] != status:
            out.append(f"{label}: {statuses[old[0]].lower()} → {statuses[status].lower()}.")
    round_status = dict(RoundStatus.choices)
    for number, status in after["rounds"].items():
        if before["rounds"].get(number) != status:
            out.append(f"Round {number}: {round_status[before['rounds'][number]].lower()} → "
                       f"{round_status[status].lower()}.")
    if before["phase"] != after["phase"]:
        phases = dict(Phase.choices)
        out.append(f"Phase: {phases[before['phase']]} → {phases[after['phase']]}.")
    if before["settled"] != after["settled"]:
        out.append("Positions 1–4 become settled." if after["settled"]
                   else "Positions 1–4 are no longer settled: tie-breaks are planned again.")
    return out


def _dry_run(tournament: Tournament, apply: Callable[[], Any]) -> list[str]:
    """What `apply` would recompute, found by running the very service and rolling it back.

    The exact consequence (standings, replays, voided duels, the tie-break plan) comes from the
    code that will apply it, not from a second copy of the rules; nothing is kept, and callbacks
    registered for after the commit are dropped with the savepoint.
    """
    before = _snapshot(tournament)
    after: dict[str, Any] = {}
    try:
        with transaction.atomic():
            apply()
            after = _snapshot(tournament)
            raise _Rollback
    except _Rollback:
        pass
    return _differences(before, after)


def _ruling(tournament: Tournament, user: Any, duel: Duel, ruling: str,
            reason: str) -> Callable[[], Any]:
    if ruling.startswith("void_"):
        return lambda: corrections.void_result(tournament, user, duel, reason,
                                               replay=ruling == "void_replay")
    return lambda: corrections.correct_result(tournament, user, duel,
                                              None if ruling == "none" else ruling, reason)


@tournament_view(Action.CORRECT_RESULTS)
@require_http_methods(["GET", "POST"])
def result(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    duel = get_object_or_404(_duels(tournament, status__in=[DuelStatus.FINISHED,
                                                            DuelStatus.VOID]), pk=duel_id)
    row = _duel_row(tournament, duel)
    form = RulingForm(request.POST or None, seat_a=row["seat_a"], seat_b=row["seat_b"],
                      voidable=duel.kind in (DuelKind.GROUP, DuelKind.REPLAY))
    context = _base(request, tournament, "results")
    context.update({"row": row, "form": form})
    status = 200
    if request.method == "POST":
        if not form.is_valid():
            status = REFUSED
        else:
            apply = _ruling(tournament, request.user, duel, form.cleaned_data["ruling"],
                            form.cleaned_data["reason"])
            try:
                if "apply" not in request.POST:
                    context["preview"] = _dry_run(tournament, apply)
                else:
                    apply()
                    return _done(request, f"{row['title']} ({row['seat_a']} v {row['seat_b']})"
                                 ": the ruling is recorded and everything after it recomputed.",
                                 "results", tournament)
            except ServiceError as err:
                form.add_error(None, err.message)
                status = REFUSED
    return _render(request, "organiser/result.html", context, partial="ruling", status=status)


# ---- people -----------------------------------------------------------------------------

@tournament_view(Action.MANAGE_REFEREES)
@require_http_methods(["GET", "POST"])
def people(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    may_manage_co = can(request.user, Action.MANAGE_CO_ORGANISERS, tournament)
    form = GrantRoleForm(request.POST or None)
    if not may_manage_co:
        form.fields["role"].choices = [(Role.REFEREE, "Referee")]
    if request.method == "POST" and form.is_valid():
        try:
            grant = role_services.grant_role(request.user, tournament,
                                             form.cleaned_data["username"],
                                             form.cleaned_data["role"])
        except ServiceError as err:
            form.add_error("username", err.message)
        else:
            return _done(request, f"{grant.user.username} is now a "
                         f"{grant.get_role_display().lower()}.", "people", tournament)
    context = _base(request, tournament, "people")
    context.update({
        "form": form, "may_manage_co": may_manage_co,
        "grants": TournamentRole.objects.filter(tournament=tournament).select_related("user"),
    })
    return _render(request, "organiser/people.html", context,
                   status=REFUSED if form.errors else 200)


@tournament_view(Action.MANAGE_REFEREES)
@require_POST
def revoke(request: HttpRequest, tournament: Tournament, grant_id: int) -> HttpResponse:
    try:
        role_services.revoke_role(request.user, tournament, grant_id)
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect("organiser:people", slug=tournament.slug)
    return _done(request, "Role removed.", "people", tournament)


# ---- the audit log ----------------------------------------------------------------------

ID_KEYS = {"entrant", "giver", "receiver", "winner", "seat_a", "seat_b"}


def _detail_words(detail: dict[str, Any], names: dict[int, str],
                  groups: dict[int, str]) -> list[str]:
    """An entry's detail with names for the ids people know by name."""
    out = []
    for key, value in detail.items():
        if key in ID_KEYS and isinstance(value, int):
            value = names.get(value, value)
        elif key in ("players", "names") and isinstance(value, list):
            value = ", ".join(str(names.get(v, v)) if isinstance(v, int) else str(v)
                              for v in value)
        elif key == "moves" and isinstance(value, list):
            value = "; ".join(f"{names.get(p, p)} → "
                              f"{groups.get(t, 'withdrawn') if t else 'withdrawn'}"
                              for p, _s, t in value)
        elif key == "group" and isinstance(value, int):
            value = groups.get(value, value)
        elif key == "sizes" and isinstance(value, dict):
            value = ", ".join(f"{groups.get(int(k), k) if str(k).isdigit() else k}: {v}"
                              for k, v in value.items())
        if value in ("", None, [], {}):
            continue
        out.append(f"{key.replace('_', ' ')}: {value}")
    return out


def _entry_rows(tournament: Tournament, entries: Iterable[AuditEntry]) -> list[dict[str, Any]]:
    names = dict(Entrant.objects.filter(tournament=tournament).values_list("pk", "name"))
    groups = {g.pk: g.name for g in _groups(tournament)}
    return [{"entry": e, "label": e.action.replace("_", " ").capitalize(),
             "detail": _detail_words(e.detail, names, groups)} for e in entries]


@tournament_view(Action.VIEW_AUDIT_LOG)
def audit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    entries = AuditEntry.objects.filter(tournament=tournament).select_related("actor")
    actions = sorted(set(entries.values_list("action", flat=True)))
    actors = sorted({(pk, name) for pk, name in entries.exclude(actor=None).values_list(
        "actor_id", "actor__username")}, key=lambda a: a[1].casefold())
    form = AuditFilterForm(request.GET or None, actions=actions, actors=actors)
    if form.is_valid():
        if form.cleaned_data["action"]:
            entries = entries.filter(action=form.cleaned_data["action"])
        who = form.cleaned_data["who"]
        if who == "automation":
            entries = entries.filter(actor__isnull=True)
        elif who:
            entries = entries.filter(actor_id=int(who))
    page = Paginator(entries, 50).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = _base(request, tournament, "audit")
    context.update({
        "form": form, "page": page, "query": query.urlencode(),
        "rows": _entry_rows(tournament, page.object_list),
    })
    return _render(request, "organiser/audit.html", context, partial="log")

