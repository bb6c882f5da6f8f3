"""Materialised standings: rebuilt from results by the format rules, never edited."""

from django.db import transaction

from .. import format as fmt
from ..models import Entrant, GroupTotal, StandingRow, Tournament
from . import audit


def group_duels(tournament: Tournament) -> list[fmt.GroupDuel]:
    """Every group-phase duel with a result, as it counts (corrections applied): one query."""
    from duels.models import Duel, DuelKind, DuelStatus

    rows = Duel.objects.filter(
        tournament=tournament,
        kind__in=[DuelKind.GROUP, DuelKind.REPLAY],
        status=DuelStatus.FINISHED,
    ).values_list(
        "round__number", "seat_a_id", "group_a_id", "seat_b_id", "group_b_id", "result__winner_id"
    )
    return [fmt.GroupDuel(*row) for row in rows]


def group_ids(tournament: Tournament) -> list[int]:
    return list(tournament.groups.order_by("order").values_list("pk", flat=True))


@transaction.atomic
def recompute_standings(tournament: Tournament) -> int:
    """Rebuild the individual and group tables from results; returns the version.

    A fixed number of queries whatever the tournament's size. Safe to repeat: when nothing
    changed, nothing is written and the version stays.
    """
    duels = group_duels(tournament)
    entrants = list(
        Entrant.objects.filter(tournament=tournament).values_list(
            "pk", "name", "status", "group_id"
        )
    )
    rows = fmt.individual_standings(
        [fmt.Entrant(pk, name, status) for pk, name, status, _ in entrants], duels
    )
    new_rows = [
        (row.player, row.points, row.played, row.won, row.lost, row.rank, index)
        for index, row in enumerate(rows, start=1)
    ]
    groups = list(tournament.groups.order_by("order"))
    pair = [g.pk for g in groups]
    eliminated = next((g.pk for g in groups if g.eliminated_at_round), None)
    over = tournament.group_phase_ended_at is not None
    standing = {
        row.group: row
        for row in fmt.group_standings(
            pair,
            duels,
            phase_over=over,
            eliminated=eliminated,
            membership={
                pk: group
                for pk, _, status, group in entrants
                if group is not None and status == fmt.ACTIVE
            },
        )
    }
    progression = fmt.group_progression(duels, pair)
    new_totals = [
        (pk, standing[pk].total, standing[pk].status, [step.totals[pk] for step in progression])
        for pk in pair
    ]
    old_rows = list(
        StandingRow.objects.filter(tournament=tournament)
        .order_by("position")
        .values_list("entrant_id", "points", "played", "won", "lost", "rank", "position")
    )
    old_totals = list(
        GroupTotal.objects.filter(group__in=pair)
        .order_by("group__order")
        .values_list("group_id", "total", "status", "by_round")
    )
    if old_rows == new_rows and old_totals == new_totals:
        return tournament.standings_version  # nothing changed: same version, same ETag
    StandingRow.objects.filter(tournament=tournament).delete()
    StandingRow.objects.bulk_create(
        [
            StandingRow(
                tournament=tournament,
                entrant_id=e,
                points=p,
                played=pl,
                won=w,
                lost=lo,
                rank=r,
                position=pos,
            )
            for e, p, pl, w, lo, r, pos in new_rows
        ]
    )
    GroupTotal.objects.filter(group__in=pair).delete()
    GroupTotal.objects.bulk_create(
        [
            GroupTotal(group_id=pk, total=total, status=status, by_round=by_round)
            for pk, total, status, by_round in new_totals
        ]
    )
    return audit.bump_version(tournament)
