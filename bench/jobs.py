"""``simulate --jobs N`` against one process: wall-clock seconds for the same duels (issue 30).

    python bench/jobs.py [--ruleset tournament] [--count 20000] [--jobs 2] [--repeat 3]

Plays ``--count`` random-bot duels of ``--seed``'s run with one process, then with ``--jobs``
processes, ``--repeat`` times in turn, and prints each wall-clock time, the speed-up of each
pair and of the best of each, and the load average before and after. Both results are checked
to be the same summary. Unlike bench/engine.py it is not pinned to one core, and it must time
the wall clock (the work is in other processes): run it on idle cores, and read the load
average it prints — with other work on the machine the speed-up says more about that work
than about ``--jobs``.

So that a loaded machine can be told apart, it also prints:

- **the machine's parallel capacity** just before: a fixed plain-Python loop run in one
  process, then in ``--jobs`` processes at once; the ratio of their throughputs is what any
  work could gain from ``--jobs`` processes at that moment (``--jobs`` on idle cores: about
  ``--jobs``);
- **the work in CPU time**: one process's CPU time against the CPU time of every worker
  process together (read from the operating system when they end) plus this process's own.
  Equal totals mean the processes share the work without doing more of it; the total divided
  by ``--jobs``, plus the parent's, is what idle cores would take.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path


def load_average() -> str:
    if not hasattr(os, "getloadavg"):
        return "unknown"
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _spin(steps: int) -> float:
    """A fixed plain-Python loop; returns its wall-clock seconds."""
    start = time.perf_counter()
    total = 0
    for k in range(steps):
        total = (total + k * 7) & 0xFFFF
    return time.perf_counter() - start


def capacity(jobs: int, steps: int = 10_000_000) -> float:
    """How many times one process's throughput ``jobs`` processes reach at once, now."""
    from concurrent.futures import ProcessPoolExecutor

    alone = _spin(steps)
    with ProcessPoolExecutor(jobs) as pool:
        start = time.perf_counter()
        list(pool.map(_spin, [steps] * jobs))
        together = time.perf_counter() - start
    return jobs * alone / together


def children_cpu() -> float:
    """CPU seconds of every child process that has ended so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import games.split_uno
    from games.split_uno import PRESETS
    from games.split_uno.simulate import simulate

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", choices=sorted(PRESETS), default="tournament")
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--seed", default="jobs")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    build = "compiled" if games.split_uno.COMPILED else "sources"
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"{args.count} random {args.ruleset} duels, engine {build}, {cores} cores available")
    print(f"load average {load_average()}")
    print(f"parallel capacity of {args.jobs} processes now: {capacity(args.jobs):.2f}x one")
    best = {1: float("inf"), args.jobs: float("inf")}
    for _ in range(args.repeat):
        times, summaries, cpu = {}, {}, {}
        for jobs in (1, args.jobs):
            start, own, others = time.perf_counter(), time.process_time(), children_cpu()
            summaries[jobs] = simulate(args.ruleset, args.count, seed=args.seed, jobs=jobs)
            times[jobs] = time.perf_counter() - start
            cpu[jobs] = (time.process_time() - own, children_cpu() - others)
            best[jobs] = min(best[jobs], times[jobs])
        assert summaries[1] == summaries[args.jobs], "--jobs changed the summary"
        parent, workers = cpu[args.jobs]
        print(
            f"jobs 1: {times[1]:.2f} s  jobs {args.jobs}: {times[args.jobs]:.2f} s  "
            f"speed-up {times[1] / times[args.jobs]:.2f}x  (load average {load_average()})\n"
            f"  CPU: jobs 1 {sum(cpu[1]):.2f} s; jobs {args.jobs} {workers:.2f} s in the "
            f"workers + {parent:.2f} s here: on idle cores about "
            f"{sum(cpu[1]) / (workers / args.jobs + parent):.2f}x"
        )
    print(
        f"best: jobs 1 {best[1]:.2f} s ({args.count / best[1]:,.0f} duels/s), jobs {args.jobs} "
        f"{best[args.jobs]:.2f} s ({args.count / best[args.jobs]:,.0f} duels/s): "
        f"speed-up {best[1] / best[args.jobs]:.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
