"""Refereeing a duel: append a move under the expected sequence number, undo the last one,
and record the result when the engine finishes the duel.

Lock order, as everywhere: the tournament row, then the duel row (DESIGN.md: conflicts through
the row lock, never by catching an IntegrityError).
"""

from datetime import timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.permissions import Action, can
from tournaments.errors import ServiceError
from tournaments.format import ROUNDS
from tournaments.models import EntrantStatus, Phase, Round, RoundStatus, SharedCardStatus
from tournaments.services import audit
from tournaments.services.setup import lock

from .engine import Duel as EngineDuel
from .engine import EngineError
from .models import Duel, DuelEvent, DuelKind, DuelStatus, Result

RECORD_FORMAT = "split-uno-duel"
OPEN_STATUSES = (DuelStatus.READY, DuelStatus.RUNNING)
SEATS = ("A", "B")


class Conflict(ServiceError):
    """The page showed an older sequence number: someone else entered a move first."""

    def __init__(self, current: int) -> None:
        super().__init__("Someone else entered a move — here is the current state.",
                         code="conflict")
        self.current = current


def seat_entrants(duel: Duel) -> dict[str, Any]:
    return {"A": duel.seat_a, "B": duel.seat_b}


def record_of(duel: Duel, events: list[dict] | None = None) -> dict:
    """The duel's record in the RULES.md section 8 format (active events only)."""
    if events is None:
        events = list(duel.events.filter(undone_at=None).order_by("seq")
                      .values_list("payload", flat=True))
    return {
        "format": RECORD_FORMAT, "version": 1, "ruleset": duel.ruleset,
        "variants": list(duel.variants), "options": dict(duel.options),
        "seats": {seat: entrant.name for seat, entrant in seat_entrants(duel).items()},
        "events": events,
    }


def engine_of(duel: Duel) -> EngineDuel:
    """Replay the active events: the cached state is never trusted for a new move."""
    return EngineDuel.from_record(record_of(duel))


def _lock_duel(duel: Duel):
    tournament = lock(duel.tournament)
    duel = (Duel.objects.select_for_update(of=("self",))
            .select_related("seat_a", "seat_b", "round").get(pk=duel.pk))
    duel.tournament = tournament
    return tournament, duel


def _check_fresh(duel: Duel, expected_seq: int, expected_revision: int | None) -> None:
    """First, under the lock: a stale page is shown the current state, whatever else."""
    if expected_seq != duel.seq or (expected_revision is not None
                                    and expected_revision != duel.revision):
        raise Conflict(duel.seq)


def _check_referee(tournament, duel: Duel, actor) -> None:
    players = [e.user_id for e in (duel.seat_a, duel.seat_b) if e is not None and e.user_id]
    if not can(actor, Action.REFEREE_DUELS, tournament, players=players):
        if actor is not None and actor.pk in players:
            raise ServiceError("You play in this duel: another referee must run it.",
                               code="forbidden")
        raise ServiceError("Only the tournament's referees and organisers run duels.",
                           code="forbidden")
    if duel.referee_id and duel.referee_id != actor.pk \
            and not can(actor, Action.CORRECT_RESULTS, tournament, players=players):
        raise ServiceError(f"This duel is assigned to {duel.referee}.", code="forbidden")


def _start(tournament, duel: Duel, actor) -> None:
    """First move: check the seats, deal a shared card, start the clock."""
    if duel.kind in (DuelKind.GROUP, DuelKind.REPLAY):
        if tournament.phase != Phase.GROUP_PHASE:
            raise ServiceError("The group phase is not running.")
        if duel.kind == DuelKind.GROUP and duel.round.status != RoundStatus.OPEN:
            raise ServiceError(f"Round {duel.round.number} is not open: round "
                               f"{duel.round.number - 1}'s replay must be decided first.")
        for entrant, group_id in ((duel.seat_a, duel.group_a_id), (duel.seat_b, duel.group_b_id)):
            entrant.refresh_from_db(fields=["status", "group"])
            if entrant.status != EntrantStatus.ACTIVE or entrant.group_id != group_id:
                raise ServiceError(f"{entrant.name} is no longer an active member of the group "
                                   "they represent: name another representative.")
        if tournament.shared_cards and duel.kind == DuelKind.GROUP:
            _deal_shared_cards(tournament, duel)
    if duel.referee_id is None:
        duel.referee = actor
    duel.status = DuelStatus.RUNNING
    duel.started_at = timezone.now()
    if tournament.duel_time_limit_minutes:
        duel.deadline = duel.started_at + timedelta(minutes=tournament.duel_time_limit_minutes)
        from .tasks import schedule_time_limit

        transaction.on_commit(partial(schedule_time_limit, duel.pk, duel.deadline), robust=True)


