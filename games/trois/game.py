"""A Trois game is its seed and its moves: ``Game`` replays them to a state and takes more."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.common.errors import GameError, IllegalMove, MalformedRecord
from games.common.records import read_header
from games.common.words import Effect

from . import rules
from .rules import Legal
from .state import NAMES, SEATS, State

FORMAT = "trois-game"
VERSION = 1
#: A game of more moves than this is refused as a record (a real one ends long before).
MAX_MOVES = 5000


class Game:
    """One game: ``state`` after ``moves``; ``apply`` checks a move and keeps it if legal."""

    def __init__(self, seed: int, names: Sequence[str] = NAMES) -> None:
        if len(names) != SEATS or not all(isinstance(n, str) and n for n in names):
            raise MalformedRecord(f"names must be {SEATS} non-empty names, Player's first")
        self.state: State = rules.new_game(seed, tuple(names))
        self.moves: list[dict[str, Any]] = []

    @property
    def finished(self) -> bool:
        return self.state.finished

    def legal(self) -> Legal:
        return rules.legal(self.state)

    def apply(self, move: object) -> list[Effect]:
        """Apply ``move`` (checked); IllegalMove leaves the game as it was."""
        if len(self.moves) >= MAX_MOVES:
            raise IllegalMove(f"a game has at most {MAX_MOVES} moves")
        self.state, effects = rules.apply(self.state, move)
        assert isinstance(move, Mapping)
        self.moves.append(_plain(move))
        return effects

    def record(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "seed": self.state.seed,
            "names": list(self.state.names),
            "moves": [dict(m) for m in self.moves],
        }


def _plain(move: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(move)
    if isinstance(out.get("cards"), list):
        out["cards"] = list(out["cards"])
    return out


def replay(record: object) -> tuple[Game, IllegalMove | None]:
    """The game a record describes, up to its first illegal move (returned, numbered)."""
    header = read_header(record, FORMAT, VERSION)
    names = header.get("names", list(NAMES))
    if not isinstance(names, list):
        raise MalformedRecord(f"names must be a list of {SEATS} names")
    game = Game(header["seed"], names)
    for index, move in enumerate(header["moves"], start=1):
        try:
            game.apply(move)
        except GameError as err:
            return game, IllegalMove(str(err), index)
    return game, None


def state_after(seed: int, moves: Sequence[object]) -> State:
    """The state after ``moves`` from ``seed`` (each must be legal)."""
    game = Game(seed)
    for move in moves:
        game.apply(move)
    return game.state
