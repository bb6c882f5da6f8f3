"""The tournament home: now playing, next up, the last results, leaders and placings."""

from typing import Any

from .. import format as fmt
from .. import read_models
from ..models import Entrant, Tournament
from ..selectors import round_states
from ..services.lifecycle import OPEN
from .coming import coming_next, playoff_stages_started
from .groups import group_summaries
from .lines import TOP_PLAYERS, duel_line, duel_queryset, rank_label
from .watch import tables

RECENT_RESULTS = 6


def now_playing(tournament: Tournament, recent: int = RECENT_RESULTS) -> dict[str, Any]:
    """What is being played (each running duel's public table: `watching`), what comes next,
    the last results (three queries, one more in the playoffs, one more while a duel runs:
    the moves of every running duel)."""
    rounds = round_states(tournament)
    open_round = next((n for n, state in rounds if state == "open"), None)
    open_rows = list(duel_queryset(tournament=tournament, status__in=OPEN).order_by("pk"))
    open_duels = [duel_line(d) for d in open_rows]
    coming = coming_next(tournament, rounds, open_duels, playoff_stages_started(tournament))
    return {
        "open_round": open_round,
        # A round voided with its replay still due is not decided (selectors.round_state).
        "decided_rounds": sum(1 for _, state in rounds if state == "decided"),
        "rounds_total": len(rounds) or fmt.ROUNDS,
        "watching": tables([d for d in open_rows if d.status == "running"]),
        "coming": coming,
        "recent": [
            duel_line(d)
            for d in duel_queryset(tournament=tournament, status="finished").order_by(
                "-finished_at", "-pk"
            )[:recent]
        ],
    }


def home(tournament: Tournament) -> dict[str, Any]:
    """Phase, now playing, next up, last results, leaders, groups, placings (six queries,
    one more in the playoffs, one more once placings are published)."""
    leaders = [
        {**r, "rank_label": rank_label(r["rank"], r["shared"], r["status"])}
        for r in read_models.standings(tournament)[:TOP_PLAYERS]
    ]
    return {
        **now_playing(tournament),
        "groups": group_summaries(tournament),
        "leaders": leaders,
        "placings": placings(tournament),
    }


def placings(tournament: Tournament) -> list[dict[str, Any]]:
    """Placings 1–4 as published (one query once there are any, none before)."""
    if not tournament.placings:
        return []
    by_player = {int(k): v for k, v in tournament.placings.items()}
    names = dict(Entrant.objects.filter(pk__in=by_player).values_list("pk", "name"))
    return [
        {"place": place, "name": names.get(player)}
        for player, place in sorted(by_player.items(), key=lambda kv: kv[1])
    ]
