"""``python -m games.trois replay RECORD.json`` prints the state after a record's moves;
``python -m games.trois simulate --count N [--seed S] [--bot random|heuristic …]`` plays games
between bots and prints a summary (docs/games-trois.md)."""

from __future__ import annotations

import json
import sys

from games.common.cli import add_bots, engine_parser, print_replay, seat_bots

from .bots import BOTS
from .game import replay
from .simulate import TIME_AFTER_MOVES, simulate
from .state import SEATS


def main(argv: list[str] | None = None) -> int:
    parser, sim = engine_parser("python -m games.trois", "The Trois rules engine.")
    add_bots(sim, BOTS, ", Player's first")
    sim.add_argument(
        "--time-after",
        type=int,
        default=TIME_AFTER_MOVES,
        help="moves after which the dealer calls time",
    )
    args = parser.parse_args(argv)
    if args.command == "replay":
        return print_replay(args.record, replay)
    bots = seat_bots(parser, args, SEATS)
    print(json.dumps(simulate(args.count, args.seed, bots, args.time_after), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
