"""Both groups: totals, status, members now, and the charts' series."""

from typing import Any

from django.utils.translation import gettext, ngettext

from .. import charts, read_models
from .. import format as fmt
from ..models import Entrant, EntrantStatus, Group, Tournament
from .lines import TOP_PLAYERS


def group_summaries(tournament: Tournament) -> list[dict[str, Any]]:
    """Both groups with their total and status, first-named first (one query)."""
    out = []
    for group in Group.objects.filter(tournament=tournament).select_related("total"):
        total = group.total if hasattr(group, "total") else None  # none before the start
        out.append(
            {
                "id": group.pk,
                "name": group.name,
                "order": group.order,
                "total": total.total if total else 0,
                "status": total.status if total else "active",
                "by_round": list(total.by_round) if total else [],
                "eliminated_at_round": group.eliminated_at_round,
            }
        )
    return out


def groups(tournament: Tournament) -> dict[str, Any]:
    """Group totals, members now, and the two charts (four queries)."""
    from ..services.standings import group_duels

    summaries = group_summaries(tournament)
    members: dict[int, list[str]] = {}
    for group_id, name in (
        Entrant.objects.filter(
            tournament=tournament, status=EntrantStatus.ACTIVE, group__isnull=False
        )
        .order_by("name")
        .values_list("group_id", "name")
    ):
        members.setdefault(group_id, []).append(name)
    duels = group_duels(tournament)
    played = max((d.round for d in duels if d.winner is not None), default=0)
    group_chart = charts.line_chart(
        [(g["name"], g["by_round"][:played]) for g in summaries],
        rounds=fmt.ROUNDS,
        title=gettext("Group totals after each round"),
        series_prefix="group",
    )
    rows = read_models.standings(tournament)
    top = [r for r in rows if r["rank"] is not None][:TOP_PLAYERS]
    progress = player_progress(duels, [r["player"] for r in top], played)
    player_chart = charts.line_chart(
        [(r["name"], progress[r["player"]]) for r in top],
        rounds=fmt.ROUNDS,
        title=ngettext(
            "Points of the top player after each round",
            "Points of the top %(n)s players after each round",
            len(top),
        )
        % {"n": len(top)},
    )
    for g in summaries:
        g["members"] = members.get(g["id"], [])
    return {
        "groups": summaries,
        "played": played,
        "group_chart": group_chart,
        "player_chart": player_chart,
    }


def player_progress(
    duels: list[fmt.GroupDuel], players: list[int], played: int
) -> dict[int, list[int]]:
    """Each player's points after rounds 1..`played` (+3 a win, −2 a loss, as it counts)."""
    gained = {p: [0] * played for p in players}
    for duel in duels:
        if duel.winner is None or duel.round > played:
            continue
        for player, points in fmt.duel_points(duel).items():
            if player in gained:
                gained[player][duel.round - 1] += points
    out = {}
    for player, steps in gained.items():
        total, series = 0, []
        for step in steps:
            total += step
            series.append(total)
        out[player] = series
    return out
