"""bench/bots.py (issue 30): its figures do not depend on the number of processes, and
``duel`` moves bot X round the seats."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_bots", ROOT / "bench" / "bots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_bots"] = module  # for its dataclasses, and its processes to find it
    spec.loader.exec_module(module)
    return module


def test_the_figures_are_the_same_whatever_the_number_of_processes() -> None:
    b = bench()
    setting = b.Setting("official", 3, (), (), None, 11)
    alone = b.run(setting, ["heuristic"] * 3, 150, 1, swap=False)
    # Processes return their blocks in any order (no processes here: pytest's workers are
    # threaded, where forking is unsafe): the sum is the same.
    shared = b.Tally()
    for start in (100, 0):
        shared.add(
            b.play_block((setting, ("heuristic",) * 3, start, min(start + 100, 150), False, False))
        )
    assert alone == shared
    assert alone.games == 150 and sum(alone.wins.values()) == 150
    assert alone.actions  # the bots played action cards, counted by kind


def test_duel_moves_x_round_the_seats_and_takes_weights() -> None:
    b = bench()
    setting = b.Setting("official", 3, (), (), None, 11)
    tally = b.run(setting, ["heuristic:reverse_stop=99", "random"], 30, 1, swap=True)
    assert tally.x_games == {"A": 10, "B": 10, "C": 10}
    assert b.make("heuristic:reverse_stop=99").reverse_stop == 99
