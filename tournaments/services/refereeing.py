"""Refereeing a tournament duel from the console: a move, an undo, an ending, the referee and
table, the time limit. Each service locks the tournament, checks what the tournament says
(who may referee, whether the duel may start now), calls `duels.services` for the duel's own
rows and, when the duel finishes, applies the result through `lifecycle` — one transaction.

Lock order, as everywhere: the tournament row, then the duel row.
"""

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.permissions import Action, can
from core.errors import ServiceError
from duels import services as duels
from duels.models import Duel, DuelKind, DuelStatus
from duels.selectors import entered_by, last_mover, player_ids
from play import clock
from play.adapters.base import Viewer

from .. import presentation
from ..models import AuditEntry, EntrantStatus, Phase, RoundStatus, Tournament
from . import audit, lifecycle
from .groups import round_one_blocked
from .schedule import zone_of
from .setup import lock, lock_key
from .shared_cards import deal_gifts

WARNING_BEFORE = timedelta(minutes=5)
#: A referee's move, undo or paper result sent for an online duel.
ONLINE_DUEL = gettext_lazy(
    "This duel is played online by its two players: a referee watches it from its page and "
    "may end it there."
)
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
                _("You play in this duel: another referee must run it."), code="forbidden"
            )
        raise ServiceError(
            _("Only the tournament's referees and organisers run duels."), code="forbidden"
        )
    if (
        duel.referee_id
        and duel.referee_id != actor.pk
        and not can(actor, Action.CORRECT_RESULTS, tournament, players=players)
    ):
        raise ServiceError(
            _("This duel is assigned to %(referee)s.") % {"referee": duel.referee}, code="forbidden"
        )


def check_start(tournament: Tournament, duel: Duel) -> None:
    """May this duel start now? Its phase, its round, its players."""
    if tournament.phase not in PLAYED_IN.get(duel.kind, ()):
        if duel.kind == DuelKind.REPLAY or tournament.phase in (Phase.COMPLETE, Phase.CANCELLED):
            raise ServiceError(
                _("The tournament is %(phase)s: this duel can no longer be played.")
                % {"phase": tournament.get_phase_display().lower()}
            )
        raise ServiceError(
            _(
                "This duel is played during the %(duel_phase)s, and the tournament is in the "
                "%(phase)s."
            )
            % {
                "duel_phase": dict(Phase.choices)[PLAYED_IN[duel.kind][0]].lower(),
                "phase": tournament.get_phase_display().lower(),
            }
        )
    if duel.kind == DuelKind.GROUP:
        if not lifecycle.group_phase_open(tournament):
            raise ServiceError(_("The group phase is over: this round will not be played."))
        if duel.round.status != RoundStatus.OPEN:
            raise ServiceError(
                _(
                    "Round %(number)s is not open: round %(previous)s's replay must be decided "
                    "first."
                )
                % {"number": duel.round.number, "previous": duel.round.number - 1}
            )
    for entrant, group_id in ((duel.seat_a, duel.group_a_id), (duel.seat_b, duel.group_b_id)):
        entrant.refresh_from_db(fields=["status", "group"])
        # A round's duel is played by active members of the groups they represent; a replay
        # by the same two players for the same groups, wherever they stand now.
        if duel.kind == DuelKind.GROUP and (
            entrant.status != EntrantStatus.ACTIVE or entrant.group_id != group_id
        ):
            raise ServiceError(
                _(
                    "%(name)s is no longer an active member of the group they represent: name "
                    "another representative."
                )
                % {"name": entrant.name}
            )
        if entrant.status != EntrantStatus.ACTIVE:
            raise ServiceError(
                _("%(name)s is no longer an active player.") % {"name": entrant.name}
            )
    first_round = duel.kind == DuelKind.GROUP and duel.round.number == 1
    if first_round and (blocked := round_one_blocked(tournament)):
        raise ServiceError(blocked)


