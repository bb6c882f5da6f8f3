"""Duels, their event logs and their results.

A duel is played as a game of the table core (play: `Duel.game`, its event log and revision);
its state is derived from the game's active events by the engine (games/split_uno), and
`state` on the row is a cache that replay can always rebuild.
"""

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy, pgettext_lazy


class DuelKind(models.TextChoices):
    GROUP = "group", gettext_lazy("Group round")
    REPLAY = "replay", gettext_lazy("Replay")
    TIE_BREAK = "tie_break", gettext_lazy("Tie-break")
    PLAYOFF = "playoff", gettext_lazy("Playoff")


class DuelStatus(models.TextChoices):
    PENDING = "pending", gettext_lazy("Waiting for its players")
    READY = "ready", gettext_lazy("Ready to start")
    RUNNING = "running", pgettext_lazy("a duel", "Running")
    FINISHED = "finished", pgettext_lazy("a duel", "Finished")
    VOID = "void", pgettext_lazy("a duel", "Void")
    ABANDONED = "abandoned", pgettext_lazy("a duel", "Abandoned")


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
    # The game the duel is played as on the table core (play), dealt at its first move: its
    # event log, revision and idempotency keys. Written only under this row's lock (the
    # tournament's first), so the duel's row serialises every write of its game.
    game = models.OneToOneField(
        "play.Game", on_delete=models.PROTECT, null=True, blank=True, related_name="duel"
    )
    state = models.JSONField(null=True, blank=True)  # cache of the engine's state
    seq = models.PositiveIntegerField(default=0)  # number of active events (moves)
    # The game's revision, kept on the row the pages read (play.models.Game.revision: every
    # move and every undo adds one, so a page's revision tells whether it is stale); 0 and
    # unchanged by a change of status until the game is dealt.
    revision = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The time-limit warning went out (the deadline is the game's: `deadline` below).
    warned_at = models.DateTimeField(null=True, blank=True)
    # Why a duel was closed without result (abandoned): its referee's console says so, in the
    # reader's language (duels.words.closed_reason_text). The automation's reasons are stored
    # as a key with its parameters, as JSON text ('{"key": "group_eliminated", "group":
    # "Reds", "round": "3"}'); anything else is text typed by a person, or an old sentence no
    # key matched (duels/migrations/0013_closed_reasons_to_keys.py), shown as is.
    closed_reason = models.CharField(max_length=200, blank=True)
    # When staff last called the duel's players to its table (issue 16); the table is `table`.
    called_at = models.DateTimeField(null=True, blank=True)
    # ONLINE.md 6: played online by the accounts of its two entrants (its game dealt by the
    # app, each seat an account) rather than at a table; switchable until it starts.
    online = models.BooleanField(default=False)
    # When each seat's player said they were ready (an online duel starts when both are), and
    # the moment a player not ready by then forfeits (`no_show`): 5 minutes after the duel was
    # called or both its players named, later if the organiser extends the wait.
    ready_a = models.DateTimeField(null=True, blank=True)
    ready_b = models.DateTimeField(null=True, blank=True)
    ready_by = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["tournament", "kind", "status"])]

    def __str__(self) -> str:
        label = self.stage or (f"round {self.round.number}" if self.round_id else self.kind)
        return f"{self.get_kind_display()} {label}"

    @property
    def deadline(self) -> datetime | None:
        """The duel's time limit, as its game keeps it (`play.models.Game.deadline`, set when
        the duel starts): the one clock ends the duel there (`play.clock`). None without a
        time limit or before the game is dealt. Join `game` where a page shows it."""
        return self.game.deadline if self.game_id else None


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
