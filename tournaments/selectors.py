"""Reads: what a page shows, in a fixed number of queries."""

from dataclasses import dataclass

from django.db.models import Count, Q

from accounts.models import TournamentRole

from .models import Entrant, Phase, Tournament
from .services.lifecycle import GROUP_KINDS, OPEN, due_group_replays


@dataclass(frozen=True)
class MyTournament:
    tournament: Tournament
    roles: tuple[str, ...]
    entry: str | None


def tournaments_for_user(user) -> list[MyTournament]:
    """The tournaments someone runs, referees or plays in, newest first (three queries)."""
    roles: dict[int, list[str]] = {}
    for t_id, role in TournamentRole.objects.filter(user=user).values_list("tournament_id", "role"):
        roles.setdefault(t_id, []).append(role)
    entries = dict(Entrant.objects.filter(user=user).values_list("tournament_id", "name"))
    ids = set(roles) | set(entries)
    found = Tournament.objects.filter(Q(created_by=user) | Q(pk__in=ids)).order_by("-created_at")
    rows = []
    for tournament in found:
        mine = list(roles.get(tournament.pk, []))
        if tournament.created_by_id == user.pk:
            mine.insert(0, "organiser")
        rows.append(
            MyTournament(tournament, tuple(dict.fromkeys(mine)), entries.get(tournament.pk))
        )
    return rows


def published_tournaments(limit: int = 50) -> list[Tournament]:
    return list(
        Tournament.objects.filter(published=True)
        .annotate(entrant_count=Count("entrants"))
        .order_by("-created_at")[:limit]
    )


def membership_at(changes, round_number: int) -> dict[int, list[int]]:
    """Each group's members for round `round_number` (group id → entrant ids), from the
    membership rows `(entrant, group, since_round)` in the order they were made: the latest row
    at or before the round wins (TOURNAMENT.md "Fluid membership")."""
    latest: dict[int, int | None] = {}
    for entrant, group, since in changes:
        if since <= round_number:
            latest[entrant] = group
    groups: dict[int, list[int]] = {}
    for entrant, group in latest.items():
        if group is not None:
            groups.setdefault(group, []).append(entrant)
    return {g: sorted(members) for g, members in groups.items()}


def membership_rows(tournament: Tournament) -> list[tuple[int, int | None, int]]:
    from .models import Membership

    return list(
        Membership.objects.filter(entrant__tournament=tournament)
        .order_by("since_round", "pk")
        .values_list("entrant_id", "group_id", "since_round")
    )


def members_at_round(tournament: Tournament, round_number: int) -> dict[int, list[int]]:
    """Each group's members as they were for round `round_number`. One query."""
    return membership_at(membership_rows(tournament), round_number)


# -- rounds and the tie-break plan as the event stands ---------------------------------------


def round_state(status: str, decisive: bool, replay_due: bool) -> str:
    """What a round is, as every page shows and counts it.

    A round's row stays "decided" once the next round has started, even when its decisive
    result was voided or corrected to none (`lifecycle.undecide_round`): its replay counts
    when it is played. Until then it is not decided: "replay_due" while its replay waits,
    "voided" if none does."""
    if status != "decided" or decisive:
        return status
    return "replay_due" if replay_due else "voided"


def round_states(tournament: Tournament) -> list[tuple[int, str]]:
    """Each round's number and state (`round_state`), in order (one query)."""
    from django.db.models import Exists, OuterRef

    from duels.models import Duel

    from .models import Round

    group_duels = Duel.objects.filter(round=OuterRef("pk"), kind__in=GROUP_KINDS)
    rows = (
        Round.objects.filter(tournament=tournament)
        .annotate(
            decisive=Exists(group_duels.filter(status="finished", result__winner__isnull=False)),
            due=Exists(group_duels.filter(status__in=OPEN)),
        )
        .order_by("number")
        .values_list("number", "status", "decisive", "due")
    )
    return [(n, round_state(status, decisive, due)) for n, status, decisive, due in rows]


def plan_provisional(tournament: Tournament) -> bool:
    """TOURNAMENT.md "Corrections": while a group round's replay is due during the
    tie-breaks, the tie-break plan is provisional and positions 1–4 are not settled (one
    query, none outside the tie-breaks). The pages ask it here; what counts as due is
    `lifecycle.due_group_replays`, the same that holds the automation's plan and the playoffs
    back, so a page never calls provisional what the automation does not (or the reverse)."""
    return tournament.phase == Phase.TIE_BREAKS and due_group_replays(tournament).exists()
