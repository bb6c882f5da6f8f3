"""The rounds: representatives, referees and tables, shared cards."""

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.permissions import Action, can
from core.errors import ServiceError
from core.numbers import read_int
from duels.forms import new_intent
from duels.models import Duel, DuelKind, DuelStatus
from tournaments import presentation, read_models, services
from tournaments.access import tournament_view
from tournaments.forms_organiser import (
    PaperDuelForm,
    PaperResultForm,
    RepresentativesForm,
    SharedCardForm,
)
from tournaments.models import (
    Entrant,
    Phase,
    Round,
    RoundStatus,
    Tournament,
)
from tournaments.services import online_rulings, refereeing
from tournaments.services.lifecycle import OPEN

from ._common import (
    REFUSED,
    active_entrants,
    base_context,
    confirmed,
    duel_row,
    duels_of,
    groups_of,
    referees_of,
    render_page,
    stored_outcome,
    succeeded,
)
from .online_duels import add_online


def _rounds_context(request: HttpRequest, tournament: Tournament, **extra: Any) -> dict[str, Any]:
    user = request.user
    groups = groups_of(tournament)
    active = active_entrants(tournament)
    members: dict[int, list[Entrant]] = {}
    for entrant in active:
        if entrant.group_id:
            members.setdefault(entrant.group_id, []).append(entrant)
    open_round = Round.objects.filter(tournament=tournament, status=RoundStatus.OPEN).first()
    duel = None
    if open_round is not None:
        duel = duels_of(tournament, round=open_round, status__in=OPEN).first()
    assigns = can(user, Action.MANAGE_REFEREES, tournament)
    referees = referees_of(tournament) if assigns else None
    open_duels = [
        duel_row(tournament, d)
        for d in duels_of(tournament, status__in=OPEN).order_by("created_at", "pk")
    ]
    context = base_context(request, tournament, "rounds")
    context.update(
        {
            "groups": groups,
            "round": open_round,
            "duel": duel,
            "duel_row": duel_row(tournament, duel) if duel else None,
            # The representatives may be replaced until the duel's first event (not a replay).
            "may_name": open_round is not None
            and tournament.phase == Phase.GROUP_PHASE
            and (duel is None or (duel.seq == 0 and duel.kind == DuelKind.GROUP)),
            "playing": [r for r in open_duels if r["duel"].status == DuelStatus.RUNNING],
            "next_up": [r for r in open_duels if r["duel"].status != DuelStatus.RUNNING],
            "rounds": [{**r, "label": r["state_label"]} for r in read_models.rounds(tournament)],
            "assigns": assigns,
            "referees": referees or [],
            "may_share": tournament.shared_cards
            and tournament.phase == Phase.GROUP_PHASE
            and can(user, Action.RECORD_SHARED_CARD, tournament),
            "group_phase": tournament.phase == Phase.GROUP_PHASE,
        }
    )
    initial: dict[str, Any] = {}
    if "form" not in extra:
        if duel is not None:
            by_group = {duel.group_a_id: duel.seat_a_id, duel.group_b_id: duel.seat_b_id}
            initial = {
                "first": by_group.get(groups[0].pk),
                "second": by_group.get(groups[1].pk),
                "table": duel.table,
                "referee": duel.referee_id,
            }
        context["form"] = RepresentativesForm(
            initial=initial, groups=groups, members=members, referees=referees
        )
    named = context["named"] = _named(duel, groups)
    if "paper_form" not in extra:
        # The sheet names what it is for: this round, this duel (when one exists), a key.
        drawn_for = {
            "round": open_round.number if open_round is not None else None,
            "duel": duel.pk if duel is not None else None,
            "intent": new_intent(),
        }
        if named is not None:  # its players, by name: the winner is tapped by name
            drawn_for |= {"first": named[0].pk, "second": named[1].pk}
        context["paper_form"] = PaperResultForm(
            initial={k: v for k, v in initial.items() if k in ("first", "second")} | drawn_for
            if "form" not in extra
            else drawn_for,
            groups=groups,
            members=members,
            named=named,
        )
    # A referee's desk links a duel's own sheet opened (issue 26): ?paper=<duel>#paper-<duel>.
    context["paper_open"] = read_int(request.GET.get("paper", ""))
    paper = extra.pop("paper_duel_form", None)
    for row in context["next_up"]:
        d = row["duel"]
        if d.seat_a_id and d.seat_b_id and d.seq == 0:
            row["paper_form"] = (
                paper
                if paper is not None and paper.duel_pk == d.pk
                else PaperDuelForm(
                    seat_a=d.seat_a,
                    seat_b=d.seat_b,
                    auto_id=f"id_paper{d.pk}_%s",
                    initial={"rev": d.revision, "intent": new_intent()},
                )
            )
    if "card_form" not in extra:
        context["card_form"] = SharedCardForm(entrants=[e for e in active if e.group_id])
    add_online(request, tournament, context)  # ONLINE.md 6: online duels, the organiser's side
    context.update(extra)
    return context