def _start(tournament: Tournament, duel: Duel, actor: Any) -> None:
    """First move: check the duel may start, deal shared cards, start the clock."""
    check_start(tournament, duel)
    gifts = deal_gifts(duel) if tournament.shared_cards and duel.kind == DuelKind.GROUP else {}
    now = timezone.now()
    deadline = (
        now + timedelta(minutes=tournament.duel_time_limit_minutes)
        if tournament.duel_time_limit_minutes
        else None
    )
    # The deadline is the game's, kept by the one clock (play.clock, `clock_keeper` below);
    # the warning before it by beat (tournaments.tasks.keep_time) and the console's polls.
    # A referee's first move in an unassigned duel makes it theirs; an organiser's never does
    # (taking a duel is an explicit, confirmed choice: `take_duel`), so a referee about to
    # run it is not turned read-only by an organiser's tap.
    taker = None if _organiser(tournament, actor, duel) else actor
    duels.start(duel, referee=taker, starting_action_cards=gifts, deadline=deadline, now=now)


def _organiser(tournament: Tournament, actor: Any, duel: Duel) -> bool:
    return actor is not None and can(
        actor, Action.CORRECT_RESULTS, tournament, players=player_ids(duel)
    )


class AlreadyRecorded(ServiceError):
    """A write already recorded: nothing changed, and the message says what was recorded, by
    whom, when. One rule for every form (DESIGN.md, docs/architecture.md):

    - `repeat=True`, code "repeat": the same key again (the same device retrying, a double
      tap). Its answer is the stored outcome: what the first send was answered, with these
      words (a form's redirect to its page; the console as it is).
    - `repeat=False`, code "recorded": another key for something already recorded (a second
      referee's copy of the sheet, a second organiser's ruling). Refused, 409."""

    def __init__(self, message: str, *, repeat: bool) -> None:
        super().__init__(message, code="repeat" if repeat else "recorded")


@transaction.atomic
def append_event(
    duel: Duel,
    actor: Any,
    event: Any,
    expected_seq: int,
    expected_revision: int | None = None,
    *,
    intent: str = "",
) -> list[str]:
    """Apply one move. Returns what happened, in words. Refused moves change nothing."""
    return _play(duel, actor, event, expected_seq, expected_revision, intent)[1]


@transaction.atomic
def play_move(
    duel: Duel,
    actor: Any,
    event: Any,
    expected_seq: int,
    expected_revision: int | None = None,
    *,
    intent: str = "",
) -> tuple[Duel, list[str]]:
    """`append_event` for the console: also returns the duel row as the move left it (locked,
    with its seats and referee, and `event_rows`, the log with the new row), from which the
    console's answer is drawn without reading the duel or its log again.

    `intent` is the key of the form that sent the move: the same form sent again is refused
    as `AlreadyRecorded` (its stored outcome), never as someone else's move."""
    return _play(duel, actor, event, expected_seq, expected_revision, intent)


@transaction.atomic
def redo_undone(
    duel: Duel,
    actor: Any,
    expected_seq: int,
    expected_revision: int | None = None,
    *,
    intent: str = "",
) -> tuple[Duel, list[str]]:
    """Enter again the move just undone ("Undone — Redo"), through the same checks as any
    move, and only while nothing else has happened since: the page's seq and revision are
    those the undo left, and the duel's latest change is that undo."""
    tournament, locked = _locked(duel)
    _check_policy(tournament, locked, actor, expected_seq, expected_revision)
    if not _fresh(locked, expected_seq, expected_revision):
        # A repeat of the redo is its key's (the move it entered); anything else on a stale
        # page is a conflict.
        done = duels.recorded_by_key(locked, actor, intent)
        if done is not None:
            raise _repeated(tournament, locked, done)
        raise duels.Conflict(locked.seq)
    payload = duels.just_undone(locked)
    if payload is None:
        raise ServiceError(
            _("Nothing to redo: a move was entered after the undo."), code="conflict"
        )
    return _play(duel, actor, payload, expected_seq, expected_revision, intent)


