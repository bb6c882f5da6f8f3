"""The running duel as the room sees it (issue 28): each seat's cards and streak, the last
round's two cards face-up and who won it, a block in place, a decision or challenge window open
and whose, and the last few moves in words.

Drawn from the engine's state replayed from the duel's active events, never from the cached
`Duel.state`, and from nothing else: a refereed duel hides nothing once it has started (its
moves are the public record), so every part of that state may be shown. What is not public is
never read here: a pending shared card (TOURNAMENT.md: hidden from the public until the
receiver's duel starts) lives in `SharedCard` rows, which this module does not touch, and a
duel that has not started shows no counts at all — a duel taken back to before its first move
may keep a game whose set-up names the shared cards it would start with.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import pgettext

from duels.models import Duel, DuelStatus
from duels.selectors import LogEntry
from duels.services import SEATS, record_of
from duels.words import decision_text, duel_round
from games.split_uno import Duel as EngineDuel
from games.split_uno import Effect, EngineError
from games.split_uno.constants import CARD_LABELS
from play.models import GameEvent

from .. import presentation
from .lines import DuelLine, duel_line

MOVES_SHOWN = 5  # the last few moves, latest first: what a spectator who looked away missed


@dataclass(frozen=True)
class WatchSeat:
    """One seat at the table, as the room may see it."""

    letter: str
    name: str
    number_cards: int
    action_cards: int
    streak: int
    blocked: bool  # a BLOCK in place: it sits out (or reveals nothing) next round
    card: int | None = None  # what it revealed in the last round (None: nothing, or no round)
    won_round: bool = False  # it won the last round
    deciding: bool = False  # the open decision or challenge window is its


@dataclass(frozen=True)
class LastRound:
    number: int  # the duel's own round ("Duel round 3"), not the tournament's
    text: str  # how it went, in words
    winner: str | None  # the seat letter that won it; None for a tie or no one


@dataclass(frozen=True)
class Window:
    """A decision the engine waits for: whose, and what it asks, in words."""

    seat: str
    name: str
    text: str
    challenge: bool  # a challenge of a win at 0 number cards, not another decision


@dataclass(frozen=True)
class WatchTable:
    """A duel's public table. `phase`: "waiting" (not started: nothing to show but that),
    "playing", "over" (finished, voided or abandoned once started: the table as it ended),
    "unrecorded" (over without moves on this site: a result from paper) or "unreadable"
    (a record the engine refuses: never a crash on a public page)."""

    line: DuelLine
    phase: str
    seats: tuple[WatchSeat, ...] = ()
    last_round: LastRound | None = None
    window: Window | None = None
    moves: tuple[LogEntry, ...] = ()  # latest first
    moves_total: int = 0
    next_round: str = ""  # "Duel round 4", while the duel is played

    @property
    def duel_id(self) -> int:
        return self.line.id

    @property
    def shown(self) -> bool:
        return self.phase in ("playing", "over")


def started(duel: Duel) -> bool:
    """Has the duel started, so that its table is public? Running and finished duels have; a
    voided or abandoned one only if it was under way (an abandoned duel that never started has
    no `started_at`: a take-back to before the first move clears it too)."""
    if duel.status in (DuelStatus.RUNNING, DuelStatus.FINISHED):
        return True
    return duel.status in (DuelStatus.VOID, DuelStatus.ABANDONED) and duel.started_at is not None


def active_events(game_ids: Iterable[int]) -> dict[int, list[tuple[int, dict[str, Any]]]]:
    """Game → its active moves as (move number, public part), in order (one query for every
    game; none for none). The game's opening (the record's header) is no move."""
    ids = sorted(set(game_ids))
    found: dict[int, list[tuple[int, dict[str, Any]]]] = {pk: [] for pk in ids}
    if not ids:
        return found
    rows = (
        GameEvent.objects.filter(game_id__in=ids, undone_at=None)
        .order_by("game_id", "seq")
        .values_list("game_id", "seq", "public")
    )
    for game_id, seq, public in rows:
        if "event" in public:
            found[game_id].append((seq - 1, public))
    return found


def tables(duels: Sequence[Duel]) -> list[WatchTable]:
    """The public tables of `duels` (read with `lines.duel_queryset`), in their order: one
    query for the moves of all of them, none if none has started."""
    moves = active_events(d.game_id for d in duels if d.game_id is not None and started(d))
    return [table(d, moves.get(d.game_id, []) if d.game_id else []) for d in duels]


def table(duel: Duel, moves: list[tuple[int, dict[str, Any]]]) -> WatchTable:
    """The public table of one duel from its active moves (`active_events`), no query."""
    line = duel_line(duel)
    if not started(duel) or duel.seat_a_id is None or duel.seat_b_id is None:
        return WatchTable(line=line, phase="waiting")
    playing = duel.status == DuelStatus.RUNNING
    if not moves and not playing:
        return WatchTable(line=line, phase="unrecorded")
    events = [public["event"] for _, public in moves]
    replayed = _replay(duel, events)
    if replayed is None:
        return WatchTable(line=line, phase="unreadable")
    state, round_event, effects, number = replayed
    last = _last_round(state, round_event, effects, number)
    window = _window(state, events) if playing else None
    seats = tuple(
        WatchSeat(
            letter=letter,
            name=seat["name"],
            number_cards=seat["number_cards"],
            action_cards=seat["action_cards"],
            streak=seat["streak"],
            blocked=seat["blocked"],
            card=round_event["cards"].get(letter) if round_event else None,
            won_round=last is not None and last.winner == letter,
            deciding=window is not None and window.seat == letter,
        )
        for letter, seat in ((letter, state["seats"][letter]) for letter in SEATS)
    )
    shown = moves[-MOVES_SHOWN:]
    return WatchTable(
        line=line,
        phase="playing" if playing else "over",
        seats=seats,
        last_round=last,
        window=window,
        moves=tuple(
            LogEntry(seq, list(public.get("log", ())), False) for seq, public in reversed(shown)
        ),
        moves_total=len(moves),
        next_round=duel_round(state["rounds"] + 1) if playing else "",
    )


def _replay(
    duel: Duel, events: list[dict[str, Any]]
) -> tuple[dict[str, Any], dict[str, Any] | None, list[Effect], int] | None:
    """The engine's state after `events`, with the last round event, what it did and its
    number, in one pass: replayed up to that round, which is then applied for its effects
    (who won it is the engine's to say, not a comparison of digits here), then the rest."""
    rounds = [i for i, event in enumerate(events) if event.get("type") == "round"]
    cut = rounds[-1] if rounds else len(events)
    try:
        engine = EngineDuel.from_record(record_of(duel, events=events[:cut]))
        effects = engine.apply(events[cut]) if rounds else []
        for event in events[cut + 1 :]:
            engine.apply(event)
    except EngineError:
        return None
    return engine.state(), events[cut] if rounds else None, effects, len(rounds)


def _last_round(
    state: dict[str, Any], event: dict[str, Any] | None, effects: list[Effect], number: int
) -> LastRound | None:
    if event is None:
        return None
    names = {letter: seat["name"] for letter, seat in state["seats"].items()}
    winner = next((e.seat for e in effects if e.kind == "win_round"), None)
    tie = next((e.card for e in effects if e.kind == "tie"), None)
    text = presentation.round_outcome_text(
        duel_round(number), names.get(winner) if winner else None, tie
    )
    return LastRound(number=number, text=text, winner=winner)


def _window(state: dict[str, Any], events: list[dict[str, Any]]) -> Window | None:
    awaiting = state.get("awaiting")
    if not awaiting:
        return None
    seat = awaiting["seat"]
    names = {letter: s["name"] for letter, s in state["seats"].items()}
    other = next(letter for letter in SEATS if letter != seat)
    # A counter answers the last card played: named as the console names it ("Ada's +4").
    # Translators: a card whose name is not known, in "Ada's card".
    unknown = pgettext("a card, name unknown", "card")
    card = CARD_LABELS.get(events[-1].get("card", ""), unknown) if events else unknown
    kind = awaiting["decision"]
    return Window(
        seat=seat,
        name=names[seat],
        text=decision_text(kind, names[seat], names[other], card),
        challenge=kind == "challenge",
    )