def _named(duel: Duel | None, groups: list) -> tuple[Entrant, Entrant] | None:
    """The round's players, the first group's then the second's, once its duel names them and
    its sheet may still record it (not started on the console)."""
    if duel is None or not (duel.seat_a_id and duel.seat_b_id) or duel.seq != 0:
        return None
    by_group = {duel.group_a_id: duel.seat_a, duel.group_b_id: duel.seat_b}
    first, second = by_group.get(groups[0].pk), by_group.get(groups[1].pk)
    return (first, second) if first is not None and second is not None else None


@tournament_view(Action.NAME_REPRESENTATIVES)
def rounds(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    # An online duel whose wait ran out is ruled before the page shows it (ONLINE.md 6), as
    # the players' pages and the worker's beat do: where no worker runs, this page may be
    # the first to look.
    online_rulings.rule_no_shows(tournament=tournament)
    return render_page(request, "organiser/rounds.html", _rounds_context(request, tournament))


@tournament_view(Action.NAME_REPRESENTATIVES)
@require_POST
def name_representatives(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = _rounds_context(request, tournament)
    rnd = context["round"]
    form = RepresentativesForm(
        request.POST,
        groups=context["groups"],
        members={
            g.pk: [e for e in active_entrants(tournament) if e.group_id == g.pk]
            for g in context["groups"]
        },
        referees=context["referees"] if context["assigns"] else None,
    )
    if rnd is not None and form.is_valid():
        data = form.cleaned_data
        try:
            # Naming and assigning are one step for the organiser: both or neither.
            with transaction.atomic():
                duel = services.name_representatives(
                    tournament,
                    request.user,
                    rnd.number,
                    data["first"],
                    data["second"],
                    data["table"],
                )
                referee = data.get("referee")
                if referee is not None and referee != duel.referee_id:
                    refereeing.assign_referee(
                        duel, request.user, get_user_model().objects.get(pk=referee)
                    )
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            return succeeded(
                request,
                _("Round %(number)s: %(a)s v %(b)s is ready for a referee.")
                % {"number": rnd.number, "a": duel.seat_a.name, "b": duel.seat_b.name},
                "rounds",
                tournament,
            )
    elif rnd is None:
        form.add_error(None, _("No round is open: representatives are named for the open round."))
    return render_page(
        request,
        "organiser/rounds.html",
        _rounds_context(request, tournament, form=form),
        status=REFUSED,
    )


@tournament_view(Action.NAME_REPRESENTATIVES)
@require_POST
def assign_referee(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    duel = get_object_or_404(Duel, tournament=tournament, pk=duel_id)
    chosen = request.POST.get("referee") or ""  # empty: any referee may take it
    referee_pk = read_int(chosen)
    referee = get_user_model().objects.filter(pk=referee_pk).first() if referee_pk else None
    table = request.POST.get("table")  # None when the form has no table field
    try:
        if chosen and referee is None:
            # An unknown id never silently unassigns the duel's referee.
            raise ServiceError(_("That referee is not one of this tournament's people."))
        # Moving a running duel away from its referee is taking it: confirmed on the form.
        refereeing.assign_referee(duel, request.user, referee, table, confirm=confirmed(request))
    except ServiceError as err:
        return render_page(
            request,
            "organiser/rounds.html",
            _rounds_context(request, tournament, error=err.message),
            status=REFUSED,
        )
    title = presentation.duel_title(duel)
    if referee and duel.table:
        done = _("%(duel)s is open for %(who)s at %(table)s.") % {
            "duel": title,
            "who": referee.username,
            "table": presentation.table_label(duel.table),
        }
    elif referee:
        done = _("%(duel)s is open for %(who)s.") % {"duel": title, "who": referee.username}
    elif duel.table:
        done = _("%(duel)s is open for any referee at %(table)s.") % {
            "duel": title,
            "table": presentation.table_label(duel.table),
        }
    else:
        done = _("%(duel)s is open for any referee.") % {"duel": title}
    return succeeded(request, done, "rounds", tournament)


@tournament_view(Action.RECORD_SHARED_CARD)
@require_POST
def shared_card(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = SharedCardForm(
        request.POST, entrants=[e for e in active_entrants(tournament) if e.group_id]
    )
    if form.is_valid():
        try:
            card = services.record_shared_card(
                tournament, request.user, form.cleaned_data["giver"], form.cleaned_data["receiver"]
            )
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            return succeeded(
                request,
                _("%(giver)s gives %(receiver)s one action card for their next group duel.")
                % {"giver": card.giver.name, "receiver": card.receiver.name},
                "rounds",
                tournament,
            )
    return render_page(
        request,
        "organiser/rounds.html",
        _rounds_context(request, tournament, card_form=form),
        status=REFUSED,
    )


@tournament_view(Action.NAME_REPRESENTATIVES)
@require_POST
def paper_result(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A round's duel played on paper, from one form: its representatives, the winner, an
    optional reason (issue 16). One service call, one transaction. The round is the one the
    form names (and its duel, when the page showed one), never whichever is open now."""
    context = _rounds_context(request, tournament)
    form = PaperResultForm(
        request.POST,
        groups=context["groups"],
        members={
            g.pk: [e for e in active_entrants(tournament) if e.group_id == g.pk]
            for g in context["groups"]
        },
        named=context["named"],
    )
    return _record_paper(
        request,
        tournament,
        form,
        "paper_form",
        lambda: {
            "round_number": form.cleaned_data["round"],
            "duel_id": form.cleaned_data.get("duel"),
            "first_id": form.cleaned_data["first"],
            "second_id": form.cleaned_data["second"],
        },
    )


@tournament_view(Action.NAME_REPRESENTATIVES)
@require_POST
def paper_duel(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """A duel whose players are known (replay, tie-break, playoff) played on paper."""
    duel = get_object_or_404(
        Duel.objects.select_related("seat_a", "seat_b"),
        tournament=tournament,
        pk=duel_id,
        seat_a__isnull=False,
        seat_b__isnull=False,
    )
    form = PaperDuelForm(
        request.POST, seat_a=duel.seat_a, seat_b=duel.seat_b, auto_id=f"id_paper{duel.pk}_%s"
    )
    form.duel_pk = duel.pk
    return _record_paper(
        request,
        tournament,
        form,
        "paper_duel_form",
        lambda: {"duel_id": duel.pk, "expected_revision": form.cleaned_data.get("rev")},
    )


def _record_paper(
    request: HttpRequest,
    tournament: Tournament,
    form: Any,
    form_name: str,
    which: Callable[[], dict[str, int]],
) -> HttpResponse:
    """Either paper form, valid: one service call (`which` names the duel or the round's
    players); otherwise, or refused, the Rounds page with the form and its words. This very
    sheet sent again (its key) gets its stored outcome: the redirect to the Rounds page, with
    what was recorded; another copy of a sheet already recorded is refused 409 with the same
    words and a fresh page."""
    if form.is_valid():
        try:
            duel = refereeing.record_paper_result(
                tournament,
                request.user,
                winner_id=form.winner_id(),
                note=form.cleaned_data["note"],
                intent=form.intent_value(),
                **which(),
            )
        except ServiceError as err:
            if err.code == "repeat":  # this very sheet again: its stored outcome
                return stored_outcome(request, err.message, "rounds", tournament)
            if err.code in ("recorded", "conflict"):
                # The page was drawn for a state that is gone: it is drawn again, with the
                # words at the top; the stale form is not shown back to be sent a third time.
                return render_page(
                    request,
                    "organiser/rounds.html",
                    _rounds_context(request, tournament, error=err.message),
                    status=409,
                )
            form.add_error(None, err.message)
        else:
            return succeeded(request, _paper_done(duel), "rounds", tournament)
    return render_page(
        request,
        "organiser/rounds.html",
        _rounds_context(request, tournament, **{form_name: form}),
        status=REFUSED,
    )


def _paper_done(duel: Duel) -> str:
    winner = duel.result.winner
    return _("%(duel)s played on paper: %(winner)s won.") % {
        "duel": presentation.duel_title(duel),
        "winner": winner.name,
    }


def refused_on_rounds(request: HttpRequest, tournament: Tournament, message: str) -> HttpResponse:
    """The rounds page again, saying why (a refused call, say)."""
    return render_page(
        request,
        "organiser/rounds.html",
        _rounds_context(request, tournament, error=message),
        status=REFUSED,
    )
