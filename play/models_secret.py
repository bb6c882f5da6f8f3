"""What no viewer may read, in rows of its own (issue 27, DESIGN.md "Hidden information has one
reader"): a game's seed and deal, and each event's private parts (a seat's drawn card, the
dealer's deck order).

Only ``play.secrets`` imports this module (and ``play.models``, for Django's registry): an
import-linter contract (pyproject.toml) and tests/play/test_secrets_isolation.py check it. No
reverse accessors (``related_name="+"``), so ``game.<something>`` never reaches them, and no
admin page. Strings for the foreign keys: this module must not import play.models back.
"""

from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import GreaterThanOrEqual

#: The shortest seed stored: 128 bits (issue 27).
SEED_BYTES = 16


class GameSecret(models.Model):
    """A game's seed (bytes, at least 128 bits) and a snapshot of its deal: the private parts
    of its opening events, kept apart from the log so that no later change of the log (an
    undo, a migration) can lose what was dealt."""

    game = models.OneToOneField("play.Game", on_delete=models.CASCADE, related_name="+")
    seed = models.BinaryField()
    deal = models.JSONField(default=list)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=GreaterThanOrEqual(Length("seed"), SEED_BYTES),
                name="play_seed_at_least_128_bits",
            ),
        ]

    def __str__(self) -> str:
        return f"secret of game {self.game_id}"


class EventSecret(models.Model):
    """One private part of one event: ``key`` is a seat's letter (facts only that seat may
    read) or ``dealer`` (facts no seat may read)."""

    event = models.ForeignKey("play.GameEvent", on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=10)
    facts = models.JSONField(default=dict)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "key"], name="unique_play_event_secret"),
        ]

    def __str__(self) -> str:
        return f"secret {self.key} of event {self.event_id}"
