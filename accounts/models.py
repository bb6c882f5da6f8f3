from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """The project's own user model, from the first migration, so it can grow without pain."""

    display_name = models.CharField(max_length=80, blank=True)  # services.clean_display_name
    # Opt-in (issue 16): e-mail when named to play, called to a table, the playoffs announced,
    # or granted a referee's role. Off until the person switches it on. A database default
    # too, so code (or a migration test) that does not know the column can still add users.
    notify_by_email = models.BooleanField(default=False, db_default=False)
    # The language the person chose (a code of settings.LANGUAGES; issue 29), blank until they
    # choose one: their pages on a new device, and the e-mails they receive, are in it.
    # A database default too, for the same reason as notify_by_email's.
    language = models.CharField(max_length=10, blank=True, default="", db_default="")

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def staff_label(self) -> str:
        """How staff pages name a person: the username staff add people by, then the name
        everyone else sees ("ada (Ada Lovelace)"), or the username alone. The username first:
        a display name is the person's own words and could imitate someone else's label."""
        if self.display_name and self.display_name != self.username:
            return f"{self.username} ({self.display_name})"
        return self.username


class Role(models.TextChoices):
    ORGANISER = "organiser", _("Organiser")
    CO_ORGANISER = "co_organiser", _("Co-organiser")
    REFEREE = "referee", _("Referee")


class TournamentRole(models.Model):
    """A per-tournament role granted by an organiser (TOURNAMENT.md, "Who does what").

    Players are not roles: a player is an entrant linked to an account by a claim link.
    """

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="roles"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles"
    )
    role = models.CharField(max_length=20, choices=Role.choices)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    granted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user", "role"], name="unique_role"),
        ]
        ordering = ["role", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} of {self.tournament}"


class SentNotification(models.Model):
    """One notification sent (issue 16): its key names the event and the person, so a task
    retried or delivered twice finds it here and sends nothing again."""

    key = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications_sent"
    )
    sent_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.key


class SignInPaceReset(models.Model):
    """Where the sign-in pacing of one username starts again (accounts.signin): the failures
    axes had counted for it, row by row, when its owner signed in or reset the password.
    Pacing counts only failures past these, so guesses made before no longer keep the owner
    waiting on a new browser. Kept apart from axes's rows, whose counts also lock addresses
    out and must not be lowered."""

    username = models.CharField(max_length=255, unique=True)
    reset_at = models.DateTimeField()
    # {AccessAttempt pk: its failures_since_start then}; a row made later starts at 0.
    baseline = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"{self.username} since {self.reset_at:%Y-%m-%d %H:%M}"


class DueNotification(models.Model):
    """A notification task written in the transaction of its event (an outbox): the task
    marks it done when it has run; the sweep (`accounts.tasks.send_due_notifications`) sends
    again what is still due, so a notification lost with Redis or held by a worker that died
    goes out within a minute (docs/operations.md, "Notifications"). Sent once all the same:
    each mail's key is in `SentNotification`."""

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    next_send_at = models.DateTimeField()
    sends = models.PositiveSmallIntegerField(default=1)
    done_at = models.DateTimeField(null=True, blank=True)
    # Set when the sweep stopped sending it, never done after its last send (logged then).
    gave_up_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["next_send_at"],
                condition=models.Q(done_at__isnull=True, gave_up_at__isnull=True),
                name="due_notification_waiting",
            )
        ]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"


class RoleInvitation(models.Model):
    """A one-use link that grants a referee or co-organiser role, usable before the person
    has an account (sign-up then accepts it). Only a hash of the token is stored."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="invitations"
    )
    role = models.CharField(max_length=20, choices=Role.choices)
    # Who the link is for, in the organiser's words (printed on the sheet); not an account.
    label = models.CharField(max_length=80, blank=True)
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    # Closed because a newer printed sheet replaced it (revoked_at is set too): its link
    # then says so, rather than that somebody withdrew it.
    replaced_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_role_display()} invitation for {self.label or 'anyone'}"

    def state(self, now) -> str:
        """used, replaced, revoked, expired or pending (in that order: a used link stays
        used)."""
        if self.used_at is not None:
            return "used"
        if self.replaced_at is not None:
            return "replaced"
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at <= now:
            return "expired"
        return "pending"
