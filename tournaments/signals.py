"""Changes made outside tournaments' services that still change what a tournament's pages show
(issue 15: every such change moves the version, which the lean poll path and the fragment
cache are keyed by)."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from accounts.models import TournamentRole

from .models import Tournament


@receiver([post_save, post_delete], sender=TournamentRole)
def role_changed(sender, instance: TournamentRole, **kwargs) -> None:
    # A role granted or revoked (accounts.services, or the admin): the people who may see an
    # unpublished tournament, and what its pages show them, changed.
    from .services.audit import bump_version

    tournament = Tournament.objects.filter(pk=instance.tournament_id).first()
    if tournament is not None:
        bump_version(tournament)


@receiver(post_delete, sender=Tournament)
def tournament_deleted(sender, instance: Tournament, **kwargs) -> None:
    from .live_cache import forget_version

    forget_version(instance.slug)
