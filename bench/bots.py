"""Bot benchmark (issue 30): seat bias, game length and action cards of identical bots, and
one bot against another.

    python bench/bots.py seats [--preset official] [--seats 4] [--games 4000] [--seed 2026]
        [--bot random --bot heuristic] [--variant V] [--teams AC,BD] [--option NAME=JSON] [--jobs N]
    python bench/bots.py duel X Y [--seats 2] [--preset tournament] [--games 4000] [--seed 2026]
        [--variant V] [--option NAME=JSON] [--jobs N] [--timing]

``seats``: for each ``--bot`` (a bot as below), ``--games`` games with that
bot in every seat. It prints each seat's share of the games won with a 95 % interval (Wilson),
the drawn games, the seat bias — the biggest share less the smallest, with the 95 % margin of
that difference — the games' average length in events and rounds, the games ended by the
event cap, and the action cards the bots played: each kind's count and its share of all of
them (REVERSE passed round the table is the flaw of issue 30's first finding).

``duel``: bot X against bot Y at two seats, X in seat A in the even-numbered duels and in seat B
in the odd-numbered ones, so that a seat's edge cannot pass for strength. It prints X's win rate
among the decided duels with a 95 % interval, X's wins in each seat, and the drawn duels. With
``--seats N`` X plays against N - 1 Y bots, in seat ``k mod N`` of game ``k``. With
``--timing`` it also prints, for each bot, the median (p50) and 95th percentile (p95) of its time
per decision — each free moment and each decision the engine asks of it, in seconds of the
process's wall clock (so on a busy machine they grow; the first line says the load).

A bot is a name in ``games.split_uno.bots.BOTS`` (what ``make_bot`` takes), optionally with
weights for its constructor: ``heuristic:reverse_stop=99`` plays ``HeuristicBot(reverse_stop=99)``
(at two seats the heuristic bot's REVERSE rule of before issue 30).

Game ``k`` is always played from ``duel_rng(seed, k)`` (games/split_uno/simulate.py), whatever
the number of processes: ``--jobs N`` (default: every core) deals fixed blocks of games to N
processes and sums their counts, so the figures never depend on N. The engine runs compiled
when its build is there (tools/build_engine.py); the first line says which.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Games per block handed to a process: the blocks, not the processes, fix the games.
BLOCK = 100
#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959964
LETTERS = "ABCDEF"


@dataclass
class Tally:
    """What a block of games came to; tallies of blocks add up."""

    games: int = 0
    events: int = 0
    rounds: int = 0
    capped: int = 0
    #: Wins by seat letter (a team game counts a win for every seat of the winning team);
    #: drawn games under "".
    wins: Counter[str] = field(default_factory=Counter)
    #: Action cards played by the bots, by card name.
    actions: Counter[str] = field(default_factory=Counter)
    #: ``duel`` mode: X's wins by the seat it held, and the duels X played in each seat.
    x_wins: Counter[str] = field(default_factory=Counter)
    x_games: Counter[str] = field(default_factory=Counter)
    #: ``--timing``: each bot's seconds per decision (free moments and asked decisions).
    times: dict[str, list[float]] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.events += other.events
        self.rounds += other.rounds
        self.capped += other.capped
        self.wins.update(other.wins)
        self.actions.update(other.actions)
        self.x_wins.update(other.x_wins)
        self.x_games.update(other.x_games)
        for bot, times in other.times.items():
            self.times.setdefault(bot, []).extend(times)


@dataclass(frozen=True)
class Setting:
    """A game's rules and seats, the same for every game of a run."""

    preset: str
    seats: int
    variants: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    teams: tuple[tuple[str, ...], ...] | None
    seed: int


def make(spec: str) -> Any:
    """The bot of ``spec``: ``NAME`` or ``NAME:WEIGHT=VALUE,...`` (values JSON numbers)."""
    from games.split_uno.bots import BOTS, make_bot

    name, _, weights = spec.partition(":")
    if not weights:
        return make_bot(name)
    if name not in BOTS:
        make_bot(name)  # says which names there are
    given = dict(item.split("=", 1) for item in weights.split(","))
    return BOTS[name](**{key: json.loads(value) for key, value in given.items()})  # type: ignore[call-arg]


