"""A game's secrets have one reader (DESIGN.md, issue 27): no module of the project but
play.secrets names the secret models, nothing reaches them from a game, and the admin does
not show them. (The import-linter contract in pyproject.toml checks the imports; this checks
the names, which an `apps.get_model("play", "GameSecret")` would use.)"""

import os
import re
from pathlib import Path

import pytest
from django.contrib import admin
from django.db import IntegrityError, transaction

from play.models import Game, GameEvent
from play.models_secret import EventSecret, GameSecret

ROOT = Path(__file__).resolve().parents[2]
SECRET = re.compile(r"\b(GameSecret|EventSecret)\b", re.IGNORECASE)
# Where the models are defined, their one reader, and their migrations.
ALLOWED = {"play/models_secret.py", "play/secrets.py"}
# Tests may name them (they check them); the docs describe them; the rest is not the project's.
SKIPPED_DIRS = {"tests", "docs", "migrations", "node_modules", "__pycache__", "test-artifacts"}


def sources():
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith(".")]
        for name in files:
            path = Path(folder, name)
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix in {".py", ".html", ".txt"} and relative not in ALLOWED:
                yield relative, path.read_text(errors="replace")


def test_no_other_module_names_the_secret_models():
    named = sorted(path for path, text in sources() if SECRET.search(text))
    assert named == []


def test_the_isolation_test_reads_the_project():
    # It would pass on no files: it must read the write path and the templates.
    paths = {path for path, _ in sources()}
    assert {"play/services.py", "play/selectors.py", "play/models.py"} <= paths
    assert any(path.startswith("templates/") for path in paths)


def test_nothing_reaches_the_secrets_from_a_game_or_the_admin():
    for model in (Game, GameEvent):
        reached = {rel.related_model for rel in model._meta.related_objects if not rel.hidden}
        assert not reached & {GameSecret, EventSecret}
    assert not {GameSecret, EventSecret} & set(admin.site._registry)


@pytest.mark.django_db
def test_the_database_refuses_a_seed_under_128_bits():
    game = Game.objects.create(kind="counting", seats=["A", "B"])
    with pytest.raises(IntegrityError), transaction.atomic():
        GameSecret.objects.create(game=game, seed=bytes(15))
    GameSecret.objects.create(game=game, seed=bytes(16))
