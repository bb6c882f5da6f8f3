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
``--no-replay`` or ``--no-sim`` skips a part; ``--random-only`` times only the random-bot
duels of two seats (issue 30's figure), ``--presets`` names the presets to time.

The machine is shared, so every run also times a **reference loop** — a fixed piece of plain
Python (whole-number arithmetic, a list and a dict), never compiled, that no change to the
engine touches — before and after the simulations, in CPU time on the same core, and prints
the load average. CPU time leaves out the time other processes hold the core, but not how
they slow this one down (a shared cache, a sibling thread): when the reference loop is slower
than usual the figures of that run are too, by about as much. ``duels per reference`` divides
that out: the random-bot duels played in the CPU time of one reference loop.
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


#: How many steps the reference loop takes (about 0.1 s of CPU on the machines used).
REFERENCE_STEPS = 200_000


def reference_loop(steps: int = REFERENCE_STEPS) -> int:
    """A fixed piece of plain Python of about the engine's mix: arithmetic on small whole
    numbers, list and dict reads and writes, a call. Its result only keeps it from being
    optimised away."""
    counts = [0] * 10
    seen: dict[int, int] = {}
    total = 0
    for k in range(steps):
        v = (k * 7 + total) % 10
        counts[v] += 1
        seen[v] = seen.get(v, 0) + k
        total = (total + len(counts) + v) & 0xFFFF
    return total + sum(counts) + len(seen)


def reference_seconds(repeat: int = 5) -> float:
    """CPU seconds of one reference loop: the best of ``repeat``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        reference_loop()
        best = min(best, time.process_time() - start)
    return best


def load_average() -> str:
    """The 1, 5 and 15-minute load averages, as the system reports them."""
    if not hasattr(os, "getloadavg"):
        return "unknown"
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


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
    parser.add_argument(
        "--random-only",
        action="store_true",
        help="time only random-bot duels of two seats (no heuristic, no replay of the records, "
        "no six seats)",
    )
    parser.add_argument("--presets", nargs="+", choices=sorted(PRESETS), default=list(PRESETS))
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
    presets = {name: PRESETS[name] for name in args.presets}
    if not args.no_replay and not args.random_only:
        replays(args, presets, Duel)
    if not args.no_sim:
        print()
        before = reference_seconds()
        print(f"reference loop {before * 1e3:.1f} ms; load average {load_average()}")
        simulations(args, presets, before)
        after = reference_seconds()
        print(f"reference loop {after * 1e3:.1f} ms after; load average {load_average()}")
    return 0


def simulations(args: argparse.Namespace, presets: Any, reference: float) -> None:
    """Complete bot duels per second for each preset (issue 4), and, for scale, how fast the
    engine alone replays the finished random-bot records (no bots, no hands). ``reference``
    is the CPU time of one reference loop, measured just before."""
    import io
    import json

    from games.split_uno import Duel
    from games.split_uno.simulate import simulate

    kinds: tuple[tuple[str, str], ...] = (("random", "random"),)
    if not args.random_only:
        kinds += (("heuristic", "heuristic"),)
    header = f"{'preset':<11} {'random duels/s':>15} {'events/duel':>12} {'per reference':>14}"
    if not args.random_only:
        header += f" {'replay only/s':>14} {'heuristic duels/s':>18} {'events/duel':>12}"
    print(header)
    slowest = float("inf")
    for preset in presets:
        row = [f"{preset:<11}"]
        for bots in kinds:
            best = float("inf")
            for _ in range(args.sim_repeat):
                start = time.process_time()
                summary = simulate(preset, args.duels, seed="bench", bots=bots)
                best = min(best, time.process_time() - start)
            rate = args.duels / best
            width = 15 if bots[0] == "random" else 18
            row.append(f"{rate:>{width},.0f} {summary.events / summary.duels:>12.1f}")
            if bots[0] != "random":
                continue
            slowest = min(slowest, rate)
            row.append(f"{rate * reference:>14.1f}")
            if args.random_only:
                continue
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
    if not args.random_only:
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
