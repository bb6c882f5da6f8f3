"""``python -m games.trois replay RECORD.json`` prints the state after a record's moves;
``python -m games.trois simulate --count N [--seed S] [--bot random|heuristic …]`` plays games
between bots and prints a summary (docs/games-trois.md)."""

from __future__ import annotations

import argparse
import json
import sys

from games.common.errors import GameError
from games.common.records import load_json

from .bots import BOTS
from .game import replay
from .simulate import TIME_AFTER_MOVES, simulate
from .state import SEATS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.trois", description="The Trois rules engine."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    rep = commands.add_parser("replay", help="replay a record and print its state as JSON")
    rep.add_argument("record", help="the record file, or - for standard input")
    sim = commands.add_parser("simulate", help="play games between bots, print a summary")
    sim.add_argument("--count", type=int, required=True)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument(
        "--bot",
        action="append",
        choices=sorted(BOTS),
        default=[],
        help="the bot of each seat in order, Player's first (default heuristic)",
    )
    sim.add_argument(
        "--time-after",
        type=int,
        default=TIME_AFTER_MOVES,
        help="moves after which the dealer calls time",
    )
    args = parser.parse_args(argv)
    if args.command == "simulate":
        if not 1 <= args.count <= 1_000_000:
            parser.error("--count must be from 1 to 1000000")
        bots = (args.bot + ["heuristic"] * SEATS)[:SEATS]
        print(json.dumps(simulate(args.count, args.seed, bots, args.time_after), indent=1))
        return 0
    try:
        game, error = replay(load_json(args.record))
    except GameError as err:
        print(f"malformed record: {err}", file=sys.stderr)
        return 2
    print(json.dumps(game.state.as_dict(), indent=1, ensure_ascii=False))
    if error is not None:
        print(f"error: {error.located()}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
