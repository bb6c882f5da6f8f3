"""The tournament format rules are plain Python over plain data: standard library only, no
Django, nothing of the project but themselves (docs/architecture.md; the import-linter contract
says the same for the whole project in ./dev test)."""

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FORMAT = ROOT / "tournaments" / "format"


def test_format_imports_only_the_standard_library_and_itself() -> None:
    for path in sorted(FORMAT.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue  # relative imports stay inside the format package
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__", (path.name, name)


def test_importing_the_format_loads_no_django() -> None:
    code = (
        "import sys, tournaments.format\n"
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
