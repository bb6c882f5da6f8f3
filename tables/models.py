"""A casual table: a game of 2–6 named seats (or teams) refereed outside any tournament
(docs/tables.md). Its seats are names, not entrants; its record is the engine's, like a duel's.

The game itself — its events, revision and status — is a `play.Game` of kind
`split_uno_refereed`, played through the table core's one write path (`play.services`);
a `CasualTable` is the product around it: its owner, co-referees, record link and the set-up
the owner chose. `tables/services.py` alone writes these rows.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone

from .words import rules_words, versus


class CasualTable(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="casual_tables"
    )
    # The game played at this table (one each). No reverse accessor: the core knows nothing
    # of its products. Deleting the game deletes the table; deleting the table deletes its
    # game too (`tables.signals`).
    game = models.OneToOneField("play.Game", on_delete=models.CASCADE, related_name="+")
    # The engine's record header (RULES.md sections 8 and 11), fixed when the table opens.
    ruleset = models.CharField(max_length=20)
    variants = models.JSONField(default=list, blank=True)
    options = models.JSONField(default=dict, blank=True)
    #: The seat names in seat order: A, B, C, …
    seats = models.JSONField()
    #: Lists of seat letters (the `team` variant), or null.
    teams = models.JSONField(null=True, blank=True)
    #: SHA-256 of the public record link's token; empty: no live link.
    replay_token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["owner", "-created_at"])]

    def __str__(self) -> str:
        return f"Table {self.pk}: " + " v ".join(self.seats)

    @property
    def title(self) -> str:
        """ "Ann v Bo v Cy", in the request's language."""
        return versus(self.seats)

    @property
    def rules(self) -> str:
        """ "official rules", in the request's language."""
        return rules_words(self.ruleset)

    @property
    def letters(self) -> list[str]:
        return [chr(ord("A") + i) for i in range(len(self.seats))]

    @property
    def names(self) -> dict[str, str]:
        return dict(zip(self.letters, self.seats, strict=True))


class CoReferee(models.Model):
    """An invitation to referee a table with its owner: one use (whoever accepts it first)
    until it expires (`settings.TABLE_INVITATION_DAYS` after it was made), revocable by the
    owner before or after it is accepted. The token is stored as a hash. Once accepted the
    expiry no longer matters: a co-referee stays one until revoked."""

    table = models.ForeignKey(CasualTable, on_delete=models.CASCADE, related_name="co_referees")
    token_hash = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="co_refereed_tables",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"Co-referee of {self.table}: {self.user or 'invited'}"

    @property
    def expired(self) -> bool:
        """An invitation nobody accepted in time (an accepted one never expires)."""
        return self.accepted_at is None and self.expires_at <= timezone.now()

    @property
    def live(self) -> bool:
        return self.revoked_at is None
