"""Compile the referee engine with mypyc, for the speed of bots and simulations (issue 4).

    .venv/bin/python tools/build_engine.py [--force] [--quiet]

Compiles every module of ``games/split_uno`` but ``__init__``, ``__main__`` and ``native`` into
C extensions under ``build/split_uno/<tag>-<digest>/`` (``games/split_uno/native.py`` says how
the package then finds them). Nothing is done when the build of the current sources is already
there, unless ``--force``. Older builds for this interpreter are removed. ``./dev`` runs this
before serving or testing; the Dockerfile runs it in its build stage.

Needs mypy (which carries mypyc), setuptools and a C compiler. It exits 1, saying why, when it
cannot build: the engine then runs from its sources, slower but the same.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ("games", "split_uno")
NATIVE = ROOT.joinpath(*PACKAGE, "native.py")


def _native() -> ModuleType:
    """``games/split_uno/native.py`` alone: importing the package would already choose a build
    (and, with ``SPLIT_UNO_ENGINE=compiled``, refuse before there is one)."""
    spec = importlib.util.spec_from_file_location("_engine_native", NATIVE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(force: bool = False, quiet: bool = False) -> int:
    os.chdir(ROOT)  # mypy reads the modules by their paths from the project's root
    native = _native()
    digest = native.source_digest()
    target = native.build_dir(digest)
    if native.is_built(target) and not force:
        if not quiet:
            print(f"The compiled engine is up to date ({target.relative_to(ROOT)}).")
        return 0
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution
    except ImportError as missing:
        print(f"Cannot compile the engine: {missing.name} is not installed.", file=sys.stderr)
        return 1

    modules = native.compiled_modules()
    print(f"Compiling the engine with mypyc ({len(modules)} modules, about a minute)…", flush=True)
    started = time.monotonic()
    native.BUILD_ROOT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".building-", dir=native.BUILD_ROOT) as work:
        work_dir = Path(work)
        log = io.StringIO()
        try:
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                extensions = mypycify(
                    [f"{'/'.join(PACKAGE)}/{name}.py" for name in modules],
                    opt_level="3",
                    debug_level="0",
                    group_name=native.GROUP,
                    target_dir=str(work_dir / "c"),
                )
                dist = Distribution({"name": "split-uno-engine", "ext_modules": extensions})
                dist.script_name = "build_engine"
                dist.script_args = [
                    "build_ext",
                    "--build-lib",
                    str(work_dir / "lib"),
                    "--build-temp",
                    str(work_dir / "tmp"),
                    "--parallel",
                    str(os.cpu_count() or 1),
                ]
                dist.parse_command_line()
                dist.run_commands()
        except (Exception, SystemExit) as failure:
            print(log.getvalue()[-4000:], file=sys.stderr)
            print(f"Cannot compile the engine: {failure}", file=sys.stderr)
            return 1
        built = work_dir.joinpath("lib", *PACKAGE)
        (built / "COMPLETE").write_text(f"{digest}\n")
        # The digest names the folder only once it is whole: a half build is never found.
        if target.exists():
            shutil.rmtree(target)
        built.rename(target)
    for old in native.BUILD_ROOT.glob(f"{sys.implementation.cache_tag}-*"):
        if old != target:
            shutil.rmtree(old, ignore_errors=True)
    print(f"Compiled the engine in {time.monotonic() - started:.0f} s: {target.relative_to(ROOT)}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="build even if up to date")
    parser.add_argument("--quiet", action="store_true", help="say nothing when up to date")
    args = parser.parse_args()
    return build(args.force, args.quiet)


if __name__ == "__main__":
    sys.exit(main())
