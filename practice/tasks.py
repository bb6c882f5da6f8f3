"""Celery tasks of practice: the bots that think in the worker (issue 30). Each takes an id
and reads committed data; a duplicated, late or needless delivery changes nothing (the
worker's command is refused when no bot is asked, and a racing one is stale)."""

from celery import shared_task

#: A bound on one task's bot moves (a game's whole remaining play fits far below it).
MAX_BOT_MOVES = 2000


@shared_task(ignore_result=True)
def bots_turn(practice_id: int) -> int:
    """The bots' moves at a practice duel, one decision (one transaction) at a time, until a
    person is asked or the game ends: each committed, so the page's poll shows them as they
    come. How many were made."""
    from .services import play_bots

    made = 0
    while made < MAX_BOT_MOVES:
        more = play_bots(practice_id)
        made += 1
        if not more:
            break
    return made


@shared_task(ignore_result=True)
def online_bots_turn(table_id: int) -> int:
    """The bots' moves at an online table of expert bots (issue 31), one decision (one
    transaction) at a time, until a person is asked or the game ends: each committed and
    announced, so the people's pages show them as they come. How many were made."""
    from .online import play_bots

    made = 0
    while made < MAX_BOT_MOVES:
        more = play_bots(table_id)
        made += 1
        if not more:
            break
    return made
