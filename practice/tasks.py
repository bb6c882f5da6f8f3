"""Beat: Trois's time limit for games nobody is looking at (docs/games-trois.md, reading 5)."""

from celery import shared_task


@shared_task
def sweep_trois_deadlines() -> int:
    from .game_services import sweep

    return sweep()