def pending_gifts(duel: Duel) -> dict:
    """Seat → the pending shared card its player would start this duel with."""
    from tournaments.models import SharedCard

    by_receiver = {g.receiver_id: g for g in SharedCard.objects.filter(
        receiver_id__in=[duel.seat_a_id, duel.seat_b_id], status=SharedCardStatus.PENDING)}
    return {seat: by_receiver[e.pk] for seat, e in seat_entrants(duel).items()
            if e is not None and e.pk in by_receiver}


def starting_gifts(duel: Duel) -> dict[str, int]:
    """Seat → 1 for each player this duel's first move will deal a shared card to."""
    if duel.seq or duel.kind != DuelKind.GROUP or not duel.tournament.shared_cards:
        return {}
    return {seat: 1 for seat in pending_gifts(duel)}


def start_options(duel: Duel) -> dict:
    """The engine options this duel will start with (shared cards dealt in a group duel)."""
    gifts = starting_gifts(duel)
    return {**duel.options, "starting_action_cards": gifts} if gifts else dict(duel.options)


def _deal_shared_cards(tournament, duel: Duel) -> None:
    gifts = pending_gifts(duel)
    for gift in gifts.values():
        gift.status = SharedCardStatus.USED
        gift.used_in = duel
        gift.save(update_fields=["status", "used_in"])
    if gifts:
        duel.options = {**duel.options, "starting_action_cards": {seat: 1 for seat in gifts}}


@transaction.atomic
def append_event(duel: Duel, actor, event: Any, expected_seq: int,
                 expected_revision: int | None = None) -> list[str]:
    """Apply one move. Returns what happened, in words. Refused moves change nothing."""
    tournament, duel = _lock_duel(duel)
    _check_fresh(duel, expected_seq, expected_revision)
    _check_referee(tournament, duel, actor)
    if duel.status not in OPEN_STATUSES:
        raise ServiceError(f"This duel is {duel.get_status_display().lower()}: it takes no "
                           "more moves.", code="closed")
    if duel.seq == 0:
        _start(tournament, duel, actor)
    engine = engine_of(duel)
    try:
        effects = engine.apply(event)
    except EngineError as err:
        raise ServiceError(str(err), code="illegal") from None
    lines = engine.describe(effects) if effects else []
    duel.seq += 1
    duel.revision += 1
    DuelEvent.objects.create(duel=duel, seq=duel.seq, payload=engine.record()["events"][-1],
                             summary=lines, created_by=actor)
    duel.state = engine.state()
    if engine.finished:
        _finish(tournament, duel, actor)
    duel.save()
    return lines


@transaction.atomic
def undo_last_event(duel: Duel, actor, expected_seq: int,
                    expected_revision: int | None = None) -> None:
    """Undo the last move of a running duel; the row is kept, marked undone."""
    tournament, duel = _lock_duel(duel)
    _check_fresh(duel, expected_seq, expected_revision)
    _check_referee(tournament, duel, actor)
    if duel.status != DuelStatus.RUNNING:
        raise ServiceError("Only a running duel's moves can be undone; a finished result "
                           "changes only by an organiser's correction.", code="closed")
    if duel.seq == 0:
        raise ServiceError("There is no move to undo.", code="closed")
    last = duel.events.filter(undone_at=None, seq=duel.seq).get()
    last.undone_at = timezone.now()
    last.undone_by = actor
    last.save(update_fields=["undone_at", "undone_by"])
    duel.seq -= 1
    duel.revision += 1
    duel.state = engine_of(duel).state()
    duel.save(update_fields=["seq", "revision", "state"])


