"""The engine's two builds (games/split_uno/native.py): mypyc-compiled and its sources.

The compiled build loads only when made from the very sources beside it; both play the same
duels event for event; the whole engine suite passes on the sources too (CI runs the suite on
the compiled build: ``SPLIT_UNO_ENGINE=compiled`` in ``.ci/run``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import games.split_uno
from games.split_uno import PRESETS, native
from tests.engine import source_run

ROOT = Path(__file__).resolve().parents[2]
COMPILED = games.split_uno.COMPILED
needs_build = pytest.mark.skipif(
    not COMPILED, reason="the engine runs from its sources here (tools/build_engine.py builds it)"
)

WHICH = (
    "import games.split_uno, games.split_uno.state as s\n"
    "print(games.split_uno.COMPILED, s.__spec__.origin.endswith('.py'))\n"
)


def _python(
    code: list[str], cwd: Path = ROOT, engine: str | None = None, timeout: int = 300
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *code], cwd=cwd, env=source_run.environment(cwd, engine),
        capture_output=True, text=True,
        check=False, timeout=timeout,
    )  # fmt: skip


def test_the_compiled_build_runs_exactly_when_it_is_built_from_these_sources() -> None:
    wanted = os.environ.get("SPLIT_UNO_ENGINE", "auto")
    built = native.is_built(native.build_dir())
    assert games.split_uno.COMPILED is (built and wanted != "python")
    if wanted == "compiled":
        assert COMPILED
    origin = games.split_uno.state.__spec__.origin  # type: ignore[attr-defined]
    assert origin.endswith(".py") != COMPILED


def test_every_module_but_the_loader_and_the_command_line_is_compiled() -> None:
    names = native.compiled_modules()
    assert "state" in names and "simulate" in names and "bots" in names
    assert not {"__init__", "__main__", "native"} & set(names)
    assert len(names) == len(list((ROOT / "games" / "split_uno").glob("*.py"))) - 3


@needs_build
def test_a_build_of_other_sources_is_never_loaded(tmp_path: Path) -> None:
    """A copy of the project with the current build: compiled; one source edited: the
    sources run, since no build was made from them."""
    (tmp_path / "games").mkdir()
    shutil.copy(ROOT / "games" / "__init__.py", tmp_path / "games" / "__init__.py")
    shutil.copytree(
        ROOT / "games" / "split_uno", tmp_path / "games" / "split_uno",
        ignore=shutil.ignore_patterns("__pycache__"),
    )  # fmt: skip
    build = native.build_dir()
    shutil.copytree(build, tmp_path / native.BUILD_ROOT.relative_to(ROOT) / build.name)

    assert _python(["-c", WHICH], tmp_path).stdout.split() == ["True", "False"]
    assert _python(["-c", WHICH], tmp_path, "python").stdout.split() == ["False", "True"]

    rules = tmp_path / "games" / "split_uno" / "rules.py"
    rules.write_text(rules.read_text() + "\n# an edit after the build\n")
    assert _python(["-c", WHICH], tmp_path).stdout.split() == ["False", "True"]
    refused = _python(["-c", WHICH], tmp_path, "compiled")
    assert refused.returncode != 0
    assert "SPLIT_UNO_ENGINE=compiled but the engine is not built" in refused.stderr
    assert "tools/build_engine.py" in refused.stderr


def test_an_unknown_choice_of_build_is_refused_in_words() -> None:
    done = _python(["-c", WHICH], engine="fastest")
    assert done.returncode != 0
    assert "SPLIT_UNO_ENGINE='fastest': use one of auto, python, compiled" in done.stderr


def _same_on_both_builds(simulate: list[str], count: int, tmp_path: Path) -> None:
    """``simulate`` (the command line's arguments) prints the same summary and writes the same
    records from the compiled build and from the sources."""
    outputs = []
    for engine in ("compiled", "python"):
        records = tmp_path / f"{engine}.jsonl"
        done = _python(
            ["-m", "games.split_uno", "simulate", *simulate, "--count", str(count),
             "--records", str(records)],
            engine=engine,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        outputs.append((done.stdout, records.read_bytes()))
    (compiled_out, compiled_records), (source_out, source_records) = outputs
    assert compiled_records.count(b"\n") == count
    assert compiled_records == source_records
    assert compiled_out == source_out


@needs_build
@pytest.mark.parametrize("preset", PRESETS)
def test_both_builds_play_the_same_duels_event_for_event(preset: str, tmp_path: Path) -> None:
    """The same seeds give the same records and summary from the compiled build (this
    process's command line) and from the sources."""
    _same_on_both_builds(
        ["--ruleset", preset, "--seed", "41", "--bot", "A:heuristic", "--bot", "B:random",
         "--swap"],
        150,
        tmp_path,
    )  # fmt: skip


@needs_build
@pytest.mark.parametrize(
    "game",
    [
        ["--ruleset", "official", "--seats", "6", "--option", "number_pool=188"],
        ["--ruleset", "arbiter", "--seats", "3", "--variant", "hardcore"],
        ["--ruleset", "official", "--seats", "4", "--teams", "AC,BD", "--variant", "speed"],
        ["--ruleset", "paper", "--seats", "6", "--teams", "ADE,BCF", "--option",
         "number_pool=188"],
    ],
)  # fmt: skip
def test_both_builds_play_the_same_multi_seat_games_event_for_event(
    game: list[str], tmp_path: Path
) -> None:
    """RULES.md section 11: the same seeds give the same records and summary from both."""
    _same_on_both_builds(
        [*game, "--seed", "43", "--bot", "A:heuristic", "--bot", "B:heuristic", "--swap"],
        40,
        tmp_path,
    )


@needs_build
def test_the_whole_engine_suite_passes_on_the_sources() -> None:
    # Started when the tests were collected, beside the rest of the run (source_run.py).
    status, output = source_run.finish(timeout=900)
    assert status == 0, output[-5000:]
    assert " passed" in output.splitlines()[-1]
