"""``python -m games.cpt113 replay RECORD.json`` prints the state after a record's moves;
``python -m games.cpt113 simulate --count N [--groups 2-4] [--seed S] [--bot random|heuristic
…]`` plays games between bots and prints a summary (docs/games-cpt113.md)."""

from __future__ import annotations

import json
import sys

from games.common.cli import add_bots, engine_parser, print_replay, seat_bots

from .bots import BOTS
from .game import replay
from .simulate import simulate


def main(argv: list[str] | None = None) -> int:
    parser, sim = engine_parser("python -m games.cpt113", "The CPT-113 UNO rules engine.")
    sim.add_argument("--groups", type=int, default=4, choices=(2, 3, 4))
    add_bots(sim, BOTS, " A1, B1, …, A2, B2, …")
    args = parser.parse_args(argv)
    if args.command == "replay":
        return print_replay(args.record, replay)
    bots = seat_bots(parser, args, 2 * args.groups)
    print(json.dumps(simulate(args.count, args.seed, args.groups, bots), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
