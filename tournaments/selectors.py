"""Reads: what a page shows, in a fixed number of queries."""

from dataclasses import dataclass

from django.db.models import Count, Q

from accounts.models import TournamentRole

from .models import Entrant, Tournament


@dataclass(frozen=True)
class MyTournament:
    tournament: Tournament
    roles: tuple[str, ...]
    entry: str | None


def tournaments_for_user(user) -> list[MyTournament]:
    """The tournaments someone runs, referees or plays in, newest first (three queries)."""
    roles: dict[int, list[str]] = {}
    for t_id, role in TournamentRole.objects.filter(user=user).values_list("tournament_id",
                                                                            "role"):
        roles.setdefault(t_id, []).append(role)
    entries = dict(Entrant.objects.filter(user=user).values_list("tournament_id", "name"))
    ids = set(roles) | set(entries)
    found = Tournament.objects.filter(Q(created_by=user) | Q(pk__in=ids)).order_by(
        "-created_at"
    )
    rows = []
    for tournament in found:
        mine = list(roles.get(tournament.pk, []))
        if tournament.created_by_id == user.pk:
            mine.insert(0, "organiser")
        rows.append(MyTournament(tournament, tuple(dict.fromkeys(mine)),
                                 entries.get(tournament.pk)))
    return rows


def published_tournaments(limit: int = 50) -> list[Tournament]:
    return list(
        Tournament.objects.filter(published=True)
        .annotate(entrant_count=Count("entrants"))
        .order_by("-created_at")[:limit]
    )
