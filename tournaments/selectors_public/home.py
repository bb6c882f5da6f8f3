"""The tournament home: now playing, next up, the last results, leaders and placings."""

from typing import Any

from .. import format as fmt
from .. import read_models
from ..models import Entrant, Phase, Round, RoundStatus, Tournament
from .groups import group_summaries
from .lines import OPEN, TOP_PLAYERS, duel_line, duel_queryset, rank_label

RECENT_RESULTS = 6


def now_playing(tournament: Tournament, recent: int = RECENT_RESULTS) -> dict[str, Any]:
    """What is being played, what comes next, the last results (three queries)."""
    rounds = list(Round.objects.filter(tournament=tournament).values_list("number", "status"))
    open_round = next((n for n, s in rounds if s == RoundStatus.OPEN), None)
    open_duels = [
        duel_line(d) for d in duel_queryset(tournament=tournament, status__in=OPEN).order_by("pk")
    ]
    # Round n + 1 opens with a decisive result; until a referee names its players it has no
    # duel, and spectators still want to know it is next.
    round_waiting = (
        open_round
        if tournament.phase == Phase.GROUP_PHASE
        and open_round
        and not any(d.group_phase for d in open_duels)
        else None
    )
    return {
        "open_round": open_round,
        "decided_rounds": sum(1 for _, s in rounds if s == RoundStatus.DECIDED),
        "rounds_total": len(rounds) or fmt.ROUNDS,
        "playing": [d for d in open_duels if d.status == "running"],
        "waiting": [d for d in open_duels if d.status != "running"],
        "round_waiting": round_waiting,
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
    from duels.models import Duel

    leaders = [
        {**r, "rank_label": rank_label(r["rank"], r["shared"], r["status"])}
        for r in read_models.standings(tournament)[:TOP_PLAYERS]
    ]
    later = []
    if tournament.phase in (Phase.PLAYOFFS, Phase.COMPLETE):
        stages = set(
            Duel.objects.filter(tournament=tournament, kind="playoff")
            .exclude(status__in=["void", "abandoned"])
            .values_list("stage", flat=True)
        )
        later = [fmt.STAGE_NAMES[s] for s in fmt.STAGES if s not in stages]
    return {
        **now_playing(tournament),
        "groups": group_summaries(tournament),
        "leaders": leaders,
        "later_stages": later,
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
