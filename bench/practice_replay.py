"""Practice table benchmark: the time to replay a whole practice game, by table size.

    .venv/bin/python bench/practice_replay.py [--games 10] [--ruleset official]

Before issue 27 every practice page replayed the game from its seed and the person's moves;
since then a page restores the stored events of the table core (docs/practice.md, "How a duel
is stored and played") and ``practice.game.replay`` serves only the data migration that settled
the duels stored the old way: this measures that old replay. For each table (2, 4, 4 in
teams, 6, 6 in three teams) this plays --games games with a person choosing random legal
moves (seeded: the same games every run), then times ``practice.game.replay`` of each
finished game. No database, no Django.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.split_uno import COMPILED  # noqa: E402
from practice.game import Game, replay, start  # noqa: E402
from practice.seating import choose  # noqa: E402

TABLES = [(2, ""), (4, ""), (4, "AC,BD"), (6, ""), (6, "AD,BE,CF")]


def legal_move(game: Game, rng: random.Random) -> dict:
    asked = game.awaiting_me()
    if asked:
        return {"kind": "respond", "choice": rng.choice(asked[1])}
    targets = game.targets()
    target = {"target": rng.choice(targets)} if targets else {}
    playable = game.playable_actions()
    if playable and rng.random() < 0.3:
        card = rng.choice(playable)
        if card == "color_change":
            return {"kind": "action", "card": card, "color": "red"}
        return {"kind": "action", "card": card, **target}
    if not game.reveals():
        return {"kind": "blocked_round"}
    return {"kind": "reveal", "value": rng.choice(game.my_numbers())[0], **target}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--ruleset", default="official")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, engine compiled: {COMPILED}")
    for seats, layout in TABLES:
        seating = choose(args.ruleset, seats, (), layout)
        times, moves_seen = [], []
        for seed in range(args.games):
            rng = random.Random(seed)
            game = start(args.ruleset, seed, "Ada", seating)
            moves = []
            while not game.finished:
                moves.append(game.play(legal_move(game, rng)))
            began = time.perf_counter()
            replay(args.ruleset, seed, "Ada", moves, seating)
            times.append(time.perf_counter() - began)
            moves_seen.append(len(moves))
        times.sort()
        median = statistics.median(times) * 1000
        print(
            f"{seats} seats {layout or 'no teams':9} median {median:6.1f} ms"
            f"  max {times[-1] * 1000:6.1f} ms  (person's moves: median "
            f"{statistics.median(moves_seen):.0f})"
        )


if __name__ == "__main__":
    main()
