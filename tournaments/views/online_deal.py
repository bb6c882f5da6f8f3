"""The whole deal of a finished online tournament duel (ONLINE.md 5, "after the end": every
seat and the organiser see every hand in the replay; the public replay, the duel's record,
shows public facts only). Its two players and the tournament's organisers and co-organisers;
anyone else is refused. Drawn by ``cardtable.replay`` as an online table's is."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from accounts.permissions import Action, can
from cardtable.replay import replay_page
from core.numbers import read_int
from duels.models import Duel
from play.errors import Hidden
from play.selectors import whole_deal

from .. import presentation
from ..access import tournament_view
from ..models import Tournament
from ..services import online


@tournament_view(Action.VIEW_PUBLIC)
@require_safe
def deal(request: HttpRequest, tournament: Tournament, duel_id: int) -> HttpResponse:
    """``?step=n``: the duel after its first n events, every hand shown; before the end, the
    duel's public page."""
    duel = (
        Duel.objects.select_related("seat_a", "seat_b", "game", "round")
        .filter(tournament=tournament, pk=duel_id, online=True)
        .first()
    )
    if duel is None:
        raise Http404(gettext("There is no such online duel."))
    seat = online.seat_of(duel, request.user)
    if seat is None and not can(request.user, Action.CORRECT_RESULTS, tournament):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(
            gettext("Only the duel's players and the tournament's organisers see the whole deal.")
        )
    watch = reverse("public:online_watch", args=[tournament.slug, duel.pk])
    if duel.game is None:  # not dealt yet: its page says so, as during play
        return redirect(watch)
    try:
        game_deal = whole_deal(duel.game, read_int(request.GET.get("step", "")))
    except Hidden:
        return redirect(watch)
    return replay_page(
        request,
        game_deal,
        names={"A": duel.seat_a.name, "B": duel.seat_b.name},
        team_of={"A": ("A",), "B": ("B",)},
        context={
            "title": presentation.duel_title(duel),
            "home_url": tournament.get_absolute_url(),
            "home_label": tournament.name,
            "back_url": reverse("player:online_duel", args=[duel.pk]) if seat else watch,
        },
    )
