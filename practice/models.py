"""A practice duel is its seed and the person's moves (practice/game.py replays the rest)."""

from django.conf import settings
from django.db import models

from .seating import Seating, stored, table_words


class Outcome(models.TextChoices):
    PLAYING = "", "Playing"
    WON = "won", "Won"
    LOST = "lost", "Lost"
    DRAWN = "drawn", "Drawn"


class PracticeDuel(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="practice_duels"
    )
    ruleset = models.CharField(max_length=20)
    seed = models.BigIntegerField()
    #: The person's seat name as the log words it, fixed when the duel starts.
    name = models.CharField(max_length=150)
    #: The table (practice/seating.py): seats A (the person) to F, the record's variants and
    #: options (max_seats, a raised number_pool) and teams as lists of seat letters.
    seats = models.PositiveSmallIntegerField(default=2)
    variants = models.JSONField(default=list, blank=True)
    options = models.JSONField(default=dict, blank=True)
    teams = models.JSONField(default=list, blank=True)
    moves = models.JSONField(default=list, blank=True)
    outcome = models.CharField(max_length=5, choices=Outcome.choices, blank=True, default="")
    finished = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-pk"]
        indexes = [models.Index(fields=["user", "-updated_at"])]

    def __str__(self) -> str:
        return f"Practice {self.pk} ({self.ruleset}, {self.seats} seats) of {self.user}"

    @property
    def seating(self) -> Seating:
        return stored(self.seats, self.variants, self.options, self.teams)

    @property
    def table_words(self) -> str:
        """ "4 seats, teams You + Bot C against Bot B + Bot D, speed" for the lists."""
        return table_words(self.seating)


class PracticeGame(models.Model):
    """A game of Trois or CPT-113 against the bots (docs/practice.md, "Other games"): its seed
    and the person's accepted moves; ``deadline`` is Trois's time limit, kept by the server."""

    class Kind(models.TextChoices):
        TROIS = "trois", "Trois"
        CPT113 = "cpt113", "CPT-113"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="practice_games"
    )
    kind = models.CharField(max_length=6, choices=Kind.choices)
    seed = models.BigIntegerField()
    #: CPT-113's number of groups (2–4); 0 for Trois.
    groups = models.PositiveSmallIntegerField(default=0)
    name = models.CharField(max_length=150)
    moves = models.JSONField(default=list, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=5, choices=Outcome.choices, blank=True, default="")
    finished = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-pk"]
        indexes = [
            models.Index(fields=["user", "-updated_at"]),
            models.Index(fields=["finished", "deadline"]),
        ]

    def __str__(self) -> str:
        return f"Practice {self.get_kind_display()} {self.pk} of {self.user}"
