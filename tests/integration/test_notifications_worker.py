"""Notifications through a real Celery worker (issue 16): a task delivered twice sends once."""

import pytest

from accounts.models import SentNotification
from tests.factories import EntrantFactory, UserFactory, group_phase_duel
from tournaments.tasks import notify_named

from .conftest import WORKER_NAME

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_notification_task_delivered_twice_sends_once(celery_worker_process):
    duel, _ = group_phase_duel()
    player = UserFactory(notify_by_email=True, email="ada@example.org")
    EntrantFactory._meta.model.objects.filter(pk=duel.seat_a_id).update(user=player)
    first = notify_named.apply_async([duel.pk], ignore_result=False)  # ignored by default
    assert first.get(timeout=30) == 1  # the worker's mail backend sent one message
    assert first.worker.startswith(WORKER_NAME + "@")
    again = notify_named.apply_async([duel.pk], ignore_result=False)
    assert again.get(timeout=30) == 0  # the idempotency record stops the second
    assert list(SentNotification.objects.values_list("key", flat=True)) == [
        f"named:{duel.pk}:{duel.seat_a_id}"
    ]