def timed(spec: str, times: list[float]) -> Any:
    """The bot of ``spec``, timed: each free moment and decision it answers adds its seconds
    to ``times``. Its name, ``watches`` and choices are the bot's own."""
    from games.split_uno.bots import Bot

    bot = make(spec)

    class Timed(Bot):
        name = bot.name
        watches = bot.watches

        def free(self, sim: Any, i: int) -> Any:
            start = time.perf_counter()
            move = bot.free(sim, i)
            times.append(time.perf_counter() - start)
            return move

        def respond(self, sim: Any, i: int, decision: str, choices: Any) -> str:
            start = time.perf_counter()
            choice = bot.respond(sim, i, decision, choices)
            times.append(time.perf_counter() - start)
            return choice  # type: ignore[no-any-return]

        def shed(self, sim: Any, i: int) -> int:
            return bot.shed(sim, i)  # type: ignore[no-any-return]

        def discard_action(self, sim: Any, i: int) -> int:
            return bot.discard_action(sim, i)  # type: ignore[no-any-return]

        def target(self, sim: Any, i: int, why: str) -> int:
            return bot.target(sim, i, why)  # type: ignore[no-any-return]

    return Timed()


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) of ``values``, the nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def play_block(job: tuple[Setting, tuple[str, ...], int, int, bool, bool]) -> Tally:
    """Games ``start`` to ``stop - 1`` of a run: ``bots`` in seat order, or with ``swap``
    (``duel`` mode, ``bots`` = (X, Y)) X in seat ``k mod n`` of game ``k`` and Y in the others.
    With ``timing`` every bot is timed (``timed``)."""
    from games.split_uno.simulate import duel_rng, play_duel

    setting, bots, start, stop, swap, timing = job
    letters = LETTERS[: setting.seats]
    options = dict(setting.options)
    teams = [list(team) for team in setting.teams] if setting.teams else None
    tally = Tally()
    for k in range(start, stop):
        if swap:
            x_seat = letters[k % setting.seats]
            seated = [bots[0] if seat == x_seat else bots[1] for seat in letters]
        else:
            seated = list(bots)
        played = play_duel(
            setting.preset,
            dict(zip(letters, seated, strict=True)),
            [
                timed(spec, tally.times.setdefault(spec, [])) if timing else make(spec)
                for spec in seated
            ],
            duel_rng(setting.seed, k),
            setting.variants,
            options,
            teams=teams,
        )
        tally.games += 1
        tally.events += played.event_count
        tally.rounds += played.rounds
        tally.capped += played.capped
        winners = played.winners
        for seat in winners or ("",):
            tally.wins[seat] += 1
        for event in played.events:
            if event["type"] == "action":
                tally.actions[event["card"]] += 1
        if swap:
            tally.x_games[x_seat] += 1
            if x_seat in winners:
                tally.x_wins[x_seat] += 1
    return tally


def run(
    setting: Setting,
    bots: Sequence[str],
    games: int,
    jobs: int,
    swap: bool,
    timing: bool = False,
    block: int = BLOCK,
) -> Tally:
    """``games`` games in blocks of ``block``, over ``jobs`` processes; their summed tally."""
    blocks = [
        (setting, tuple(bots), start, min(start + block, games), swap, timing)
        for start in range(0, games, block)
    ]
    total = Tally()
    if jobs <= 1:
        for block in blocks:
            total.add(play_block(block))
        return total
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for tally in pool.imap_unordered(play_block, blocks):
            total.add(tally)
    return total


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a share of ``k`` in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return centre - half, centre + half


