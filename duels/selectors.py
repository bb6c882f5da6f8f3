"""Reads for the duel pages: the referee console, the duels list and the public replay.

Each read costs a fixed number of queries whatever the length of the duel or the size of the
tournament. The console's state and legal moves come from the engine replaying the active
events (under 1 ms for 100 events, docs/performance.md), never from guesses in a template.
"""

from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from games.split_uno import CARDS, EngineError, Legal, state_after
from games.split_uno import Duel as EngineDuel
from games.split_uno.constants import CARD_LABELS
from play.models import GameEvent, Intent

from . import words
from .models import Duel, DuelStatus, Result
from .services import SEATS, actor_of, event_rows, record_of

# The duels list shows open duels first: what a referee looks for is at the top.
STATUS_ORDER = [
    DuelStatus.RUNNING,
    DuelStatus.READY,
    DuelStatus.PENDING,
    DuelStatus.FINISHED,
    DuelStatus.VOID,
    DuelStatus.ABANDONED,
]

# pk, seq, payload, summary, created_at, undone_at
Row = tuple[int, int, dict, list[str], datetime, datetime | None]


# Every move adds an event row and every undo marks one: rows + undone rows only ever grows,
# unlike `seq`, which an undo followed by a new move brings back to the same number.


# What the console partial shows of a duel's relations, and what only the whole page shows
# (its heading): a move's answer is the partial, and on PostgreSQL each join costs about a
# millisecond of planning and compiling on every move (docs/performance.md). The game holds
# the duel's deadline (`Duel.deadline`), which the console shows while the duel runs.
PARTIAL_RELATIONS = ("seat_a", "seat_b", "referee", "game")
PAGE_RELATIONS = (*PARTIAL_RELATIONS, "round", "group_a", "group_b")


def duel_in(tournament: Any, duel_id: int, *, page: bool = False) -> Duel:
    """The duel with what the console shows of it, and its revision (one query, or 404).
    `page`: also what the whole page's heading shows. Only a finished duel has a result, so
    it is not joined (`result_of`)."""
    duel = get_object_or_404(
        Duel.objects.select_related(*(PAGE_RELATIONS if page else PARTIAL_RELATIONS)).order_by(),
        pk=duel_id,
        tournament=tournament,
    )
    duel.tournament = tournament  # the services read it; no second fetch
    return duel


def poll_state(tournament: Any, duel_id: int) -> tuple[int, int | None, str] | None:
    """What the poll compares with the page, in a single small query: the revision (the log's
    changes) and who runs the duel where (its referee and table). The revision stays the
    position in the log's timeline (`log_update` reads it so, and the hot path's check), so
    a referee or a table given does not move it: the page names those beside it."""
    return (
        Duel.objects.filter(pk=duel_id, tournament=tournament)
        .values_list("revision", "referee_id", "table")
        .first()
    )


def result_of(duel: Duel) -> Result | None:
    """A finished duel's result (one query)."""
    if duel.status != DuelStatus.FINISHED:
        return None
    return Result.objects.filter(duel=duel).first()


def _account(key: str) -> Any:
    """The account an actor's key names ("user:12"), or None (the automation, the clock)."""
    kind, _, pk = key.partition(":")
    if kind != "user" or not pk.isdigit():
        return None
    return get_user_model().objects.filter(pk=int(pk)).first()


def last_mover(duel: Duel) -> Any:
    """Who entered the duel's latest move still standing (an account), or None."""
    if duel.game_id is None:
        return None
    key = (
        GameEvent.objects.filter(game_id=duel.game_id, undone_at=None, seq__gt=1)
        .order_by("-seq")
        .values_list("actor", flat=True)
        .first()
    )
    return _account(key or "")


def move_of(duel: Duel, pk: int) -> tuple[Any, dict[str, Any]] | None:
    """Who entered the duel's move `pk` (a log row's key), and the move as the record keeps
    it; None if the duel has no such move."""
    row = (
        GameEvent.objects.filter(pk=pk, game_id=duel.game_id).values_list("actor", "public").first()
    )
    if row is None:
        return None
    return _account(row[0]), row[1].get("event") or {}


