"""Duels, their event logs and their results.

A duel's state is derived from its active events by the engine (games/split_uno); `state` on the
row is a cache that replay can always rebuild.
"""

from django.conf import settings
from django.db import models


class DuelKind(models.TextChoices):
    GROUP = "group", "Group round"
    REPLAY = "replay", "Replay"
    TIE_BREAK = "tie_break", "Tie-break"
    PLAYOFF = "playoff", "Playoff"


class DuelStatus(models.TextChoices):
    PENDING = "pending", "Waiting for its players"
    READY = "ready", "Ready to start"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    VOID = "void", "Void"
    ABANDONED = "abandoned", "Abandoned"


class Duel(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="duels"
    )
    kind = models.CharField(max_length=10, choices=DuelKind.choices)
    round = models.ForeignKey(
        "tournaments.Round", on_delete=models.CASCADE, null=True, blank=True, related_name="duels"
    )
    # Tie-break key (knockout, round, match) or playoff stage (Q1, E1, Q2, GF).
    stage = models.CharField(max_length=200, blank=True)
    table = models.CharField(max_length=40, blank=True)
    seat_a = models.ForeignKey(
        "tournaments.Entrant", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    seat_b = models.ForeignKey(
        "tournaments.Entrant", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    group_a = models.ForeignKey(
        "tournaments.Group", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    group_b = models.ForeignKey(
        "tournaments.Group", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="refereed_duels",
    )
    status = models.CharField(max_length=10, choices=DuelStatus.choices, default=DuelStatus.PENDING)
    replay_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="replays"
    )
    # The engine's record header for this duel, fixed when it starts.
    ruleset = models.CharField(max_length=20, default="tournament")
    variants = models.JSONField(default=list, blank=True)
    options = models.JSONField(default=dict, blank=True)
    state = models.JSONField(null=True, blank=True)  # cache of the engine's state
    seq = models.PositiveIntegerField(default=0)  # number of active events
    # Every append and every undo adds one: never comes back to an earlier value (unlike seq
    # after an undo and a new move), so a page's revision tells whether it is stale.
    revision = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    warned_at = models.DateTimeField(null=True, blank=True)  # the time-limit warning went out
    # Why a duel was closed without result (abandoned): its referee's console says so.
    closed_reason = models.CharField(max_length=200, blank=True)
    # When staff last called the duel's players to its table (issue 16); the table is `table`.
    called_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["tournament", "kind", "status"])]

    def __str__(self) -> str:
        label = self.stage or (f"round {self.round.number}" if self.round_id else self.kind)
        return f"{self.get_kind_display()} {label}"


class DuelEvent(models.Model):
    """One move of a duel's record. Undo marks the row undone; it is never deleted."""

    duel = models.ForeignKey(Duel, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()  # 1-based among the active events
    payload = models.JSONField()
    summary = models.JSONField(default=list)  # the engine's effects, in words
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The idempotency key of the form that entered the move (a random token per rendered
    # console or paper form): the same form sent again (a double tap, a venue Wi-Fi retry) is
    # found by it and answered "already recorded, nothing changed" (DESIGN.md: every write
    # names what it is for). Scoped to the duel and `created_by`; empty for the automation.
    intent = models.CharField(max_length=64, blank=True, default="", db_default="")
    # The key of the form that undid it (the same undo sent again is told, not refused as a
    # conflict); empty while the move stands.
    # A database default too: the hot path's insert (duels/rows.py) names only its columns.
    undo_intent = models.CharField(max_length=64, blank=True, default="", db_default="")

    class Meta:
        ordering = ["seq", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["duel", "seq"],
                condition=models.Q(undone_at=None),
                name="unique_active_event_seq",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.duel} #{self.seq}" + (" (undone)" if self.undone_at else "")


class Result(models.Model):
    """A duel's result: at most one per duel, enforced by the database.

    `table_*` is what the engine ruled at the table; `winner`/`finish` is what counts, which a
    correction may override (with a reason and who) while the record stays as played.
    """

    duel = models.OneToOneField(Duel, on_delete=models.CASCADE, related_name="result")
    winner = models.ForeignKey(
        "tournaments.Entrant", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    loser = models.ForeignKey(
        "tournaments.Entrant", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    finish = models.CharField(max_length=20)
    table_winner = models.ForeignKey(
        "tournaments.Entrant", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    table_finish = models.CharField(max_length=20)
    corrected = models.BooleanField(default=False)
    correction_reason = models.CharField(max_length=300, blank=True)  # public
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.duel}: {self.winner or 'no winner'} ({self.finish})"

    @property
    def decisive(self) -> bool:
        return self.winner_id is not None
