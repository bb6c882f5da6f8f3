"""The game engines are plain Python: standard library only, no Django (issue 18)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"


def test_the_game_engines_import_only_the_standard_library_and_themselves() -> None:
    paths = sorted(GAMES.rglob("*.py"))
    assert len(paths) > 10
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top in ("__future__", "games"), (
                    path,
                    name,
                )


def test_importing_and_running_the_engines_loads_no_django() -> None:
    code = (
        "import sys, games.trois, games.trois.__main__, games.cpt113, games.cpt113.__main__\n"
        "games.trois.play_game(1); games.cpt113.play_game(1)\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django loaded'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr.decode()
