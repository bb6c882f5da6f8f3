"""The game engines are plain Python: standard library only, no Django (issue 18)."""

from __future__ import annotations

import sys

from tests.purity import ROOT, absolute_imports, run_without_django

GAMES = ROOT / "games"


def test_the_game_engines_import_only_the_standard_library_and_themselves() -> None:
    paths = sorted(GAMES.rglob("*.py"))
    assert len(paths) > 10
    for path, name, top in absolute_imports(paths):
        assert top in sys.stdlib_module_names or top in ("__future__", "games"), (path, name)


def test_importing_and_running_the_engines_loads_no_django() -> None:
    done = run_without_django(
        "import sys, games.trois, games.trois.__main__, games.cpt113, games.cpt113.__main__\n"
        "games.trois.play_game(1); games.cpt113.play_game(1)"
    )
    assert done.returncode == 0, done.stderr.decode()
