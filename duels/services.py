"""A refereed duel's life, and the only writer of `Duel`, `DuelEvent` and `Result` rows.

pending → ready → running → finished | abandoned; void from any of them. This module knows
nothing of rounds, phases or the tournament's rules: the tournament's services
(tournaments/services/refereeing.py, lifecycle.py) lock the tournament, check what the format
says, call these functions, and then apply the result in the same transaction.

Every function here expects to run inside the caller's transaction, with the tournament row
locked first and the duel row locked by `lock` (DESIGN.md: conflicts through the row lock,
never by catching an IntegrityError).
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from core.errors import ServiceError
from core.names import clean_name
from games.split_uno import Duel as EngineDuel
from games.split_uno import EngineError

from . import rows
from .models import Duel, DuelEvent, DuelKind, DuelStatus, Result

RECORD_FORMAT = "split-uno-duel"
# A duel that takes moves: its players are named (ready) or it is under way. Narrower than a
# duel not over yet (pending too), which the tournament calls `lifecycle.OPEN`: a pending duel
# waits for its players and must refuse a move.
OPEN_STATUSES = (DuelStatus.READY, DuelStatus.RUNNING)
UNSTARTED_STATUSES = (DuelStatus.PENDING, DuelStatus.READY)
SEATS = ("A", "B")
TABLE_MAX = 40


class Conflict(ServiceError):
    """The page showed an older sequence number: someone else entered a move first."""

    def __init__(self, current: int) -> None:
        super().__init__(
            "Someone else entered a move — here is the current state.", code="conflict"
        )
        self.current = current


@dataclass(frozen=True)
class Outcome:
    """What one applied event did: its effects in words, and whether it ended the duel."""

    lines: list[str]
    finished: bool


def seat_entrants(duel: Duel) -> dict[str, Any]:
    return {"A": duel.seat_a, "B": duel.seat_b}


def record_of(duel: Duel, events: list[dict] | None = None) -> dict:
    """The duel's record in the RULES.md section 8 format (active events only)."""
    if events is None:
        events = list(
            duel.events.filter(undone_at=None).order_by("seq").values_list("payload", flat=True)
        )
    return {
        "format": RECORD_FORMAT,
        "version": 1,
        "ruleset": duel.ruleset,
        "variants": list(duel.variants),
        "options": dict(duel.options),
        "seats": {seat: entrant.name for seat, entrant in seat_entrants(duel).items()},
        "events": events,
    }


def engine_of(duel: Duel) -> EngineDuel:
    """Replay the active events: the cached state is never trusted for a new move."""
    return EngineDuel.from_record(record_of(duel))


# Creating and naming -------------------------------------------------------------------------


def create_duel(
    *,
    tournament: Any,
    kind: str,
    ruleset: str,
    variants: Iterable[str],
    options: Mapping[str, Any],
    round: Any = None,
    stage: str = "",
    seat_a_id: int | None = None,
    seat_b_id: int | None = None,
    group_a_id: int | None = None,
    group_b_id: int | None = None,
    table: str = "",
    referee: Any = None,
    replay_of: Duel | None = None,
    status: str = DuelStatus.READY,
) -> Duel:
    return Duel.objects.create(
        tournament=tournament,
        kind=kind,
        round=round,
        stage=stage,
        table=table,
        seat_a_id=seat_a_id,
        seat_b_id=seat_b_id,
        group_a_id=group_a_id,
        group_b_id=group_b_id,
        referee=referee,
        status=status,
        replay_of=replay_of,
        ruleset=ruleset,
        variants=list(variants),
        options=dict(options),
    )


def create_replay(duel: Duel) -> Duel:
    """A duel without a winner is replayed by the same players on the same seats."""
    return create_duel(
        tournament=duel.tournament,
        kind=DuelKind.REPLAY if duel.kind in (DuelKind.GROUP, DuelKind.REPLAY) else duel.kind,
        round=duel.round,
        stage=duel.stage,
        table=duel.table,
        seat_a_id=duel.seat_a_id,
        seat_b_id=duel.seat_b_id,
        group_a_id=duel.group_a_id,
        group_b_id=duel.group_b_id,
        referee=duel.referee,
        replay_of=duel,
        ruleset=duel.ruleset,
        variants=duel.variants,
        options=duel.options,
    )


def name_seats(
    duel: Duel, *, seat_a: Any, seat_b: Any, group_a: Any, group_b: Any, table: str
) -> Duel:
    """Replace the players of a duel that has not started; it is then ready."""
    if duel.seq > 0:
        raise ServiceError("The duel has started: its players can no longer be replaced.")
    fields = {
        "seat_a": seat_a,
        "seat_b": seat_b,
        "group_a": group_a,
        "group_b": group_b,
        "table": table,
        "status": DuelStatus.READY,
    }
    for key, value in fields.items():
        setattr(duel, key, value)
    duel.save(update_fields=list(fields))
    return duel