def _check_policy(
    tournament: Tournament,
    duel: Duel,
    actor: Any,
    expected_seq: int,
    expected_revision: int | None,
) -> None:
    """Who may, first. A referee refused only because the duel became someone else's while
    their page was open (a lost race for an unassigned duel) hears the conflict instead: the
    page is stale, and that is what they must hear. An online duel takes no referee's move
    (ONLINE.md 6: its players play it; a referee watches and may end it, `online.end_duel`)."""
    if duel.online:
        raise ServiceError(ONLINE_DUEL, code="forbidden")
    try:
        check_referee(tournament, duel, actor)
    except ServiceError:
        stale = expected_seq != duel.seq or (
            expected_revision is not None and expected_revision != duel.revision
        )
        if stale and can(actor, Action.REFEREE_DUELS, tournament, players=player_ids(duel)):
            raise duels.Conflict(duel.seq) from None
        raise


def _fresh(duel: Duel, expected_seq: int, expected_revision: int | None) -> bool:
    return expected_seq == duel.seq and (
        expected_revision is None or expected_revision == duel.revision
    )


def _seen(duel: Duel, expected_seq: int, expected_revision: int | None) -> int:
    """The revision the page saw, for the table core's check. A page is fresh only if both
    its sequence number and its revision are the duel's (a form without a revision, from an
    older page: its sequence number alone); otherwise none (-1), so that the core looks the
    form's key up (a repeat) or refuses it as stale — never a move that skips the start."""
    if expected_seq != duel.seq:
        return -1
    return duel.revision if expected_revision is None else expected_revision


def _repeated(tournament: Tournament, duel: Duel, done: duels.Repeat) -> AlreadyRecorded:
    """The same form sent again: its stored outcome, "already entered, nothing changed"."""
    if not done.rows:
        return AlreadyRecorded(presentation.already_entered(duel.seq, "a move"), repeat=True)
    pk, seq, _kind, summary, _when, undone_at = done.rows[-1]
    text = ". ".join(summary) or "a move"
    if done.undo:
        return AlreadyRecorded(presentation.already_undone(seq, text), repeat=True)
    if duel.status == DuelStatus.FINISHED and seq == duel.seq and undone_at is None:
        return recorded(tournament, duel, repeat=True)
    return AlreadyRecorded(presentation.already_entered(seq, text), repeat=True)


def venue_time(tournament: Tournament, at: datetime) -> str:
    """A time of the night as the venue reads it ("21:14", in the tournament's zone: the
    schedule's one reading of it, `zone_of`)."""
    return presentation.clock_time(timezone.localtime(at, zone_of(tournament)))


def recorded(tournament: Tournament, duel: Duel, *, repeat: bool = False) -> AlreadyRecorded:
    """The refusal of a second result for a finished duel, in words: "Group round 9 was
    already recorded by Olga at 21:14: Ada won. Nothing changed." Who is whoever entered
    the finishing event (a paper sheet's adjudication, a console's last move)."""
    duel = Duel.objects.select_related("round", "result__winner").get(pk=duel.pk)
    result = getattr(duel, "result", None)
    at = result.recorded_at if result is not None else (duel.finished_at or timezone.now())
    winner = result.winner.name if result is not None and result.winner else None
    return AlreadyRecorded(
        presentation.already_recorded(
            presentation.duel_title(duel),
            presentation.person_label(last_mover(duel)),
            venue_time(tournament, at),
            presentation.outcome_text(winner),
        ),
        repeat=repeat,
    )


# What a move needs of the locked duel row: its seats and referee (checks, and the console's
# answer) and its game (the table core's write path). Its round is read only by a first or a
# finishing move (`check_start`, `lifecycle.after_result`), which read it then; each join costs
# every move (docs/performance.md).
MOVE_RELATIONS = ("seat_a", "seat_b", "referee", "game")


