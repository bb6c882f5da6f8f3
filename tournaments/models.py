"""Storage of the tournament format (TOURNAMENT.md). Rules live in tournaments/format/."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from core.names import KEY_WIDTH, name_key

# Longest names the pages show (they wrap anywhere, so a long unbroken name never widens a
# page); the services refuse longer ones (core.names.clean_name).
TOURNAMENT_NAME_MAX = 120
GROUP_NAME_MAX = 40
ENTRANT_NAME_MAX = 80

GROUP_PHASE_ROUNDS = 15


class Phase(models.TextChoices):
    DRAFT = "draft", _("Draft")
    REGISTRATION = "registration", _("Registration")
    GROUP_PHASE = "group_phase", _("Group phase")
    TIE_BREAKS = "tie_breaks", _("Tie-breaks")
    PLAYOFFS = "playoffs", _("Playoffs")
    COMPLETE = "complete", _("Complete")
    CANCELLED = "cancelled", _("Cancelled")


FINAL_PHASES = {Phase.COMPLETE, Phase.CANCELLED}


class TieBreakMode(models.TextChoices):
    FULL = "full", _("Full: separate every position 1–4")
    MINIMAL = "minimal", _("Minimal: only who qualifies and who meets whom")


class Tournament(models.Model):
    """A Split UNO tournament and its settings."""

    name = models.CharField(max_length=TOURNAMENT_NAME_MAX)
    slug = models.SlugField(max_length=140, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_tournaments"
    )
    published = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    phase = models.CharField(max_length=20, choices=Phase.choices, default=Phase.DRAFT)
    # Settings: the duel rules lock when the group phase starts, the tie-break mode when the
    # tie-breaks are planned (TOURNAMENT.md, "Phases").
    duel_preset = models.CharField(max_length=20, default="tournament")
    variants = models.JSONField(default=list, blank=True)
    tiebreak_mode = models.CharField(
        max_length=10, choices=TieBreakMode.choices, default=TieBreakMode.FULL
    )
    shared_cards = models.BooleanField(default=True)
    duel_time_limit_minutes = models.PositiveIntegerField(null=True, blank=True)
    # ONLINE.md 6: duels played online (each player on their own device, cards dealt by the
    # app) rather than at a table with a referee; each duel copies it when created
    # (`Duel.online`) and may be switched before it starts. Locks with the duel rules.
    online_duels = models.BooleanField(default=False)
    # ONLINE.md 3: the seconds of each pending seal or decision of an online duel (10–120).
    seat_clock = models.PositiveSmallIntegerField(default=30)
    split_seed = models.CharField(max_length=40, blank=True)
    tiebreak_seed = models.CharField(max_length=40, blank=True)
    # Bumped on every change of tournament state: one number serves as the ETag of public pages.
    standings_version = models.PositiveIntegerField(default=0)
    group_phase_ended_at = models.DateTimeField(null=True, blank=True)
    top_four_settled_at = models.DateTimeField(null=True, blank=True)
    # Fixed when the playoffs start: the four seeds, best first (None for a vacant seed).
    playoff_seeding = models.JSONField(default=list, blank=True)
    # Entrant id (as a string) -> placing 1–4, once the Grand Final is decided.
    placings = models.JSONField(default=dict, blank=True)
    # The venue's clock (an IANA name, zoneinfo): start times are typed and shown in it.
    time_zone = models.CharField(max_length=64, default="UTC")
    # Issue 29: the tournament's language, a code of settings.LANGUAGES. The big screen and
    # the tournament's e-mails (as their default) use it; blank: each viewer's own language.
    language = models.CharField(
        max_length=10,
        blank=True,
        default="",
        choices=[("", _("Each viewer's own language")), *settings.LANGUAGES],
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", kwargs={"slug": self.slug})


class Group(models.Model):
    """One of the two fluid groups; `order` 1 is the first-named group."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="groups")
    name = models.CharField(max_length=GROUP_NAME_MAX)
    # core.names.name_key(name): two groups of one tournament never look alike.
    name_key = models.CharField(max_length=GROUP_NAME_MAX * KEY_WIDTH, editable=False)
    order = models.PositiveSmallIntegerField()
    eliminated_at_round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="unique_group_order"),
            models.CheckConstraint(condition=models.Q(order__in=[1, 2]), name="two_groups"),
            models.UniqueConstraint(fields=["tournament", "name_key"], name="unique_group_name"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        # The key follows the name on every save; bulk writes set it themselves.
        self.name_key = name_key(self.name)
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_key"}
        super().save(*args, **kwargs)


class EntrantStatus(models.TextChoices):
    ACTIVE = "active", _("Active")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    ELIMINATED = "eliminated", _("Eliminated")


class Entrant(models.Model):
    """A player's entry. Linked to an account only through a claim link the organiser issues.

    Only a hash of the claim token is stored: a leaked database does not leak live links.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    name = models.CharField(max_length=ENTRANT_NAME_MAX)
    # core.names.name_key(name): "Ada", "ADA" and "Ａｄａ" are one player's name.
    name_key = models.CharField(max_length=ENTRANT_NAME_MAX * KEY_WIDTH, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="entries",
    )
    claim_token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    claim_expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(
        max_length=12, choices=EntrantStatus.choices, default=EntrantStatus.ACTIVE
    )
    group = models.ForeignKey(
        Group, on_delete=models.SET_NULL, null=True, blank=True, related_name="members"
    )
    withdrawal_reason = models.CharField(max_length=200, blank=True)  # private to organisers
    # On the day: set when the player (or a member of staff) checks them in; cleared only by
    # an undo, until the phase the check-in was for has started (services/checkin.py).
    checked_in_at = models.DateTimeField(null=True, blank=True)
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name_key"], name="unique_entrant_name"),
            models.UniqueConstraint(
                fields=["tournament", "user"],
                name="one_entry_per_user",
                condition=models.Q(user__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        # The key follows the name on every save; bulk writes set it themselves.
        self.name_key = name_key(self.name)
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_key"}
        super().save(*args, **kwargs)


class Membership(models.Model):
    """Group membership over time: `group` from round `since_round` on (None: no group).

    The membership at round r is the entrant's latest row with since_round <= r, so any past
    round can be shown as it was.
    """

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="memberships")
    group = models.ForeignKey(Group, on_delete=models.CASCADE, null=True, blank=True)
    since_round = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["since_round", "pk"]
        indexes = [models.Index(fields=["entrant", "since_round"])]

    def __str__(self) -> str:
        return f"{self.entrant} in {self.group or 'no group'} from round {self.since_round}"


class RoundStatus(models.TextChoices):
    PENDING = "pending", _("Not yet open")
    OPEN = "open", _("Open")
    DECIDED = "decided", _("Decided")
    NOT_PLAYED = "not_played", _("Not played")


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=12, choices=RoundStatus.choices, default=RoundStatus.PENDING
    )

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1, number__lte=15), name="round_1_to_15"
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"


class SharedCardStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    USED = "used", _("Used")
    LAPSED = "lapsed", _("Lapsed")


class SharedCard(models.Model):
    """An action card a group-mate gave (002 §8.1), dealt into the receiver's next group duel."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="shared_cards_given"
    )
    giver = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="cards_given")
    receiver = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="cards_received")
    from_duel = models.ForeignKey("duels.Duel", on_delete=models.CASCADE, related_name="+")
    used_in = models.ForeignKey(
        "duels.Duel", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(
        max_length=10, choices=SharedCardStatus.choices, default=SharedCardStatus.PENDING
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # The receiver holds at most one pending gift; a giver gives once per duel.
            models.UniqueConstraint(
                fields=["receiver"], condition=models.Q(status="pending"), name="one_pending_gift"
            ),
            models.UniqueConstraint(fields=["giver", "from_duel"], name="one_gift_per_duel"),
        ]

    def __str__(self) -> str:
        return f"{self.giver} → {self.receiver} ({self.status})"


class StandingRow(models.Model):
    """Materialised individual standings (group phase), rebuilt from results, never edited."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="standing_rows"
    )
    entrant = models.OneToOneField(Entrant, on_delete=models.CASCADE, related_name="standing")
    points = models.IntegerField(default=0)
    played = models.PositiveSmallIntegerField(default=0)
    won = models.PositiveSmallIntegerField(default=0)
    lost = models.PositiveSmallIntegerField(default=0)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)  # None: inactive
    position = models.PositiveSmallIntegerField()  # display order

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.position}. {self.entrant} {self.points}"


class GroupTotal(models.Model):
    """Materialised group total and its progression round by round."""

    group = models.OneToOneField(Group, on_delete=models.CASCADE, related_name="total")
    total = models.IntegerField(default=0)
    by_round = models.JSONField(default=list)  # cumulative total after rounds 1..15
    status = models.CharField(max_length=12, default="active")

    def __str__(self) -> str:
        return f"{self.group}: {self.total}"


class TieBreakDraw(models.Model):
    """A knockout's stored draw: authoritative once made (TOURNAMENT.md, "Tie-breaks")."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="tiebreak_draws"
    )
    key = models.CharField(max_length=200)
    seed = models.CharField(max_length=80)
    order = models.JSONField()  # entrant ids in drawn order
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="unique_draw"),
        ]

    def __str__(self) -> str:
        return f"{self.key}: {self.order}"


