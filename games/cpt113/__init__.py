"""CPT-113 (seed 004): classic matching UNO for 2–4 groups of two, a 40-card deck, drop-out
at 11 cards, card points when the draw pile runs out.

Pure rules, standard library only: ``Game`` (a seed, the groups and the moves), ``legal``,
``replay``; bots in ``bots``, whole games in ``simulate``; ``python -m games.cpt113
replay|simulate``.
"""

from .bots import BOTS, HeuristicBot, RandomBot
from .cards import COLOURS, DECK
from .game import FORMAT, Game, replay
from .rules import Legal
from .simulate import play_game
from .state import State

__all__ = [
    "BOTS",
    "COLOURS",
    "DECK",
    "FORMAT",
    "Game",
    "HeuristicBot",
    "Legal",
    "RandomBot",
    "State",
    "play_game",
    "replay",
]
