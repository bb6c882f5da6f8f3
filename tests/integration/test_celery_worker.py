"""The real path: a task goes through Redis to a worker in another process and changes
PostgreSQL; /readyz sees all three."""

import os
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from config.celery import app
from tests.factories import EntrantFactory, TournamentFactory
from tournaments.models import Entrant
from tournaments.tasks import expire_claim_links

from .conftest import WORKER_NAME

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_task_runs_in_a_worker_process_through_redis_and_changes_postgresql(
    celery_worker_process,
):
    assert connection.vendor == "postgresql"
    assert app.connection_for_write().transport.driver_type == "redis"
    assert not app.conf.task_always_eager
    tournament = TournamentFactory()
    stale = EntrantFactory(
        tournament=tournament,
        claim_token_hash="a" * 64,
        claim_expires_at=timezone.now() - timedelta(hours=1),
    )
    live = EntrantFactory(
        tournament=tournament,
        claim_token_hash="b" * 64,
        claim_expires_at=timezone.now() + timedelta(days=1),
    )

    result = expire_claim_links.apply_async(ignore_result=False)  # results are ignored else
    assert result.get(timeout=30) == 1
    assert result.worker.startswith(WORKER_NAME + "@")
    assert celery_worker_process.pid != os.getpid()

    stale_row = Entrant.objects.get(pk=stale.pk)
    assert stale_row.claim_token_hash == ""
    assert stale_row.claim_expires_at is None
    assert Entrant.objects.get(pk=live.pk).claim_token_hash == "b" * 64


def test_tasks_enqueued_on_commit_reach_the_worker_only_after_commit(celery_worker_process):
    import time

    from django.db import transaction

    entrant = EntrantFactory(
        claim_token_hash="c" * 64, claim_expires_at=timezone.now() - timedelta(hours=1)
    )
    with transaction.atomic():
        expire_claim_links.delay_on_commit()
        # Had the task been sent now, the worker would already have cleared the committed row
        # (PostgreSQL's read committed shows us its commit).
        time.sleep(2)
        assert Entrant.objects.get(pk=entrant.pk).claim_token_hash == "c" * 64
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if Entrant.objects.get(pk=entrant.pk).claim_token_hash == "":
            break
        time.sleep(0.1)
    assert Entrant.objects.get(pk=entrant.pk).claim_token_hash == ""


def test_readyz_reports_database_redis_and_worker(client, celery_worker_process):
    from django.core.cache import cache

    cache.delete("readyz:worker")
    body = client.get("/readyz").json()
    assert body["ok"] is True
    assert body["database"]["vendor"] == "postgresql"
    assert body["redis"] == {"ok": True, "configured": True}
    assert body["celery"]["mode"] == "worker"
    assert body["celery"]["ok"] is True