def _play(
    duel: Duel,
    actor: Any,
    event: Any,
    expected_seq: int,
    expected_revision: int | None,
    intent: str = "",
) -> tuple[Duel, list[str]]:
    # The hot path of the console: the tournament row is locked, not read again. An ordinary
    # move reads none of its fields (the permission check uses the roles the request read);
    # a first or a finishing move reads it again under the lock before anything that does.
    # The checks in DESIGN.md's order: lock, who may, the form's key, the revision, apply.
    tournament = duel.tournament
    lock_key(tournament)
    duel = duels.lock(duel, related=MOVE_RELATIONS)
    duel.tournament = tournament

    def check() -> None:
        _check_policy(tournament, duel, actor, expected_seq, expected_revision)

    seen = _seen(duel, expected_seq, expected_revision)
    if duel.seq == 0 and _fresh(duel, expected_seq, expected_revision):
        # The first move: nothing is recorded yet (no key to find), the page is fresh; the
        # duel starts, and its game is dealt, before the move goes through the core's path.
        check()
        duels.check_open(duel)
        tournament.refresh_from_db()
        _start(tournament, duel, actor)
        seen = duel.revision
    try:
        outcome = duels.apply_event(
            duel, actor, event, intent=intent, seen_revision=seen, check=check
        )
    except duels.Repeated as repeat:
        raise _repeated(tournament, duel, repeat.done) from None
    if outcome.finished:
        if duel.seq > 1:
            tournament.refresh_from_db()
        lifecycle.after_result(tournament, duel, actor)
    return duel, outcome.lines


@transaction.atomic
def undo_last_event(
    duel: Duel,
    actor: Any,
    expected_seq: int,
    expected_revision: int | None = None,
    *,
    intent: str = "",
) -> None:
    """Undo the last move of a running duel; the row is kept, marked undone. The same undo
    sent again (its key) is told as done, nothing undone twice."""
    tournament, duel = _locked(duel)
    try:
        duels.undo(
            duel,
            actor,
            intent=intent,
            seen_revision=_seen(duel, expected_seq, expected_revision),
            check=lambda: _check_policy(tournament, duel, actor, expected_seq, expected_revision),
        )
    except duels.Repeated as repeat:
        raise _repeated(tournament, duel, repeat.done) from None


@transaction.atomic
def assign_referee(
    duel: Duel, actor: Any, referee: Any, table: str | None = None, *, confirm: bool = False
) -> Duel:
    """Organisers assign any referee, and a table when ``table`` is given (any open duel:
    group, tie-break or playoff, running ones too); a referee takes an unassigned duel for
    themselves.

    Moving a **running** duel away from the referee running it is taking it: it needs
    `confirm`, is audit-logged as `duel_taken` (with the referee it was taken from), and that
    referee's console says who took it. Given back the same way."""
    tournament, duel = _locked(duel)
    organiser = can(actor, Action.MANAGE_REFEREES, tournament)
    if not organiser and (referee != actor or duel.referee_id not in (None, actor.pk)):
        raise ServiceError(
            _("Referees take unassigned duels for themselves; organisers assign the others."),
            code="forbidden",
        )
    if table is not None and not organiser:
        raise ServiceError(_("Only organisers choose tables."), code="forbidden")
    if referee is not None and not can(
        referee, Action.REFEREE_DUELS, tournament, players=player_ids(duel)
    ):
        raise ServiceError(
            _("%(referee)s cannot referee this duel (not a referee here, or one of its players).")
            % {"referee": referee}
        )
    previous = duel.referee
    new_pk = referee.pk if referee is not None else None
    taken = duel.status == DuelStatus.RUNNING and previous is not None and previous.pk != new_pk
    if taken and not confirm:
        raise ServiceError(
            presentation.take_needs_confirm(
                presentation.duel_title(duel), presentation.person_label(previous)
            )
        )
    changed = duels.set_referee(duel, referee=referee, table=table)
    if taken:
        audit.record(tournament, actor, "duel_taken", duel=duel.pk, previous=previous.pk, **changed)
    else:
        audit.record(tournament, actor, "referee_assigned", duel=duel.pk, **changed)
    if "table" in changed:
        audit.bump_version(tournament)  # public pages show where a duel is played
    return duel


@transaction.atomic
def take_duel(duel: Duel, actor: Any, *, confirm: bool) -> Duel:
    """An organiser takes an open duel to run it themselves (the console's "Take this duel"):
    never by a move, always confirmed when someone else runs it, audit-logged."""
    tournament, locked = _locked(duel)
    if not _organiser(tournament, actor, locked):
        raise ServiceError(_("Only organisers take a duel from its referee."), code="forbidden")
    if locked.referee_id == actor.pk:
        raise ServiceError(_("This duel is already yours."))
    duels.check_open(locked)
    return assign_referee(locked, actor, actor, confirm=confirm)


