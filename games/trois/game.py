"""A Trois game is its seed and its moves: ``Game`` replays them to a state and takes more."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.common.errors import IllegalMove, MalformedRecord
from games.common.game import RecordedGame, replayed
from games.common.records import read_header

from . import rules
from .state import NAMES, SEATS, State

FORMAT = "trois-game"
VERSION = 1
#: A game of more moves than this is refused as a record (a real one ends long before).
MAX_MOVES = 5000


class Game(RecordedGame):
    """One game: ``state`` after ``moves``; ``apply`` checks a move and keeps it if legal."""

    rules = rules
    FORMAT = FORMAT
    VERSION = VERSION
    MAX_MOVES = MAX_MOVES

    def __init__(self, seed: int, names: Sequence[str] = NAMES) -> None:
        if len(names) != SEATS or not all(isinstance(n, str) and n for n in names):
            raise MalformedRecord(f"names must be {SEATS} non-empty names, Player's first")
        self.state: State = rules.new_game(seed, tuple(names))
        self.moves: list[dict[str, Any]] = []


def replay(record: object) -> tuple[Game, IllegalMove | None]:
    """The game a record describes, up to its first illegal move (returned, numbered)."""
    header = read_header(record, FORMAT, VERSION)
    names = header.get("names", list(NAMES))
    if not isinstance(names, list):
        raise MalformedRecord(f"names must be a list of {SEATS} names")
    game = Game(header["seed"], names)
    return game, replayed(game, header["moves"])


def state_after(seed: int, moves: Sequence[object]) -> State:
    """The state after ``moves`` from ``seed`` (each must be legal)."""
    game = Game(seed)
    for move in moves:
        game.apply(move)
    return game.state