def entered_by(tournament: Any, user: Any, intent: str) -> Duel | None:
    """The duel of the tournament in which `user` already entered something from the form
    keyed `intent` (a paper sheet sent twice), else None."""
    actor = actor_of(user)
    if not intent or not actor.key:
        return None
    games = Duel.objects.filter(tournament=tournament).exclude(game=None).values("game_id")
    game_id = (
        Intent.objects.filter(actor=actor.key, key=intent, game_id__in=games)
        .values_list("game_id", flat=True)
        .first()
    )
    return Duel.objects.filter(game_id=game_id).first() if game_id is not None else None


@dataclass(frozen=True)
class Move:
    """A move of a duel, wherever it was read from (a search across duels): its duel and
    seats, its number, the event as the record keeps it, who entered it (an actor's key:
    "user:12", or empty for the automation), and when it was entered and undone."""

    duel_id: int
    seat_a_id: int | None
    seat_b_id: int | None
    seq: int
    event: dict[str, Any]
    actor: str
    created_at: datetime
    undone_at: datetime | None


def moves_of(
    duels: dict[str, Any],
    *,
    excluding: dict[str, Any] | None = None,
    after: datetime | None = None,
    **event: Any,
) -> list[Move]:
    """The moves of the duels whose fields match `duels` (and not `excluding`), as Django's
    lookups write them (``{"tournament": t, "kind": "playoff"}``), in the order entered: only
    those entered or undone at or after `after` if given, and only events with the fields
    `event` says (``type="forfeit"``). One query."""
    found = GameEvent.objects.filter(seq__gt=1, **{f"game__duel__{k}": v for k, v in duels.items()})
    if excluding:
        found = found.exclude(**{f"game__duel__{k}": v for k, v in excluding.items()})
    for name, value in event.items():
        found = found.filter(**{f"public__event__{name}": value})
    if after is not None:
        found = found.filter(Q(created_at__gte=after) | Q(undone_at__gte=after))
    fields = ("game__duel__pk", "game__duel__seat_a_id", "game__duel__seat_b_id")
    # A refereed game's event is its public `event`; a dealt game's (an online duel) is the
    # engine's event its public part carries, if any (a seal carries none): a withdrawal's
    # forfeit of an online duel reads as the forfeit it is (an undo of the withdrawal).
    return [
        Move(
            duel,
            a,
            b,
            seq - 1,
            public.get("event") or public.get("engine") or {},
            actor,
            created_at,
            undone_at,
        )
        for duel, a, b, seq, public, actor, created_at, undone_at in found.order_by(
            "pk"
        ).values_list(*fields, "seq", "public", "actor", "created_at", "undone_at")
    ]


def player_ids(duel: Duel) -> list[int]:
    """The accounts playing in the duel: they may never referee or correct it."""
    return [e.user_id for e in (duel.seat_a, duel.seat_b) if e is not None and e.user_id]


@dataclass(frozen=True)
class Choice:
    value: str
    label: str


@dataclass
class SeatView:
    letter: str
    name: str
    number_cards: int
    action_cards: int
    streak: int
    blocked: bool
    reveals: bool  # this seat's digit pad is on for the next round
    actions: list[Choice]
    color_change: bool
    shared_card: bool = False  # starts with a group-mate's card (dealt at the first move)


@dataclass
class LogEntry:
    seq: int
    lines: list[str]
    undone: bool
    pk: int = 0  # the row's key: the page's line for it is `log-<pk>`

    @property
    def text(self) -> str:
        """The move in plain words: its effects as sentences."""
        if not self.lines:
            return _("(no effect recorded)")
        return ". ".join(line.rstrip(".") for line in self.lines) + "."


@dataclass
class Decision:
    seat: str
    name: str
    text: str
    choices: list[Choice]


