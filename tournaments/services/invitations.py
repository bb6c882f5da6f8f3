"""Links that travel (issue 16): claim links and role invitations, their audit trail, the
printable sheets that reissue them, and the one check of whether an address carries a live
link (`link_is_live`: sign-up's rate limit exempts such sign-ups)."""

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.db import transaction
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _

from accounts import services as role_services
from accounts.models import Role, RoleInvitation, TournamentRole
from accounts.permissions import Action, can
from core.errors import ServiceError

from .. import presentation
from ..models import Entrant, EntrantStatus, Tournament
from . import audit
from .entrants import find_claimable, issue_claim_link
from .setup import lock

CLAIM_VIEW = "tournaments:claim"
INVITE_VIEW = "tournaments:invite"


def link_is_live(address: str) -> bool:
    """Does `address` (a path or a URL, e.g. sign-up's `next`) name a claim link or an
    invitation that can still be used? Never raises: anything unreadable is False."""
    try:
        path = urlsplit(address or "").path
        match = resolve(path)
    except (Resolver404, ValueError):
        return False
    if match.view_name not in (CLAIM_VIEW, INVITE_VIEW):
        return False
    tournament = Tournament.objects.filter(slug=match.kwargs.get("slug", "")).first()
    if tournament is None:
        return False
    try:
        if match.view_name == CLAIM_VIEW:
            find_claimable(tournament, match.kwargs.get("token", ""))
        else:
            role_services.find_invitation(tournament, match.kwargs.get("token", ""))
    except ServiceError:
        return False
    return True


@transaction.atomic
def issue_invitation(
    tournament: Tournament, actor, *, role: str, label: str = ""
) -> tuple[RoleInvitation, str]:
    invitation, token = role_services.issue_invitation(actor, tournament, role=role, label=label)
    audit.record(
        tournament, actor, "invitation_issued", role=invitation.role, names=[invitation.label]
    )
    return invitation, token


@transaction.atomic
def revoke_invitation(tournament: Tournament, actor, invitation_id: int) -> RoleInvitation:
    invitation = role_services.revoke_invitation(actor, tournament, invitation_id)
    audit.record(
        tournament, actor, "invitation_revoked", role=invitation.role, names=[invitation.label]
    )
    return invitation


@transaction.atomic
def accept_invitation(tournament: Tournament, token: str, user) -> TournamentRole:
    grant = role_services.accept_invitation(tournament, token, user)
    audit.record(tournament, user, "invitation_accepted", role=grant.role)
    return grant


@dataclass(frozen=True)
class Sheet:
    """One printed sheet: who it is for, what it grants, and the fresh token."""

    name: str
    what: str
    token: str
    pk: int


def players_to_print(tournament: Tournament) -> list[Entrant]:
    """Active players whose entry no account has claimed yet."""
    return list(
        tournament.entrants.filter(status=EntrantStatus.ACTIVE, user__isnull=True).order_by("name")
    )


def referee_invitations_to_print(tournament: Tournament) -> list[RoleInvitation]:
    """Referee invitations not used and not withdrawn (expired ones are printed afresh)."""
    return list(
        RoleInvitation.objects.filter(
            tournament=tournament, role=Role.REFEREE, used_at__isnull=True, revoked_at__isnull=True
        ).order_by("label", "pk")
    )


def claim_sheet_mark(entrant: Entrant) -> str:
    """What a tick on the players' sheets carries about the link it replaces: a digest of
    the current link's hash ("new" when there is none). Posted back, it tells a tick sent
    twice (the link was already replaced) from a tick to obey, since an entry keeps its id
    when its link is replaced. A digest, not the hash: nothing of a live link is printed."""
    token_hash = entrant.claim_token_hash
    return hashlib.sha256(f"sheet:{token_hash}".encode()).hexdigest()[:16] if token_hash else "new"


@transaction.atomic
def reissue_player_sheets(
    tournament: Tournament, actor, *, replace: Mapping[int, str]
) -> list[Sheet]:
    """A fresh claim link for each unclaimed active player the organiser ticked (none by
    default), `replace` mapping each to the `claim_sheet_mark` the page showed: the earlier
    link stops working and says it was replaced by a newer sheet. The same ticks sent twice
    change nothing the second time, and say so."""
    if not can(actor, Action.MANAGE_REGISTRATION, tournament):
        raise ServiceError(_("You may not print the players' claim links."), code="forbidden")
    if not replace:
        raise ServiceError(presentation.TICK_PLAYERS)
    tournament = lock(tournament)  # two presses at once: the second finds the first's links
    waiting = {e.pk: e for e in players_to_print(tournament)}
    chosen = [
        waiting[pk]
        for pk, mark in replace.items()
        if pk in waiting and claim_sheet_mark(waiting[pk]) == mark
    ]
    if not chosen:
        raise ServiceError(presentation.SHEETS_ALREADY_REPLACED, code="done")
    # The hashes replaced are kept with the printing (never a link: a hash cannot be read
    # back), so that an old link can say it was replaced rather than "not valid".
    replaced = [e.claim_token_hash for e in chosen if e.claim_token_hash]
    sheets = [
        Sheet(e.name, "player", issue_claim_link(e, actor, record=False), e.pk) for e in chosen
    ]
    audit.record(
        tournament,
        actor,
        "claim_links_reissued",
        players=[sheet.pk for sheet in sheets],
        replaced=replaced,
    )
    return sheets


@transaction.atomic
def reissue_referee_sheets(tournament: Tournament, actor, *, replace: list[int]) -> list[Sheet]:
    """A fresh invitation for each waiting referee invitation the organiser ticked (none by
    default): its earlier link stops working and says it was replaced by a newer sheet. The
    same ticks sent twice change nothing the second time, and say so."""
    if not can(actor, Action.MANAGE_REFEREES, tournament):
        raise ServiceError(_("You may not print the referees' invitations."), code="forbidden")
    if not replace:
        raise ServiceError(
            _("Tick whose links to replace: a link already sent keeps working unless you tick it.")
        )
    waiting = {i.pk: i for i in referee_invitations_to_print(tournament)}
    chosen = [waiting[pk] for pk in dict.fromkeys(replace) if pk in waiting]
    if not chosen:
        raise ServiceError(presentation.SHEETS_ALREADY_REPLACED, code="done")
    sheets = []
    for old in chosen:
        new, token = role_services.replace_invitation(actor, tournament, old.pk)
        sheets.append(Sheet(new.label or "Referee", "referee", token, new.pk))
    audit.record(tournament, actor, "invitations_reissued", names=[sheet.name for sheet in sheets])
    return sheets
