"""``python -m games.cpt113 replay RECORD.json`` prints the state after a record's moves;
``python -m games.cpt113 simulate --count N [--groups 2-4] [--seed S] [--bot random|heuristic
…]`` plays games between bots and prints a summary (docs/games-cpt113.md)."""

from __future__ import annotations

import argparse
import json
import sys

from games.common.errors import GameError
from games.common.records import load_json

from .bots import BOTS
from .game import replay
from .simulate import simulate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.cpt113", description="The CPT-113 UNO rules engine."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    rep = commands.add_parser("replay", help="replay a record and print its state as JSON")
    rep.add_argument("record", help="the record file, or - for standard input")
    sim = commands.add_parser("simulate", help="play games between bots, print a summary")
    sim.add_argument("--count", type=int, required=True)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--groups", type=int, default=4, choices=(2, 3, 4))
    sim.add_argument(
        "--bot",
        action="append",
        choices=sorted(BOTS),
        default=[],
        help="the bot of each seat in order A1, B1, …, A2, B2, … (default heuristic)",
    )
    args = parser.parse_args(argv)
    if args.command == "simulate":
        if not 1 <= args.count <= 1_000_000:
            parser.error("--count must be from 1 to 1000000")
        seats = 2 * args.groups
        bots = (args.bot + ["heuristic"] * seats)[:seats]
        print(json.dumps(simulate(args.count, args.seed, args.groups, bots), indent=1))
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
