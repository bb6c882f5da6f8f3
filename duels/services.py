"""A refereed duel's life, and the only writer of `Duel` and `Result` rows; its moves go
through the table core's one write path (`play.services`), as a game of the refereed Split UNO
adapter dealt at its first move (`Duel.game`), which keeps its log, revision and form keys.

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
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError
from core.names import clean_name
from games.split_uno import Duel as EngineDuel
from play import services as play
from play import words as play_words
from play.adapters.base import Command, Viewer
from play.adapters.split_uno_dealt import ADJUDICATE, FORFEIT
from play.adapters.split_uno_dealt import record as dealt_record
from play.adapters.split_uno_refereed import KIND as REFEREED
from play.errors import Refused as Illegal
from play.errors import Stale
from play.models import GameEvent, HolderKind, Intent
from play.selectors import events_of, view_of
from play.selectors import restore as restore_game

from . import rows, words
from .models import Duel, DuelKind, DuelStatus, Result

RECORD_FORMAT = "split-uno-duel"
# A duel that takes moves: its players are named (ready) or it is under way. Narrower than a
# duel not over yet (pending too), which the tournament calls `lifecycle.OPEN`: a pending duel
# waits for its players and must refuse a move.
OPEN_STATUSES = (DuelStatus.READY, DuelStatus.RUNNING)
UNSTARTED_STATUSES = (DuelStatus.PENDING, DuelStatus.READY)
SEATS = ("A", "B")
TABLE_MAX = 40
#: The table core's adapter of an online duel (ONLINE.md 6): cards dealt by the app.
DEALT = "split_uno_dealt"
#: Everyone's view of an online duel: what the duel row caches, and its referee sees.
PUBLIC = Viewer("public")
#: ONLINE.md 6: a player of an online duel not ready this long after both players are named
#: (or the duel is called) forfeits, unless the organiser extends the wait.
READY_WAIT = timedelta(minutes=5)


class Conflict(ServiceError):
    """The page showed an older sequence number: someone else entered a move first."""

    def __init__(self, current: int) -> None:
        super().__init__(
            _("Someone else entered a move — here is the current state."), code="conflict"
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
    """The duel's record in the RULES.md section 8 format (active events only). An online
    duel's is its dealt game's engine events, every one public (ONLINE.md 6: an ordinary
    record that replays with the command line)."""
    if events is None and is_dealt(duel):
        return dealt_record(restore_game(duel.game).table)
    if events is None:
        events = [row[2] for row in event_rows(duel) if row[5] is None]
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
    online: bool | None = None,
) -> Duel:
    """A new duel; ``online`` (ONLINE.md 6) defaults to its tournament's setting."""
    if online is None:
        online = bool(getattr(tournament, "online_duels", False))
    named = online and seat_a_id is not None and seat_b_id is not None
    return Duel.objects.create(
        online=online,
        # Both players named: the wait for them to be ready starts (a drawn duel's replay
        # opens at once, its 5 minutes from the draw).
        ready_by=timezone.now() + READY_WAIT if named else None,
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
        online=duel.online,
    )


def name_seats(
    duel: Duel, *, seat_a: Any, seat_b: Any, group_a: Any, group_b: Any, table: str
) -> Duel:
    """Replace the players of a duel that has not started; it is then ready. An online duel
    has started once it is dealt (both players ready), before its first move."""
    if duel.seq > 0 or is_dealt(duel):
        raise ServiceError(_("The duel has started: its players can no longer be replaced."))
    if duel.online and (duel.ready_a or duel.ready_b):
        # A player said "I'm ready" (ONLINE.md 6): replacing the players would throw that
        # away; the other is a no-show at the deadline, unless the wait is extended.
        ready = duel.seat_a if duel.ready_a else duel.seat_b
        raise ServiceError(
            _(
                "%(name)s is ready to play this duel online: its players can no longer be "
                "replaced. Extend the wait, or switch the duel to a table."
            )
            % {"name": ready.name}
        )
    fields = {
        "seat_a": seat_a,
        "seat_b": seat_b,
        "group_a": group_a,
        "group_b": group_b,
        "table": table,
        "status": DuelStatus.READY,
    }
    if duel.online:
        # New players, a new wait (ONLINE.md 6: 5 minutes from both players named).
        fields |= {"ready_a": None, "ready_b": None, "ready_by": timezone.now() + READY_WAIT}
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
        raise ServiceError(_("This duel is over."))
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
            _(
                "Only a duel that has not started can be called to its table: this one is "
                "%(status)s."
            )
            % {"status": duel.get_status_display().lower()}
        )
    if duel.seat_a_id is None or duel.seat_b_id is None:
        raise ServiceError(_("Both players must be named before the duel is called."))
    table = clean_table(table)
    if not table:
        raise ServiceError(_("Say which table the players are called to."))
    duel.table = table
    duel.called_at = now
    duel.save(update_fields=["table", "called_at"])
    return {"duel": duel.pk, "table": table, "called_at": now.isoformat()}