class AuditEntry(models.Model):
    """Every change of tournament state but a running duel's moves: who, when, what, why."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=40)
    detail = models.JSONField(default=dict, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["tournament", "action"])]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}"


class Withdrawal(models.Model):
    """One player's withdrawal and what it needs to be undone (TOURNAMENT.md "Corrections").

    `before` is the state the withdrawal found — the tournament's phase fields, every duel's
    status and sequence number, the rounds, pending gifts, the last membership row and audit
    entry — so an undo can take back exactly what the withdrawal and the automation after it
    changed, and check that nothing else happened since. Kept after an undo, marked undone.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="withdrawals")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="withdrawals")
    group = models.ForeignKey(
        Group, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField()
    before = models.JSONField(default=dict)
    # The last audit entry the withdrawal itself wrote: entries after it are "since".
    audit_upto = models.PositiveBigIntegerField(default=0)
    forfeits = models.JSONField(default=list)  # ids of the duels it forfeited
    eliminated = models.BooleanField(default=False)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.entrant} withdrawn at {self.created_at:%Y-%m-%d %H:%M}"


class StartTime(models.Model):
    """When a round or a stage is planned to start (issue 16), optional. `key` is
    "round:<n>" for group round n, "tie_breaks" for the tie-breaks, or a playoff stage
    (Q1, E1, Q2, GF): the keys exist before their duels do."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="start_times")
    key = models.CharField(max_length=20)
    starts_at = models.DateTimeField()

    class Meta:
        ordering = ["starts_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="unique_start_time"),
        ]

    def __str__(self) -> str:
        return f"{self.key} at {self.starts_at:%Y-%m-%d %H:%M}"
