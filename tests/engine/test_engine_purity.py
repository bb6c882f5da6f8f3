"""The engine is plain Python: standard library only, no Django (issue 3, DESIGN.md)."""

from __future__ import annotations

import sys

from tests.purity import ROOT, absolute_imports, run_without_django

ENGINE = ROOT / "games" / "split_uno"


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    for path, name, top in absolute_imports(sorted(ENGINE.glob("*.py"))):
        assert top in sys.stdlib_module_names or top == "__future__", (path.name, name)


def test_importing_and_running_the_engine_loads_no_django() -> None:
    # duels.engine too: RULES.md's command line, an alias of the engine inside the Django app.
    done = run_without_django(
        "import sys, games.split_uno, games.split_uno.__main__, duels.engine, duels.engine.__main__"
    )
    assert done.returncode == 0, done.stderr.decode()
