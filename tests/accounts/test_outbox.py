"""The notification outbox (accounts.outbox): a notification whose task was lost (Redis down
at commit) or held by a worker that died is sent again by the sweep, and sent once."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts import outbox
from accounts.models import DueNotification, SentNotification
from config.celery import app
from tests.factories import EntrantFactory, UserFactory, group_phase_duel
from tests.tournaments.helpers import finish
from tournaments.services import name_representatives

pytestmark = pytest.mark.django_db


@pytest.fixture
def named(django_capture_on_commit_callbacks):
    """A round-2 duel to name, its seat A player opted in to mail."""
    duel, referee = group_phase_duel()
    tournament = duel.tournament
    finish(duel, referee, "A")
    reds, blues = tournament.groups.order_by("order")
    cara = EntrantFactory(
        tournament=tournament,
        group=reds,
        name="Cara",
        user=UserFactory(username="cara", notify_by_email=True, email="cara@example.org"),
    )
    dan = EntrantFactory(tournament=tournament, group=blues, name="Dan", user=UserFactory())
    mail.outbox.clear()
    return tournament, referee, cara, dan


def test_a_notification_sent_at_commit_is_written_to_the_outbox_and_done(
    named, django_capture_on_commit_callbacks
):
    tournament, referee, cara, dan = named
    with django_capture_on_commit_callbacks(execute=True):
        duel = name_representatives(tournament, referee, 2, cara.pk, dan.pk)
    row = DueNotification.objects.get()
    assert (row.task, row.args) == ("tournaments.tasks.notify_named", [duel.pk])
    assert row.done_at is not None
    assert len(mail.outbox) == 1
    # Nothing is due: the sweep sends nothing again.
    later = timezone.now() + timedelta(minutes=5)
    assert outbox.send_due(app.tasks, now=later) == {"sent": 0, "unknown": 0, "gave_up": 0}
    assert len(mail.outbox) == 1


def test_a_lost_notification_is_sent_by_the_sweep_once(
    named, monkeypatch, django_capture_on_commit_callbacks
):
    from core import redis_guard

    tournament, referee, cara, dan = named
    lost: list = []
    real_send = redis_guard.send
    # The task never reaches a worker (Redis down at commit, or the worker that took it died).
    monkeypatch.setattr(redis_guard, "send", lambda task, args=(), **kw: lost.append(task))
    with django_capture_on_commit_callbacks(execute=True):
        duel = name_representatives(tournament, referee, 2, cara.pk, dan.pk)
    assert "tournaments.tasks.notify_named" in [task.name for task in lost]
    assert mail.outbox == []
    row = DueNotification.objects.get()
    assert row.done_at is None
    monkeypatch.setattr(redis_guard, "send", real_send)
    # Not yet due: a task in flight is given its time first.
    assert outbox.send_due(app.tasks)["sent"] == 0
    due = row.next_send_at
    assert outbox.send_due(app.tasks, now=due) == {"sent": 1, "unknown": 0, "gave_up": 0}
    assert [m.to for m in mail.outbox] == [["cara@example.org"]]
    row.refresh_from_db()
    assert row.done_at is not None and row.sends == 2
    # Again, and the lost task handed out late by Redis: nothing more is sent.
    assert outbox.send_due(app.tasks, now=due + timedelta(hours=1))["sent"] == 0
    app.tasks["tournaments.tasks.notify_named"].apply(args=[duel.pk], kwargs={"due": row.pk})
    assert len(mail.outbox) == 1
    assert SentNotification.objects.filter(user=cara.user).count() == 1


def test_a_notification_still_failing_is_sent_again_less_and_less_often(named, monkeypatch):
    from core import redis_guard

    tournament, referee, cara, dan = named
    sent: list = []
    monkeypatch.setattr(redis_guard, "send", lambda task, args=(), **kw: sent.append(1) or True)
    row = DueNotification.objects.create(
        task="tournaments.tasks.notify_named", args=[1], next_send_at=timezone.now()
    )
    gaps = []
    for _ in range(outbox.MAX_SENDS + 2):
        row.refresh_from_db()
        if outbox.send_due(app.tasks, now=row.next_send_at)["sent"]:
            gaps.append(DueNotification.objects.get(pk=row.pk).next_send_at - row.next_send_at)
    assert len(sent) == outbox.MAX_SENDS - 1  # the first send was at commit
    assert gaps == sorted(gaps) and gaps[0] == outbox.RESEND * 2


def test_a_notification_never_done_is_given_up_once_said_and_kept_a_week(monkeypatch, caplog):
    # Left due for ever after its last send, it used to be skipped by every sweep silently.
    import logging

    from core import redis_guard

    monkeypatch.setattr(redis_guard, "send", lambda task, args=(), **kw: True)
    now = timezone.now()
    row = DueNotification.objects.create(
        task="tournaments.tasks.notify_named", args=[7], next_send_at=now, sends=outbox.MAX_SENDS
    )
    with caplog.at_level(logging.ERROR, logger="accounts.outbox"):
        assert outbox.send_due(app.tasks, now=now) == {"sent": 0, "unknown": 0, "gave_up": 1}
        assert outbox.send_due(app.tasks, now=now + timedelta(days=1))["gave_up"] == 0
    row.refresh_from_db()
    assert row.gave_up_at == now and row.done_at is None
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "tournaments.tasks.notify_named(7,)" in errors[0]
    outbox.send_due(app.tasks, now=now + outbox.KEEP_GIVEN_UP - timedelta(minutes=1))
    assert DueNotification.objects.filter(pk=row.pk).exists()
    outbox.send_due(app.tasks, now=now + outbox.KEEP_GIVEN_UP + timedelta(minutes=1))
    assert not DueNotification.objects.filter(pk=row.pk).exists()


def test_a_task_the_worker_does_not_know_is_left_and_counted():
    DueNotification.objects.create(task="gone.tasks.nothing", args=[], next_send_at=timezone.now())
    assert outbox.send_due(app.tasks) == {"sent": 0, "unknown": 1, "gave_up": 0}


def test_done_rows_are_forgotten_after_a_day():
    old = DueNotification.objects.create(task="x", args=[], next_send_at=timezone.now())
    DueNotification.objects.filter(pk=old.pk).update(done_at=timezone.now() - timedelta(days=2))
    outbox.send_due(app.tasks)
    assert not DueNotification.objects.filter(pk=old.pk).exists()


def test_every_task_declared_for_the_outbox_marks_its_row_done():
    """A task declared `outbox=True` is sent with `due=<row>`; one merged without `@outboxed`
    refused that keyword, so every send failed (logged) and its mail never went out."""
    from tests.test_operations_doc import registered

    tasks = [app.tasks[name] for name in sorted(registered())]
    declared = {task.name for task in tasks if getattr(task, "outbox", False)}
    decorated = {task.name for task in tasks if getattr(task.run, "outboxed", False)}
    assert "tournaments.tasks.notify_withdrawal_undone" in declared
    assert declared == decorated
    for name in declared:
        # Celery's own check of a call's arguments before sending, which refused `due=`.
        app.tasks[name].__header__(1, due=1)
