"""The tournament's push topics (issue 28; core.push).

- `tournament:<pk>` (private: its version only): the pages of the tournament's own people —
  `/me/`, the consoles, the organiser's pages — fetch what changed through their own views;
- `public:<slug>:<part>`: a public page's `live` part or a big-screen panel, carried in the
  message itself (tournaments.live_cache pushes them once per version, and for each move of
  a running duel);
- `game:<pk>` of a tournament duel: its referee's console (its revision only).

A topic is followed by whoever may see what it is about; its token is issued by the page's
own view, or renewed through core.views.stream_token with the checks below.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest

from accounts.permissions import Action, can, can_view
from core import push, redis_guard

from .models import Tournament

logger = logging.getLogger(__name__)


def tournament_topic(tournament: Tournament) -> str:
    return f"tournament:{tournament.pk}"


def on_news(topic: str, version: object) -> None:
    """`core.publish`'s listener: a tournament duel's move (no new tournament version) is
    shown to the room, so the public parts that draw it are pushed again (a task)."""
    if not topic.startswith("game:") or not push.enabled():
        return
    from duels.models import Duel

    from .tasks import push_playing

    game_id = topic.partition(":")[2]
    if not game_id.isdigit():
        return
    tournament_id = (
        Duel.objects.filter(game_id=int(game_id), tournament__published=True)
        .values_list("tournament_id", flat=True)
        .first()
    )
    if tournament_id is not None:
        redis_guard.send(push_playing, (tournament_id,))


def _tournament(key: str) -> Tournament | None:
    return Tournament.objects.filter(pk=int(key)).first() if key.isdigit() else None


def _may_follow_tournament(request: HttpRequest, key: str) -> bool:
    tournament = _tournament(key)
    return tournament is not None and can_view(request.user, tournament)


def _may_follow_public(request: HttpRequest, key: str) -> bool:
    slug, _, part = key.partition(":")
    tournament = Tournament.objects.filter(slug=slug).first()
    return bool(part) and tournament is not None and can_view(request.user, tournament)


def _may_follow_game(request: HttpRequest, key: str) -> bool:
    from duels.models import Duel

    duel = Duel.objects.filter(game_id=int(key)).select_related("tournament").first()
    return duel is not None and can(request.user, Action.REFEREE_DUELS, duel.tournament)


def register_topics() -> None:
    push.register("tournament", _may_follow_tournament)
    push.register("public", _may_follow_public)
    push.register("game", _may_follow_game)