def _finish(tournament, duel: Duel, actor) -> None:
    state = duel.state
    seats = seat_entrants(duel)
    winner = seats[state["winner"]] if state["winner"] else None
    loser = seats["B" if state["winner"] == "A" else "A"] if winner else None
    duel.status = DuelStatus.FINISHED
    duel.finished_at = timezone.now()
    duel.save()  # the standings rebuilt below read the finished duel from the database
    Result.objects.create(duel=duel, winner=winner, loser=loser, finish=state["finish"],
                          table_winner=winner, table_finish=state["finish"])
    audit.record(tournament, actor, "duel_finished", duel=duel.pk, kind=duel.kind,
                 winner=winner.pk if winner else None, finish=state["finish"])
    after_result(tournament, duel, winner)


def after_result(tournament, duel: Duel, winner) -> None:
    """What a result sets in motion right away: the round is decided (after round 15 the group
    phase is over), or a replay is due; the standings are rebuilt."""
    from tournaments.services.groups import end_group_phase
    from tournaments.services.standings import recompute_standings
    from tournaments.tasks import advance_tournament, enqueue_on_commit

    if winner is None:
        create_replay(duel)
    elif duel.kind in (DuelKind.GROUP, DuelKind.REPLAY):
        decide_round(tournament, duel.round)
        if duel.round.number == ROUNDS:
            end_group_phase(tournament)
    recompute_standings(tournament)
    # The next step (tie-breaks, the next playoff duel, completion) is the automation's.
    enqueue_on_commit(advance_tournament, tournament.pk)


def create_replay(duel: Duel) -> Duel:
    """A duel without a winner is replayed at once by the same players on the same seats."""
    return Duel.objects.create(
        tournament=duel.tournament, kind=DuelKind.REPLAY if duel.kind in
        (DuelKind.GROUP, DuelKind.REPLAY) else duel.kind,
        round=duel.round, stage=duel.stage, table=duel.table, seat_a=duel.seat_a,
        seat_b=duel.seat_b, group_a=duel.group_a, group_b=duel.group_b, referee=duel.referee,
        status=DuelStatus.READY, replay_of=duel, ruleset=duel.ruleset, variants=duel.variants,
        options=duel.options,
    )


def decide_round(tournament, round_: Round) -> None:
    """Round n has a decisive result: its change window opens and round n + 1 opens."""
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.DECIDED)
    Round.objects.filter(tournament=tournament, number=round_.number + 1,
                         status=RoundStatus.PENDING).update(status=RoundStatus.OPEN)


def undecide_round(tournament, round_: Round) -> bool:
    """Round n's decisive result is gone and its replay is due (a void or a correction).

    Round n + 1 opens only when round n has a decisive result (TOURNAMENT.md, "Rounds"): so
    until round n + 1's duel has started, round n is open again — its replay decides it, and the
    change window after it stays shut meanwhile — and round n + 1 waits, with any duel already
    named for it. Once round n + 1 has started the rounds go on, and the replay counts when it
    is played. Returns whether round n reopened."""
    if round_.status != RoundStatus.DECIDED or round_.number >= ROUNDS \
            or tournament.phase != Phase.GROUP_PHASE:
        return False
    if Duel.objects.filter(tournament=tournament, round__number=round_.number + 1,
                           seq__gt=0).exists():
        return False
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.OPEN)
    Round.objects.filter(tournament=tournament, number=round_.number + 1,
                         status=RoundStatus.OPEN).update(status=RoundStatus.PENDING)
    return True


