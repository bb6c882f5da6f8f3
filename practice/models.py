"""A practice duel is its seed and the person's moves (practice/game.py replays the rest)."""

from django.conf import settings
from django.db import models


class Outcome(models.TextChoices):
    PLAYING = "", "Playing"
    WON = "won", "Won"
    LOST = "lost", "Lost"
    DRAWN = "drawn", "Drawn"


class PracticeDuel(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="practice_duels")
    ruleset = models.CharField(max_length=20)
    seed = models.BigIntegerField()
    #: The person's seat name as the log words it, fixed when the duel starts.
    name = models.CharField(max_length=150)
    moves = models.JSONField(default=list, blank=True)
    outcome = models.CharField(max_length=5, choices=Outcome.choices, blank=True, default="")
    finished = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-pk"]
        indexes = [models.Index(fields=["user", "-updated_at"])]

    def __str__(self) -> str:
        return f"Practice {self.pk} ({self.ruleset}) of {self.user}"