@dataclass
class ConsoleView:
    """What the console shows: the engine's state and the moves it allows, in words."""

    duel: Duel
    revision: int
    seq: int
    state: dict[str, Any] | None
    rows: list[Row] = field(default_factory=list, repr=False)
    seats: list[SeatView] = field(default_factory=list)
    headline: str = ""
    subline: str = ""
    decision: Decision | None = None
    can_play_round: bool = False
    pads: list[SeatView] = field(default_factory=list)
    playing: bool = False  # the duel takes moves (ready or running, with both seats)
    finished: bool = False  # the row says so: the result is recorded
    engine_finished: bool = False  # the log says so
    result: Result | None = None
    winner_seat: str | None = None  # as the result says, corrections included
    replay_duel: Duel | None = None

    @property
    def round_number(self) -> int:
        return (self.state or {}).get("rounds", 0) + 1

    # The log in words is built when a page shows it (a whole page), not for every move's
    # answer, which sends only the lines the page lacks (`log_since`).
    @cached_property
    def log(self) -> list[LogEntry]:
        """Every line of the log, latest first, undone ones too."""
        return [log_entry(row) for row in reversed(self.rows)]

    @cached_property
    def last_move(self) -> LogEntry | None:
        """The latest move still standing."""
        return self._latest(undone=False)

    @property
    def last_undone(self) -> LogEntry | None:
        """The latest move undone."""
        return self._latest(undone=True)

    def _latest(self, *, undone: bool) -> LogEntry | None:
        return next(
            (log_entry(row) for row in reversed(self.rows) if (row[5] is not None) == undone), None
        )

    @property
    def acting(self) -> list[SeatView]:
        """The seats that may play an action card now."""
        return [seat for seat in self.seats if seat.actions or seat.color_change]

    @property
    def can_undo(self) -> bool:
        return self.duel.status == DuelStatus.RUNNING and self.seq > 0

    def log_since(self, since: int | None) -> "LogUpdate":
        """What a page that showed revision `since` lacks of the log."""
        return log_update(self.rows, since)


def events_of(duel: Duel) -> list[Row]:
    return event_rows(duel)


# How many changes a page may have missed and still be sent only those: a page further behind
# (offline for long, or opened before many moves) gets the latest lines instead, never the
# whole log, which only a full page carries (issue 15: an answer's size does not grow with
# the duel's length).
LOG_CATCH_UP = 30


@dataclass
class LogUpdate:
    """What the log of a page showing revision `since` lacks: lines added since (latest first),
    lines on the page undone since, or, for a page too far behind, the latest lines to show
    instead of its own (`reset`), with `more` when older ones exist."""

    new: list[LogEntry] = field(default_factory=list)
    undone: list[LogEntry] = field(default_factory=list)
    reset: list[LogEntry] | None = None
    more: bool = False

    @property
    def empty(self) -> bool:
        return not (self.new or self.undone or self.reset is not None)


def log_update(rows: list[Row], since: int | None) -> LogUpdate:
    """The log changes after revision `since`. The revision counts every change (a row added,
    a row undone); their order is the order of their times (an undo always follows the
    insertion of its row), so the changes after `since` are the tail of that timeline.
    Shared with the casual-table console (`tables.selectors`), whose rows have this shape."""
    timeline = sorted(
        [(row[4], row[0], 0, i) for i, row in enumerate(rows)]
        + [(row[5], row[0], 1, i) for i, row in enumerate(rows) if row[5] is not None]
    )
    if since is None or not 0 <= since <= len(timeline) or len(timeline) - since > LOG_CATCH_UP:
        latest = [log_entry(row) for row in reversed(rows[-LOG_CATCH_UP:])]
        return LogUpdate(reset=latest, more=len(rows) > LOG_CATCH_UP)
    added = {i for _, _, kind, i in timeline[since:] if kind == 0}
    undone = {i for _, _, kind, i in timeline[since:] if kind == 1} - added
    return LogUpdate(
        new=[log_entry(rows[i]) for i in sorted(added, reverse=True)],
        undone=[log_entry(rows[i]) for i in sorted(undone)],
    )