def forfeit_for_withdrawal(duel: Duel, actor, seat: str) -> None:
    """Inside a withdrawal's (or a walkover's) transaction, the tournament row already locked:
    the absent player's duel ends as a forfeit, scored as a loss."""
    tournament, duel = _lock_duel(duel)
    if duel.seq == 0:
        duel.status = DuelStatus.RUNNING
        duel.started_at = timezone.now()
    engine = engine_of(duel)
    engine.apply({"type": "forfeit", "seat": seat, "reason": "withdrawn"})
    duel.seq += 1
    duel.revision += 1
    DuelEvent.objects.create(duel=duel, seq=duel.seq, payload=engine.record()["events"][-1],
                             summary=[f"{engine.seats[seat]} is absent and forfeits."],
                             created_by=actor)
    duel.state = engine.state()
    _finish(tournament, duel, actor)
    duel.save()


@transaction.atomic
def assign_referee(duel: Duel, actor, referee, table: str | None = None) -> Duel:
    """Organisers assign any referee, and a table when ``table`` is given (any duel: group,
    tie-break or playoff); a referee takes an unassigned duel for themselves."""
    tournament, duel = _lock_duel(duel)
    players = [e.user_id for e in (duel.seat_a, duel.seat_b) if e is not None and e.user_id]
    organiser = can(actor, Action.MANAGE_REFEREES, tournament)
    if not organiser and (referee != actor or duel.referee_id not in (None, actor.pk)):
        raise ServiceError("Referees take unassigned duels for themselves; organisers assign "
                           "the others.", code="forbidden")
    if table is not None and not organiser:
        raise ServiceError("Only organisers choose tables.", code="forbidden")
    if referee is not None and not can(referee, Action.REFEREE_DUELS, tournament,
                                       players=players):
        raise ServiceError(f"{referee} cannot referee this duel (not a referee here, or one "
                           "of its players).")
    if duel.status not in (DuelStatus.PENDING, DuelStatus.READY, DuelStatus.RUNNING):
        raise ServiceError("This duel is over.")
    duel.referee = referee
    fields = ["referee"]
    details = {"referee": referee.pk if referee else None}
    if table is not None:
        table = " ".join(table.split())
        if len(table) > 40:
            raise ServiceError("A table's name is at most 40 characters.")
        if table != duel.table:
            duel.table = table
            fields.append("table")
            details["table"] = table
    duel.save(update_fields=fields)
    audit.record(tournament, actor, "referee_assigned", duel=duel.pk, **details)
    if "table" in fields:
        audit.bump_version(tournament)  # public pages show where a duel is played
    return duel


WARNING_BEFORE = timedelta(minutes=5)


@transaction.atomic
def warn_time_limit(duel: Duel, now=None) -> bool:
    """Mark the referee's warning as sent, once, in the last minutes before the deadline."""
    now = now or timezone.now()
    tournament, duel = _lock_duel(duel)
    if duel.status != DuelStatus.RUNNING or duel.deadline is None or duel.warned_at:
        return False
    if now < duel.deadline - WARNING_BEFORE:
        return False
    duel.warned_at = now
    duel.save(update_fields=["warned_at"])
    audit.record(tournament, None, "time_limit_warning", duel=duel.pk,
                 deadline=duel.deadline.isoformat())
    audit.bump_version(tournament)  # the console and public pages pick the warning up
    return True


@transaction.atomic
def enforce_time_limit(duel: Duel, now=None) -> bool:
    """At the deadline the engine records `time_limit` itself, unless the duel has ended.

    Idempotent: a late, repeated or early call changes nothing it should not.
    """
    now = now or timezone.now()
    tournament, duel = _lock_duel(duel)
    if duel.status != DuelStatus.RUNNING or duel.deadline is None or now < duel.deadline:
        return False
    engine = engine_of(duel)
    effects = engine.apply({"type": "time_limit", "reason": "deadline"})
    duel.seq += 1
    duel.revision += 1
    DuelEvent.objects.create(duel=duel, seq=duel.seq, payload=engine.record()["events"][-1],
                             summary=["Time is up."] + engine.describe(effects),
                             created_by=None)
    duel.state = engine.state()
    _finish(tournament, duel, None)
    duel.save()
    return True
