"""The one error type of the game engines: a refusal in words, with nothing changed."""

from __future__ import annotations


class GameError(Exception):
    """Anything an engine refuses. The game is exactly as it was when this is raised."""


class IllegalMove(GameError):
    """One move is unreadable or the rules forbid it now; ``str(err)`` says why in words.

    ``index`` is the 1-based number of the move in its record when known (a replay)."""

    def __init__(self, reason: str, index: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.index = index

    def located(self) -> str:
        """The message as the command line prints it: ``move N: reason``."""
        return self.reason if self.index is None else f"move {self.index}: {self.reason}"


class MalformedRecord(GameError):
    """A record as a whole cannot be read: its format, version, seed or options."""