def taken_from(duel: Duel, user: Any) -> str | None:
    """What the referee a running duel was taken from reads on its console ("ada took this
    duel from you at 21:14 …"), or None when it was not taken from `user`."""
    if user is None or duel.referee_id in (None, user.pk):
        return None
    entry = (
        AuditEntry.objects.filter(
            tournament_id=duel.tournament_id, action="duel_taken", detail__duel=duel.pk
        )
        .select_related("actor")
        .order_by("-pk")
        .first()
    )
    # Not when `user` gave it away themselves (an organiser handing back a duel they took):
    # nobody took it from them.
    if entry is None or entry.detail.get("previous") != user.pk or entry.actor_id == user.pk:
        return None
    tournament = Tournament.objects.only("time_zone").get(pk=duel.tournament_id)
    return presentation.duel_taken_words(
        presentation.person_label(entry.actor), venue_time(tournament, entry.created_at)
    )


@transaction.atomic
def call_duel(duel: Duel, actor: Any, table: str) -> Duel:
    """Call a duel's players to its table (issue 16): whoever may give a duel its table
    (TOURNAMENT.md: referees "give the duel a table"; organisers and co-organisers). The
    call is audit-logged and shows on the big screen and the players' pages at once."""
    from ..tasks import enqueue_on_commit, notify_duel_called

    tournament, duel = _locked(duel)
    if not can(actor, Action.NAME_REPRESENTATIVES, tournament):
        raise ServiceError(_("Only referees and organisers call duels."), code="forbidden")
    if tournament.phase in (Phase.COMPLETE, Phase.CANCELLED):
        raise ServiceError(
            _("The tournament is %(phase)s.") % {"phase": tournament.get_phase_display().lower()}
        )
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


