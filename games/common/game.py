"""What a matching game's ``Game`` is in both engines: a seed and its moves, replayed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Protocol

from .errors import GameError, IllegalMove
from .words import Effect


class Rules(Protocol):
    """An engine's rules module, as a ``Game`` uses it."""

    def legal(self, state: Any) -> Any: ...

    def apply(self, state: Any, move: object) -> tuple[Any, list[Effect]]: ...


class RecordedGame:
    """One game: ``state`` after ``moves``; ``apply`` checks a move and keeps it if legal.
    An engine's ``Game`` names its rules, its record's format and version and its bound on
    moves, and sets ``state`` up from a seed."""

    rules: ClassVar[Rules]
    FORMAT: ClassVar[str]
    VERSION: ClassVar[int]
    #: A game of more moves than this is refused (a real one ends long before).
    MAX_MOVES: ClassVar[int]

    state: Any
    moves: list[dict[str, Any]]

    @property
    def finished(self) -> bool:
        return bool(self.state.finished)

    def legal(self) -> Any:
        return self.rules.legal(self.state)

    def apply(self, move: object) -> list[Effect]:
        """Apply ``move`` (checked); IllegalMove leaves the game as it was."""
        if len(self.moves) >= self.MAX_MOVES:
            raise IllegalMove(f"a game has at most {self.MAX_MOVES} moves")
        self.state, effects = self.rules.apply(self.state, move)
        assert isinstance(move, Mapping)
        # A copy of the move and of its list of cards: the record is the game's own.
        self.moves.append({k: list(v) if isinstance(v, list) else v for k, v in move.items()})
        return effects

    def record(self) -> dict[str, Any]:
        return {
            "format": self.FORMAT,
            "version": self.VERSION,
            "seed": self.state.seed,
            **self._record_facts(),
            "names": list(self.state.names),
            "moves": [dict(m) for m in self.moves],
        }

    def _record_facts(self) -> dict[str, Any]:
        """The record's keys between its seed and its names (CPT-113's groups)."""
        return {}


def replayed(game: RecordedGame, moves: Iterable[object]) -> IllegalMove | None:
    """Applies ``moves`` to ``game`` up to the first illegal one, returned with its number."""
    for index, move in enumerate(moves, start=1):
        try:
            game.apply(move)
        except GameError as err:
            return IllegalMove(str(err), index)
    return None
