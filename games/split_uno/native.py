"""Which build of the engine runs: its modules compiled by mypyc, or these very sources.

The engine's modules are plain, typed Python. ``tools/build_engine.py`` compiles them with mypyc
(the compiler of the mypy project) into C extensions under ``build/split_uno/<tag>-<digest>/``,
where ``digest`` is a hash of the sources compiled and ``tag`` names the interpreter. When the
package is imported, ``select`` looks for the build of the sources as they are now: found, it
puts that folder first on the package's ``__path__`` so that the compiled modules load in
place of the sources; not found (never built, no C compiler, another interpreter, or a source
edited since), the sources run. A stale build can therefore never run: a build is only ever
found by the hash of the exact sources it was made from. Both builds are the same engine, with
the same checks: the test suite runs on the compiled build and again on the sources
(docs/performance.md, "Compiled engine").

``SPLIT_UNO_ENGINE`` chooses: ``auto`` (the default, as above), ``python`` (always the
sources) or ``compiled`` (the build must be there: an ImportError saying how to make it
otherwise; CI sets it so that a failed build cannot go unnoticed).

Standard library only, and never compiled itself: it runs before the choice is made.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # mypyc reads its class options from this decorator when it compiles; the engine's modules
    # import it from here, so that at run time they need nothing beyond the standard library.
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(**flags: object) -> Callable[[type], type]:
        """At run time mypyc's class options change nothing: the class is left as it is."""
        return lambda cls: cls


ENGINE_DIR = Path(__file__).resolve().parent
#: Where builds go: ``build/split_uno`` at the project's root (ignored by git).
BUILD_ROOT = ENGINE_DIR.parents[1] / "build" / "split_uno"
#: The modules mypyc compiles, without ``.py``: every module of the engine but the package's
#: ``__init__``, the command line's ``__main__`` (run as a script) and this one.
NOT_COMPILED = frozenset({"__init__", "__main__", "native"})
#: The name of the library the compiled modules share (mypyc's ``group_name``).
GROUP = "games.split_uno.compiled"
CHOICES = ("auto", "python", "compiled")
#: Part of the digest: raise it when ``tools/build_engine.py`` changes how it compiles, so
#: that every machine builds again (2: the engine moved from ``duels/engine``, its modules and
#: their shared library renamed).
BUILD_VERSION = 2


def compiled_modules() -> list[str]:
    """The module names (``state``, ``rules``…) that a build compiles, sorted."""
    return sorted(p.stem for p in ENGINE_DIR.glob("*.py") if p.stem not in NOT_COMPILED)


def source_digest() -> str:
    """A hash of every compiled module's source, by name: a build made from exactly these."""
    digest = hashlib.sha256(f"build {BUILD_VERSION}\0".encode())
    for name in compiled_modules():
        digest.update(name.encode() + b"\0")
        digest.update((ENGINE_DIR / f"{name}.py").read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def build_dir(digest: str | None = None) -> Path:
    """The folder that holds the build of the current sources for this interpreter."""
    return BUILD_ROOT / f"{sys.implementation.cache_tag}-{digest or source_digest()}"


def is_built(folder: Path) -> bool:
    """Whether ``folder`` holds a complete build: the build tool writes ``COMPLETE`` last."""
    return (folder / "COMPLETE").is_file()


def select(package_path: list[str]) -> bool:
    """Choose the build for the package whose ``__path__`` is ``package_path``; True when the
    compiled modules will load. Called once, by the package's ``__init__``."""
    choice = os.environ.get("SPLIT_UNO_ENGINE", "auto").strip().lower() or "auto"
    if choice not in CHOICES:
        raise ImportError(
            f"SPLIT_UNO_ENGINE={choice!r}: use one of {', '.join(CHOICES)} (auto by default)"
        )
    if choice == "python":
        return False
    folder = build_dir()
    if is_built(folder):
        package_path.insert(0, str(folder))
        return True
    if choice == "compiled":
        raise ImportError(
            f"SPLIT_UNO_ENGINE=compiled but the engine is not built for these sources and this "
            f"Python (no {folder}): run `.venv/bin/python tools/build_engine.py`"
        )
    return False
