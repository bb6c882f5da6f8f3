from django.conf import settings
from django.db import models
from django.urls import reverse


class Tournament(models.Model):
    """A Split UNO tournament. The format issues extend it with phases, groups and settings."""

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_tournaments"
    )
    published = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", kwargs={"slug": self.slug})


class Entrant(models.Model):
    """A player's entry. Linked to an account only through a claim link the organiser issues.

    Only a hash of the claim token is stored: a leaked database does not leak live links.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    name = models.CharField(max_length=80)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="entries",
    )
    claim_token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    claim_expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_entrant_name"),
            models.UniqueConstraint(
                fields=["tournament", "user"], name="one_entry_per_user",
                condition=models.Q(user__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return self.name
