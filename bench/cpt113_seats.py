"""CPT-113 bench (issue 30): how short a game is for the person, and where the opening seat
bias comes from.

    python bench/cpt113_seats.py [--games 6000] [--groups 2 3 4] [--seed 0] [--start 0]

For each number of groups, ``--games`` games between heuristic bots (as practice seats them:
every seat a heuristic bot, the person's seat A1 included), dealt from seeds ``--seed``,
``--seed + 1``, … through the engine (games/cpt113). It prints:

- each group's share of the games won, with its 95 % interval (Wilson), and the ties;
- the seat bias (the biggest share less the smallest);
- the moves of seat A1 — the person's taps in the practice room — per game: median, quartiles
  and mean (a move is a play or a draw; a draw that finds a playable card is followed by its
  play, a second tap);
- per group, on average per game: its turns, the cards it was made to draw by a draw two or a
  wild draw four, and the turns it missed (skip, draw two, wild draw four);
- how the games ended.

``--start K`` opens every game at seat ``K`` instead of A1 (the engine always opens at A1;
the bench moves the opening seat after the deal): if the bias is the order of play's, it moves
with the opening seat.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.cpt113.bots import HeuristicBot, view_for  # noqa: E402
from games.cpt113.game import Game  # noqa: E402
from games.cpt113.state import LETTERS  # noqa: E402

Z95 = 1.959964


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a share."""
    if not games:
        return 0.0, 0.0
    p = wins / games
    centre = p + Z95 * Z95 / (2 * games)
    margin = Z95 * math.sqrt(p * (1 - p) / games + Z95 * Z95 / (4 * games * games))
    scale = 1 + Z95 * Z95 / games
    return (centre - margin) / scale, (centre + margin) / scale


def play(seed: int, groups: int, start: int) -> dict:
    """One game between heuristic bots, opened at seat ``start``: its winners, A1's moves and
    each group's turns, cards drawn and turns missed."""
    game = Game(seed, groups)
    game.state.seat = start % (2 * groups)
    bot = HeuristicBot()
    rng = random.Random(f"cpt113-bench:{seed}")
    turns, hit, missed = Counter(), Counter(), Counter()
    first = 0
    while not game.finished:
        state = game.state
        seat = state.seat
        if seat == 0:
            first += 1
        turns[seat % groups] += 1
        effects = game.apply(bot.choose(view_for(state, game.legal()), rng))
        for effect in effects:
            params = effect.params or {}
            if effect.kind == "play" and "misses" in params:
                missed[params["misses"] % groups] += 1
            if effect.kind == "draw" and not params.get("stuck"):
                hit[params["group"]] += params.get("count", 0)
    state = game.state
    return {
        "winners": state.winners,
        "ending": state.ending,
        "a1": first,
        "turns": turns,
        "hit": hit,
        "missed": missed,
    }


def report(groups: int, games: int, seed: int, start: int) -> None:
    began = time.perf_counter()
    wins: Counter[int] = Counter()
    turns, hit, missed = Counter(), Counter(), Counter()
    endings: Counter[str] = Counter()
    ties = 0
    a1: list[int] = []
    for n in range(games):
        game = play(seed + n, groups, start)
        endings[game["ending"]] += 1
        a1.append(game["a1"])
        turns.update(game["turns"])
        hit.update(game["hit"])
        missed.update(game["missed"])
        if len(game["winners"]) == 1:
            wins[game["winners"][0]] += 1
        else:
            ties += 1
    seconds = time.perf_counter() - began
    opening = f"{LETTERS[start % groups]}{start // groups % 2 + 1}"
    print(
        f"\n{groups} groups, {games} games, seeds {seed}–{seed + games - 1}, opening seat {opening}"
    )
    shares = []
    for g in range(groups):
        low, high = wilson(wins[g], games)
        shares.append(wins[g] / games)
        print(
            f"  group {LETTERS[g]}: wins {wins[g] / games:6.1%} [{low:.1%}, {high:.1%}]"
            f"  turns {turns[g] / games:5.2f}  drawn by action {hit[g] / games:5.2f}"
            f"  turns missed {missed[g] / games:5.2f}"
        )
    print(
        f"  ties {ties} ({ties / games:.1%}); bias (largest share less smallest) "
        f"{max(shares) - min(shares):.1%}"
    )
    quartiles = statistics.quantiles(a1, n=4)
    print(
        f"  A1's moves (the person's taps): median {statistics.median(a1):g}, quartiles "
        f"{quartiles[0]:g}–{quartiles[2]:g}, mean {statistics.mean(a1):.2f}, max {max(a1)}"
    )
    print("  ended by: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    print(f"  {seconds:.1f} s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--groups", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=int, default=0, help="the opening seat's index")
    args = parser.parse_args(argv)
    for groups in args.groups:
        report(groups, args.games, args.seed, args.start)


if __name__ == "__main__":
    main()