def clean_table(table: str | None) -> str:
    """A table's name, cleaned as every name is (core.names); empty means no table. Longer
    than the pages can show is refused, not cut. Tables are not unique: two duels may share one
    table, one after the other."""
    return clean_name(table, what="A table's name", max_length=TABLE_MAX, required=False)


def set_referee(duel: Duel, *, referee: Any, table: str | None = None) -> dict[str, Any]:
    """Give an open duel its referee (None: nobody) and, when `table` is given, its table.
    Returns what changed, for the audit log."""
    if duel.status not in (DuelStatus.PENDING, DuelStatus.READY, DuelStatus.RUNNING):
        raise ServiceError("This duel is over.")
    changed: dict[str, Any] = {"referee": referee.pk if referee else None}
    duel.referee = referee
    fields = ["referee"]
    if table is not None:
        table = clean_table(table)
        if table != duel.table:
            duel.table = table
            fields.append("table")
            changed["table"] = table
    duel.save(update_fields=fields)
    return changed


def call(duel: Duel, *, table: str, now: datetime) -> dict[str, Any]:
    """Staff call the duel's players to its table (issue 16): the table and the time are
    kept on the duel. Only a duel with both players, not yet started, can be called; calling
    again (another table, or the players are late) moves the time on."""
    if duel.status not in UNSTARTED_STATUSES:
        raise ServiceError(
            "Only a duel that has not started can be called to its table: this one is "
            f"{duel.get_status_display().lower()}."
        )
    if duel.seat_a_id is None or duel.seat_b_id is None:
        raise ServiceError("Both players must be named before the duel is called.")
    table = clean_table(table)
    if not table:
        raise ServiceError("Say which table the players are called to.")
    duel.table = table
    duel.called_at = now
    duel.save(update_fields=["table", "called_at"])
    return {"duel": duel.pk, "table": table, "called_at": now.isoformat()}


# Moves ----------------------------------------------------------------------------------------


# What a locked duel row comes with: its seats and referee (the console is drawn from it
# after a move) and its round (the first move's checks, the result's round).
LOCK_RELATIONS = ("seat_a", "seat_b", "round", "referee")


def lock(duel: Duel | int, *, related: tuple[str, ...] = LOCK_RELATIONS) -> Duel:
    """The duel row, locked, with `related` (the caller locked the tournament); after a move,
    the console is drawn from it. A `Duel` not yet read (only its key and tournament) is
    looked for in its tournament only: `Duel.DoesNotExist` otherwise."""
    if isinstance(duel, int):
        return Duel.objects.select_for_update(of=("self",)).select_related(*related).get(pk=duel)
    # The console's hot path: the same query, its SQL written once (duels/rows.py).
    return rows.locked_duel(duel.pk, duel.tournament_id, tuple(related))


def check_fresh(duel: Duel, expected_seq: int, expected_revision: int | None) -> None:
    """First, under the lock: a stale page is shown the current state, whatever else."""
    if expected_seq != duel.seq or (
        expected_revision is not None and expected_revision != duel.revision
    ):
        raise Conflict(duel.seq)


def check_open(duel: Duel) -> None:
    if duel.status not in OPEN_STATUSES:
        raise ServiceError(
            f"This duel is {duel.get_status_display().lower()}: it takes no more moves.",
            code="closed",
        )


def start(
    duel: Duel,
    *,
    referee: Any,
    starting_action_cards: Mapping[str, int] | None = None,
    deadline: datetime | None = None,
    now: datetime | None = None,
) -> None:
    """The first move is about to be applied: the duel runs, with its starting options."""
    if duel.referee_id is None:
        duel.referee = referee
    if starting_action_cards:
        duel.options = {**duel.options, "starting_action_cards": dict(starting_action_cards)}
    duel.status = DuelStatus.RUNNING
    duel.started_at = now or timezone.now()
    duel.deadline = deadline


def event_rows(duel: Duel) -> list[tuple]:
    """Every event row of the duel (`rows.ROW_FIELDS`), undone ones too, in the order they
    were entered."""
    return rows.event_rows(duel.pk)