def gap_margin(a: int, b: int, n: int) -> float:
    """The 95 % margin of the difference of two shares ``a/n - b/n`` of one multinomial
    (each game has one outcome): Var = (p_a + p_b - (p_a - p_b)²) / n."""
    pa, pb = a / n, b / n
    return Z95 * math.sqrt(max(pa + pb - (pa - pb) ** 2, 0.0) / n)


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def report_seats(setting: Setting, bot: str, tally: Tally, seconds: float) -> dict[str, Any]:
    """Print one bot's seat figures; return them as plain data (for ``--json``)."""
    n = tally.games
    letters = LETTERS[: setting.seats]
    shares = {s: tally.wins[s] / n for s in letters}
    top = max(letters, key=lambda s: shares[s])
    low = min(letters, key=lambda s: shares[s])
    bias = shares[top] - shares[low]
    margin = gap_margin(tally.wins[top], tally.wins[low], n)
    drawn = tally.wins[""]
    print(f"{bot} bots in every seat: {n:,} games in {seconds:.0f} s")
    for s in letters:
        low_ci, high_ci = wilson(tally.wins[s], n)
        print(f"  seat {s} won {tally.wins[s]:>6,} {percent(shares[s]):>6}"
              f"  95% interval {percent(low_ci)}–{percent(high_ci)}")  # fmt: skip
    print(f"  drawn {drawn:,} ({percent(drawn / n)}); ended by the event cap {tally.capped:,}")
    print(f"  seat bias (max - min share): {100 * bias:.1f} points ± {100 * margin:.1f}"
          f" ({top} - {low})")  # fmt: skip
    print(f"  average length: {tally.events / n:.1f} events, {tally.rounds / n:.1f} rounds")
    played = sum(tally.actions.values())
    kinds = "  ".join(
        f"{card} {count:,} ({percent(count / played)})"
        for card, count in tally.actions.most_common()
    )
    per_game = played / n
    print(f"  action cards played: {played:,} ({per_game:.1f} a game): {kinds or 'none'}")
    reverse = tally.actions["reverse"]
    print(f"  REVERSE share of action cards: {percent(reverse / played) if played else '-'}"
          f" ({reverse / n:.2f} a game)")  # fmt: skip
    return {
        "bot": bot,
        "games": n,
        "wins_by_seat": {s: tally.wins[s] for s in letters},
        "drawn": drawn,
        "capped": tally.capped,
        "bias": bias,
        "bias_margin": margin,
        "average_events": tally.events / n,
        "average_rounds": tally.rounds / n,
        "actions": dict(tally.actions),
    }


def report_duel(x: str, y: str, seats: int, tally: Tally, seconds: float) -> dict[str, Any]:
    n = tally.games
    x_won = sum(tally.x_wins.values())
    drawn = tally.wins[""]
    decided = n - drawn
    low_ci, high_ci = wilson(x_won, decided)
    against = y if seats == 2 else f"{seats - 1} {y} bots"
    print(f"{x} against {against}, X's seat moved round every game: {n:,} games in"
          f" {seconds:.0f} s")  # fmt: skip
    print(f"  {x} won {x_won:,} of {decided:,} decided games: {percent(x_won / max(decided, 1))}"
          f"  95% interval {percent(low_ci)}–{percent(high_ci)}")  # fmt: skip
    for seat in LETTERS[:seats]:
        won, of = tally.x_wins[seat], tally.x_games[seat]
        print(f"  {x} in seat {seat}: won {won:,} of {of:,} ({percent(won / max(of, 1))})")
    print(f"  drawn {drawn:,} ({percent(drawn / n)}); ended by the event cap {tally.capped:,}")
    print(f"  average length: {tally.events / n:.1f} events, {tally.rounds / n:.1f} rounds")
    timing = {}
    for bot, times in sorted(tally.times.items()):
        if times:
            timing[bot] = {"decisions": len(times), "p50": percentile(times, 50),
                           "p95": percentile(times, 95), "max": max(times)}  # fmt: skip
            print(f"  {bot}: {len(times):,} decisions, time per decision p50"
                  f" {1000 * timing[bot]['p50']:.2f} ms, p95 {1000 * timing[bot]['p95']:.2f} ms,"
                  f" max {1000 * timing[bot]['max']:.1f} ms")  # fmt: skip
    return {"x": x, "y": y, "duels": n, "x_wins": x_won, "drawn": drawn,
            "x_wins_by_seat": dict(tally.x_wins), "capped": tally.capped,
            "timing": timing}  # fmt: skip


