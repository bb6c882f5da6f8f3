"""Referee engine benchmark: events replayed per second on one core.

    python bench/engine.py [--events 100] [--repeat 7]

For each preset it plays one duel of exactly ``--events`` legal events (a fixed seed, so every
run replays the same records), then times ``Duel.from_record`` on it: the best of ``--repeat``
runs of many replays each. The budget (issue 3) is a 100-event record in under 1 ms. It also
times ``Duel.apply`` one event at a time with its effects built, as the referee console uses it.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

BUDGET_MS = 1.0
SEATS = {"A": "Alice", "B": "Bob"}


def build_record(preset: str, events: int, seed: int) -> dict[str, Any]:
    """A duel of exactly ``events`` legal events, played by a seeded random referee.

    Under ``paper`` every round sheds a card overall, so 20-card hands rarely last 100 events:
    such presets get a bigger pool and 40-card hands (``options``), which the output says.
    """
    from duels.engine import Duel

    for options in ({}, {"number_pool": 400, "starting_number_cards": 40}):
        for attempt in range(200):
            rng = random.Random(seed * 1000 + attempt)
            duel = Duel.new(preset, SEATS, options=options)
            while duel.event_count < events and not duel.finished:
                # A refused dare ends a paper duel at once: this referee never plays one.
                moves = [e for e in duel.legal_events() if e.get("card") != "dare"]
                duel.apply(rng.choice(moves))
            if duel.event_count == events:
                return duel.record()
    raise SystemExit(f"no {preset} duel lasted {events} events")


def best_seconds(func: Any, repeat: int) -> float:
    """Seconds per call: the best of ``repeat`` runs, each about 0.2 s long."""
    loops = 1
    while True:
        start = time.perf_counter()
        for _ in range(loops):
            func()
        if time.perf_counter() - start > 0.2:
            break
        loops *= 2
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(loops):
            func()
        best = min(best, (time.perf_counter() - start) / loops)
    return best


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from duels.engine import PRESETS, Duel

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core

    print(f"Python {platform.python_version()} on {platform.machine()}, one core")
    print(f"{'preset':<11} {'replay of ' + str(args.events) + ' events':>22} {'events/s':>10}"
          f" {'apply+effects/event':>20}")  # fmt: skip
    worst = 0.0
    for preset in PRESETS:
        record = build_record(preset, args.events, seed=3)
        replay = best_seconds(lambda record=record: Duel.from_record(record), args.repeat)

        def one_by_one(record: dict[str, Any] = record, preset: str = preset) -> None:
            duel = Duel.new(preset, SEATS, options=record["options"])
            for event in record["events"]:
                duel.apply(event)

        applied = best_seconds(one_by_one, args.repeat) / args.events
        worst = max(worst, replay * 1e3 * 100 / args.events)
        note = f"  (options {record['options']})" if record["options"] else ""
        print(
            f"{preset:<11} {replay * 1e3:>19.3f} ms {args.events / replay:>10,.0f}"
            f" {applied * 1e6:>17.1f} µs{note}"
        )
    verdict = "within" if worst < BUDGET_MS else "OVER"
    print(f"worst 100-event replay: {worst:.3f} ms ({verdict} the {BUDGET_MS:g} ms budget)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
