"""A table's game goes with it: the core's `Game` has no reverse link to its product, so
deleting a table (its owner's account deleted, or the oldest beyond the 50 kept) deletes its
game here, whichever way the table was deleted (a queryset, a cascade)."""

from typing import Any

from django.db.models.signals import post_delete
from django.dispatch import receiver

from play.services import forget_games

from .models import CasualTable


@receiver(post_delete, sender=CasualTable, dispatch_uid="tables.discard_game")
def discard_game(sender: type[CasualTable], instance: CasualTable, **kwargs: Any) -> None:
    if instance.game_id is not None:
        forget_games([instance.game_id])
