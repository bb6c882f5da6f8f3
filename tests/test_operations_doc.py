"""docs/operations.md names exactly the tasks the worker knows, and beat schedules only
tasks the worker knows (a task named in the docs but unknown to the worker was found once)."""

import importlib
import importlib.util
import re
from pathlib import Path

from django.conf import settings

from config.celery import app

DOC = Path(__file__).resolve().parent.parent / "docs" / "operations.md"


def registered() -> set[str]:
    # What the worker's autodiscovery imports at its start: each installed app's tasks module.
    for name in settings.INSTALLED_APPS:
        if importlib.util.find_spec(f"{name}.tasks") if "." not in name else None:
            importlib.import_module(f"{name}.tasks")
    return {name for name in app.tasks if not name.startswith("celery.")}


def documented() -> set[str]:
    text = DOC.read_text()
    section = text.split("## Tasks the worker knows", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([\w.]+)`", section, flags=re.MULTILINE))


def test_the_operations_doc_names_exactly_the_tasks_the_worker_knows():
    assert documented() == registered()


def test_beat_schedules_only_tasks_the_worker_knows():
    scheduled = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert scheduled <= registered(), scheduled - registered()


def test_the_notifications_table_names_every_notification_task():
    # A notification task (`outbox=True`) merged without its row was found once.
    text = DOC.read_text()
    section = text.split("## Notifications", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"\| `([\w.]+)` \| `[^`]*` \|$", section, flags=re.MULTILINE))
    notifying = {name for name in registered() if getattr(app.tasks[name], "outbox", False)}
    assert named == notifying
