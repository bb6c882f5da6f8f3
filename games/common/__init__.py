"""What the two game engines share: the one error type, effects in words, record helpers."""

from .errors import GameError, IllegalMove, MalformedRecord
from .words import Effect, listing, plural

__all__ = ["Effect", "GameError", "IllegalMove", "MalformedRecord", "listing", "plural"]
