"""The engine suite once more on the engine's sources (test_engine_builds), run beside the rest.

The run on the sources is a process of its own that needs nothing of the main run but a CPU:
`tests/conftest.py` starts it as soon as the tests are collected, at nice 10 so that it takes
only the CPU time the main run leaves idle (the browser tests wait for Chromium and the test
server most of the time), and `test_the_whole_engine_suite_passes_on_the_sources` then waits
for its exit status and output. On a two-core machine that takes its minute out of the run's
length; the test still fails when any engine test fails on the sources. Under pytest-xdist
nothing is started at collection (every worker collects every test): the test starts the run
in the worker that runs it, and waits. Without a compiled
build the test is skipped and nothing is started; at the end of the session a run still going
(a run stopped by -x or Ctrl+C) is killed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEST_NAME = "test_the_whole_engine_suite_passes_on_the_sources"
COMMAND = ["-m", "pytest", "tests/engine", "-q", "-p", "no:cacheprovider", "-x"]

_process: subprocess.Popen[bytes] | None = None
_output: tempfile._TemporaryFileWrapper[bytes] | None = None


def environment(cwd: Path = ROOT, engine: str | None = None) -> dict[str, str]:
    """The environment of a nested Python: this project first on the path, the engine's build
    as asked (`None`: as the nested process chooses), and no REQUIRE_SERVICES (a nested test
    run has no integration tests to require)."""
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    env.pop("SPLIT_UNO_ENGINE", None)
    env.pop("REQUIRE_SERVICES", None)
    if engine is not None:
        env["SPLIT_UNO_ENGINE"] = engine
    return env


def start() -> None:
    """Start the engine suite on the sources in the background (once a session)."""
    global _process, _output
    if _process is not None:
        return
    nice = ["nice", "-n", "10"] if shutil.which("nice") else []
    _output = tempfile.TemporaryFile()  # noqa: SIM115 - closed by finish()/stop()
    _process = subprocess.Popen(
        [*nice, sys.executable, *COMMAND],
        cwd=ROOT,
        # A quarter of the property tests' examples: the build ran them all (budget.py).
        env={**environment(engine="python"), "ENGINE_EXAMPLES_SCALE": "0.25"},
        stdout=_output,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: stop() ends its children too
    )


def finish(timeout: float = 900) -> tuple[int, str]:
    """Wait for the run started by start() (starting it now if it was not) and return its
    exit status and output."""
    if _process is None:
        start()
    assert _process is not None and _output is not None
    try:
        status = _process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop()
        raise
    _output.seek(0)
    return status, _output.read().decode(errors="replace")


def stop() -> None:
    """Kill a run still going and forget it."""
    global _process, _output
    if _process is not None and _process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(_process.pid, signal.SIGKILL)
        _process.wait()
    if _output is not None:
        _output.close()
    _process = _output = None
