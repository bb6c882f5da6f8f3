"""Shared by the purity tests (engine, format, games): which top-level modules a package's
sources import at run time, and whether running some code loads Django."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_time_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node but those under ``if TYPE_CHECKING:``, which are read by type checkers (and
    mypyc, compiling) and never run."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            skipped.update(id(inner) for child in node.body for inner in ast.walk(child))
    return [node for node in ast.walk(tree) if id(node) not in skipped]


def absolute_imports(paths: Iterable[Path]) -> Iterator[tuple[Path, str, str]]:
    """(file, imported name, its top-level package) for every absolute import run at run time;
    relative imports stay inside the package and are skipped."""
    for path in paths:
        for node in run_time_nodes(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                yield path, name, name.split(".")[0]


def run_without_django(code: str) -> subprocess.CompletedProcess:
    """Run `code` in a fresh interpreter that fails if any django module was loaded."""
    code += (
        "\nassert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django loaded'\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        check=False,
        timeout=60,
    )
