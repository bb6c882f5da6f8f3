"""The audit log: every change of tournament state but a running duel's moves."""

from typing import Any

from ..models import AuditEntry, Tournament


def record(tournament: Tournament, actor, action: str, reason: str = "", **detail: Any) -> None:
    AuditEntry.objects.create(
        tournament=tournament, actor=actor, action=action, detail=detail, reason=reason[:300]
    )


def bump_version(tournament: Tournament) -> int:
    """The standings version changes on every change of tournament state (the public ETag).

    Once the change commits, the lean poll path's copy of the version is rewritten (issue 15),
    so no poll is answered 304 from the old one (until then the old version is still what
    every reader sees), a worker renders the new version's live fragments ahead (and pushes
    them to the public pages' streams), and the tournament's private pages hear of it by push
    (`tournament:<pk>`, issue 28).
    """
    from django.db import transaction
    from django.db.models import F

    from core.publish import publish_at_commit

    from ..live_cache import forget_version, publish_version, version_entry
    from ..tasks import enqueue_on_commit, warm_live_pages

    Tournament.objects.filter(pk=tournament.pk).update(standings_version=F("standings_version") + 1)
    tournament.refresh_from_db(fields=["standings_version"])
    slug, entry = tournament.slug, version_entry(tournament)
    # Forgotten now, so that this connection's next read cannot be answered from the old copy;
    # rewritten at commit, over whatever a reader of the old version put back meanwhile.
    forget_version(slug)
    transaction.on_commit(lambda: publish_version(slug, entry), robust=True)
    enqueue_on_commit(warm_live_pages, tournament.pk)
    publish_at_commit(f"tournament:{tournament.pk}", tournament.standings_version)
    return tournament.standings_version
