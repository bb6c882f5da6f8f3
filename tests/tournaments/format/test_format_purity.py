"""The tournament format rules are plain Python over plain data: standard library only, no
Django, nothing of the project but themselves (docs/architecture.md; the import-linter contract
says the same for the whole project in ./dev test)."""

import sys

from tests.purity import ROOT, absolute_imports, run_without_django

FORMAT = ROOT / "tournaments" / "format"


def test_format_imports_only_the_standard_library_and_itself() -> None:
    for path, name, top in absolute_imports(sorted(FORMAT.glob("*.py"))):
        assert top in sys.stdlib_module_names or top == "__future__", (path.name, name)


def test_importing_the_format_loads_no_django() -> None:
    done = run_without_django("import sys, tournaments.format")
    assert done.returncode == 0, done.stderr.decode()
