"""The clock of timed practice games (Trois's 25 minutes): one function, so tests can move
time by replacing it (monkeypatch ``practice.game_clock.now``)."""

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    return timezone.now()
