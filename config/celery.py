"""The Celery app: Redis as broker when configured, eager in-process otherwise."""

import os

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("split_uno")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Celery's own beat schedule: no database scheduler (django-celery-beat would hold Django
# below 6.1). The sweep tasks are idempotent, so a missed or doubled run does no harm.
app.conf.beat_schedule = {
    "expire-claim-links": {
        "task": "tournaments.tasks.expire_claim_links",
        "schedule": crontab(minute=7),
    },
    # The referee's warning five minutes before a duel's deadline (the deadline itself is
    # the one clock's, below), and online duels' no-shows (ONLINE.md 6).
    "keep-duel-time": {
        "task": "tournaments.tasks.keep_time",
        "schedule": 10.0,
    },
    "sweep-tournaments": {
        "task": "tournaments.tasks.sweep",
        "schedule": 60.0,
    },
    # The one clock of the games being played (play.clock): every deadline past, the long
    # ones (Trois's 25 minutes, a tournament duel's time limit) and those whose ETA task was
    # lost.
    "keep-game-clocks": {
        "task": "play.tasks.sweep_deadlines",
        "schedule": 5.0,
    },
    "forget-old-intents": {
        "task": "play.tasks.forget_old_intents",
        "schedule": crontab(minute=27, hour=3),
    },
    "send-due-notifications": {
        "task": "accounts.tasks.send_due_notifications",
        "schedule": 10.0,
    },
    "forget-old-sign-in-failures": {
        "task": "accounts.tasks.forget_old_sign_in_failures",
        "schedule": crontab(minute=17, hour=3),
    },
}
