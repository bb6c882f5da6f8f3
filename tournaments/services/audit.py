"""The audit log: every change of tournament state but a running duel's moves."""

from typing import Any

from ..models import AuditEntry, Tournament


def record(tournament: Tournament, actor, action: str, reason: str = "", **detail: Any) -> None:
    AuditEntry.objects.create(
        tournament=tournament, actor=actor, action=action, detail=detail, reason=reason[:300]
    )


def bump_version(tournament: Tournament) -> int:
    """The standings version changes on every change of tournament state (the public ETag)."""
    from django.db.models import F

    Tournament.objects.filter(pk=tournament.pk).update(standings_version=F("standings_version") + 1)
    tournament.refresh_from_db(fields=["standings_version"])
    return tournament.standings_version