def log_entry(row: Row) -> LogEntry:
    """One row of a log as the consoles show it (the casual tables' too: same row shape)."""
    pk, seq, _, summary, _, undone = row
    return LogEntry(seq, list(summary), undone is not None, pk)


def _engine(duel: Duel, payloads: list[dict], gifts: dict[str, int]) -> EngineDuel | None:
    record = record_of(duel, events=payloads)
    if gifts:
        record["options"] = {**record["options"], "starting_action_cards": gifts}
    try:
        return EngineDuel.from_record(record)
    except EngineError:
        return None  # a record the engine refuses is shown read-only, never crashes the page


def console(
    duel: Duel,
    rows: list[Row] | None = None,
    *,
    gifts: dict[str, int] | None = None,
    engine: EngineDuel | None = None,
) -> ConsoleView:
    """The console of `duel` (from `duel_in`): one query for the log, one more for a ready
    group duel's shared cards, for a finished duel's result, for a drawn duel's replay.

    `seq` and the state come from the log, never from the row, so a row read before an
    ordinary move still serves after it (`console_after_write`). `engine`: the engine that
    replayed `rows` (the move's own, `duels.services.apply_event`), not replayed again."""
    rows = events_of(duel) if rows is None else rows
    revision = len(rows) + sum(1 for row in rows if row[5] is not None)
    active = [row[2] for row in rows if row[5] is None]
    duel.seq = len(active)
    view = ConsoleView(duel=duel, revision=revision, seq=duel.seq, state=None, rows=rows)
    if duel.seat_a is None or duel.seat_b is None:
        view.headline = _("Waiting for its players")
        view.subline = _("The console opens when both seats are named.")
        return view
    # Shared cards the first move will deal (the tournament says which): the console offers
    # the action card a player starts with before the first event.
    gifts = dict(gifts or {}) if duel.status in (DuelStatus.READY, DuelStatus.RUNNING) else {}
    if engine is None or gifts:
        engine = _engine(duel, active, gifts)
    if engine is None:
        view.headline = _("This duel's record cannot be replayed")
        return view
    view.state = engine.state()
    legal = engine.legal()
    view.engine_finished = engine.finished
    view.playing = duel.status in (DuelStatus.READY, DuelStatus.RUNNING) and not engine.finished
    view.finished = duel.status == DuelStatus.FINISHED
    view.seats = _seats(duel, view.state, legal, gifts, view.playing)
    view.pads = [seat for seat in view.seats if seat.reveals]
    view.can_play_round = view.playing and legal.can_play_round
    if view.playing and legal.awaiting:
        view.decision = _decision(legal.awaiting, view.seats, rows)
    view.result = result_of(duel)
    _headline(view)
    if view.result is not None and view.result.winner_id is None:
        view.replay_duel = duel.replays.exclude(status=DuelStatus.VOID).order_by("pk").first()
    return view


def _seats(
    duel: Duel, state: dict, legal: Legal, gifts: dict[str, int], playing: bool
) -> list[SeatView]:
    out = []
    for letter in SEATS:
        seat = state["seats"][letter]
        cards = legal.actions.get(letter, ()) if playing else ()
        out.append(
            SeatView(
                letter=letter,
                name=seat["name"],
                number_cards=seat["number_cards"],
                action_cards=seat["action_cards"],
                streak=seat["streak"],
                blocked=seat["blocked"],
                reveals=playing and legal.can_play_round and letter in legal.round_seats,
                actions=[
                    Choice(c, CARD_LABELS[c]) for c in CARDS if c in cards and c != "color_change"
                ],
                color_change="color_change" in cards,
                shared_card=letter in gifts,
            )
        )
    return out


