"""docs/operations.md names exactly the tasks the worker knows, and beat schedules only
tasks the worker knows (a task named in the docs but unknown to the worker was found once)."""

import re
from pathlib import Path

from config.celery import app

DOC = Path(__file__).resolve().parent.parent / "docs" / "operations.md"


def registered() -> set[str]:
    app.loader.import_default_modules()  # what the worker imports at its start
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
