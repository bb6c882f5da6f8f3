"""The practice products' bindings of the table core's games (``play.Game``): a Split UNO duel
against the bots (``PracticeDuel``) and a game of Trois or CPT-113 (``PracticeGame``)."""

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy

from .seating import Seating, stored, table_words
from .words import rules_words, seats_words, variant_label


class Outcome(models.TextChoices):
    # Translators: how a practice game ended, in the list of a person's games (shown lower case).
    PLAYING = "", pgettext_lazy("practice outcome", "Playing")
    WON = "won", pgettext_lazy("practice outcome", "Won")
    LOST = "lost", pgettext_lazy("practice outcome", "Lost")
    DRAWN = "drawn", pgettext_lazy("practice outcome", "Drawn")


class _SetUp:
    """The set-up a Split UNO table is dealt from (its fields ``ruleset``, ``seats``,
    ``variants``, ``options`` and ``teams``), read as one: a practice duel's and an online
    table's."""

    ruleset: str
    seats: int
    variants: list[str]
    options: dict
    teams: list[list[str]]

    @property
    def seating(self) -> Seating:
        return stored(self.seats, self.variants, self.options, self.teams)

    @property
    def rules(self) -> str:
        """ "tournament rules", in the request's language."""
        return rules_words(self.ruleset)