def _append(
    duel: Duel, actor: Any, engine: EngineDuel, lines: list[str], intent: str = ""
) -> Outcome:
    duel.seq += 1
    duel.revision += 1
    payload, now = engine.record()["events"][-1], timezone.now()
    pk = rows.insert_event(duel, payload, lines, actor, now, intent)
    if hasattr(duel, "event_rows"):
        duel.event_rows.append((pk, duel.seq, payload, lines, now, None))  # rows.ROW_FIELDS
        duel.engine = engine  # the log replayed, the move applied: the console's answer reuses it
    duel.state = engine.state()
    if engine.finished:
        _finish(duel)
    # An ordinary move changes these three; the first move (`start`) and the last (`_finish`)
    # change more of the row, and save all of it.
    if engine.finished or duel.seq == 1:
        duel.save()
    else:
        rows.save_ordinary(duel)
    return Outcome(lines, engine.finished)


def apply_event(duel: Duel, actor: Any, event: Any, *, intent: str = "") -> Outcome:
    """Apply one move to a locked, open duel, keeping the key of the form that sent it
    (`intent`: see `entered_by_intent`). Refused moves change nothing."""
    check_open(duel)
    # One read of the log serves the engine (its active events) and, after the move, the
    # console's answer (`duel.event_rows`, the new row included): no second read.
    duel.event_rows = event_rows(duel)
    engine = EngineDuel.from_record(
        record_of(duel, events=[row[2] for row in duel.event_rows if row[5] is None])
    )
    try:
        effects = engine.apply(event)
    except EngineError as err:
        raise ServiceError(str(err), code="illegal") from None
    return _append(duel, actor, engine, engine.describe(effects) if effects else [], intent)


def entered_by_intent(duel: Duel, actor: Any, intent: str) -> DuelEvent | None:
    """The move this person already entered in this duel from the form keyed `intent` (the
    same form sent twice: a double tap, a retry after a lost answer), else None. The key is
    scoped to the duel and the actor: another person's key never matches."""
    if not intent or actor is None or getattr(actor, "pk", None) is None:
        return None
    return DuelEvent.objects.filter(duel=duel, created_by=actor, intent=intent).first()


def undone_by_intent(duel: Duel, actor: Any, intent: str) -> DuelEvent | None:
    """The move this person already undid in this duel from the form keyed `intent`."""
    if not intent or actor is None or getattr(actor, "pk", None) is None:
        return None
    return DuelEvent.objects.filter(duel=duel, undone_by=actor, undo_intent=intent).first()


def undo(duel: Duel, actor: Any, *, intent: str = "") -> None:
    """Undo the last move of a running duel; the row is kept, marked undone (with the key of
    the form that undid it: `undone_by_intent`)."""
    if duel.status != DuelStatus.RUNNING:
        raise ServiceError(
            "Only a running duel's moves can be undone; a finished result "
            "changes only by an organiser's correction.",
            code="closed",
        )
    if duel.seq == 0:
        raise ServiceError("There is no move to undo.", code="closed")
    last = duel.events.filter(undone_at=None, seq=duel.seq).get()
    last.undone_at = timezone.now()
    last.undone_by = actor
    last.undo_intent = intent
    last.save(update_fields=["undone_at", "undone_by", "undo_intent"])
    duel.seq -= 1
    duel.revision += 1
    duel.state = engine_of(duel).state()
    duel.save(update_fields=["seq", "revision", "state"])


def just_undone(duel: Duel) -> dict | None:
    """The move the duel's latest change undid, while nothing else has happened since (no
    move entered after it): its payload, else None.

    Only a referee's undo counts: a forfeit a withdrawal's undo took back (`take_back`,
    marked TAKEN_BACK) was never the referee's move to redo, and a forged "Redo" must not
    enter it again."""
    rows = event_rows(duel)
    undone = [row for row in rows if row[5] is not None]
    if undone:
        taken = set(
            DuelEvent.objects.filter(duel=duel, undo_intent=TAKEN_BACK).values_list("pk", flat=True)
        )
        undone = [row for row in undone if row[0] not in taken]
    if not undone:
        return None
    last = max(undone, key=lambda row: row[5])
    if last[5] < max(row[4] for row in rows):
        return None
    return last[2]


def forfeit(duel: Duel, actor: Any, seat: str, reason: str = "withdrawn") -> Outcome:
    """The absent player's duel ends as a forfeit, scored as a loss (a withdrawal, a walkover,
    a no-show ruled by the tournament)."""
    if duel.seq == 0:
        duel.status = DuelStatus.RUNNING
        duel.started_at = timezone.now()
    engine = engine_of(duel)
    engine.apply({"type": "forfeit", "seat": seat, "reason": reason})
    return _append(duel, actor, engine, [f"{engine.seats[seat]} is absent and forfeits"])


def mark_warned(duel: Duel, now: datetime) -> bool:
    """The referee's time-limit warning goes out once, in the last minutes."""
    if duel.status != DuelStatus.RUNNING or duel.deadline is None or duel.warned_at:
        return False
    duel.warned_at = now
    duel.save(update_fields=["warned_at"])
    return True


