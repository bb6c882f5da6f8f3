"""A referee's desk where a page shows it without its view reading it (issue 26): the end of
a finished duel's console, whose answer is drawn by the move's view."""

from typing import Any

from django import template

from ..selectors_referee import Desk, desk

register = template.Library()


@register.simple_tag
def referee_desk(user: Any, tournament: Any, duel: Any) -> Desk | None:
    """The signed-in person's next duel in `tournament`, `duel` (the one on the page) left out,
    or what they wait for. None for anyone who may not referee there, and for an organiser
    who did not run `duel` and has no duel of their own."""
    if user is None or tournament is None or duel is None:
        return None
    return desk(user, tournament, exclude=duel.pk, always=duel.referee_id == user.pk)
