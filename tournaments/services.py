"""Writes to tournaments and entrants: one transaction each."""

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from .errors import ServiceError
from .models import Entrant, Tournament

NAME_MAX = 80


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "tournament"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def create_tournament(*, name: str, created_by) -> Tournament:
    name = " ".join(name.split())
    if not name:
        raise ServiceError("Give the tournament a name.")
    if len(name) > 120:
        raise ServiceError("A tournament name has at most 120 characters.")
    for _attempt in range(3):
        try:
            with transaction.atomic():
                return Tournament.objects.create(
                    name=name, slug=_unique_slug(name), created_by=created_by
                )
        except IntegrityError:
            continue  # another request took the same slug between the check and the insert
    raise ServiceError("Could not find a free address for this name; try another name.")


@transaction.atomic
def set_published(tournament: Tournament, published: bool) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(published=published)
    tournament.published = published
    return tournament


def clean_entrant_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise ServiceError("A player needs a name.")
    if len(name) > NAME_MAX:
        raise ServiceError(f"A player's name has at most {NAME_MAX} characters.")
    return name


@transaction.atomic
def add_entrant(tournament: Tournament, name: str) -> Entrant:
    name = clean_entrant_name(name)
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.entrants.filter(name__iexact=name).exists():
        raise ServiceError(f"“{name}” is already registered in this tournament.")
    return Entrant.objects.create(tournament=tournament, name=name)


def hash_claim_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def issue_claim_link(entrant: Entrant) -> str:
    """A new claim token for `entrant`; any earlier link stops working. Returns the token."""
    entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
    if entrant.user_id is not None:
        raise ServiceError(f"{entrant.name}'s entry is already linked to an account.")
    token = secrets.token_urlsafe(24)
    entrant.claim_token_hash = hash_claim_token(token)
    entrant.claim_expires_at = timezone.now() + timedelta(days=settings.CLAIM_LINK_DAYS)
    entrant.save(update_fields=["claim_token_hash", "claim_expires_at"])
    return token


def find_claimable(tournament: Tournament, token: str) -> Entrant:
    """The entrant a live claim token points at, or a ServiceError saying why not."""
    entrant = (
        tournament.entrants.filter(claim_token_hash=hash_claim_token(token)).first()
        if token else None
    )
    if entrant is None:
        raise ServiceError("This claim link is not valid. Ask the organiser for a new one.")
    if entrant.claim_expires_at is None or entrant.claim_expires_at <= timezone.now():
        raise ServiceError("This claim link has expired. Ask the organiser for a new one.")
    return entrant


@transaction.atomic
def claim_entry(tournament: Tournament, token: str, user) -> Entrant:
    """Link `user` to the entry the token names. The token works once."""
    entrant = find_claimable(tournament, token)
    entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
    if entrant.user_id is not None or entrant.claim_token_hash != hash_claim_token(token):
        raise ServiceError("This claim link has already been used.")
    if tournament.entrants.filter(user=user).exists():
        raise ServiceError("Your account is already linked to an entry in this tournament.")
    entrant.user = user
    entrant.claim_token_hash = ""
    entrant.claim_expires_at = None
    entrant.save(update_fields=["user", "claim_token_hash", "claim_expires_at"])
    return entrant


def expire_claim_links(now=None) -> int:
    """Clear claim tokens past their expiry; returns how many were cleared."""
    now = now or timezone.now()
    return Entrant.objects.filter(
        claim_expires_at__lte=now, user__isnull=True
    ).exclude(claim_token_hash="").update(claim_token_hash="", claim_expires_at=None)
