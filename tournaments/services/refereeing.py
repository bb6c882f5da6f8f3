"""Refereeing a tournament duel from the console: a move, an undo, an ending, the referee and
table, the time limit. Each service locks the tournament, checks what the tournament says
(who may referee, whether the duel may start now), calls `duels.services` for the duel's own
rows and, when the duel finishes, applies the result through `lifecycle` — one transaction.

Lock order, as everywhere: the tournament row, then the duel row.
"""

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.permissions import Action, can
from core.errors import ServiceError
from duels import services as duels
from duels.models import Duel, DuelKind
from duels.selectors import player_ids

from ..models import EntrantStatus, Phase, RoundStatus, Tournament
from . import audit, lifecycle
from .setup import lock
from .shared_cards import deal_gifts

WARNING_BEFORE = timedelta(minutes=5)
# Which phase a duel of each kind is played in. A group replay that falls due after the group
# phase is played during the tie-breaks (TOURNAMENT.md "Corrections").
PLAYED_IN = {
    DuelKind.GROUP: (Phase.GROUP_PHASE,),
    DuelKind.REPLAY: (Phase.GROUP_PHASE, Phase.TIE_BREAKS),
    DuelKind.TIE_BREAK: (Phase.TIE_BREAKS,),
    DuelKind.PLAYOFF: (Phase.PLAYOFFS,),
}


def _locked(duel: Duel) -> tuple[Tournament, Duel]:
    tournament = lock(duel.tournament)
    duel = duels.lock(duel)
    duel.tournament = tournament
    return tournament, duel


def check_referee(tournament: Tournament, duel: Duel, actor: Any) -> None:
    players = player_ids(duel)
    if not can(actor, Action.REFEREE_DUELS, tournament, players=players):
        if actor is not None and actor.pk in players:
            raise ServiceError(
                "You play in this duel: another referee must run it.", code="forbidden"
            )
        raise ServiceError(
            "Only the tournament's referees and organisers run duels.", code="forbidden"
        )
    if (
        duel.referee_id
        and duel.referee_id != actor.pk
        and not can(actor, Action.CORRECT_RESULTS, tournament, players=players)
    ):
        raise ServiceError(f"This duel is assigned to {duel.referee}.", code="forbidden")


def _check_start(tournament: Tournament, duel: Duel) -> None:
    """May this duel start now? Its phase, its round, its players."""
    if tournament.phase not in PLAYED_IN.get(duel.kind, ()):
        if duel.kind == DuelKind.REPLAY or tournament.phase in (Phase.COMPLETE, Phase.CANCELLED):
            raise ServiceError(
                f"The tournament is {tournament.get_phase_display().lower()}: "
                "this duel can no longer be played."
            )
        raise ServiceError(
            f"This duel is played during the "
            f"{dict(Phase.choices)[PLAYED_IN[duel.kind][0]].lower()}, and the "
            f"tournament is in the {tournament.get_phase_display().lower()}."
        )
    if duel.kind == DuelKind.GROUP:
        if not lifecycle.group_phase_open(tournament):
            raise ServiceError("The group phase is over: this round will not be played.")
        if duel.round.status != RoundStatus.OPEN:
            raise ServiceError(
                f"Round {duel.round.number} is not open: round "
                f"{duel.round.number - 1}'s replay must be decided first."
            )
    for entrant, group_id in ((duel.seat_a, duel.group_a_id), (duel.seat_b, duel.group_b_id)):
        entrant.refresh_from_db(fields=["status", "group"])
        # A round's duel is played by active members of the groups they represent; a replay
        # by the same two players for the same groups, wherever they stand now.
        if duel.kind == DuelKind.GROUP and (
            entrant.status != EntrantStatus.ACTIVE or entrant.group_id != group_id
        ):
            raise ServiceError(
                f"{entrant.name} is no longer an active member of the group "
                "they represent: name another representative."
            )
        if entrant.status != EntrantStatus.ACTIVE:
            raise ServiceError(f"{entrant.name} is no longer an active player.")


def _start(tournament: Tournament, duel: Duel, actor: Any) -> None:
    """First move: check the duel may start, deal shared cards, start the clock."""
    _check_start(tournament, duel)
    gifts = deal_gifts(duel) if tournament.shared_cards and duel.kind == DuelKind.GROUP else {}
    now = timezone.now()
    deadline = (
        now + timedelta(minutes=tournament.duel_time_limit_minutes)
        if tournament.duel_time_limit_minutes
        else None
    )
    # The deadline is kept by beat (tournaments.tasks.keep_time) and by the console's polls.
    duels.start(duel, referee=actor, starting_action_cards=gifts, deadline=deadline, now=now)


