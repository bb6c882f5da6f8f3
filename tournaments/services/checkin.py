"""Check-in on the day (issue 16): a player checks themselves in, or staff (organisers,
co-organisers, referees) check them in; the organiser sees who is missing before starting the
group phase or the playoffs and withdraws the no-shows in one action (before the group phase
they are removed outright: no withdrawn entries from people who never came)."""

from django.db import transaction
from django.utils import timezone

from accounts.permissions import Action, can
from core.errors import ServiceError

from ..models import FINAL_PHASES, Entrant, EntrantStatus, Phase, Tournament
from . import audit
from .entrants import REGISTRATION_PHASES, remove_entrant
from .groups import change_groups, round_one_started, withdraw
from .setup import lock


def may_check_in(actor, tournament: Tournament, entrant: Entrant) -> bool:
    """The player themselves, or staff of this tournament."""
    if actor is None or not actor.is_authenticated:
        return False
    return entrant.user_id == actor.pk or can(actor, Action.CHECK_IN_PLAYERS, tournament)


@transaction.atomic
def check_in(tournament: Tournament, actor, entrant_id: int) -> Entrant:
    tournament = lock(tournament)
    entrant = tournament.entrants.select_for_update().filter(pk=entrant_id).first()
    if entrant is None:
        raise ServiceError("That player is not registered in this tournament.")
    if not may_check_in(actor, tournament, entrant):
        raise ServiceError("You may not check this player in.", code="forbidden")
    if tournament.phase in FINAL_PHASES:
        raise ServiceError("This tournament is over.")
    if entrant.status != EntrantStatus.ACTIVE:
        raise ServiceError(f"{entrant.name} is {entrant.get_status_display().lower()}.")
    if entrant.checked_in_at is None:
        entrant.checked_in_at = timezone.now()
        entrant.checked_in_by = actor
        entrant.save(update_fields=["checked_in_at", "checked_in_by"])
        audit.record(tournament, actor, "player_checked_in", entrant=entrant.pk)
    return entrant


def missing(tournament: Tournament) -> list[Entrant]:
    """Active players not checked in, by name."""
    return list(
        tournament.entrants.filter(status=EntrantStatus.ACTIVE, checked_in_at__isnull=True)
        .select_related("group")
        .order_by("name")
    )


NO_SHOW_REASON = "Did not check in"


@transaction.atomic
def withdraw_no_shows(tournament: Tournament, actor, *, confirm: bool = False) -> list[str]:
    """Every active player not checked in leaves, in one transaction; returns their names.

    Before the group phase they are removed; once it has started they are withdrawn (after
    round 1's duel has started, as one change of membership: the group limits apply).
    """
    tournament = lock(tournament)
    if not can(actor, Action.WITHDRAW_PLAYERS, tournament):
        raise ServiceError("You may not withdraw players here.", code="forbidden")
    if tournament.phase in FINAL_PHASES or tournament.phase == Phase.PLAYOFFS:
        raise ServiceError("No-shows are withdrawn before the group phase or the playoffs start.")
    absent = missing(tournament)
    if not absent:
        raise ServiceError("Everybody is checked in: nobody to withdraw.")
    names = [e.name for e in absent]
    if tournament.phase in REGISTRATION_PHASES:
        for entrant in absent:
            remove_entrant(tournament, actor, entrant.pk)
    elif (
        tournament.phase == Phase.GROUP_PHASE
        and not tournament.group_phase_ended_at
        and round_one_started(tournament)
    ):
        change_groups(
            tournament, actor, {e.pk: None for e in absent}, confirm=confirm, reason=NO_SHOW_REASON
        )
    else:
        for entrant in absent:
            withdraw(tournament, actor, entrant.pk, NO_SHOW_REASON)
    audit.record(tournament, actor, "no_shows_withdrawn", names=names)
    return names