def clock_keeper(game_id: int) -> clock.Keeper | None:
    """The tournament's part when the one clock calls time on a duel's game at its deadline
    (`play.clock.keep`, in TournamentsConfig.ready; the engine records `time_limit`, "Time is
    up."): the tournament row locked first, then the duel's, as for every write of a duel;
    the policy, only while the duel runs (`duels.check_clock`); and, in the same
    transaction, the duel row settled and its result applied (`lifecycle.after_result`), as
    after a move. None for a game that is no tournament duel's."""
    found = Duel.objects.filter(game_id=game_id).select_related("tournament").first()
    if found is None:
        return None
    held: dict[str, Any] = {}

    def lock_first() -> Any:
        held["tournament"], held["duel"] = _locked(found)
        return held["duel"].game  # read under the duel's lock, which serialises its writes

    def settle(outcome: Any) -> None:
        tournament, duel = held["tournament"], held["duel"]
        if duels.clock_settled(duel, outcome):
            lifecycle.after_result(tournament, duel, None)
        elif duels.is_stopped(duel):
            # Both players abandoned (ONLINE.md 6): a ruling, or the app's void.
            from .online_rulings import after_stop

            after_stop(tournament, duel)

    return clock.Keeper(
        policy=lambda game, actor, command: duels.check_clock(held["duel"]),
        lock_first=lock_first,
        viewer=Viewer("referee"),
        settle=settle,
    )


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
    expected_revision: int | None = None,
    intent: str = "",
    note: str = "",
) -> Duel:
    """A whole duel played on paper (a device failed, or the venue had none), recorded in one
    step: for a group round, its representatives are named (or replaced) first; then the duel
    starts as on the console (its phase, round and players checked, shared cards dealt) and
    ends with one `adjudicate` event whose reason is "played on paper" (RULES.md section 8).
    `note` is the staff's own word on it, kept in the audit log (private).

    Every sheet names what it is for (DESIGN.md): the round's form its round number, and the
    duel it was drawn for when one existed (`duel_id`); a duel's own form its duel and
    `expected_revision`; both an `intent` key. A sheet for a round or a duel already decided
    is refused with what was recorded (`AlreadyRecorded`), never applied to the next round.

    Who may: whoever may referee the duel (`check_referee`): organisers, co-organisers, and a
    referee for an unassigned duel or one assigned to them (TOURNAMENT.md: a referee may
    "record … an adjudication"); never one of its players.
    """
    tournament = lock(tournament)
    if round_number is None and duel_id is None:
        raise ServiceError(_("Choose a round or a duel."))
    # Who may, first (the answer to a repeat names who recorded what: staff only).
    if not can(actor, Action.REFEREE_DUELS, tournament):
        raise ServiceError(
            _("Only the tournament's referees and organisers run duels."), code="forbidden"
        )
    # The form's key: this person already sent this very sheet.
    if intent and (done := entered_by(tournament, actor, intent)) is not None:
        raise recorded(tournament, done, repeat=True)
    drawn = None
    if duel_id is not None:
        drawn = (
            Duel.objects.filter(tournament=tournament, pk=duel_id).select_related("round").first()
        )
        if drawn is None:
            raise ServiceError(presentation.paper_duel_not_here())
        if round_number is not None and (drawn.round is None or drawn.round.number != round_number):
            raise ServiceError(presentation.paper_duel_not_of_round(round_number))
        _check_not_decided(tournament, drawn)
    if round_number is not None:
        _check_round_open(tournament, round_number)
        duel = _paper_round_duel(tournament, actor, round_number, first_id, second_id)
    else:
        duel = drawn
    tournament, duel = _locked(duel)
    check_referee(tournament, duel, actor)
    if duel.online:
        raise ServiceError(ONLINE_DUEL, code="forbidden")
    if expected_revision is not None and expected_revision != duel.revision:
        _check_not_decided(tournament, duel)
        raise ServiceError(
            presentation.paper_moves_since(presentation.duel_title(duel)), code="conflict"
        )
    duels.check_open(duel)
    if duel.seq:
        raise ServiceError(presentation.paper_started_on_console())
    seat = {duel.seat_a_id: "A", duel.seat_b_id: "B"}.get(winner_id) if winner_id else None
    if seat is None:
        raise ServiceError(_("The winner must be one of the duel's two players."))
    _start(tournament, duel, actor)
    outcome = duels.apply_event(
        duel, actor, {"type": "adjudicate", "winner": seat, "reason": PAPER_REASON}, intent=intent
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


def _check_not_decided(tournament: Tournament, duel: Duel) -> None:
    """The duel a sheet was drawn for has a result already, or is closed: nothing to record."""
    if duel.status == DuelStatus.FINISHED:
        raise recorded(tournament, duel)
    if duel.status in (DuelStatus.VOID, DuelStatus.ABANDONED):
        raise ServiceError(
            presentation.not_open_words(presentation.duel_title(duel), duel.get_status_display()),
            code="conflict",
        )


def _check_round_open(tournament: Tournament, round_number: int) -> None:
    """A round's sheet is for that round only: a decided round answers with its result (a
    second copy of the sheet), never by recording the next round."""
    rnd = tournament.rounds.filter(number=round_number).first()
    if rnd is None:
        raise ServiceError(_("There is no group round %(number)s.") % {"number": round_number})
    if rnd.status == RoundStatus.OPEN:
        return
    title = presentation.title_of(DuelKind.GROUP, "", round_number)
    if rnd.status == RoundStatus.DECIDED:
        decided = (
            Duel.objects.filter(round=rnd, status=DuelStatus.FINISHED, result__winner__isnull=False)
            .order_by("-finished_at", "-pk")
            .first()
        )
        if decided is not None:
            raise recorded(tournament, decided)
    raise ServiceError(
        presentation.not_open_words(title, rnd.get_status_display()), code="conflict"
    )


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
            status__in=lifecycle.OPEN,
        )
        .order_by("pk")
        .first()
    )
    if first_id is None or second_id is None:
        if current is None:
            raise ServiceError(_("Name both representatives."))
        return current
    if current is not None and current.kind == DuelKind.REPLAY:
        if {first_id, second_id} != {current.seat_a_id, current.seat_b_id}:
            raise ServiceError(_("A replay is played by the same players on the same seats."))
        return current
    table = current.table if current is not None else ""
    return name_representatives(tournament, actor, round_number, first_id, second_id, table)
