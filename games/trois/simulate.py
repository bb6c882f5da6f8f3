"""Bots playing whole Trois games through the rules (tests, win rates, the command line)."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .bots import BOTS, view_for
from .game import Game
from .state import SEATS

#: Bots play instantly, so simulated games have no clock: the dealer calls time after this
#: many moves instead, a stand-in for the 25 minutes (a person makes about one move in 3 s).
TIME_AFTER_MOVES = 500


def play_game(
    seed: int, bots: Sequence[str] = ("heuristic",) * SEATS, time_after: int = TIME_AFTER_MOVES
) -> Game:
    """A whole game between bots (one per seat), decided by their choices and the seed."""
    players = [BOTS[name]() for name in bots]
    rng = random.Random(f"trois-bots:{seed}")
    game = Game(seed)
    while not game.finished:
        if len(game.moves) >= time_after:
            game.apply({"kind": "time"})
            break
        state = game.state
        game.apply(players[state.turn].choose(view_for(state, game.legal()), rng))
    return game


def simulate(
    count: int,
    seed: int = 0,
    bots: Sequence[str] = ("heuristic",) * SEATS,
    time_after: int = TIME_AFTER_MOVES,
) -> dict[str, Any]:
    """``count`` games from seeds ``seed``, ``seed + 1``, …: who won, how, how long."""
    started = time.perf_counter()
    wins: Counter[int] = Counter()
    endings: Counter[str] = Counter()
    ties = 0
    moves = 0
    for n in range(count):
        game = play_game(seed + n, bots, time_after)
        state = game.state
        endings[state.ending or "unfinished"] += 1
        moves += len(game.moves)
        if len(state.winners) == 1:
            wins[state.winners[0]] += 1
        else:
            ties += 1
    return {
        "games": count,
        "bots": list(bots),
        "wins": {state_name(s): wins[s] for s in range(SEATS)},
        "win_rates": {
            state_name(s): round(wins[s] / count, 4) if count else 0.0 for s in range(SEATS)
        },
        "ties": ties,
        "endings": dict(endings),
        "mean_moves": round(moves / count, 1) if count else 0.0,
        "seconds": round(time.perf_counter() - started, 2),
    }


def state_name(seat: int) -> str:
    return ("Player", "Bot 1", "Bot 2", "Bot 3")[seat]
