"""A duel's moves as the tests read them: the events of its game on the table core (play),
the opening left out, numbered as the duel counts its moves."""

from types import SimpleNamespace
from typing import Any

from django.contrib.auth import get_user_model

from duels.models import Duel
from play.effect_words import say_all
from play.models import GameEvent


def _account(key: str) -> Any:
    kind, _, pk = key.partition(":")
    return get_user_model().objects.filter(pk=int(pk)).first() if kind == "user" else None


def moves(duel: Duel, *, undone: bool | None = None) -> list[SimpleNamespace]:
    """Every move of `duel` in the order entered (undone ones too, unless `undone` says):
    seq, payload, summary (its log lines in words), created_by, undone_at, undone_by (an
    account, or the mark)."""
    game_id = Duel.objects.filter(pk=duel.pk).values_list("game_id", flat=True).get()
    opening = GameEvent.objects.filter(game_id=game_id, seq=1).values_list("public", flat=True)
    names = ((opening.first() or {}).get("header") or {}).get("seats") or {}
    rows = GameEvent.objects.filter(game_id=game_id, seq__gt=1).order_by("pk")
    if undone is not None:
        rows = rows.filter(undone_at__isnull=not undone)
    return [
        SimpleNamespace(
            pk=row.pk,
            seq=row.seq - 1,
            payload=row.public["event"],
            summary=say_all(row.public.get("log", []), names),  # in words (issue 29)
            by=row.by,
            created_by=_account(row.actor),
            created_at=row.created_at,
            undone_at=row.undone_at,
            undone_by=_account(row.undone_by) or row.undone_by or None,
        )
        for row in rows
    ]
