"""Online duels on the Rounds page (ONLINE.md 6), the organiser's side: each online duel's
state (who is ready, the no-show deadline, running or finished), the switch between a table
and online before a duel starts, "Extend the wait", and the ruling on a duel neither player
was ready for or both abandoned. The services (`services.online_rulings`) decide who may;
these views only read the form and say what happened."""

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.permissions import Action, can
from core.errors import ServiceError
from core.htmx import redirect_after_post
from duels.models import Duel
from duels.selectors import player_ids
from tournaments import presentation
from tournaments.access import tournament_view
from tournaments.models import Tournament
from tournaments.services import lifecycle, online_rulings

from ._common import confirmed, duels_of, succeeded

# How many online duels the Rounds page lists (the latest; a tournament holds about 40).
LISTED = 60


def online_facts(user: Any, tournament: Tournament, duel: Duel, now: datetime) -> dict[str, Any]:
    """What the Rounds page says and offers about one duel, online or not."""
    playing = user.pk in player_ids(duel)
    organiser = can(user, Action.CORRECT_RESULTS, tournament) and not playing
    unstarted = online_rulings.not_started(duel)
    waiting = duel.online and online_rulings.waiting_for_ruling(duel, now)
    return {
        "online": duel.online,
        "ready_a": duel.ready_a is not None,
        "ready_b": duel.ready_b is not None,
        "ready_by": duel.ready_by,
        "overdue": duel.ready_by is not None and duel.ready_by <= now,
        "unclaimed": online_rulings.unclaimed(duel),
        "may_switch": organiser and unstarted,
        "may_extend": organiser and unstarted and duel.online and duel.ready_by is not None,
        "waiting_ruling": waiting,
        # Both players abandoned the running duel (else: neither was ready).
        "stopped": waiting and online_rulings.both_abandoned(duel),
        # A forfeit or an adjudication: what TOURNAMENT.md lets a referee record.
        "may_forfeit": waiting
        and not playing
        and can(user, Action.REFEREE_DUELS, tournament, players=player_ids(duel)),
        "may_void": waiting and organiser,
        # A tie-break or playoff duel voided is replayed (its knockout needs a winner).
        "void_replays": duel.kind not in lifecycle.GROUP_KINDS,
        # ONLINE.md 6: an organiser who plays in it sees only their seat's view.
        "plays": playing,
    }


def add_online(request: HttpRequest, tournament: Tournament, context: dict[str, Any]) -> None:
    """The Rounds page's online parts: each open duel's facts and the list of online duels."""
    now = timezone.now()
    for key in ("playing", "next_up"):
        for row in context.get(key, ()):
            row["online"] = online_facts(request.user, tournament, row["duel"], now)
    online = list(duels_of(tournament, online=True).order_by("-created_at", "-pk")[:LISTED])
    context["online_duels"] = [
        {
            "duel": d,
            "title": presentation.duel_title(d),
            "seat_a": d.seat_a.name if d.seat_a_id else "",
            "seat_b": d.seat_b.name if d.seat_b_id else "",
            "ready_a": d.ready_a is not None,
            "ready_b": d.ready_b is not None,
            "stopped": online_rulings.both_abandoned(d),
            "winner": d.result.winner.name
            if getattr(d, "result", None) is not None and d.result.winner_id
            else "",
        }
        for d in online
    ]
    context["online_tournament"] = tournament.online_duels


def _duel(tournament: Tournament, duel_id: int) -> Duel:
    return get_object_or_404(
        Duel.objects.select_related("seat_a", "seat_b", "round"), tournament=tournament, pk=duel_id
    )


def _refused(request: HttpRequest, tournament: Tournament, err: ServiceError) -> HttpResponse:
    from .rounds import refused_on_rounds

    if err.code == "done":  # already as asked: told on the page it leads to
        messages.info(request, err.message)
        return redirect_after_post(request, reverse("organiser:rounds", args=[tournament.slug]))
    response = refused_on_rounds(request, tournament, err.message)
    if err.code == "forbidden":
        response.status_code = 403
    elif err.code == "conflict":
        response.status_code = 409
    return response


