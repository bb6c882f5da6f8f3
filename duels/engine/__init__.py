"""An alias of ``games.split_uno``, the Split UNO referee engine, kept for the command line.

RULES.md (section 8) names the engine's command ``python -m duels.engine replay RECORD.json``,
from the days the engine lived here; ``__main__`` runs ``games.split_uno``'s command line under
that name. The code imports ``games.split_uno``, never this package.
"""

from games.split_uno import *  # noqa: F403 - the engine's public names, as they were here
from games.split_uno import __all__ as __all__
