"""The big screen's language (issue 29): the tournament's, an organiser's setting, whatever the
projector's browser says; a tournament without one follows the viewer, as every page does.

Read by the big screen's view (`views.public.screen`, which renders the page and its panels
under it) and meant for whatever renders the screen's parts ahead of a request (the shared
cache's warm-up and the push of a panel): they must render, and key, a panel in this language
when it is set, and in each viewer's language when it is not.
"""

from typing import Any


def screen_language(tournament: Any) -> str:
    """The language the big screen of `tournament` speaks whoever looks (`Tournament.language`),
    or "" when it follows each viewer's own (the language already active for the request)."""
    return getattr(tournament, "language", "") or ""