def time_limit(duel: Duel, now: datetime) -> Outcome | None:
    """At the deadline the engine records `time_limit` itself, unless the duel has ended."""
    if duel.status != DuelStatus.RUNNING or duel.deadline is None or now < duel.deadline:
        return None
    engine = engine_of(duel)
    effects = engine.apply({"type": "time_limit", "reason": "deadline"})
    return _append(duel, None, engine, ["Time is up.", *engine.describe(effects)])


def _finish(duel: Duel) -> None:
    state = duel.state
    seats = seat_entrants(duel)
    winner = seats[state["winner"]] if state["winner"] else None
    loser = seats["B" if state["winner"] == "A" else "A"] if winner else None
    duel.status = DuelStatus.FINISHED
    duel.finished_at = timezone.now()
    duel.save()  # the standings rebuilt next read the finished duel from the database
    Result.objects.create(
        duel=duel,
        winner=winner,
        loser=loser,
        finish=state["finish"],
        table_winner=winner,
        table_finish=state["finish"],
    )


# Closing without result, and rulings ----------------------------------------------------------


def void(duel_ids: Iterable[int | None]) -> int:
    """Mark duels void (kept, shown struck through): no longer called for, or a voided result.
    Returns how many changed."""
    ids = [pk for pk in duel_ids if pk]
    return (
        Duel.objects.filter(pk__in=ids)
        .exclude(status=DuelStatus.VOID)
        .update(status=DuelStatus.VOID)
    )


def abandon(duel_ids: Iterable[int], reason: str) -> int:
    """Close open duels as abandoned, without result; `reason` tells their referee why."""
    return Duel.objects.filter(
        pk__in=list(duel_ids),
        status__in=[
            DuelStatus.PENDING,
            DuelStatus.READY,
            DuelStatus.RUNNING,
        ],
    ).update(status=DuelStatus.ABANDONED, closed_reason=reason[:200], finished_at=timezone.now())


def override_result(
    duel: Duel, *, winner_seat: str | None, finish: str, reason: str, actor: Any
) -> Result:
    """A ruling on a finished duel: the result that counts, the record left as played."""
    if duel.status != DuelStatus.FINISHED:
        raise ServiceError("Only a finished duel's result can be corrected.")
    if winner_seat not in ("A", "B", None):
        raise ServiceError("The winner is seat A, seat B or nobody.")
    result = duel.result
    seats = seat_entrants(duel)
    winner = seats[winner_seat] if winner_seat else None
    if winner == result.winner:
        raise ServiceError("That is already the result.")
    result.winner = winner
    result.loser = seats["B" if winner_seat == "A" else "A"] if winner else None
    result.finish = finish
    result.corrected = True
    result.correction_reason = reason
    result.corrected_by = actor
    result.save()
    return result


# Taking back a mistaken withdrawal (TOURNAMENT.md "Corrections") ------------------------------


# What `take_back` writes where a referee's undo writes its form's key: a form's key is
# URL-safe base64 (duels.forms.new_intent) and never holds a space, so no form matches it.
TAKEN_BACK = "taken back"


def take_back(duel: Duel, actor: Any, *, seq: int, status: str) -> bool:
    """The duel goes on where it stood before a forfeit (or walkover) that is now undone: the
    events after `seq` are marked undone (kept, never deleted), its status is `status` again,
    and the result the forfeit gave is gone (a duel that goes on has none yet; the audit log
    keeps what it was). The caller checked that only forfeits came after `seq`. Returns
    whether anything changed."""
    later = list(duel.events.filter(undone_at=None, seq__gt=seq))
    if not later and duel.status == status:
        return False
    now = timezone.now()
    for event in later:
        event.undone_at = now
        event.undone_by = actor
        event.undo_intent = TAKEN_BACK  # not a referee's undo: nothing `just_undone` offers
        event.save(update_fields=["undone_at", "undone_by", "undo_intent"])
    Result.objects.filter(duel=duel).delete()
    duel.seq = seq
    duel.revision += 1  # every open page of the duel is stale: it shows the duel as it stands
    duel.status = status
    duel.finished_at = None
    if status != DuelStatus.RUNNING:
        duel.started_at = None
    duel.state = engine_of(duel).state() if status == DuelStatus.RUNNING else None
    duel.save(update_fields=["seq", "revision", "status", "finished_at", "started_at", "state"])
    return True


def restore(duel_ids: Mapping[int, str]) -> int:
    """Duels voided by a change now taken back (a nomination cleared by a withdrawal) are
    named again: each back to the status it had. Returns how many changed."""
    changed = 0
    for pk, status in duel_ids.items():
        changed += Duel.objects.filter(pk=pk, status=DuelStatus.VOID).update(status=status)
    return changed
