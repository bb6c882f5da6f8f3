"""A CPT-113 game is its seed, its number of groups and its moves: ``Game`` replays them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.common.errors import GameError, IllegalMove, MalformedRecord
from games.common.records import read_header
from games.common.words import Effect

from . import rules
from .rules import Legal
from .state import MAX_GROUPS, MIN_GROUPS, State, default_names

FORMAT = "cpt113-game"
VERSION = 1
#: A game of more moves than this is refused (the 40 cards end a real one long before).
MAX_MOVES = 2000


class Game:
    """One game: ``state`` after ``moves``; ``apply`` checks a move and keeps it if legal."""

    def __init__(self, seed: int, groups: int = 4, names: Sequence[str] | None = None) -> None:
        if type(groups) is not int or not MIN_GROUPS <= groups <= MAX_GROUPS:
            raise MalformedRecord(f"groups must be {MIN_GROUPS} to {MAX_GROUPS}")
        if names is not None and (
            len(names) != 2 * groups or not all(isinstance(n, str) and n for n in names)
        ):
            raise MalformedRecord(f"names must be {2 * groups} non-empty names, one a seat")
        self.state: State = rules.new_game(seed, groups, tuple(names or default_names(groups)))
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
        self.moves.append(dict(move))
        return effects

    def record(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "seed": self.state.seed,
            "groups": self.state.groups,
            "names": list(self.state.names),
            "moves": [dict(m) for m in self.moves],
        }


def replay(record: object) -> tuple[Game, IllegalMove | None]:
    """The game a record describes, up to its first illegal move (returned, numbered)."""
    header = read_header(record, FORMAT, VERSION)
    names = header.get("names")
    if names is not None and not isinstance(names, list):
        raise MalformedRecord("names must be a list, one name a seat")
    game = Game(header["seed"], header.get("groups", 4), names)
    for index, move in enumerate(header["moves"], start=1):
        try:
            game.apply(move)
        except GameError as err:
            return game, IllegalMove(str(err), index)
    return game, None
