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
from duels.models import Duel, DuelKind, DuelStatus
from duels.selectors import player_ids

from ..models import EntrantStatus, Phase, RoundStatus, Tournament
from . import audit, lifecycle
from .groups import round_one_blocked
from .setup import lock, lock_key
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
    first_round = duel.kind == DuelKind.GROUP and duel.round.number == 1
    if first_round and (blocked := round_one_blocked(tournament)):
        raise ServiceError(blocked)


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


# What a move needs of the locked duel row: its seats and referee (checks, and the console's
# answer). Its round is read only by a first or a finishing move (`_check_start`,
# `lifecycle.after_result`), which read it then; each join costs every move (docs/performance.md).
MOVE_RELATIONS = ("seat_a", "seat_b", "referee")


def _play(
    duel: Duel, actor: Any, event: Any, expected_seq: int, expected_revision: int | None
) -> tuple[Duel, list[str]]:
    # The hot path of the console: the tournament row is locked, not read again. An ordinary
    # move reads none of its fields (the permission check uses the roles the request read);
    # a first or a finishing move reads it again under the lock before anything that does.
    tournament = duel.tournament
    lock_key(tournament)
    duel = duels.lock(duel, related=MOVE_RELATIONS)
    duel.tournament = tournament
    duels.check_fresh(duel, expected_seq, expected_revision)
    check_referee(tournament, duel, actor)
    duels.check_open(duel)
    if duel.seq == 0:
        tournament.refresh_from_db()
        _start(tournament, duel, actor)
    outcome = duels.apply_event(duel, actor, event)
    if outcome.finished:
        if duel.seq > 1:
            tournament.refresh_from_db()
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
def call_duel(duel: Duel, actor: Any, table: str) -> Duel:
    """Call a duel's players to its table (issue 16): whoever may give a duel its table
    (TOURNAMENT.md: referees "give the duel a table"; organisers and co-organisers). The
    call is audit-logged and shows on the big screen and the players' pages at once."""
    from ..tasks import enqueue_on_commit, notify_duel_called

    tournament, duel = _locked(duel)
    if not can(actor, Action.NAME_REPRESENTATIVES, tournament):
        raise ServiceError("Only referees and organisers call duels.", code="forbidden")
    if tournament.phase in (Phase.COMPLETE, Phase.CANCELLED):
        raise ServiceError(f"The tournament is {tournament.get_phase_display().lower()}.")
    detail = duels.call(duel, table=table, now=timezone.now())
    audit.record(tournament, actor, "duel_called", **detail)
    audit.bump_version(tournament)  # the big screen and the players' pages show the call
    enqueue_on_commit(notify_duel_called, duel.pk, detail["called_at"])
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


# A duel played on paper ---------------------------------------------------------------------

PAPER_REASON = "played on paper"


@transaction.atomic
def record_paper_result(
    tournament: Tournament,
    actor: Any,
    *,
    winner_id: int,
    round_number: int | None = None,
    first_id: int | None = None,
    second_id: int | None = None,
    duel_id: int | None = None,
    note: str = "",
) -> Duel:
    """A whole duel played on paper (a device failed, or the venue had none), recorded in one
    step: for a group round, its representatives are named (or replaced) first; then the duel
    starts as on the console (its phase, round and players checked, shared cards dealt) and
    ends with one `adjudicate` event whose reason is "played on paper" (RULES.md section 8).
    `note` is the staff's own word on it, kept in the audit log (private).

    Who may: whoever may referee the duel (`check_referee`): organisers, co-organisers, and a
    referee for an unassigned duel or one assigned to them (TOURNAMENT.md: a referee may
    "record … an adjudication"); never one of its players.
    """
    tournament = lock(tournament)
    if (round_number is None) == (duel_id is None):
        raise ServiceError("Choose a round or a duel.")
    if round_number is not None:
        duel = _paper_round_duel(tournament, actor, round_number, first_id, second_id)
    else:
        duel = Duel.objects.filter(tournament=tournament, pk=duel_id).first()
        if duel is None:
            raise ServiceError("That duel is not in this tournament.")
    tournament, duel = _locked(duel)
    check_referee(tournament, duel, actor)
    duels.check_open(duel)
    if duel.seq:
        raise ServiceError(
            "This duel has started on the console: finish it there (an adjudication "
            "with a reason is one of its endings)."
        )
    seat = {duel.seat_a_id: "A", duel.seat_b_id: "B"}.get(winner_id) if winner_id else None
    if seat is None:
        raise ServiceError("The winner must be one of the duel's two players.")
    _start(tournament, duel, actor)
    outcome = duels.apply_event(
        duel, actor, {"type": "adjudicate", "winner": seat, "reason": PAPER_REASON}
    )
    audit.record(
        tournament,
        actor,
        "paper_result",
        reason=note,
        duel=duel.pk,
        winner=winner_id,
        starting_action_cards=duel.options.get("starting_action_cards", {}),
    )
    if outcome.finished:
        lifecycle.after_result(tournament, duel, actor)
    return duel


def _paper_round_duel(
    tournament: Tournament,
    actor: Any,
    round_number: int,
    first_id: int | None,
    second_id: int | None,
) -> Duel:
    """The round's open duel, its representatives named first when they are given. A replay
    keeps its players: naming others for it is refused by `name_representatives`."""
    from .rounds import name_representatives

    current = (
        Duel.objects.filter(
            tournament=tournament,
            round__number=round_number,
            status__in=duels.UNSTARTED_STATUSES + (DuelStatus.RUNNING,),
        )
        .order_by("pk")
        .first()
    )
    if first_id is None or second_id is None:
        if current is None:
            raise ServiceError("Name both representatives.")
        return current
    if current is not None and current.kind == DuelKind.REPLAY:
        if {first_id, second_id} != {current.seat_a_id, current.seat_b_id}:
            raise ServiceError("A replay is played by the same players on the same seats.")
        return current
    table = current.table if current is not None else ""
    return name_representatives(tournament, actor, round_number, first_id, second_id, table)
