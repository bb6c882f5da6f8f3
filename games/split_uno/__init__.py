"""The Split UNO referee engine (RULES.md): pure Python, standard library only, no Django.

A duel is its record; ``Duel`` applies events one at a time, says what is legal, and gives the
state of RULES.md section 8 after any prefix. ``python -m games.split_uno replay FILE`` is the
command line of section 8, which RULES.md names ``python -m duels.engine replay FILE`` (an
alias kept for it: ``duels/engine/``, nothing else).

Bots and simulation (issue 4): ``play_duel`` plays a whole duel between bots through the
engine, ``Simulator`` lets bots choose moves for a duel under way, and
``games.split_uno.simulate.simulate`` plays many (``python -m games.split_uno simulate``).

The modules run compiled by mypyc when ``tools/build_engine.py`` has built them from these
very sources, as ``./dev`` does; otherwise the sources run (``native.py``, ``COMPILED``).
"""

# First of all: load the compiled modules if they are built from these sources (native.py).
from . import native as _native

#: True when the engine's modules are the mypyc-compiled build, False when the sources run.
COMPILED = _native.select(__path__)

from .bots import BOTS, Bot, HeuristicBot, RandomBot
from .constants import CARDS, COLORS, DECISIONS, ENDINGS, EVENT_TYPES, FINISHES
from .duel import Duel, replay, state_after
from .effects import Effect, describe, describe_all
from .errors import EngineError, IllegalEvent, MalformedRecord
from .hands import Hands, HandsOutOfStep
from .legal import Legal
from .rules import PRESETS, SWITCHES, VARIANTS, Rules, resolve_rules

# The function ``simulate`` stays in its module: bound here it would hide the module itself.
from .simulate import SimulatedDuel, Simulator, play_duel

__all__ = [
    "BOTS",
    "COMPILED",
    "CARDS",
    "COLORS",
    "DECISIONS",
    "ENDINGS",
    "EVENT_TYPES",
    "FINISHES",
    "PRESETS",
    "SWITCHES",
    "VARIANTS",
    "Bot",
    "Duel",
    "Effect",
    "EngineError",
    "Hands",
    "HandsOutOfStep",
    "HeuristicBot",
    "IllegalEvent",
    "Legal",
    "MalformedRecord",
    "RandomBot",
    "Rules",
    "SimulatedDuel",
    "Simulator",
    "describe",
    "describe_all",
    "play_duel",
    "replay",
    "resolve_rules",
    "state_after",
]
