"""The one error type of the engine and its two kinds (RULES.md section 8).

A referee reads ``str(err)``: it says what is wrong and what is allowed instead.
"""

from __future__ import annotations

from collections.abc import Mapping


class EngineError(Exception):
    """Anything the engine refuses. Nothing has changed when it is raised."""


class MalformedRecord(EngineError):
    """The record as a whole cannot be read: header, seats, ruleset, variants or options."""


class IllegalEvent(EngineError):
    """One event is unreadable or the rules forbid it now.

    ``index`` is the 1-based number of the event in its record when known, else None;
    ``reason`` is the message without the event number (``str(err)`` is the same text).
    """

    def __init__(self, reason: str, index: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.index = index

    def located(self) -> str:
        """The message as the command line prints it: ``event N: reason``."""
        if self.index is None:
            return self.reason
        return f"event {self.index}: {self.reason}"


def show(value: object) -> str:
    """A short, one-line rendering of a bad value for an error message."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        text = repr(value) if len(value) <= 40 else repr(value[:37]) + "…"
        return text.replace("\n", " ")
    if type(value) is int and not -(10**30) < value < 10**30:
        # repr of a huge int can itself fail (Python's digit limit), so do not try.
        return "a very large integer"
    if type(value) in (int, float):
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "…"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return f"a {type(value).__name__}"