def _decision(awaiting: dict, seats: list[SeatView], rows: list) -> Decision:
    by_letter = {s.letter: s for s in seats}
    me = by_letter[awaiting["seat"]]
    other = next(s for s in seats if s.letter != me.letter)
    # A counter answers the last card played: name it ("Alice's +4").
    last = next((row[2] for row in reversed(rows) if row[5] is None), {})
    card = CARD_LABELS.get(last.get("card", ""), "card")  # "card": words.decision_text's own
    kind = awaiting["decision"]
    return Decision(
        seat=me.letter,
        name=me.name,
        text=words.decision_text(kind, me.name, other.name, card),
        choices=[
            Choice(c, words.choice_label(kind, c, me.name, other.name)) for c in awaiting["choices"]
        ],
    )


def _headline(view: ConsoleView) -> None:
    duel, state = view.duel, view.state or {}
    if view.decision:
        view.headline = view.decision.text
        view.subline = _("Only these choices, or ending the duel, are possible now.")
    elif view.playing:
        n = words.duel_round(view.round_number)
        blocked = [s for s in view.seats if s.blocked]
        if not view.pads:
            view.headline = _("%(round)s: both are blocked — play the round with no cards") % {
                "round": n
            }
        elif blocked:
            view.headline = _("%(round)s: %(name)s reveals a card — %(blocked)s is blocked") % {
                "round": n,
                "name": view.pads[0].name,
                "blocked": blocked[0].name,
            }
        else:
            view.headline = _("%(round)s: both reveal a number card") % {"round": n}
        view.subline = _("Or play an action card.")
    elif view.finished:
        result = view.result
        winner = None
        if result is not None and result.winner_id is not None:
            view.winner_seat = "A" if result.winner_id == duel.seat_a_id else "B"
            winner = (duel.seat_a if view.winner_seat == "A" else duel.seat_b).name
        finish = result.finish if result else state.get("finish")
        view.headline = words.outcome_headline(winner, finish)
        if result and result.corrected:
            view.subline = _("Result corrected by an organiser: %(reason)s") % {
                "reason": result.correction_reason
            }
        elif not winner:
            view.subline = _("A drawn duel is replayed at once by the same players.")
    else:
        view.headline = _("This duel is %(status)s") % {"status": duel.get_status_display().lower()}
        view.subline = words.closed_reason_text(duel.closed_reason)


@dataclass
class ReplayView:
    duel: Duel
    step: int
    total: int
    state: dict[str, Any]
    moves: list[LogEntry]

    @property
    def previous(self) -> int | None:
        return self.step - 1 if self.step > 0 else None

    @property
    def next(self) -> int | None:
        return self.step + 1 if self.step < self.total else None

    @property
    def status_text(self) -> str:
        state = self.state
        name = {letter: seat["name"] for letter, seat in state["seats"].items()}
        if state["status"] == "finished":
            winner = state["winner"]
            return words.outcome_headline(name[winner] if winner else None, state["finish"])
        if state["awaiting"]:
            awaiting = state["awaiting"]
            return _("Waiting for %(name)s: %(decision)s") % {
                "name": name[awaiting["seat"]],
                "decision": words.decision_name(awaiting["decision"]),
            }
        # Translators: a round of play inside a duel (not the tournament's group round).
        return _("Round %(number)s is next") % {"number": state["rounds"] + 1}


def replay(duel: Duel, step: int | None) -> ReplayView:
    """The state after the first `step` active events, beside the moves (one query)."""
    rows = [
        (seq, payload, summary)
        for _, seq, payload, summary, _, undone in event_rows(duel)
        if undone is None
    ]
    record = record_of(duel, events=[payload for _, payload, _ in rows])
    total = len(rows)
    step = total if step is None else max(0, min(step, total))
    return ReplayView(
        duel=duel,
        step=step,
        total=total,
        state=state_after(record, step),
        moves=[LogEntry(seq, list(summary), False) for seq, _, summary in rows],
    )
