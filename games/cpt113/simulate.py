"""Bots playing whole CPT-113 games through the rules (tests, win rates, the command line)."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .bots import BOTS, view_for
from .game import Game
from .state import LETTERS


def play_game(seed: int, groups: int = 4, bots: Sequence[str] | None = None) -> Game:
    """A whole game between bots: ``bots`` names one bot a seat (default all heuristic)."""
    names = list(bots or ["heuristic"] * (2 * groups))
    players = [BOTS[name]() for name in names]
    rng = random.Random(f"cpt113-bots:{seed}")
    game = Game(seed, groups)
    while not game.finished:
        state = game.state
        game.apply(players[state.seat].choose(view_for(state, game.legal()), rng))
    return game


def simulate(
    count: int, seed: int = 0, groups: int = 4, bots: Sequence[str] | None = None
) -> dict[str, Any]:
    """``count`` games from seeds ``seed``, ``seed + 1``, …: who won, how, how long."""
    started = time.perf_counter()
    wins: Counter[int] = Counter()
    endings: Counter[str] = Counter()
    ties = drop_outs = moves = 0
    names = list(bots or ["heuristic"] * (2 * groups))
    for n in range(count):
        game = play_game(seed + n, groups, names)
        state = game.state
        endings[state.ending or "unfinished"] += 1
        moves += len(game.moves)
        drop_outs += len(state.out)
        if len(state.winners) == 1:
            wins[state.winners[0]] += 1
        else:
            ties += 1
    return {
        "games": count,
        "groups": groups,
        "bots": names,
        "wins": {f"group {LETTERS[g]}": wins[g] for g in range(groups)},
        "win_rates": {f"group {LETTERS[g]}": round(wins[g] / count, 4) for g in range(groups)},
        "ties": ties,
        "endings": dict(endings),
        "drop_outs": drop_outs,
        "mean_moves": round(moves / count, 1),
        "seconds": round(time.perf_counter() - started, 2),
    }
