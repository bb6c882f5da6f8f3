"""How many examples each property test of the engine tries.

The engine suite runs twice in a run of the whole suite: on the compiled build, with every
example, and once more on the engine's sources (`source_run.py`), which must pass the same
tests. That second run checks that the sources and the build agree, which a quarter of the
examples shows as well: it runs with `ENGINE_EXAMPLES_SCALE=0.25` (it took 67–87 s of a
worker at full count, the longest test of the run)."""

import os

SCALE = float(os.environ.get("ENGINE_EXAMPLES_SCALE", "1"))


def examples(count: int) -> int:
    """`count` examples, scaled for the run on the sources (at least one)."""
    return max(1, round(count * SCALE))
