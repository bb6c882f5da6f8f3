"""Referee engine benchmark: events replayed and whole bot duels played per second, one core.

    python bench/engine.py [--events 100] [--repeat 7] [--duels 300] [--sim-repeat 3]

For each preset it plays one duel of exactly ``--events`` legal events (a fixed seed, so every
run replays the same records), then times ``Duel.from_record`` on it: the best of ``--repeat``
runs of many replays each. The budget (issue 3) is a 100-event record in under 1 ms. It also
times ``Duel.apply`` one event at a time with its effects built, as the referee console uses it.
All timings are the process's CPU time, so that other work on a shared machine does not count.

Then (issue 4) it times complete simulated duels: ``--duels`` duels of random bot against
random bot, and of heuristic bot against heuristic bot, from the same seeds every run (dealing,
every event through the engine's checked path, hands kept in step, the summary), the best of
``--sim-repeat`` runs in the process's CPU time (so that other work on a shared machine does
not count). The budget is 1,000 random-bot duels per second. It measures the build that
loads (games/split_uno/native.py) and says which: ``SPLIT_UNO_ENGINE=python`` times the sources
even when a compiled build is there. For scale it also times the
engine alone replaying the finished random-bot records. Last, six-seat games
(RULES.md section 11: ``official``, ``number_pool`` 188), free-for-all and in teams.
``--no-replay`` or ``--no-sim`` skips a part.
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
BUDGET_DUELS = 1000.0
SEATS = {"A": "Alice", "B": "Bob"}


def build_record(preset: str, events: int, seed: int) -> dict[str, Any]:
    """A duel of exactly ``events`` legal events, played by a seeded random referee.

    Under ``paper`` every round sheds a card overall, so 20-card hands rarely last 100 events:
    such presets get a bigger pool and 40-card hands (``options``), which the output says.
    """
    from games.split_uno import Duel

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
    """CPU seconds per call: the best of ``repeat`` runs, each about 0.2 s long."""
    loops = 1
    while True:
        start = time.process_time()
        for _ in range(loops):
            func()
        if time.process_time() - start > 0.2:
            break
        loops *= 2
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(loops):
            func()
        best = min(best, (time.process_time() - start) / loops)
    return best


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from games.split_uno import PRESETS, Duel

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--duels", type=int, default=300)
    parser.add_argument("--sim-repeat", type=int, default=3)
    parser.add_argument("--no-replay", action="store_true")
    parser.add_argument("--no-sim", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core

    import games.split_uno

    build = (
        "the engine compiled by mypyc (tools/build_engine.py)"
        if games.split_uno.COMPILED
        else "the engine's sources (not compiled: run tools/build_engine.py)"
    )
    print(f"Python {platform.python_version()} on {platform.machine()}, one core, {build}")
    if not args.no_replay:
        replays(args, PRESETS, Duel)
    if not args.no_sim:
        print()
        simulations(args, PRESETS)
    return 0


def simulations(args: argparse.Namespace, presets: Any) -> None:
    """Complete bot duels per second for each preset (issue 4), and, for scale, how fast the
    engine alone replays the finished random-bot records (no bots, no hands)."""
    import io
    import json

    from games.split_uno import Duel
    from games.split_uno.simulate import simulate

    print(f"{'preset':<11} {'random duels/s':>15} {'events/duel':>12} {'replay only/s':>14}"
          f" {'heuristic duels/s':>18} {'events/duel':>12}")  # fmt: skip
    slowest = float("inf")
    for preset in presets:
        row = [f"{preset:<11}"]
        for bots, width in ((("random", "random"), 15), (("heuristic", "heuristic"), 18)):
            best = float("inf")
            for _ in range(args.sim_repeat):
                start = time.process_time()
                summary = simulate(preset, args.duels, seed="bench", bots=bots)
                best = min(best, time.process_time() - start)
            rate = args.duels / best
            row.append(f"{rate:>{width},.0f} {summary.events / summary.duels:>12.1f}")
            if bots[0] == "random":
                slowest = min(slowest, rate)
                out = io.StringIO()
                simulate(preset, args.duels, seed="bench", bots=bots, records=out)
                records = [json.loads(line) for line in out.getvalue().splitlines()]
                best = float("inf")
                for _ in range(args.sim_repeat):
                    start = time.process_time()
                    for record in records:
                        Duel.from_record(record)
                    best = min(best, time.process_time() - start)
                row.append(f"{args.duels / best:>14,.0f}")
        print(" ".join(row))
    verdict = "within" if slowest >= BUDGET_DUELS else "UNDER"
    print(
        f"slowest random-bot rate: {slowest:,.0f} duels/s ({verdict} the {BUDGET_DUELS:,.0f}"
        " duels/s budget)"
    )
    many_seats(args)


#: Six seats (RULES.md section 11): official, 20 cards each from a pool of 188 (68 left).
SIX_SEATS: dict[str, Any] = {"number_pool": 188}


def many_seats(args: argparse.Namespace) -> None:
    """Six-seat games per second, free-for-all and in three teams of two."""
    from games.split_uno.simulate import simulate

    print()
    print(f"{'six seats (official, number_pool 188)':<40} {'duels/s':>9} {'events/duel':>12}")
    for label, bots, teams in (
        ("random bots", ["random"] * 6, None),
        ("heuristic bots", ["heuristic"] * 6, None),
        ("random bots, teams AD BE CF", ["random"] * 6, [["A", "D"], ["B", "E"], ["C", "F"]]),
    ):
        count = max(args.duels // 3, 1)
        best = float("inf")
        for _ in range(args.sim_repeat):
            start = time.process_time()
            summary = simulate("official", count, seed="bench", bots=bots, options=SIX_SEATS,
                               variants=["team"] if teams else [], teams=teams)  # fmt: skip
            best = min(best, time.process_time() - start)
        print(f"{label:<40} {count / best:>9,.0f} {summary.events / summary.duels:>12.1f}")


def replays(args: argparse.Namespace, presets: Any, Duel: Any) -> None:  # noqa: N803
    """Replays of a fixed record per preset (issue 3)."""
    print(f"{'preset':<11} {'replay of ' + str(args.events) + ' events':>22} {'events/s':>10}"
          f" {'apply+effects/event':>20}")  # fmt: skip
    worst = 0.0
    for preset in presets:
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


if __name__ == "__main__":
    sys.exit(main())
