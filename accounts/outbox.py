"""The notification outbox: a notification lost with Redis, or held by a worker that died, goes
out within a minute, and once.

A notification task (declared with `outbox=True`) is not only sent at commit: a
`DueNotification` row is written in the transaction of the event it tells of, and the task,
sent with the row's id (`due=`), marks it done when it has run. Beat's
`send_due_notifications` (every 10 s) sends again every row still due `RESEND` seconds after
it was sent, then after twice that, and so on (`MAX_SENDS` in all). The task reads committed
data and sends each mail once (`notifications.send_once` and its keys), so a second run, or
the first one handed out again by Redis after the visibility timeout, sends nothing.

A row still not done when it falls due after its last send is given up: marked
`gave_up_at`, logged as an error once (task, arguments, sends), never sent again, and kept
`KEEP_GIVEN_UP` for whoever looks into it. A task the worker does not know is left as it
is (counted): the worker of a deploy under way may know it in a minute.

Why a table and not a shorter visibility timeout: that timeout must outlast the longest task
(90 s), and a task Redis lost (Redis down at commit) has nothing to hand out again.
"""

import logging
from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from typing import Any

from django.utils import timezone

from core import redis_guard

from .models import DueNotification

logger = logging.getLogger(__name__)

RESEND = timedelta(seconds=20)  # after this, a notification not done is sent again
# Sent at 20 s, 40 s later, 80 s later, …: the 8th send about 42 minutes after the first; a
# row still not done when due after it (about 43 minutes later) is given up.
MAX_SENDS = 8
KEEP_DONE = timedelta(days=1)
KEEP_GIVEN_UP = timedelta(days=7)  # long enough to be looked into after a weekend


def notify_on_commit(task: Any, *args: Any) -> DueNotification:
    """Write the notification to the outbox now, send its task at commit."""
    due = DueNotification.objects.create(
        task=task.name, args=list(args), next_send_at=timezone.now() + RESEND
    )
    redis_guard.send_on_commit(task, *args, kwargs={"due": due.pk})
    return due


def outboxed(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The body of a notification task: run it, then mark its outbox row done."""

    @wraps(fn)
    def run(*args: Any, due: int | None = None) -> Any:
        value = fn(*args)
        if due is not None:
            DueNotification.objects.filter(pk=due, done_at__isnull=True).update(
                done_at=timezone.now()
            )
        return value

    # Read by the test that holds every `outbox=True` task to this decorator: without it the
    # task is refused its `due=` keyword and never sent (found once, after a merge).
    run.outboxed = True  # type: ignore[attr-defined]
    return run


def send_due(tasks: dict[str, Any], now: Any = None) -> dict[str, int]:
    """Send again every notification still due, give up those due after their last send;
    forget those done a day ago and those given up a week ago. `tasks` is the Celery app's
    registry (a name the worker does not know is left and counted)."""
    now = now or timezone.now()
    done = {"sent": 0, "unknown": 0, "gave_up": 0}
    due = DueNotification.objects.filter(
        done_at__isnull=True, gave_up_at__isnull=True, next_send_at__lte=now
    )
    for row in due.order_by("next_send_at")[:500]:
        task = tasks.get(row.task)
        if task is None:
            done["unknown"] += 1
            continue
        if row.sends >= MAX_SENDS:
            # Marked only if still not done (the last send may finish as we look): one sweep
            # gives it up and logs it, once.
            if DueNotification.objects.filter(pk=row.pk, done_at__isnull=True).update(
                gave_up_at=now
            ):
                done["gave_up"] += 1
                logger.error(
                    "notification given up after %d sends since %s, never done: %s%r "
                    "(outbox row %d; see the worker's log for why)",
                    row.sends,
                    row.created_at.isoformat(timespec="seconds"),
                    row.task,
                    tuple(row.args),
                    row.pk,
                )
            continue
        DueNotification.objects.filter(pk=row.pk).update(
            sends=row.sends + 1, next_send_at=now + RESEND * 2**row.sends
        )
        done["sent"] += redis_guard.send(task, row.args, kwargs={"due": row.pk})
    DueNotification.objects.filter(done_at__lt=now - KEEP_DONE).delete()
    DueNotification.objects.filter(
        done_at__isnull=True, gave_up_at__lt=now - KEEP_GIVEN_UP
    ).delete()
    return done
