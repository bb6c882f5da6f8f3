"""Trois (seed 003): matching UNO with seven colours, one human against three bots.

Pure rules, standard library only: ``Game`` (a seed and its moves), ``legal``, ``replay``;
bots in ``bots``, whole games in ``simulate``; ``python -m games.trois replay|simulate``.
"""

from .bots import BOTS, HeuristicBot, RandomBot
from .cards import COLOURS, DECK, WILDCARDS
from .game import FORMAT, Game, replay, state_after
from .rules import Legal
from .simulate import play_game
from .state import NAMES, SEATS, State

__all__ = [
    "BOTS",
    "COLOURS",
    "DECK",
    "FORMAT",
    "NAMES",
    "SEATS",
    "WILDCARDS",
    "Game",
    "HeuristicBot",
    "Legal",
    "RandomBot",
    "State",
    "play_game",
    "replay",
    "state_after",
]
