"""Granting and revoking per-tournament roles, the invitation links that grant them, and an
account's display name."""

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import ServiceError
from core.names import clean_name

from .models import Role, RoleInvitation, TournamentRole
from .permissions import Action, can

DISPLAY_NAME_MAX = 80


def clean_display_name(name: str | None) -> str:
    """An account's display name, cleaned as every name is (core.names); may be empty (the
    username shows instead). Not unique: the username, unique, tells accounts apart."""
    return clean_name(
        name, what=gettext_lazy("A display name"), max_length=DISPLAY_NAME_MAX, required=False
    )


GRANTABLE = {Role.CO_ORGANISER: Action.MANAGE_CO_ORGANISERS, Role.REFEREE: Action.MANAGE_REFEREES}


def _check(actor, tournament, role: str) -> Role:
    try:
        role = Role(role)
    except ValueError:
        raise ServiceError(_("Unknown role.")) from None
    if role not in GRANTABLE:
        raise ServiceError(_("Only co-organiser and referee roles can be granted."))
    if not can(actor, GRANTABLE[role], tournament):
        if role == Role.REFEREE:
            raise ServiceError(_("You may not manage referees here."), code="forbidden")
        raise ServiceError(_("You may not manage co-organisers here."), code="forbidden")
    return role


@transaction.atomic
def grant_role(actor, tournament, username: str, role: str) -> TournamentRole:
    role = _check(actor, tournament, role)
    user = get_user_model().objects.filter(username__iexact=(username or "").strip()).first()
    if user is None:
        raise ServiceError(
            _("There is no account called “%(username)s”. They need to sign up first.")
            % {"username": username}
        )
    if user.pk == tournament.created_by_id:
        raise ServiceError(
            _("%(username)s is the organiser already.") % {"username": user.username}
        )
    grant, created = TournamentRole.objects.get_or_create(
        tournament=tournament, user=user, role=role, defaults={"granted_by": actor}
    )
    if not created:
        if role == Role.REFEREE:
            message = _("%(username)s is already a referee.")
        else:
            message = _("%(username)s is already a co-organiser.")
        raise ServiceError(message % {"username": user.username})
    from .outbox import notify_on_commit
    from .tasks import notify_role_granted

    # Written to the outbox with the grant; sent after the commit, never failing the grant.
    notify_on_commit(notify_role_granted, grant.pk)
    return grant


@transaction.atomic
def revoke_role(actor, tournament, grant_id: int) -> None:
    grant = TournamentRole.objects.filter(pk=grant_id, tournament=tournament).first()
    if grant is None:
        raise ServiceError(_("That role no longer exists."))
    _check(actor, tournament, grant.role)
    grant.delete()


# Invitations: a link that grants a role, usable before the person has an account.

INVITE_LABEL_MAX = 80


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def issue_invitation(
    actor, tournament, *, role: str, label: str = "", days: int | None = None
) -> tuple[RoleInvitation, str]:
    """A new one-use invitation for `role`; returns it and its token (shown once, never stored)."""
    role = _check(actor, tournament, role)
    label = " ".join((label or "").split())
    if len(label) > INVITE_LABEL_MAX:
        raise ServiceError(
            _("A name on an invitation has at most %(max)s characters.") % {"max": INVITE_LABEL_MAX}
        )
    token = secrets.token_urlsafe(24)
    invitation = RoleInvitation.objects.create(
        tournament=tournament,
        role=role,
        label=label,
        token_hash=hash_token(token),
        created_by=actor,
        expires_at=timezone.now() + timedelta(days=days or settings.CLAIM_LINK_DAYS),
    )
    return invitation, token


@transaction.atomic
def revoke_invitation(actor, tournament, invitation_id: int) -> RoleInvitation:
    invitation = (
        RoleInvitation.objects.select_for_update()
        .filter(pk=invitation_id, tournament=tournament)
        .first()
    )
    if invitation is None:
        raise ServiceError(_("That invitation does not exist."))
    _check(actor, tournament, invitation.role)
    if invitation.used_at is not None:
        raise ServiceError(_("That invitation has been used already: remove the role instead."))
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


@transaction.atomic
def replace_invitation(actor, tournament, invitation_id: int) -> tuple[RoleInvitation, str]:
    """A fresh link for a waiting invitation (a reprinted sheet): the old link stops working
    and says it was replaced by a newer sheet. Returns the new invitation and its token."""
    old = (
        RoleInvitation.objects.select_for_update()
        .filter(pk=invitation_id, tournament=tournament)
        .first()
    )
    if old is None:
        raise ServiceError(_("That invitation does not exist."))
    _check(actor, tournament, old.role)
    state = old.state(timezone.now())
    if state == "replaced":
        if old.label:
            message = _("%(label)s’s link was already replaced by a newer sheet: nothing changed.")
        else:
            message = _(
                "The link of the invitation without a name was already replaced by a newer "
                "sheet: nothing changed."
            )
        raise ServiceError(message % {"label": old.label}, code="done")
    if state == "used":
        if old.label:
            message = _("%(label)s’s invitation has been used: there is nothing to replace.")
        else:
            message = _("The invitation without a name has been used: there is nothing to replace.")
        raise ServiceError(message % {"label": old.label})
    if state == "revoked":
        if old.label:
            message = _("%(label)s’s invitation was withdrawn: there is nothing to replace.")
        else:
            message = _("The invitation without a name was withdrawn: there is nothing to replace.")
        raise ServiceError(message % {"label": old.label})
    old.revoked_at = old.replaced_at = timezone.now()
    old.save(update_fields=["revoked_at", "replaced_at"])
    return issue_invitation(actor, tournament, role=old.role, label=old.label)


def find_invitation(tournament, token: str) -> RoleInvitation:
    """The live invitation a token names in `tournament`, or a ServiceError saying why not."""
    invitation = (
        RoleInvitation.objects.filter(tournament=tournament, token_hash=hash_token(token)).first()
        if token
        else None
    )
    if invitation is None:
        raise ServiceError(
            _("This invitation link is not valid. Ask the organiser for a new one."), code="unknown"
        )
    state = invitation.state(timezone.now())
    if state == "used":
        raise ServiceError(_("This invitation has already been accepted."), code="used")
    if state == "replaced":
        raise ServiceError(
            _(
                "This invitation was replaced by a newer sheet: use the link on the newest sheet, "
                "or ask the organiser for it."
            )
        )
    if state == "revoked":
        raise ServiceError(_("This invitation was withdrawn. Ask the organiser for a new one."))
    if state == "expired":
        raise ServiceError(_("This invitation has expired. Ask the organiser for a new one."))
    return invitation


@transaction.atomic
def accept_invitation(tournament, token: str, user) -> TournamentRole:
    """Grant `user` the invitation's role; the link works once."""
    found = find_invitation(tournament, token)
    invitation = RoleInvitation.objects.select_for_update().get(pk=found.pk)
    find_invitation(tournament, token)  # again, under the lock: two people may race
    if user.pk == tournament.created_by_id:
        raise ServiceError(_("You are the organiser already: keep this link for someone else."))
    grant, created = TournamentRole.objects.get_or_create(
        tournament=tournament,
        user=user,
        role=invitation.role,
        defaults={"granted_by": invitation.created_by},
    )
    if not created:
        if invitation.role == Role.REFEREE:
            message = _("You are already a referee: keep this link for someone else.")
        else:
            message = _("You are already a co-organiser: keep this link for someone else.")
        raise ServiceError(message)
    invitation.used_by = user
    invitation.used_at = timezone.now()
    invitation.save(update_fields=["used_by", "used_at"])
    return grant