@transaction.atomic
def append_event(
    duel: Duel, actor: Any, event: Any, expected_seq: int, expected_revision: int | None = None
) -> list[str]:
    """Apply one move. Returns what happened, in words. Refused moves change nothing."""
    return _play(duel, actor, event, expected_seq, expected_revision)[1]


@transaction.atomic
def play_move(
    duel: Duel, actor: Any, event: Any, expected_seq: int, expected_revision: int | None = None
) -> tuple[Duel, list[str]]:
    """`append_event` for the console: also returns the duel row as the move left it (locked,
    with its seats and referee, and `event_rows`, the log with the new row), from which the
    console's answer is drawn without reading the duel or its log again."""
    return _play(duel, actor, event, expected_seq, expected_revision)


@transaction.atomic
def redo_undone(
    duel: Duel, actor: Any, expected_seq: int, expected_revision: int | None = None
) -> tuple[Duel, list[str]]:
    """Enter again the move just undone ("Undone — Redo"), through the same checks as any
    move, and only while nothing else has happened since: the page's seq and revision are
    those the undo left, and the duel's latest change is that undo."""
    _, locked = _locked(duel)
    duels.check_fresh(locked, expected_seq, expected_revision)
    payload = duels.just_undone(locked)
    if payload is None:
        raise ServiceError("Nothing to redo: a move was entered after the undo.", code="conflict")
    return _play(duel, actor, payload, expected_seq, expected_revision)


def _play(
    duel: Duel, actor: Any, event: Any, expected_seq: int, expected_revision: int | None
) -> tuple[Duel, list[str]]:
    tournament, duel = _locked(duel)
    duels.check_fresh(duel, expected_seq, expected_revision)
    check_referee(tournament, duel, actor)
    duels.check_open(duel)
    if duel.seq == 0:
        _start(tournament, duel, actor)
    outcome = duels.apply_event(duel, actor, event)
    if outcome.finished:
        lifecycle.after_result(tournament, duel, actor)
    return duel, outcome.lines


@transaction.atomic
def undo_last_event(
    duel: Duel, actor: Any, expected_seq: int, expected_revision: int | None = None
) -> None:
    """Undo the last move of a running duel; the row is kept, marked undone."""
    tournament, duel = _locked(duel)
    duels.check_fresh(duel, expected_seq, expected_revision)
    check_referee(tournament, duel, actor)
    duels.undo(duel, actor)


@transaction.atomic
def assign_referee(duel: Duel, actor: Any, referee: Any, table: str | None = None) -> Duel:
    """Organisers assign any referee, and a table when ``table`` is given (any duel: group,
    tie-break or playoff); a referee takes an unassigned duel for themselves."""
    tournament, duel = _locked(duel)
    organiser = can(actor, Action.MANAGE_REFEREES, tournament)
    if not organiser and (referee != actor or duel.referee_id not in (None, actor.pk)):
        raise ServiceError(
            "Referees take unassigned duels for themselves; organisers assign the others.",
            code="forbidden",
        )
    if table is not None and not organiser:
        raise ServiceError("Only organisers choose tables.", code="forbidden")
    if referee is not None and not can(
        referee, Action.REFEREE_DUELS, tournament, players=player_ids(duel)
    ):
        raise ServiceError(
            f"{referee} cannot referee this duel (not a referee here, or one of its players)."
        )
    changed = duels.set_referee(duel, referee=referee, table=table)
    audit.record(tournament, actor, "referee_assigned", duel=duel.pk, **changed)
    if "table" in changed:
        audit.bump_version(tournament)  # public pages show where a duel is played
    return duel


@transaction.atomic
def warn_time_limit(duel: Duel, now=None) -> bool:
    """Mark the referee's warning as sent, once, in the last minutes before the deadline."""
    now = now or timezone.now()
    tournament, duel = _locked(duel)
    if duel.deadline is None or now < duel.deadline - WARNING_BEFORE:
        return False
    if not duels.mark_warned(duel, now):
        return False
    audit.record(
        tournament, None, "time_limit_warning", duel=duel.pk, deadline=duel.deadline.isoformat()
    )
    audit.bump_version(tournament)  # the console and public pages pick the warning up
    return True


@transaction.atomic
def enforce_time_limit(duel: Duel, now=None) -> bool:
    """At the deadline the engine records `time_limit` itself, unless the duel has ended.

    Idempotent: a late, repeated or early call changes nothing it should not.
    """
    now = now or timezone.now()
    tournament, duel = _locked(duel)
    outcome = duels.time_limit(duel, now)
    if outcome is None:
        return False
    if outcome.finished:
        lifecycle.after_result(tournament, duel, None)
    return True
