"""The tournament's push topics (issue 28; core.push).

- `tournament:<pk>` (private: its version only): the pages of the tournament's own people —
  `/me/`, the consoles, the organiser's pages — fetch what changed through their own views;
- `public:<slug>:<part>`: a public page's `live` part or a big-screen panel, carried in the
  message itself (tournaments.live_cache pushes them once per version, and for each move of
  a running duel);
- `duel:<pk>`: its referees' consoles (the game's revision only). A duel's game is dealt at
  its first move, so a console open before it follows the duel, not the game: each change
  of a duel's game is announced again under the duel's topic (`on_news`).

A topic is followed by whoever may see what it is about; its token is issued by the page's
own view, or renewed through core.views.stream_token with the checks below.
"""

from __future__ import annotations

import logging

from django.db.models import Q
from django.http import HttpRequest

from accounts.permissions import Action, can, can_view
from core import push, redis_guard
from duels.models import Duel

from .models import Tournament

logger = logging.getLogger(__name__)


def tournament_topic(tournament: Tournament) -> str:
    return f"tournament:{tournament.pk}"


def on_news(topic: str, version: int | str | None) -> None:
    """`core.publish`'s listener: a tournament duel's game changed. Its consoles hear of it
    (`duel:<pk>`), and, the tournament being published, the public parts that show the
    running duel to the room are pushed again (a task: a move is no new version)."""
    if not topic.startswith("game:") or not push.enabled():
        return
    from duels.models import Duel

    from .tasks import push_playing

    game_id = topic.partition(":")[2]
    if not game_id.isdigit():
        return
    row = (
        Duel.objects.filter(game_id=int(game_id))
        .values_list("pk", "tournament_id", "tournament__published")
        .first()
    )
    if row is None:
        return
    duel_id, tournament_id, published = row
    push.send(f"duel:{duel_id}", version)
    if published:
        redis_guard.send(push_playing, (tournament_id, duel_id))


def _tournament(key: str) -> Tournament | None:
    return Tournament.objects.filter(pk=int(key)).first() if key.isdigit() else None


def _may_follow_tournament(request: HttpRequest, key: str) -> bool:
    tournament = _tournament(key)
    return tournament is not None and can_view(request.user, tournament)


def _may_follow_public(request: HttpRequest, key: str) -> bool:
    slug, _, part = key.partition(":")
    tournament = Tournament.objects.filter(slug=slug).first()
    return bool(part) and tournament is not None and can_view(request.user, tournament)


def _may_follow_duel(request: HttpRequest, key: str) -> bool:
    """Those who may open the duel's console: its tournament's referees and organisers, but
    never one of its own players (a referee never referees a duel they play in)."""
    from duels.models import Duel
    from duels.selectors import player_ids

    duel = Duel.objects.filter(pk=int(key)).select_related("tournament").first()
    if duel is None or not can(request.user, Action.REFEREE_DUELS, duel.tournament):
        return False
    return request.user.pk not in set(player_ids(duel))


def _may_follow_online_duel(request: HttpRequest, key: str) -> bool:
    """A game's news (push) for the two players of the online duel it is (ONLINE.md 6)."""
    user = request.user
    return user.is_authenticated and (
        Duel.objects.filter(game_id=int(key), online=True)
        .filter(Q(seat_a__user=user) | Q(seat_b__user=user))
        .exists()
    )


def register_topics() -> None:
    push.register("tournament", _may_follow_tournament)
    push.register("public", _may_follow_public)
    push.register("duel", _may_follow_duel)
    push.register("game", _may_follow_online_duel)
