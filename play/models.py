"""A game being played (issue 27): its seats and their holders, its event log, its revision and
what it awaits. Written only by ``play.services``; read by ``play.selectors``.

What no viewer may read from these rows — the seed, the deal, each seat's private facts — is
kept apart in ``play.models_secret``, read and written only through ``play.secrets``.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy

# Imported so that Django's registry knows the secret models (their migration, their tables);
# nothing here names them. Every other module goes through play.secrets (an import-linter
# contract and tests/play/test_secrets_isolation.py).
from play import models_secret as _registered  # noqa: F401


class GameStatus(models.TextChoices):
    """The one status vocabulary of every game, whatever its product:

    - ``open``: dealt, but a seat is still open (no one holds it), so no one may move yet;
    - ``playing``: every seat is held and the game goes on;
    - ``finished``: the engine says the game is over (its result is in its events);
    - ``abandoned``: its product stopped it before the end (a voided duel, a table given up).
    """

    OPEN = "open", pgettext_lazy("game status", "Open")
    PLAYING = "playing", pgettext_lazy("game status", "Playing")
    FINISHED = "finished", pgettext_lazy("game status", "Finished")
    ABANDONED = "abandoned", pgettext_lazy("game status", "Abandoned")


class HolderKind(models.TextChoices):
    """Who enters a seat's moves: the referee at the table (a refereed duel or casual table),
    an account (a remote player), a bot of the computer, or no one yet (open)."""

    REFEREE = "referee", pgettext_lazy("seat holder", "Referee")
    ACCOUNT = "account", pgettext_lazy("seat holder", "Account")
    BOT = "bot", pgettext_lazy("seat holder", "Bot")
    OPEN = "open", pgettext_lazy("seat holder", "Open")


class Game(models.Model):
    """One game of one engine, played through its adapter (``kind``, ``play.registry``)."""

    kind = models.CharField(max_length=40)
    config = models.JSONField(default=dict)
    # The seats' letters in the order the adapter was given them (the Seat rows say who holds
    # each): restoring a game needs the order without a join.
    seats = models.JSONField(default=list)
    status = models.CharField(max_length=10, choices=GameStatus.choices, default=GameStatus.OPEN)
    # Bumped by every applied command (play.services.apply_command): the page's revision is
    # compared with it, so a stale page is told that someone else moved.
    revision = models.PositiveIntegerField(default=0)
    # Who is asked what after the last command: a list of play.adapters.base.Await as dicts.
    awaited = models.JSONField(default=list)
    # The game's own deadline, set by its product at the start (Trois's 25 minutes): what the
    # clock does when it passes is the adapter's (play.clock.on_deadline).
    deadline = models.DateTimeField(null=True, blank=True)
    # The earliest of the game's deadline (while it goes on) and its seats', for the one clock
    # (play.clock) to find due games by an index.
    next_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.kind} game {self.pk}"


class Seat(models.Model):
    """A seat of a game and who holds it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="holders")
    letter = models.CharField(max_length=2)
    holder = models.CharField(max_length=10, choices=HolderKind.choices, default=HolderKind.OPEN)
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="play_seats",
    )
    bot_level = models.CharField(max_length=20, blank=True, default="")
    # When this seat's clock runs out (None: no clock, or not asked).
    deadline = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "letter"]
        constraints = [
            models.UniqueConstraint(fields=["game", "letter"], name="unique_play_seat_letter"),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.letter} ({self.holder})"


class GameEvent(models.Model):
    """One applied event, its public part (play.adapters.base.Event): every event is stored,
    the dealer's and the bots' included, so a stored game never depends on the bots' code.
    Its private parts are rows of play.models_secret. Undo (a product's) marks a row undone and
    never deletes it; the unique sequence number covers the active rows only."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()  # 1-based among the active events
    # The game's revision once the command that caused it was applied (0: the deal): one
    # command's events (its bots' answers too) share it, and a page at revision r reads the
    # log since r as the events of a higher revision.
    revision = models.PositiveIntegerField()
    by = models.CharField(max_length=40)
    public = models.JSONField(default=dict)
    # Who sent the command that caused it (``play.services.Actor.key``: "user:12", "clock";
    # empty for the automation or a migrated event): a product says who entered a move. A
    # bot's answer carries the key of the command it answered; ``by`` says it was the bot's.
    actor = models.CharField(max_length=100, blank=True, default="", db_default="")
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    # Who undid it (an Actor's key), or a product's mark for an undo that was not a person's
    # (a tournament's correction taking a forfeit back: ``duels.services.TAKEN_BACK``).
    undone_by = models.CharField(max_length=100, blank=True, default="", db_default="")

    class Meta:
        ordering = ["game", "seq", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seq"],
                condition=models.Q(undone_at=None),
                name="unique_active_play_event_seq",
            ),
        ]
        indexes = [models.Index(fields=["game", "revision"], name="play_event_revision")]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq}" + (" (undone)" if self.undone_at else "")


class Intent(models.Model):
    """A command's idempotency key, scoped to the game and the actor, with its stored outcome:
    the same key sent again (a double tap, a venue Wi-Fi retry) is answered from it, "already
    recorded", and nothing is applied twice — so a 409 always means someone else moved.
    ``command`` is a digest of the command the key came with: the same key with another command
    (a second card tapped on the same page) is not a repeat but a move from a page that is out of
    date, refused as such."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    actor = models.CharField(max_length=100)
    key = models.CharField(max_length=64)
    command = models.CharField(max_length=64, blank=True)
    outcome = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "actor", "key"], name="unique_play_intent_key"),
        ]
        # For the daily prune (play.services.forget_old_intents): a key outlives its retries.
        indexes = [models.Index(fields=["created_at"], name="play_intent_created")]

    def __str__(self) -> str:
        return f"{self.game} {self.actor} {self.key}"
