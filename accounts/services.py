"""Granting and revoking per-tournament roles; an account's display name."""

from django.contrib.auth import get_user_model
from django.db import transaction

from core.errors import ServiceError
from core.names import clean_name

from .models import Role, TournamentRole
from .permissions import Action, can

DISPLAY_NAME_MAX = 80


def clean_display_name(name: str | None) -> str:
    """An account's display name, cleaned as every name is (core.names); may be empty (the
    username shows instead). Not unique: the username, unique, tells accounts apart."""
    return clean_name(name, what="A display name", max_length=DISPLAY_NAME_MAX, required=False)


GRANTABLE = {Role.CO_ORGANISER: Action.MANAGE_CO_ORGANISERS, Role.REFEREE: Action.MANAGE_REFEREES}


def _check(actor, tournament, role: str) -> Role:
    try:
        role = Role(role)
    except ValueError:
        raise ServiceError("Unknown role.") from None
    if role not in GRANTABLE:
        raise ServiceError("Only co-organiser and referee roles can be granted.")
    if not can(actor, GRANTABLE[role], tournament):
        raise ServiceError(f"You may not manage {role.label.lower()}s here.", code="forbidden")
    return role


@transaction.atomic
def grant_role(actor, tournament, username: str, role: str) -> TournamentRole:
    role = _check(actor, tournament, role)
    user = get_user_model().objects.filter(username__iexact=(username or "").strip()).first()
    if user is None:
        raise ServiceError(f"There is no account called “{username}”. They need to sign up first.")
    if user.pk == tournament.created_by_id:
        raise ServiceError(f"{user.username} is the organiser already.")
    grant, created = TournamentRole.objects.get_or_create(
        tournament=tournament, user=user, role=role, defaults={"granted_by": actor}
    )
    if not created:
        raise ServiceError(f"{user.username} is already a {role.label.lower()}.")
    from .tasks import notify_role_granted

    # After the commit, never failing the grant (a broker down is logged by Celery's caller).
    transaction.on_commit(lambda: notify_role_granted.delay(grant.pk), robust=True)
    return grant


@transaction.atomic
def revoke_role(actor, tournament, grant_id: int) -> None:
    grant = TournamentRole.objects.filter(pk=grant_id, tournament=tournament).first()
    if grant is None:
        raise ServiceError("That role no longer exists.")
    _check(actor, tournament, grant.role)
    grant.delete()