# Moves ----------------------------------------------------------------------------------------


# What a locked duel row comes with: its seats and referee (the console is drawn from it
# after a move), its round (the first move's checks, the result's round) and its game (read,
# not locked: the duel's lock serialises its writes).
LOCK_RELATIONS = ("seat_a", "seat_b", "round", "referee", "game")


def lock(duel: Duel | int, *, related: tuple[str, ...] = LOCK_RELATIONS) -> Duel:
    """The duel row, locked, with `related` (the caller locked the tournament); after a move,
    the console is drawn from it. A `Duel` not yet read (only its key and tournament) is
    looked for in its tournament only: `Duel.DoesNotExist` otherwise."""
    if isinstance(duel, int):
        return Duel.objects.select_for_update(of=("self",)).select_related(*related).get(pk=duel)
    # The console's hot path: the same query, its SQL written once (duels/rows.py).
    return rows.locked_duel(duel.pk, duel.tournament_id, tuple(related))


def check_open(duel: Duel) -> None:
    if duel.status not in OPEN_STATUSES:
        raise ServiceError(
            _("This duel is %(status)s: it takes no more moves.")
            % {"status": duel.get_status_display().lower()},
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
    """The first move is about to be applied: the duel runs, with its starting options and its
    time limit (`deadline`, None for none), which its game keeps for the one clock."""
    if duel.referee_id is None:
        duel.referee = referee
    if starting_action_cards:
        duel.options = {**duel.options, "starting_action_cards": dict(starting_action_cards)}
    duel.status = DuelStatus.RUNNING
    duel.started_at = now or timezone.now()
    _deal(duel, deadline)


def game_config(duel: Duel) -> dict[str, Any]:
    """The refereed adapter's config for the duel: its record's header."""
    return {
        "ruleset": duel.ruleset,
        "variants": list(duel.variants),
        "options": dict(duel.options),
        "names": {seat: entrant.name for seat, entrant in seat_entrants(duel).items()},
    }


def _deal(duel: Duel, deadline: datetime | None) -> None:
    """The duel's game on the table core, as it starts: dealt the first time (its seats held
    by the referee), or, for a duel taken back to before its first move, given the set-up of
    this start. The duel's revision is its game's from now on. `deadline` is its time limit:
    the game's own deadline (`Duel.deadline` reads it), which the one clock keeps
    (`play.clock`: the refereed adapter calls time there, and the tournament's keeper,
    `tournaments.services.refereeing.clock_keeper`, applies the result)."""
    if duel.game_id is None:
        holders = {seat: play.Holder(HolderKind.REFEREE) for seat in SEATS}
        duel.game = play.start_game(
            kind=REFEREED,
            config=game_config(duel),
            seats=SEATS,
            holders=holders,
            deadline=deadline,
        )
        duel.revision = duel.game.revision
        Duel.objects.filter(pk=duel.pk).update(game=duel.game, revision=duel.revision)
    else:
        config = game_config(duel)
        play.reconfigure(game_id=duel.game_id, config=config)
        # The game row in hand (joined under the duel's lock) is the one the move's write
        # path restores from: it must hold this start's set-up (its shared cards), not the
        # one it was read with.
        duel.game.config = config
        _set_deadline(duel, deadline)


def _set_deadline(duel: Duel, deadline: datetime | None) -> None:
    """The duel's game's own deadline, on the game row in hand too (a joined one)."""
    play.set_deadline(game_id=duel.game_id, deadline=deadline)
    duel.game.deadline = deadline


def actor_of(user: Any) -> play.Actor:
    """The table core's actor for a person (empty key: the automation, which keeps none)."""
    pk = getattr(user, "pk", None)
    return play.Actor(key=f"user:{pk}" if pk is not None else "", user=user)


def _command(event: Any) -> Command:
    """An engine event as the record writes it (a dict) as the adapter's command."""
    if isinstance(event, Command):
        return event
    if not isinstance(event, dict):
        raise ServiceError(_("That is not a move."), code="illegal")
    args = {k: v for k, v in event.items() if k != "type"}
    return Command(str(event.get("type", "")), None, args)


def event_rows(duel: Duel) -> list[tuple]:
    """Every move of the duel as a log row (pk, seq, payload, summary, created_at, undone_at),
    undone ones too, in the order they were entered (one query; none before the first)."""
    return rows_of(events_of(duel.game_id)) if duel.game_id else []


def rows_of(stored: list[Any]) -> list[tuple]:
    """The log rows of a duel's stored game events (`play.selectors.events_of`): every event
    but the opening, numbered as the duel counts its moves (the opening is the game's first)."""
    return [
        (pk, seq - 1, public["event"], list(public.get("log", ())), created_at, undone_at)
        for pk, seq, _, _, public, created_at, undone_at in stored
        if "event" in public
    ]


@dataclass(frozen=True)
class Repeat:
    """A form already recorded (its key): the moves it entered or undid, as log rows."""

    rows: list[tuple]
    undo: bool


def repeat_of(duel: Duel, recorded: dict[str, Any]) -> Repeat:
    """What a repeated form's stored outcome (`play.services.Outcome.recorded`) did, in rows:
    a move's events are those of the revision it made; an undo's, the events it marked."""
    stored = events_of(duel.game_id)
    if "undone" in recorded:
        wanted = set(recorded["undone"] or ())
        found = [row for row in stored if row[1] in wanted and row[6] is not None]
        return Repeat(rows_of(sorted(found, key=lambda row: row[6])), undo=True)
    return Repeat(rows_of([row for row in stored if row[2] == recorded.get("revision")]), False)


def recorded_by_key(duel: Duel, actor: Any, intent: str) -> Repeat | None:
    """What this person's form keyed `intent` already did in this duel (a form sent again
    from a page that is no longer current), else None."""
    key = actor_of(actor).key
    if not intent or not key or duel.game_id is None:
        return None
    outcome = (
        Intent.objects.filter(game_id=duel.game_id, actor=key, key=intent)
        .values_list("outcome", flat=True)
        .first()
    )
    return repeat_of(duel, outcome) if outcome is not None else None


def _after(duel: Duel, outcome: play.Outcome, moves: int) -> EngineDuel:
    """The duel row after its game's command: its count of moves, revision and state cached
    as the pages read them, its log (`event_rows`) and engine for the console's answer."""
    engine = outcome.table.duel
    duel.seq += moves
    duel.revision = outcome.revision
    duel.event_rows = rows_of(outcome.log)
    duel.engine = engine  # the log replayed, the move applied: the console's answer reuses it
    duel.state = engine.state()
    return engine


def _policy_of(check: Any) -> Any:
    def policy(game: Any, actor: play.Actor, command: Command) -> None:
        check()

    return policy


def apply_event(
    duel: Duel,
    actor: Any,
    event: Any,
    *,
    intent: str = "",
    seen_revision: int | None = None,
    check: Any = None,
) -> Outcome:
    """Apply one move to a locked duel (the tournament locked first) through the table core's
    write path: `check` is the product's policy (who may), the form's key `intent` (a repeat
    raises `Repeated`), the page's revision (`Conflict`), that the duel is open, then the
    move. Refused moves change nothing. Without `seen_revision`, the duel's own (a caller that
    checked it, or the automation)."""
    if duel.game_id is None:
        _deal(duel, None)
    try:
        outcome = play.apply_command(
            game_id=duel.game_id,
            actor=actor_of(actor),
            command=_command(event),
            key=intent,
            seen_revision=duel.revision if seen_revision is None else seen_revision,
            policy=_policy_of(check or (lambda: None)),
            lock_first=lambda: duel.game,
            with_log=True,
            takes_moves=lambda: check_open(duel),
            savepoint=False,  # every caller's transaction ends with a refusal
        )
    except Illegal as err:
        raise ServiceError(err.message, code="illegal") from None
    except Stale:
        raise Conflict(duel.seq) from None
    if outcome.repeat:
        raise Repeated(repeat_of(duel, outcome.recorded))
    first, last = outcome.recorded["seqs"]
    engine = _after(duel, outcome, last - first + 1)
    lines = duel.event_rows[-1][3]
    if engine.finished:
        _finish(duel)
    # An ordinary move changes these three; the first move (`start`) and the last (`_finish`)
    # change more of the row, and save all of it.
    if engine.finished or duel.seq == 1:
        duel.save()
    else:
        rows.save_ordinary(duel)
    return Outcome(lines, engine.finished)


class Repeated(ServiceError):
    """The same form (its key) was already recorded: nothing changed. `done` says what it did;
    the product words it (tournaments.services.refereeing)."""

    def __init__(self, done: Repeat) -> None:
        super().__init__(str(play_words.REPEAT), code="repeat")
        self.done = done


def undo(
    duel: Duel,
    actor: Any,
    *,
    intent: str = "",
    seen_revision: int | None = None,
    check: Any = None,
) -> None:
    """Undo the last move of a running duel through the table core's write path (`check`, the
    key, the revision, as `apply_event`); its event is kept, marked undone."""

    def allowed() -> None:
        if duel.status != DuelStatus.RUNNING:
            raise ServiceError(
                _(
                    "Only a running duel's moves can be undone; a finished result "
                    "changes only by an organiser's correction."
                ),
                code="closed",
            )
        if duel.seq == 0:
            raise ServiceError(_("There is no move to undo."), code="closed")

    if duel.game_id is None:
        if check is not None:
            check()
        allowed()
    try:
        outcome = play.undo_last(
            game_id=duel.game_id,
            actor=actor_of(actor),
            key=intent,
            seen_revision=duel.revision if seen_revision is None else seen_revision,
            policy=_policy_of(check or (lambda: None)),
            lock_first=lambda: duel.game,
            takes_moves=allowed,
        )
    except Illegal as err:
        raise ServiceError(err.message, code="closed") from None
    except Stale:
        raise Conflict(duel.seq) from None
    if outcome.repeat:
        raise Repeated(repeat_of(duel, outcome.recorded))
    duel.seq -= len(outcome.recorded["undone"])
    duel.revision = outcome.revision
    duel.state = engine_of(duel).state()
    duel.save(update_fields=["seq", "revision", "state"])


def just_undone(duel: Duel) -> dict | None:
    """The move the duel's latest change undid, while nothing else has happened since (no
    move entered after it): its payload, else None.

    Only a referee's undo counts: a forfeit a withdrawal's undo took back (`take_back`,
    marked TAKEN_BACK) was never the referee's move to redo, and a forged "Redo" must not
    enter it again."""
    log = event_rows(duel)
    undone = [row for row in log if row[5] is not None]
    if undone:
        taken = set(
            GameEvent.objects.filter(game_id=duel.game_id, undone_by=TAKEN_BACK).values_list(
                "pk", flat=True
            )
        )
        undone = [row for row in undone if row[0] not in taken]
    if not undone:
        return None
    last = max(undone, key=lambda row: row[5])
    if last[5] < max(row[4] for row in log):
        return None
    return last[2]


def forfeit(duel: Duel, actor: Any, seat: str, reason: str = "withdrawn") -> Outcome:
    """The absent player's duel ends as a forfeit, scored as a loss (a withdrawal, a walkover,
    a no-show ruled by the tournament). An online duel under way forfeits through its dealt
    game (the adapter's product ruling); one not started is recorded as any duel is."""
    if is_dealt(duel):
        finished = apply_dealt(
            duel,
            actor,
            Command(FORFEIT, seat, {"reason": reason}),
            intent="",
            seen_revision=None,
            policy=lambda game, who, command: None,  # the tournament ruled it
        )
        return Outcome([], finished)
    if duel.seq == 0:
        duel.status = DuelStatus.RUNNING
        duel.started_at = timezone.now()
        _deal(duel, duel.deadline)  # a started duel whose moves were undone keeps its own
    return apply_event(
        duel,
        actor,
        {"type": "forfeit", "seat": seat, "reason": reason},
        check=lambda: None,  # the tournament ruled it: any duel not over may be forfeited
    )


def adjudicate(duel: Duel, actor: Any, seat: str, reason: str) -> Outcome:
    """A referee's or organiser's adjudication (RULES.md 7): ``seat`` wins, with its reason —
    a ruling on an online duel neither player was ready for or both abandoned (ONLINE.md 6).
    A dealt duel takes it through its game (the adapter's product ruling); one not started is
    recorded as a forfeit would be."""
    if is_dealt(duel):
        finished = apply_dealt(
            duel,
            actor,
            Command(ADJUDICATE, seat, {"reason": reason}),
            intent="",
            seen_revision=None,
            policy=lambda game, who, command: None,  # the tournament ruled it
        )
        return Outcome([], finished)
    if duel.seq == 0:
        duel.status = DuelStatus.RUNNING
        duel.started_at = timezone.now()
        _deal(duel, duel.deadline)
    return apply_event(
        duel,
        actor,
        {"type": "adjudicate", "winner": seat, "reason": reason},
        check=lambda: None,  # the tournament ruled it
    )


# Online duels (ONLINE.md 6) -----------------------------------------------------------------


def is_dealt(duel: Duel) -> bool:
    """Whether the duel is played as a dealt game (online, started)."""
    return duel.game_id is not None and duel.game.kind == DEALT


def deal_online(
    duel: Duel,
    *,
    accounts: Mapping[str, Any],
    seat_clock: int,
    starting_action_cards: Mapping[str, int] | None = None,
    now: datetime | None = None,
) -> None:
    """An online duel starts (both players ready): its game is dealt by the app, each seat
    held by its player's account (``accounts`` by seat), every pending seal or decision on a
    ``seat_clock`` of seconds; three clock-outs, or a resignation, forfeit with reason
    ``abandoned`` (ONLINE.md 3, 4). No duel time limit: the seat clock bounds it."""
    if duel.game_id is not None:
        raise ServiceError(_("This duel has already started."), code="conflict")
    if starting_action_cards:
        duel.options = {**duel.options, "starting_action_cards": dict(starting_action_cards)}
    config = {
        **game_config(duel),
        "seat_clock": seat_clock,
        "on_abandon": "forfeit",
        "resign_reason": "abandoned",
        # ONLINE.md 6: both abandoning stops the duel for the organisers' ruling.
        "both_abandon": "stop",
        # ONLINE.md 2: a tournament's duels never have truth and dare.
        "truth_dare": False,
    }
    duel.game = play.start_game(
        kind=DEALT,
        config=config,
        seats=SEATS,
        holders={s: play.Holder(HolderKind.ACCOUNT, account=accounts[s]) for s in SEATS},
    )
    duel.status = DuelStatus.RUNNING
    duel.started_at = now or timezone.now()
    duel.revision = duel.game.revision
    duel.state = view_of(duel.game.pk, PUBLIC)["state"]
    duel.save()


def apply_dealt(
    duel: Duel,
    actor: Any,
    command: Command,
    *,
    intent: str,
    seen_revision: int | None,
    policy: play.Policy,
) -> bool:
    """A command of an online duel's dealt game through the table core's write path (the
    locked duel row in hand, the tournament locked first): a player's for their seat, or the
    tournament's ruling. The duel row follows its game as after the clock's move
    (``clock_settled``); a repeated key raises ``Repeated``. Returns whether it finished."""
    check_open(duel)
    try:
        outcome = play.apply_command(
            game_id=duel.game_id,
            actor=actor_of(actor),
            command=command,
            key=intent,
            seen_revision=duel.revision if seen_revision is None else seen_revision,
            policy=policy,
            lock_first=lambda: duel.game,
            viewer=PUBLIC,
            # A savepoint of its own: a page overtaken only by the other seat's seal is sent
            # again in the same transaction (tournaments.services.online).
            savepoint=True,
        )
    except Illegal as err:
        raise ServiceError(err.message, code="illegal") from None
    if outcome.repeat:
        raise Repeated(repeat_of(duel, outcome.recorded))
    return clock_settled(duel, outcome)


def mark_warned(duel: Duel, now: datetime) -> bool:
    """The referee's time-limit warning goes out once, in the last minutes."""
    if duel.status != DuelStatus.RUNNING or duel.deadline is None or duel.warned_at:
        return False
    duel.warned_at = now
    duel.save(update_fields=["warned_at"])
    return True


def check_clock(duel: Duel) -> None:
    """Whether the one clock may end the duel at its deadline (`play.clock`; the tournament's
    keeper asks under the duel's lock): only while it runs. A duel voided or abandoned leaves
    its game as it was (a voided one may be named again, `restore`), so the refusal is what
    keeps the clock off it: `play.clock` drops the deadlines of a game whose product refuses
    its command, and the sweep asks once."""
    if duel.status != DuelStatus.RUNNING:
        raise Illegal(f"duel {duel.pk} is {duel.status}: no time limit")


def clock_settled(duel: Duel, outcome: play.Outcome) -> bool:
    """The locked duel row after the one clock called time on its game (`play.clock`): its
    moves, revision and state as the pages read them, and its result when the engine ended
    it (as `apply_event` after a move). Returns whether the duel finished."""
    view = outcome.view or {}
    first, last = outcome.recorded["seqs"] or (1, 0)
    duel.seq += last - first + 1
    duel.revision = outcome.revision
    duel.state = view.get("state")
    # The refereed adapter's view says `finished`; the dealt one's (an online duel), its phase.
    finished = bool(view.get("finished")) or view.get("phase") == "finished"
    if finished:
        _finish(duel)  # saves the whole row
    elif view.get("phase") == "stopped" and not is_stopped(duel):
        # Both players abandoned (ONLINE.md 6): the duel runs on, stopped, until a ruling; the
        # mark is what the organisers' pages read without restoring the game.
        duel.closed_reason = words.closed_reason_stored({"key": BOTH_ABANDONED})
        duel.save(update_fields=["seq", "revision", "state", "closed_reason"])
    else:
        duel.save(update_fields=["seq", "revision", "state"])
    return finished


#: The mark of an online duel both players abandoned (`Duel.closed_reason`'s key): it waits for
#: a ruling while it runs, and says why once voided.
BOTH_ABANDONED = "both_abandoned"


def is_stopped(duel: Duel) -> bool:
    """An online duel both players abandoned, waiting for the organisers' ruling."""
    why = words.closed_why(duel.closed_reason or "")
    return duel.status == DuelStatus.RUNNING and why is not None and why["key"] == BOTH_ABANDONED


def _finish(duel: Duel) -> None:
    state = duel.state
    seats = seat_entrants(duel)
    winner = seats[state["winner"]] if state["winner"] else None
    loser = seats["B" if state["winner"] == "A" else "A"] if winner else None
    duel.status = DuelStatus.FINISHED
    duel.finished_at = timezone.now()
    duel.closed_reason = ""  # a ruling on a duel both abandoned: no longer waiting for one
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


def abandon(duel_ids: Iterable[int], reason: str | Mapping[str, Any]) -> int:
    """Close open duels as abandoned, without result; `reason` tells their referee why: a key
    of `words.CLOSED_REASONS` with its parameters (``{"key": "cancelled"}``), stored as such and
    read in each reader's language. A known English sentence is stored as its key too; any
    other text is kept as typed."""
    stored = words.closed_reason_stored(reason)
    return Duel.objects.filter(
        pk__in=list(duel_ids),
        status__in=[
            DuelStatus.PENDING,
            DuelStatus.READY,
            DuelStatus.RUNNING,
        ],
    ).update(status=DuelStatus.ABANDONED, closed_reason=stored, finished_at=timezone.now())


def override_result(
    duel: Duel, *, winner_seat: str | None, finish: str, reason: str, actor: Any
) -> Result:
    """A ruling on a finished duel: the result that counts, the record left as played."""
    if duel.status != DuelStatus.FINISHED:
        raise ServiceError(_("Only a finished duel's result can be corrected."))
    if winner_seat not in ("A", "B", None):
        raise ServiceError(_("The winner is seat A, seat B or nobody."))
    result = duel.result
    seats = seat_entrants(duel)
    winner = seats[winner_seat] if winner_seat else None
    if winner == result.winner:
        raise ServiceError(_("That is already the result."))
    result.winner = winner
    result.loser = seats["B" if winner_seat == "A" else "A"] if winner else None
    result.finish = finish
    result.corrected = True
    result.correction_reason = reason
    result.corrected_by = actor
    result.save()
    return result


# Taking back a mistaken withdrawal (TOURNAMENT.md "Corrections") ------------------------------


# Who `take_back` says undid the events it takes back (`GameEvent.undone_by`), where a
# referee's undo names its actor ("user:12"): no actor's key holds a space.
TAKEN_BACK = "taken back"


def take_back(duel: Duel, actor: Any, *, seq: int, status: str) -> bool:
    """The duel goes on where it stood before a forfeit (or walkover) that is now undone: the
    events after `seq` are marked undone (kept, never deleted), its status is `status` again,
    and the result the forfeit gave is gone (a duel that goes on has none yet; the audit log
    keeps what it was). The caller checked that only forfeits came after `seq`. Returns
    whether anything changed."""
    undone: list[int] = []
    if duel.game_id is not None:
        # Not a referee's undo: marked TAKEN_BACK, nothing `just_undone` offers again.
        undone, duel.revision = play.undo_after(game_id=duel.game_id, seq=seq + 1, by=TAKEN_BACK)
        if status != DuelStatus.RUNNING and duel.deadline is not None:
            # Waiting to start again: no time limit runs (its new start gives one).
            _set_deadline(duel, None)
    if not undone and duel.status == status:
        return False
    Result.objects.filter(duel=duel).delete()
    fields = ["seq", "revision", "status", "finished_at", "started_at", "state"]
    if duel.online and status != DuelStatus.RUNNING and duel.game_id and not is_dealt(duel):
        # An online duel forfeited before it was dealt got a referee's game for the forfeit
        # alone (`forfeit`); taken back, it waits for its players again and the app deals it
        # when both are ready (ONLINE.md 6): that game is left behind (kept, its forfeit undone).
        duel.game = None
        fields.append("game")
    duel.seq = seq
    duel.status = status
    duel.finished_at = None
    if status != DuelStatus.RUNNING:
        duel.started_at = None
    duel.state = engine_of(duel).state() if status == DuelStatus.RUNNING else None
    if status == DuelStatus.RUNNING and is_dealt(duel):
        # A duel both players had abandoned stands stopped again, waiting for its ruling.
        stopped = view_of(duel.game_id, PUBLIC)["phase"] == "stopped"
        duel.closed_reason = words.closed_reason_stored({"key": BOTH_ABANDONED}) if stopped else ""
        fields.append("closed_reason")
    duel.save(update_fields=fields)
    return True


def restore(duel_ids: Mapping[int, str]) -> int:
    """Duels voided by a change now taken back (a nomination cleared by a withdrawal) are
    named again: each back to the status it had. Returns how many changed."""
    changed = 0
    for pk, status in duel_ids.items():
        changed += Duel.objects.filter(pk=pk, status=DuelStatus.VOID).update(status=status)
    return changed
