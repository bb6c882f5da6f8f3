"""What the two game engines share: the one error type, effects in words, record helpers."""

from .errors import GameError, IllegalMove, MalformedRecord
from .words import Effect, a_number, listing, plural, takes_an

__all__ = [
    "Effect",
    "GameError",
    "IllegalMove",
    "MalformedRecord",
    "a_number",
    "listing",
    "plural",
    "takes_an",
]