@tournament_view(Action.NAME_REPRESENTATIVES)
@require_POST
def switch_duel(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """ "Play online" / "Play at a table" for a duel not started (`online` = 1 or 0)."""
    duel = _duel(tournament, duel_id)
    choice = request.POST.get("online")
    if choice not in ("0", "1"):
        return _refused(
            request, tournament, ServiceError(_("Choose online or at a table."), code="")
        )
    online = choice == "1"
    try:
        duel = online_rulings.switch_duel(duel, request.user, online=online)
    except ServiceError as err:
        return _refused(request, tournament, err)
    title = presentation.duel_title(duel)
    done = (
        _("%(duel)s is played online: each player on their own device.")
        if online
        else _("%(duel)s is played at a table, with a referee.")
    ) % {"duel": title}
    return succeeded(request, done, "rounds", tournament)


@tournament_view(Action.NAME_REPRESENTATIVES)
@require_POST
def extend_wait(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """ "Extend the wait": five more minutes before a player not ready forfeits. The form
    carries the deadline its page showed, so that a second press is told, not added."""
    duel = _duel(tournament, duel_id)
    seen = None
    if text := request.POST.get("seen", "")[:64]:
        try:
            seen = datetime.fromisoformat(text)
        except ValueError:
            seen = None
    try:
        duel = online_rulings.extend_wait(duel, request.user, seen=seen)
    except ServiceError as err:
        return _refused(request, tournament, err)
    from tournaments.services.refereeing import venue_time

    return succeeded(
        request,
        _("%(duel)s: the players now have until %(time)s to be ready.")
        % {"duel": presentation.duel_title(duel), "time": venue_time(tournament, duel.ready_by)},
        "rounds",
        tournament,
    )


@tournament_view(Action.NAME_REPRESENTATIVES)
@require_POST
def rule_unready(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """The ruling on a duel neither player was ready for or both abandoned: one seat
    forfeits, one seat wins by adjudication, or it is voided (a group duel without a result, a
    tie-break or playoff duel replayed). Irreversible: the form's box confirms it."""
    duel = _duel(tournament, duel_id)
    ruling = request.POST.get("ruling", "")[:20]
    if ruling not in online_rulings.RULINGS:
        return _refused(
            request,
            tournament,
            ServiceError(_("Choose a forfeit of one seat, an adjudication or a void.")),
        )
    if not confirmed(request):
        return _refused(
            request,
            tournament,
            ServiceError(_("Tick the box to confirm the ruling: it cannot be undone here.")),
        )
    abandoned = online_rulings.both_abandoned(duel)
    try:
        duel = online_rulings.rule_unready(duel, request.user, ruling)
    except ServiceError as err:
        return _refused(request, tournament, err)
    title = presentation.duel_title(duel)
    # The seat the ruling names (the one forfeiting, or the one adjudicated the win).
    named, other = (duel.seat_a, duel.seat_b) if ruling[-1] == "A" else (duel.seat_b, duel.seat_a)
    if ruling == "void" and duel.kind in lifecycle.GROUP_KINDS:
        done = _("%(duel)s is void: that round has no result.") % {"duel": title}
    elif ruling == "void":
        done = _("%(duel)s is void: it is replayed with a new deal.") % {"duel": title}
    elif ruling.startswith("adjudicate"):
        done = _("%(duel)s: adjudicated to %(winner)s.") % {"duel": title, "winner": named.name}
    else:
        done = (
            _("%(duel)s: %(loser)s forfeits (abandoned); %(winner)s wins.")
            if abandoned
            else _("%(duel)s: %(loser)s forfeits (not ready); %(winner)s wins.")
        ) % {
            "duel": title,
            "loser": named.name,
            "winner": other.name,
        }
    return succeeded(request, done, "rounds", tournament)
