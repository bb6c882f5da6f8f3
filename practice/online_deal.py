"""The whole deal of a finished online table (ONLINE.md 5, "after the end": every seat sees
every hand in the replay). For the table's people only, as its other pages (404 for anyone
else); before the end, the table itself. Drawn by ``cardtable.replay``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from cardtable.replay import replay_page
from core.numbers import read_int
from play.errors import Hidden
from play.selectors import whole_deal

from . import online
from .models import OnlineTable
from .online_views import NO_SUCH_TABLE
from .words import seat_names


@login_required
@require_safe
def deal(request: HttpRequest, table_id: int) -> HttpResponse:
    """``?step=n``: the game after its first n events, every hand shown."""
    try:
        lobby = online.lobby(table_id, request.user)
    except OnlineTable.DoesNotExist:
        raise Http404(gettext(NO_SUCH_TABLE)) from None
    table = lobby.table
    back = reverse("practice:online", args=[table.pk])
    if table.game is None:
        return redirect(back)
    try:
        game_deal = whole_deal(table.game, read_int(request.GET.get("step", "")))
    except Hidden:
        return redirect(back)
    letters = list(game_deal.view["state"]["seats"])
    return replay_page(
        request,
        game_deal,
        names=seat_names(lobby.players, letters),
        team_of={letter: table.seating.team_of(letter) for letter in letters},
        context={
            "title": gettext("Online table"),
            "home_url": reverse("practice:index") + "#online-heading",
            "home_label": gettext("Practice"),
            "back_url": back,
        },
    )
