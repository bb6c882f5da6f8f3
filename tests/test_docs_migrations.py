"""The docs name migrations by files that exist: migrations were renamed once at a merge, and
docs/tables.md and docs/console.md went on naming the old files."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME = re.compile(r"\b0\d{3}_[a-z][a-z0-9_]*")


def test_every_migration_the_docs_name_exists():
    existing = {path.stem for path in ROOT.glob("*/migrations/0*.py")}
    texts = [*ROOT.glob("docs/*.md"), *ROOT.glob("*.md")]
    named = {(text.name, name) for text in texts for name in NAME.findall(text.read_text())}
    assert named, "no migration named in the docs: the pattern no longer matches"
    assert {(doc, name) for doc, name in named if name not in existing} == set()