class PracticeDuel(_SetUp, models.Model):
    """A Split UNO duel against the bots (docs/practice.md): the product's binding of a
    ``play.Game`` of kind ``split_uno_dealt`` — whose it is, its table, the outcome for the
    lists and the keep-50 policy. The game itself — its seats, every event (the bots' and the
    dealer's included) and its secrets — is ``game``, played through the table core's one write
    path (``play.services.apply_command``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="practice_duels"
    )
    ruleset = models.CharField(max_length=20)
    #: The game as the table core plays it; None only for a duel stored the old way (before
    #: issue 27) that the data migration (0008) could not convert into one.
    game = models.OneToOneField(
        "play.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="practice_duel"
    )
    #: An unfinished duel stored the old way: kept in the list, its page says it cannot be
    #: replayed (never a 500).
    unreplayable = models.BooleanField(default=False)
    #: A finished duel stored the old way, as the migration 0008 set it out one last time: its
    #: result line and its log (``{"result": str, "log": [{"number", "by_bot", "lines"}]}``),
    #: which its page shows read-only. Empty for every other duel.
    archive = models.JSONField(default=dict, blank=True)
    #: The person's seat name as the log words it, fixed when the duel starts.
    name = models.CharField(max_length=150)
    #: The table (practice/seating.py): seats A (the person) to F, the record's variants and
    #: options (max_seats, a raised number_pool) and teams as lists of seat letters.
    seats = models.PositiveSmallIntegerField(default=2)
    variants = models.JSONField(default=list, blank=True)
    options = models.JSONField(default=dict, blank=True)
    teams = models.JSONField(default=list, blank=True)
    #: The bots' level (practice.services.BOT_LEVELS); duels before issue 30 had heuristic bots.
    bot = models.CharField(max_length=12, default="heuristic")
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
    def table_words(self) -> str:
        """ "4 seats, teams You + Bot C against Bot B + Bot D, speed" for the lists."""
        return table_words(self.seating)


class PracticeGame(models.Model):
    """A game of Trois or CPT-113 against the bots (docs/practice.md, "Other games"): the
    product's binding of a ``play.Game`` — whose it is, its kind, the outcome for the lists
    and the keep-50 policy (Trois's 25 minutes are the game's own deadline, ``Game.deadline``,
    kept by the table core's clock). The game itself — its seats,
    every event (the bots' included) and its secrets — is ``game``, played through the table
    core's one write path (``play.services.apply_command``)."""

    class Kind(models.TextChoices):
        TROIS = "trois", "Trois"
        CPT113 = "cpt113", "CPT-113"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="practice_games"
    )
    kind = models.CharField(max_length=6, choices=Kind.choices)
    #: The game as the table core plays it; None only for a game stored the old way that the
    #: data migration (0005) could not replay (``unreplayable``).
    game = models.OneToOneField(
        "play.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="practice"
    )
    #: A game stored the old way that today's code could not set out again when it was
    #: converted: kept in the list, its page says so (never a 500).
    unreplayable = models.BooleanField(default=False)
    #: CPT-113's number of groups (2–4); 0 for Trois.
    groups = models.PositiveSmallIntegerField(default=0)
    #: The person's name as the log words it, fixed when the game starts.
    name = models.CharField(max_length=150)
    outcome = models.CharField(max_length=5, choices=Outcome.choices, blank=True, default="")
    finished = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-pk"]
        indexes = [models.Index(fields=["user", "-updated_at"])]

    def __str__(self) -> str:
        return f"Practice {self.get_kind_display()} {self.pk} of {self.user}"


class PracticeRecord(models.Model):
    """A person's practice record at one kind of table (issue 30, "Statistics"): Split UNO
    duels finished under ``ruleset`` at ``seats`` seats against bots of level ``bot``. Counted
    once, when a duel finishes (practice.services), so it outlives the duels themselves, which
    are forgotten beyond the latest 50."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="practice_records"
    )
    ruleset = models.CharField(max_length=20)
    seats = models.PositiveSmallIntegerField()
    bot = models.CharField(max_length=12)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)
    #: Number rounds played in all these duels together (their average: ``rounds / played``).
    rounds = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["ruleset", "seats", "bot"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "ruleset", "seats", "bot"], name="one_record_per_table_kind"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.ruleset}, {self.seats} seats, {self.bot}"


class OnlineTable(_SetUp, models.Model):
    """An online table with friends (issue 31, ONLINE.md section 7; docs/online.md): a host's
    table of Split UNO where several people (accounts) play, each their own seat on their own
    device, on the table core's dealt adapter, empty seats held by bots. Before the start it
    is a lobby (who joined, by the join link); ``game`` is dealt at the start."""

    class Status(models.TextChoices):
        LOBBY = "lobby", pgettext_lazy("online table", "Waiting to start")
        PLAYING = "playing", pgettext_lazy("online table", "Playing")
        FINISHED = "finished", pgettext_lazy("online table", "Finished")
        ENDED = "ended", pgettext_lazy("online table", "Ended without a result")

    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_online_tables"
    )
    #: The table as practice/seating.py stores it: the number of seats (persons and bots
    #: together), the record's variants and options, teams as lists of seat letters.
    ruleset = models.CharField(max_length=20)
    seats = models.PositiveSmallIntegerField(default=2)
    variants = models.JSONField(default=list, blank=True)
    options = models.JSONField(default=dict, blank=True)
    teams = models.JSONField(default=list, blank=True)
    #: The team layout chosen (practice/seating.py LAYOUTS), kept for a rematch.
    layout = models.CharField(max_length=20, blank=True, default="")
    #: The level of the bots that fill the empty seats at the start.
    bot = models.CharField(max_length=12, default="heuristic")
    #: The seat clock in seconds (10–120), or None for no clock (passed to the game's config as
    #: ``seat_clock``; the table core keeps it).
    seat_clock = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The host switched truth and dare on (ONLINE.md 2 and 7; only for rules that have TRUTH
    #: and DARE cards): passed to the game's config as ``truth_dare``.
    truth_dare = models.BooleanField(default=False)
    #: The host's form's key (its page's): the same form sent twice opens one table.
    intent = models.CharField(max_length=64, blank=True, default="")
    #: The join link's token (random, 32 bytes in URL-safe base64); None when there is no live
    #: link (revoked, or the table started). Kept in clear: the host's lobby shows the link and
    #: its QR code for as long as it lives.
    join_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    #: The watch link's token (random, 32 bytes in URL-safe base64), issued and revoked by the
    #: host at any time (ONLINE.md 5): whoever holds it sees the table as the public does. None
    #: when there is no live watch link. Kept in clear, as the join link's, for the host's pages.
    watch_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    #: The accounts the host removed from the lobby: the link they had does not admit them again
    #: (else removing would last until they tapped it). A new link from the host admits them.
    removed = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.LOBBY)
    game = models.OneToOneField(
        "play.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="online_table"
    )
    #: The table this one's people moved on to (a rematch: same settings, same people).
    rematch = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch_of"
    )
    #: Moves with every change of the lobby (joins, leaves, order, link) and of the status: the
    #: lobby's poll compares it.
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-pk"]

    def __str__(self) -> str:
        return f"Online table {self.pk} ({self.ruleset}, {self.seats} seats) of {self.host_id}"

    @property
    def table_words(self) -> str:
        """ "4 seats, teams …, speed": people and bots together."""
        seating = self.seating
        parts = [seats_words(seating.seats)]
        parts.extend(variant_label(v) for v in seating.variants if v != "team")
        return ", ".join(parts)

    @property
    def over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ENDED)


class OnlinePlayer(models.Model):
    """A person at an online table: joined by the link (the host at once), ``position`` their
    place in the seat order (lettered A, B, … at the start: join order, which the host may
    change before it), ``seat`` their letter once the game is dealt, ``active`` until they
    resign or a bot takes their seat."""

    table = models.ForeignKey(OnlineTable, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="online_seats"
    )
    position = models.PositiveSmallIntegerField()
    seat = models.CharField(max_length=1, blank=True, default="")
    active = models.BooleanField(default=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="one_seat_per_person"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at online table {self.table_id} ({self.position})"
