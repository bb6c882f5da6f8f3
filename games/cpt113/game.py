"""A CPT-113 game is its seed, its number of groups and its moves: ``Game`` replays them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.common.errors import IllegalMove, MalformedRecord
from games.common.game import RecordedGame, replayed
from games.common.records import read_header

from . import rules
from .state import MAX_GROUPS, MIN_GROUPS, State, default_names

FORMAT = "cpt113-game"
VERSION = 1
#: A game of more moves than this is refused (the 40 cards end a real one long before).
MAX_MOVES = 2000


class Game(RecordedGame):
    """One game: ``state`` after ``moves``; ``apply`` checks a move and keeps it if legal."""

    rules = rules
    FORMAT = FORMAT
    VERSION = VERSION
    MAX_MOVES = MAX_MOVES

    def __init__(self, seed: int, groups: int = 4, names: Sequence[str] | None = None) -> None:
        if type(groups) is not int or not MIN_GROUPS <= groups <= MAX_GROUPS:
            raise MalformedRecord(f"groups must be {MIN_GROUPS} to {MAX_GROUPS}")
        if names is not None and (
            len(names) != 2 * groups or not all(isinstance(n, str) and n for n in names)
        ):
            raise MalformedRecord(f"names must be {2 * groups} non-empty names, one a seat")
        self.state: State = rules.new_game(seed, groups, tuple(names or default_names(groups)))
        self.moves: list[dict[str, Any]] = []

    def _record_facts(self) -> dict[str, Any]:
        return {"groups": self.state.groups}


def replay(record: object) -> tuple[Game, IllegalMove | None]:
    """The game a record describes, up to its first illegal move (returned, numbered)."""
    header = read_header(record, FORMAT, VERSION)
    names = header.get("names")
    if names is not None and not isinstance(names, list):
        raise MalformedRecord("names must be a list, one name a seat")
    game = Game(header["seed"], header.get("groups", 4), names)
    return game, replayed(game, header["moves"])
