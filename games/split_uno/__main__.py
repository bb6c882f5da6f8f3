"""The engine's command line (RULES.md section 8, which names it ``python -m duels.engine``:
``duels/engine/__main__.py``, an alias that runs this ``main``).

``python -m games.split_uno replay RECORD.json`` (or ``-`` for standard input) prints the state
as JSON on standard output. An illegal event stops the replay: the state after the last legal
event is printed, ``error: event N: <reason>`` goes to standard error, exit status 2. A
malformed record exits 2 with a one-line error and prints no state.

``python -m games.split_uno simulate --ruleset R --count N --seed S [--seats N] [--teams AC,BD]
[--bot A:random --bot B:heuristic] [--records FILE.jsonl] [--jobs N]`` plays N duels between
bots and prints a summary (docs/rules.md, "Bots and simulation"); ``--jobs`` spreads them over
N processes with the same results.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, NoReturn

from .bots import BOTS
from .duel import Duel
from .errors import EngineError
from .hands import DEFAULT_SPREAD, SPREADS
from .rules import PRESETS, VARIANTS
from .simulate import DEFAULT_MAX_EVENTS, simulate


def main(argv: list[str] | None = None, prog: str = "python -m games.split_uno") -> int:
    """Run the command line on ``argv`` (the process's arguments by default); ``prog`` is the
    command as typed, for the usage lines (the alias ``python -m duels.engine`` passes its own)."""
    parser = argparse.ArgumentParser(prog=prog, description="The Split UNO referee engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a duel record and print its state as JSON")
    replay.add_argument("record", help="the record file, or - for standard input")
    _simulate_parser(commands)
    args = parser.parse_args(argv)
    if args.command == "simulate":
        return _simulate(args)
    return _replay(args.record)


def _replay(path: str) -> int:
    record = _read_record(path)
    try:
        duel, error = Duel.load(record)
    except EngineError as malformed:
        _fail(f"malformed record: {malformed}")
    _write(sys.stdout, json.dumps(duel.state(), indent=1, ensure_ascii=False) + "\n")
    if error is not None:
        _write(sys.stderr, f"error: {_one_line(error.located())}\n")
        return 2
    return 0


def _simulate_parser(commands: Any) -> None:
    sim = commands.add_parser(
        "simulate",
        help="play duels between bots and print a summary",
        description="Play duels between bots through the engine and print a summary. "
        "The same arguments always play the same duels.",
    )
    sim.add_argument("--ruleset", required=True, choices=sorted(PRESETS))
    sim.add_argument("--count", type=_count, required=True, help="how many duels to play")
    sim.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    sim.add_argument(
        "--seats",
        type=int,
        default=2,
        choices=range(2, 7),
        metavar="N",
        help="how many seats, 2 to 6 (default 2); max_seats is raised to N where the preset "
        "allows fewer",
    )
    sim.add_argument(
        "--teams",
        metavar="AC,BD",
        help="play the team variant with these teams, e.g. AC,BD or ABC,DEF",
    )
    sim.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SEAT:BOT",
        help=f"the bot in a seat, e.g. A:heuristic ({', '.join(BOTS)}; default random)",
    )
    sim.add_argument(
        "--swap",
        action="store_true",
        help="move the bots round one seat per duel (two seats: swap them in every "
        "odd-numbered duel)",
    )
    sim.add_argument("--records", metavar="FILE.jsonl", help="write every record, one a line")
    sim.add_argument("--variant", action="append", default=[], choices=sorted(VARIANTS))
    sim.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=JSON",
        help='override a switch, e.g. starting_number_cards=10 or blocked_seat="sits_out"',
    )
    sim.add_argument(
        "--spread",
        default=DEFAULT_SPREAD,
        help=f"number values in the pool: {', '.join(SPREADS)} or ten weights for 0-9, "
        f"e.g. 1,2,2,2,2,2,2,2,2,2 (default {DEFAULT_SPREAD})",
    )
    sim.add_argument(
        "--max-events",
        type=_count,
        default=DEFAULT_MAX_EVENTS,
        help=f"end a duel by time_limit at this many events (default {DEFAULT_MAX_EVENTS})",
    )
    sim.add_argument(
        "--check",
        action="store_true",
        help="slow: look every move up in the legal moves and compare hands after every event",
    )
    sim.add_argument(
        "--jobs",
        type=_count,
        default=1,
        metavar="N",
        help="play the duels in N processes, each a range of the seed's duels; the summary and "
        "records are the same as with one (default 1)",
    )
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    bar = sim.add_mutually_exclusive_group()
    bar.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="show a progress bar on standard error (default: only on a terminal)",
    )
    bar.add_argument("--no-progress", dest="progress", action="store_false")


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _simulate(args: argparse.Namespace) -> int:
    letters = "ABCDEF"[: args.seats]
    bots = dict.fromkeys(letters, "random")
    for given in args.bot:
        seat, _, bot = given.partition(":")
        if seat not in bots or bot not in BOTS:
            _fail(
                f"--bot {given}: give SEAT:BOT with a seat {', '.join(letters)} and a bot "
                f"{', '.join(BOTS)}"
            )
        bots[seat] = bot
    teams = [list(team) for team in args.teams.split(",")] if args.teams else None
    variants = list(args.variant)
    if teams is not None and "team" not in variants:
        variants.append("team")
    options: dict[str, Any] = {}
    for given in args.option:
        name, sep, value = given.partition("=")
        try:
            options[name] = json.loads(value, parse_constant=_no_constant)
        except ValueError:
            _fail(f"--option {given}: give NAME=JSON, e.g. starting_number_cards=10")
        if not sep:
            _fail(f"--option {given}: give NAME=JSON, e.g. starting_number_cards=10")
    if args.seats > PRESETS[args.ruleset]["max_seats"] and "max_seats" not in options:  # type: ignore[operator]
        options["max_seats"] = args.seats
    spread: Any = args.spread
    if "," in spread:
        try:
            spread = [int(w) for w in spread.split(",")]
        except ValueError:
            _fail(f"--spread {args.spread}: give a spread name or ten whole numbers")
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = _Progress(sys.stderr) if show else None
    records = None
    try:
        if args.records:
            records = open(args.records, "w", encoding="utf-8")  # noqa: SIM115
        summary = simulate(
            args.ruleset,
            args.count,
            seed=args.seed,
            bots=[bots[seat] for seat in letters],
            swap=args.swap,
            variants=variants,
            options=options,
            max_events=args.max_events,
            spread=spread,
            records=records,
            check=args.check,
            progress=bar,
            teams=teams,
            jobs=args.jobs,
        )
    except OSError as exc:
        _fail(f"cannot write {args.records}: {exc.strerror or exc}")
    except (EngineError, ValueError) as exc:
        _fail(str(exc))
    finally:
        if bar is not None:
            bar.close()
        if records is not None:
            records.close()
    text = json.dumps(summary.as_dict(), indent=1) if args.json else summary.text()
    _write(sys.stdout, text + "\n")
    return 0


class _Progress:
    """A one-line bar redrawn in place at most ten times a second."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.shown = -1.0
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.shown < 0.1:
            return
        self.shown = now
        width = 30
        filled = width * done // total
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} duels")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


def _read_record(path: str) -> Any:
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        _fail(f"cannot read {path}: {exc.strerror or exc}")
    # JSON has no limit on integer length; an absurd card value is an illegal event, not
    # unreadable JSON.
    sys.set_int_max_str_digits(0)
    try:
        return json.loads(data, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        # ValueError covers bad JSON, bad UTF-8 and integers too long to convert.
        _fail(f"the record is not JSON: {exc}")


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON value")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _write(stream: Any, text: str) -> None:
    # Bytes, so that a name holding a lone surrogate cannot make the output itself fail.
    stream.flush()
    stream.buffer.write(text.encode("utf-8", "backslashreplace"))
    stream.buffer.flush()


def _fail(message: str) -> NoReturn:
    _write(sys.stderr, f"error: {_one_line(message)}\n")
    sys.exit(2)


if __name__ == "__main__":
    sys.exit(main())
