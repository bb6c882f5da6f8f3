"""Check-in on the day (issue 16): a player checks themselves in, or staff (organisers,
co-organisers, referees) check them in; the organiser sees who is missing before starting the
group phase or the playoffs and withdraws the no-shows in one action (before the group phase
they are removed outright: no withdrawn entries from people who never came)."""

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.permissions import Action, can
from core.errors import ServiceError

from .. import format as fmt
from .. import presentation
from ..models import FINAL_PHASES, AuditEntry, Entrant, EntrantStatus, Phase, Tournament
from . import audit, lifecycle
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
        raise ServiceError(_("That player is not registered in this tournament."))
    if not may_check_in(actor, tournament, entrant):
        raise ServiceError(_("You may not check this player in."), code="forbidden")
    if tournament.phase in FINAL_PHASES:
        raise ServiceError(_("This tournament is over."))
    if entrant.status != EntrantStatus.ACTIVE:
        raise ServiceError(
            _("%(name)s is %(status)s.")
            % {"name": entrant.name, "status": entrant.get_status_display().lower()}
        )
    if entrant.checked_in_at is None:
        entrant.checked_in_at = timezone.now()
        entrant.checked_in_by = actor
        entrant.save(update_fields=["checked_in_at", "checked_in_by"])
        audit.record(tournament, actor, "player_checked_in", entrant=entrant.pk)
    return entrant


def group_phase_started_at(tournament: Tournament):
    """When the group phase started (None before): check-ins before it were for it."""
    return (
        AuditEntry.objects.filter(tournament=tournament, action="group_phase_started")
        .order_by("pk")
        .values_list("created_at", flat=True)
        .first()
    )


_UNREAD = object()


def undo_blocker(tournament: Tournament, entrant: Entrant, started=_UNREAD) -> str:
    """Why this check-in can no longer be undone, in words (empty when it can).

    TOURNAMENT.md "Corrections": a check-in can be undone until the phase it was for has
    started. One made before the group phase started was for the group phase; one made
    after, for the playoffs (the two starts the overview names the missing players for).
    `started`: `group_phase_started_at`, read once by a page that asks for many players."""
    if entrant.checked_in_at is None:
        return presentation.check_in_undo_blocker(entrant.name, "not_checked_in")
    if started is _UNREAD:
        started = group_phase_started_at(tournament)
    if started is None or entrant.checked_in_at < started:
        if tournament.phase not in REGISTRATION_PHASES:
            return presentation.check_in_undo_blocker(entrant.name, "group_phase")
        return ""
    if tournament.phase not in (Phase.GROUP_PHASE, Phase.TIE_BREAKS):
        return presentation.check_in_undo_blocker(entrant.name, "playoffs")
    return ""


@transaction.atomic
def undo_check_in(tournament: Tournament, actor, *, entrant_id: int) -> Entrant:
    """Undo a check-in made by mistake (the wrong row, the wrong player), until the phase it
    was for has started. The same undo twice changes nothing the second time, and says so."""
    tournament = lock(tournament)
    entrant = tournament.entrants.select_for_update().filter(pk=entrant_id).first()
    if entrant is None:
        raise ServiceError(_("That player is not registered in this tournament."))
    if not may_check_in(actor, tournament, entrant):
        raise ServiceError(_("You may not undo this player's check-in."), code="forbidden")
    blocker = undo_blocker(tournament, entrant)
    if blocker:
        raise ServiceError(blocker, code="done" if entrant.checked_in_at is None else "final")
    checked_in_at = entrant.checked_in_at
    entrant.checked_in_at = None
    entrant.checked_in_by = None
    entrant.save(update_fields=["checked_in_at", "checked_in_by"])
    audit.record(
        tournament,
        actor,
        "check_in_undone",
        entrant=entrant.pk,
        was=checked_in_at.isoformat() if checked_in_at else None,
    )
    return entrant


def missing(tournament: Tournament) -> list[Entrant]:
    """Active players not checked in, by name."""
    return list(
        tournament.entrants.filter(status=EntrantStatus.ACTIVE, checked_in_at__isnull=True)
        .select_related("group")
        .order_by("name")
    )


NO_SHOW_REASON = "Did not check in"


@dataclass(frozen=True)
class NoShows:
    """What withdrawing the no-shows would do, named before it is done."""

    entrants: list[Entrant]
    removes: bool  # before the group phase: removed outright, as if never registered
    eliminates: str  # the group an elimination would put out, else ""
    refusal: str  # why it would be refused, else ""

    @property
    def ids(self) -> list[int]:
        return sorted(e.pk for e in self.entrants)


def no_shows_preview(tournament: Tournament) -> NoShows:
    """Read-only: who `withdraw_no_shows` would remove or withdraw now, and what follows."""
    absent = missing(tournament)
    eliminates = refusal = ""
    if not absent:
        refusal = presentation.NO_SHOWS_NOBODY
    elif tournament.phase in FINAL_PHASES or tournament.phase == Phase.PLAYOFFS:
        refusal = presentation.NO_SHOWS_TOO_LATE
    elif lifecycle.group_phase_open(tournament) and round_one_started(tournament):
        groups = list(tournament.groups.order_by("order"))
        active = tournament.entrants.filter(status=EntrantStatus.ACTIVE)
        before = {e.pk: e.group_id for e in active}
        after = fmt.end_state(before, {e.pk: None for e in absent})
        verdict = fmt.check_change(before, after, [g.pk for g in groups])
        if verdict.refused:
            refusal = presentation.NO_SHOWS_BOTH_GROUPS
        elif verdict.needs_confirmation:
            eliminates = next(g.name for g in groups if g.pk == verdict.eliminated_group)
    return NoShows(absent, tournament.phase in REGISTRATION_PHASES, eliminates, refusal)


@transaction.atomic
def withdraw_no_shows(
    tournament: Tournament,
    actor,
    *,
    confirm: bool = False,
    expected: list[int] | None = None,
) -> list[str]:
    """Every active player not checked in leaves, in one transaction; returns their names.

    Before the group phase they are removed; once it has started they are withdrawn (after
    round 1's duel has started, as one change of membership: the group limits apply).

    `expected`: the players the confirmation named. If they are gone already, nothing is done
    and the words say so; if the list of no-shows changed since, the organiser is asked again.
    """
    tournament = lock(tournament)
    if not can(actor, Action.WITHDRAW_PLAYERS, tournament):
        raise ServiceError(_("You may not withdraw players here."), code="forbidden")
    if tournament.phase in FINAL_PHASES or tournament.phase == Phase.PLAYOFFS:
        raise ServiceError(presentation.NO_SHOWS_TOO_LATE)
    absent = missing(tournament)
    named, now = set(expected or ()), {e.pk for e in absent}
    # A confirmation names at least one player: an empty list confirms nobody, and is asked
    # again rather than told "already withdrawn".
    if expected is not None and (not named or named != now):
        if named and not named & now:
            raise ServiceError(
                _(
                    "The no-shows you confirmed were already withdrawn or have checked in: "
                    "nothing changed."
                ),
                code="done",
            )
        raise ServiceError(
            _(
                "Who is missing changed since you were asked: check the list again. Nothing was "
                "changed."
            ),
            code="stale",
        )
    if not absent:
        raise ServiceError(presentation.NO_SHOWS_NOBODY)
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
