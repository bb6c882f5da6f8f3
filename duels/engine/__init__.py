"""The Split UNO referee engine (RULES.md): pure Python, standard library only, no Django.

A duel is its record; ``Duel`` applies events one at a time, says what is legal, and gives the
state of RULES.md section 8 after any prefix. ``python -m duels.engine replay FILE`` is the
command line of section 8.
"""

from .constants import CARDS, COLORS, DECISIONS, ENDINGS, EVENT_TYPES, FINISHES
from .duel import Duel, replay, state_after
from .effects import Effect, describe, describe_all
from .errors import EngineError, IllegalEvent, MalformedRecord
from .legal import Legal
from .rules import PRESETS, SWITCHES, VARIANTS, Rules, resolve_rules

__all__ = [
    "CARDS",
    "COLORS",
    "DECISIONS",
    "ENDINGS",
    "EVENT_TYPES",
    "FINISHES",
    "PRESETS",
    "SWITCHES",
    "VARIANTS",
    "Duel",
    "Effect",
    "EngineError",
    "IllegalEvent",
    "Legal",
    "MalformedRecord",
    "Rules",
    "describe",
    "describe_all",
    "replay",
    "resolve_rules",
    "state_after",
]