def parse_options(given: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in given:
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--option {item}: give NAME=JSON, e.g. number_pool=188")
        try:
            options[name] = json.loads(value)
        except ValueError:
            raise SystemExit(
                f'--option {item}: the value is JSON, e.g. blocked_seat="draws"'
            ) from None
    return options


def main(argv: Sequence[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    modes = parser.add_subparsers(dest="mode", required=True)
    seats = modes.add_parser("seats", help="identical bots in every seat: the seat bias")
    seats.add_argument("--seats", type=int, default=4, choices=range(2, 7), metavar="N")
    seats.add_argument("--bot", action="append", dest="bots", metavar="BOT",
                       help="a bot to put in every seat (repeatable; default: random, then"
                       " heuristic)")  # fmt: skip
    seats.add_argument("--teams", metavar="AC,BD", help="the team variant with these teams")
    duel = modes.add_parser("duel", help="bot X against bot Y, seats swapped every duel")
    duel.add_argument("x", help="a bot: a name make_bot takes, e.g. heuristic, or with weights,"
                      " e.g. heuristic:reverse_stop=99")  # fmt: skip
    duel.add_argument("y", help="a bot, as X")
    duel.add_argument("--seats", type=int, default=2, choices=range(2, 7), metavar="N",
                      help="seats (default 2): X in one, Y in the others")  # fmt: skip
    duel.add_argument("--timing", action="store_true",
                      help="print each bot's time per decision (p50, p95)")  # fmt: skip
    duel.add_argument("--block", type=int, default=BLOCK, metavar="GAMES",
                      help=f"games per block handed to a process (default {BLOCK}; fewer"
                      " for slow bots, so that every process gets work)")  # fmt: skip
    for mode, preset in ((seats, "official"), (duel, "tournament")):
        mode.add_argument("--preset", default=preset)
        mode.add_argument("--games", type=int, default=4000)
        mode.add_argument("--seed", type=int, default=2026)
        mode.add_argument("--variant", action="append", default=[])
        mode.add_argument("--option", action="append", default=[], metavar="NAME=JSON")
        mode.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                          help="processes (default: every core); the figures do not depend"
                          " on it")  # fmt: skip
        mode.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)

    import games.split_uno
    from games.split_uno.rules import PRESETS

    n_seats = args.seats
    options = parse_options(args.option)
    if n_seats > PRESETS[args.preset]["max_seats"] and "max_seats" not in options:
        options["max_seats"] = n_seats
    variants = list(args.variant)
    teams = tuple(tuple(t) for t in args.teams.split(",")) if getattr(args, "teams", None) else None
    if teams and "team" not in variants:
        variants.append("team")
    setting = Setting(args.preset, n_seats, tuple(variants), tuple(sorted(options.items())),
                      teams, args.seed)  # fmt: skip
    build = "compiled engine" if games.split_uno.COMPILED else "engine from its sources"
    print(f"{args.preset}, {n_seats} seats, variants {variants or 'none'}, options"
          f" {options or 'none'}{', teams ' + args.teams if teams else ''}; seed {args.seed};"
          f" {args.jobs} processes; {build}; load average at the start"
          f" {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")  # fmt: skip
    results: list[dict[str, Any]] = []
    if args.mode == "seats":
        names = args.bots or ["random", "heuristic"]
        for name in names:
            make(name)  # an unknown name fails here, before any game
        for name in names:
            start = time.monotonic()
            tally = run(setting, [name] * n_seats, args.games, args.jobs, swap=False)
            results.append(report_seats(setting, name, tally, time.monotonic() - start))
        if len(results) > 1:
            base = results[0]
            for other in results[1:]:
                print(f"bias of {other['bot']} less bias of {base['bot']}:"
                      f" {100 * (other['bias'] - base['bias']):+.1f} points")  # fmt: skip
    else:
        make(args.x), make(args.y)
        start = time.monotonic()
        tally = run(setting, [args.x, args.y], args.games, args.jobs, swap=True,
                    timing=args.timing, block=args.block)  # fmt: skip
        results.append(report_duel(args.x, args.y, n_seats, tally, time.monotonic() - start))
        print(f"  load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.json:
        Path(args.json).write_text(json.dumps({"setting": vars(args), "results": results},
                                              indent=1, default=str))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
