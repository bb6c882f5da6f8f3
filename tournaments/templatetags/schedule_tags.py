"""Template tags of the schedule (issue 16): a referee's next duel, read where it is shown,
so the console's view needs no change to show it."""

from typing import Any

from django import template

from accounts.permissions import Action, can

from ..selectors_schedule import Upcoming, next_for_referee

register = template.Library()


@register.simple_tag
def next_duel_for(user: Any, tournament: Any, exclude: int | None = None) -> Upcoming | None:
    """The signed-in referee's next duel in `tournament` (called or planned), the duel on the
    page left out; None for anyone who does not referee there."""
    if user is None or not user.is_authenticated or tournament is None:
        return None
    if not can(user, Action.REFEREE_DUELS, tournament):
        return None
    return next_for_referee(user, tournament, exclude=exclude)
