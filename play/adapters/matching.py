"""What the adapters of the two matching games of the seeds (Trois, CPT-113) share.

Both engines (``games.trois``, ``games.cpt113``) deal from an integer seed and are otherwise
deterministic functions of their state; their bots choose from a ``random.Random``. The
adapters keep the table core's promise on top of them (issue 27):

- the deal is dealt once, from the dealer's own stream (``dealer_seed``), and recorded in the
  opening event (each hand under its seats' letters, the deck under ``DEALER``), so that
  ``restore`` sets it out again instead of dealing;
- every move — the person's and each bot's — is an event of its own, the move in ``public``
  with the log lines everyone reads (data, ``log_line``: put in words when shown, by
  ``play.effect_words``), and what only one seat may read (the cards it drew, the lines
  naming them) under that seat's letter; ``restore`` re-applies the moves and never
  asks a bot;
- each bot decision draws from a stream of its own, derived from the seed, the seat and the
  event's number (``bot_random``): no stream is shared, so that one bot's choices never
  move another's, and a restored table continues exactly as the live one would.

``MatchingAdapter`` is that promise written once — start, restore, apply, the bots' turns,
the view's frame, the record — over a few methods each game writes for its own engine (its
seating, its moves, what a move tells one seat only, what its view adds).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, ClassVar

from games.common.errors import GameError

from .base import DEALER, Await, Command, Event, Refused, Viewer, gettext_noop, refused

#: A dealt game's seed is at least 128 bits (issue 27).
MIN_SEED_BYTES = 16
#: A guard on one game's events, the Trois engine's own bound on a record's moves (25
#: minutes of Trois at a move in 3 s make about 2,000 events; CPT-113's 40 cards end sooner).
MAX_EVENTS = 5000
#: What a person reads when a command is refused before the rules see it, in both games
#: (practice's words); each game's adapter adds its own.
WORDS = {
    "over": gettext_noop("This game is over: start a new one."),
    "not_your_turn": gettext_noop("It is not your turn."),
    "too_long": gettext_noop("This game has gone on too long: start a new one."),
}
#: A stored game whose move or event no longer applies (the engine's words, in English, last).
REPLAY_MOVE = gettext_noop("This game cannot be replayed: move %(number)s: %(why)s")
REPLAY_EVENT = gettext_noop("This game cannot be replayed: event %(number)s: %(why)s")
BOT_PREFIX = "bot:"
CLOCK = "clock"


def check_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes) or len(seed) < MIN_SEED_BYTES:
        raise ValueError(f"a dealt game's seed is bytes, at least {MIN_SEED_BYTES} of them")


def _stream(seed: bytes, *parts: str) -> int:
    digest = hashlib.sha256(seed + b"\x00" + "\x00".join(parts).encode()).digest()
    return int.from_bytes(digest, "big")


def dealer_seed(seed: bytes, game: str) -> int:
    """The engine's integer seed for the dealer (the deal, Trois's reshuffles): 63 bits, so
    that a record of the game reads in the engine's own command line too."""
    return _stream(seed, game, DEALER) >> (256 - 63)


def bot_random(seed: bytes, game: str, seat: str, event: int) -> random.Random:
    """The stream a bot at ``seat`` decides the ``event``-th event from: its own, fresh for
    every decision, so that a restored table asks it exactly what the live one would."""
    return random.Random(_stream(seed, game, BOT_PREFIX + seat, str(event)))


def sentence(text: str) -> str:
    """An engine's refusal as the practice pages say it: a capital and a full stop."""
    return text[:1].upper() + text[1:].rstrip(".") + "."


@dataclass(frozen=True)
class Seating:
    """The seats in the engine's order (their letters), each one's name, and the bots
    (seat letter -> the engine's bot name); every other seat is a person's."""

    seats: tuple[str, ...]
    names: tuple[str, ...]
    bots: Mapping[str, str]

    def index(self, seat: str | None) -> int | None:
        return self.seats.index(seat) if seat in self.seats else None

    def by(self, index: int) -> str:
        """An event's ``by`` for a move of the seat at ``index``."""
        seat = self.seats[index]
        return BOT_PREFIX + seat if seat in self.bots else seat


def seating(
    config: Mapping[str, Any],
    seats: Sequence[str],
    count: int,
    default_names: Sequence[str],
    bot_names: Sequence[str],
) -> Seating:
    """The seating a game's ``config`` ("names", "bots") and ``seats`` describe, checked."""
    letters = tuple(seats)
    if (
        len(letters) != count
        or len(set(letters)) != count
        or not all(isinstance(s, str) and s and s != DEALER for s in letters)
    ):
        raise refused(
            gettext_noop("This game has %(count)s seats, each with its own letter."), count=count
        )
    names = tuple(config.get("names") or default_names)
    if len(names) != count or not all(isinstance(n, str) and n for n in names):
        raise refused(gettext_noop("This game has %(count)s seats, each with a name."), count=count)
    bots = dict(config.get("bots") or {})
    if not set(bots) <= set(letters) or not set(bots.values()) <= set(bot_names):
        raise refused(
            gettext_noop("A bot sits at one of the seats and is one of: %(bots)s."),
            bots=", ".join(bot_names),
        )
    return Seating(letters, names, bots)


def seat_of(event: Event) -> str | None:
    """The seat whose move ``event`` is (None for the dealer's and the clock's)."""
    by = event.by
    if by in (DEALER, CLOCK):
        return None
    return by[len(BOT_PREFIX) :] if by.startswith(BOT_PREFIX) else by


def log(events: Sequence[Event], viewer: Viewer, everything: bool) -> list[dict[str, Any]]:
    """The log as ``viewer`` may read it: each event's public lines, or a seat's own lines
    where it has some (naming the cards it drew); ``everything`` (the owner after the end)
    reads every line naming its cards."""
    entries: list[dict[str, Any]] = []
    for number, event in enumerate(events):
        lines = list(event.public.get("log", ()))
        if not lines:
            continue
        if everything:
            for facts in event.private.values():
                own = facts.get("log")
                if own:
                    lines = [
                        o if o != p else line
                        for o, p, line in zip(own, event.public["log"], lines, strict=True)
                    ]
        elif viewer.kind == "seat":
            own = event.private.get(viewer.seat or "", {}).get("log")
            if own:
                lines = list(own)
        entries.append({"event": number, "by": event.by, "lines": lines})
    return entries


def log_line(game: str, effect: Any, who: int | None = None) -> dict[str, Any]:
    """One effect as a stored log line, as ``who`` may read it (None: everyone): the game, the
    effect's kind and its facts (``Effect.facts_seen_by``: seats and groups by their index,
    cards by their names), put in words when shown (``play.effect_words``)."""
    return {"game": game, **effect.facts_seen_by(who)}


def private_lines(
    effects: Sequence[Any], holders: Mapping[int, Sequence[str]], game: str
) -> dict[str, dict[str, Any]]:
    """Each holder's lines where an effect names a card only it may read: ``holders`` maps an
    effect's ``who`` (a seat of Trois, a group of CPT-113) to the seat letters reading it."""
    private: dict[str, dict[str, Any]] = {}
    for who, letters in holders.items():
        if any(e.secret is not None and e.who == who for e in effects):
            lines = [log_line(game, e, who) for e in effects]
            for letter in letters:
                private[letter] = {"log": lines}
    return private


@dataclass
class MatchingTable:
    """A table as the core holds it between two commands: the engine's state after
    ``events``. Opaque to the core: only its adapter reads it."""

    seating: Seating
    seed: bytes
    state: Any
    events: list[Event] = field(default_factory=list)

    def readers(self, hand: int) -> list[str]:
        """The seats that read hand ``hand``: the seat at ``i`` plays hand ``i % hands`` (at
        Trois its own; at CPT-113 its group's, which its partner reads too)."""
        seats, count = self.seating.seats, len(self.state.hands)
        return [seats[s] for s in range(len(seats)) if s % count == hand]


class MatchingAdapter:
    """A matching game's engine as the table core plays it (base.Adapter). A game's adapter
    names its engine in the class attributes and writes the methods marked "the game's"; the
    engine's state has ``hands`` (one a hand), ``deck`` (top card last), ``finished``,
    ``ending``, ``winners`` and ``seed`` (the dealer's), and its rules ``new_game``, ``apply``
    and ``legal``."""

    kind: ClassVar[str]
    #: The engine's package (``games.trois``): its ``rules``, ``cards`` (``DECK``,
    #: ``sort_key``), ``bots`` (``BOTS``, ``view_for``) and ``game`` (the record's ``FORMAT``
    #: and ``VERSION``).
    engine: ClassVar[ModuleType]
    #: How many seats share a hand (CPT-113's groups of two).
    seats_a_hand: ClassVar[int] = 1
    #: The dealer's move when the time is up (Trois's 25 minutes); None: the game has no clock.
    clock_move: ClassVar[Mapping[str, Any] | None] = None
    #: What a person reads when a command is refused before the rules see it: ``WORDS`` and
    #: the game's own ("not_a_record" among them).
    words: ClassVar[Mapping[str, str]]

    # -- the game's: its engine's particulars --------------------------------------------------

    def _seating(self, config: Mapping[str, Any], seats: Sequence[str]) -> Seating:
        raise NotImplementedError

    def _new_game(self, seed: int, sitting: Seating) -> Any:
        """The engine's new game from the dealer's integer seed."""
        raise NotImplementedError

    def _set_out(
        self, seed: int, sitting: Seating, hands: list[list[str]], deck: list[str], top: str
    ) -> Any:
        """The engine's state of a recorded deal (checked to be one deck)."""
        raise NotImplementedError

    def _turn(self, state: Any) -> int:
        """The index of the seat on turn."""
        raise NotImplementedError

    def _move(self, command: Command) -> dict[str, Any]:
        """A seat's command as the engine's move, its arguments bounded; Refused in words."""
        raise NotImplementedError

    def _private(
        self,
        table: MatchingTable,
        before: Any,
        after: Any,
        move: Mapping[str, Any],
        effects: Sequence[Any],
        public: Mapping[str, Any],
    ) -> dict[str, dict[str, Any]]:
        """What a move tells one seat only (``Event.private``)."""
        raise NotImplementedError

    def _seat_facts(self, state: Any, seat: int) -> dict[str, Any]:
        """What the view says of the seat at ``seat`` beyond its letter, name and bot."""
        raise NotImplementedError

    def _table_facts(self, table: MatchingTable) -> dict[str, Any]:
        """What the view says of the table for all, from whose turn it is to the piles."""
        raise NotImplementedError

    def _winners(self, table: MatchingTable) -> list[str]:
        raise NotImplementedError

    def _legal(self, state: Any) -> dict[str, Any]:
        """The moves of the seat on turn, as its view shows them."""
        raise NotImplementedError

    def _hands_shown(self, table: MatchingTable) -> dict[str, list[str]]:
        """Every hand, as the seats and the owner see them after the end."""
        raise NotImplementedError

    def _top_fits(self, top: str) -> bool:
        """Whether a recorded deal's first card of the pile is one the engine deals there."""
        return True

    def _replaying(self, state: Any, event: Event) -> Any:
        """The state a stored event's move applies to (Trois lays a reshuffle first)."""
        return state

    def _record_fits(self, record: Mapping[str, Any], sitting: Seating) -> bool:
        """Whether an engine record is one of a game at this seating (CPT-113's groups)."""
        return True

    def _record_facts(self, table: MatchingTable) -> dict[str, Any]:
        """The record's keys between its seed and its names (CPT-113's groups)."""
        return {}

    # -- the table core's adapter, written once ------------------------------------------------

    def start(
        self, config: Mapping[str, Any], seats: Sequence[str], seed: bytes
    ) -> tuple[MatchingTable, list[Event]]:
        check_seed(seed)
        sitting = self._seating(config, seats)
        table = MatchingTable(sitting, seed, self._new_game(dealer_seed(seed, self.kind), sitting))
        state, events = self._bots(table, table.state, [self._deal(table)])
        table.state, table.events = state, events
        return table, events

    def restore(
        self,
        config: Mapping[str, Any],
        seats: Sequence[str],
        seed: bytes,
        events: Sequence[Event],
    ) -> MatchingTable:
        check_seed(seed)
        sitting = self._seating(config, seats)
        state = self._dealt(sitting, seed, events)
        for number, event in enumerate(events[1:], start=1):
            state = self._replayed(sitting, state, event, number)
        return MatchingTable(sitting, seed, state, list(events))

    def apply(self, table: MatchingTable, command: Command) -> list[Event]:
        state = table.state
        if state.finished:
            raise refused(self.words["over"])
        if self.clock_move is not None and command.name == "time" and command.seat is None:
            move = dict(self.clock_move)  # ends even a game gone on too long
            by = CLOCK
        elif len(table.events) >= MAX_EVENTS:
            raise refused(self.words["too_long"])
        else:
            index = table.seating.index(command.seat)
            if index is None or index != self._turn(state) or command.seat in table.seating.bots:
                raise refused(self.words["not_your_turn"])
            move = self._move(command)
            by = table.seating.by(index)
        state, event = self._applied(table, state, move, by)
        state, events = self._bots(table, state, [event])
        table.state = state
        table.events.extend(events)
        return events

    def view(self, table: MatchingTable, viewer: Viewer) -> dict[str, Any]:
        state, sitting = table.state, table.seating
        letters = sitting.seats
        me = sitting.index(viewer.seat) if viewer.kind == "seat" else None
        if viewer.kind == "seat" and me is None:
            raise ValueError(f"no seat {viewer.seat!r} at this table")
        everything = viewer.kind == "owner" and state.finished
        out: dict[str, Any] = {
            "game": self.kind,
            "events": len(table.events),
            "seats": [
                {
                    "seat": letters[s],
                    "name": sitting.names[s],
                    "bot": letters[s] in sitting.bots,
                    **self._seat_facts(state, s),
                }
                for s in range(len(letters))
            ],
            **self._table_facts(table),
            "finished": state.finished,
            "ending": state.ending,
            "winners": self._winners(table),
            "log": log(table.events, viewer, everything),
        }
        if me is not None:
            out["seat"] = letters[me]
            out["hand"] = sorted(state.hands[me % len(state.hands)], key=self.engine.cards.sort_key)
            out["legal"] = None
            if not state.finished and self._turn(state) == me:
                out["legal"] = self._legal(state)
        # After the end every seat sees the whole deal (ONLINE.md section 5); the public
        # only what was public.
        if state.finished and viewer.kind in ("seat", "owner"):
            out["hands"] = self._hands_shown(table)
        if everything:
            out["deck_order"] = list(state.deck)
            out["deal"] = {k: dict(v) for k, v in table.events[0].private.items()}
        return out

    def awaiting(self, table: MatchingTable) -> list[Await]:
        state = table.state
        if state.finished:
            return []
        return [Await(table.seating.seats[self._turn(state)], "turn")]

    def finished(self, table: MatchingTable) -> bool:
        return bool(table.state.finished)

    def events_from_record(
        self, config: Mapping[str, Any], seats: Sequence[str], record: Mapping[str, Any]
    ) -> list[Event]:
        """The events of a game stored the old way, from the engine's record of it (its
        integer seed and every move, the bots' included: ``Game.record()`` after practice
        replayed it with today's code) — for the data migration of stored practice games.
        Refused if a move does not apply. ``restore`` then needs no seed of the old kind."""
        sitting = self._seating(config, seats)
        seed, moves = record.get("seed"), record.get("moves")
        if (
            record.get("format") != self.engine.game.FORMAT
            or type(seed) is not int
            or not self._record_fits(record, sitting)
            or not isinstance(moves, list)
        ):
            raise refused(self.words["not_a_record"])
        table = MatchingTable(sitting, b"", self._new_game(seed, sitting))
        state = table.state
        events = [self._deal(table)]
        for move in moves:
            kind = move.get("kind") if isinstance(move, Mapping) else None
            clocked = self.clock_move is not None and kind == self.clock_move["kind"]
            by = CLOCK if clocked else sitting.by(self._turn(state))
            try:
                state, event = self._applied(table, state, dict(move), by)
            except (Refused, TypeError, ValueError) as err:
                raise refused(REPLAY_MOVE, number=len(events), why=str(err)) from None
            events.append(event)
        return events

    def record(self, table: MatchingTable) -> dict[str, Any]:
        """The game as the engine's own record (``python -m games.<kind> replay`` reads it):
        the dealer's seed and every move. It tells the whole deal: the owner's, after the end."""
        return {
            "format": self.engine.game.FORMAT,
            "version": self.engine.game.VERSION,
            "seed": table.state.seed,
            **self._record_facts(table),
            "names": list(table.seating.names),
            "moves": [dict(e.public["move"]) for e in table.events[1:]],
        }

    def _deal(self, table: MatchingTable) -> Event:
        """The deal's event: each hand under the letters of the seats that read it, the deck
        under the dealer's key, the first card of the pile and the hands' sizes for all."""
        state = table.state
        return Event(
            DEALER,
            {"deal": {"top": state.top, "hand_sizes": [len(h) for h in state.hands]}},
            {
                **{
                    seat: {"hand": list(state.hands[h])}
                    for h in range(len(state.hands))
                    for seat in table.readers(h)
                },
                DEALER: {"deck": list(state.deck)},
            },
        )

    def _applied(
        self, table: MatchingTable, state: Any, move: dict[str, Any], by: str
    ) -> tuple[Any, Event]:
        """The engine's state after ``move`` and the event recording it; Refused in words."""
        try:
            new, effects = self.engine.rules.apply(state, move)
        except GameError as err:
            raise Refused(sentence(str(err)), engine=True) from None
        public = {"move": move, "log": [log_line(self.kind, e) for e in effects]}
        return new, Event(by, public, self._private(table, state, new, move, effects, public))

    def _bots(
        self, table: MatchingTable, state: Any, events: list[Event]
    ) -> tuple[Any, list[Event]]:
        """The bots' moves until a person is on turn (or the game is over)."""
        sitting = table.seating
        while not state.finished and sitting.seats[self._turn(state)] in sitting.bots:
            if len(table.events) + len(events) >= MAX_EVENTS:
                break
            seat = sitting.seats[self._turn(state)]
            rng = bot_random(table.seed, self.kind, seat, len(table.events) + len(events))
            bots, rules = self.engine.bots, self.engine.rules
            move = bots.BOTS[sitting.bots[seat]]().choose(
                bots.view_for(state, rules.legal(state)), rng
            )
            state, event = self._applied(table, state, move, sitting.by(self._turn(state)))
            events.append(event)
        return state, events

    def _dealt(self, sitting: Seating, seed: bytes, events: Sequence[Event]) -> Any:
        """The deal as its event recorded it, set out again (never dealt again)."""
        if not events or events[0].by != DEALER:
            raise refused(gettext_noop("This game cannot be replayed: its deal is missing."))
        deal = events[0]
        count = len(sitting.seats) // self.seats_a_hand
        try:
            hands = [list(deal.private[sitting.seats[h]]["hand"]) for h in range(count)]
            deck = list(deal.private[DEALER]["deck"])
            top = deal.public["deal"]["top"]
        except (KeyError, TypeError):
            raise refused(
                gettext_noop("This game cannot be replayed: its deal is incomplete.")
            ) from None
        if sorted([*sum(hands, []), *deck, top]) != sorted(
            self.engine.cards.DECK
        ) or not self._top_fits(top):
            raise refused(gettext_noop("This game cannot be replayed: its deal is not one deck."))
        return self._set_out(dealer_seed(seed, self.kind), sitting, hands, deck, top)

    def _replayed(self, sitting: Seating, state: Any, event: Event, number: int) -> Any:
        """The state after a stored event, from the event alone: its move through the rules."""
        move = event.public.get("move")
        seat = seat_of(event)
        clocked = self.clock_move is not None and event.by == CLOCK and move == self.clock_move
        # A game with a clock calls a move of no seat's by its name; one without (CPT-113)
        # only ever has seats' moves after the deal.
        if seat is None and not clocked and self.clock_move is not None:
            raise refused(
                gettext_noop("This game cannot be replayed: event %(number)s is no one's move."),
                number=number,
            )
        if not clocked and (seat is None or sitting.index(seat) != self._turn(state)):
            raise refused(
                gettext_noop(
                    "This game cannot be replayed: event %(number)s is not its seat's turn."
                ),
                number=number,
            )
        try:
            new, _ = self.engine.rules.apply(self._replaying(state, event), move)
        except GameError as err:
            raise refused(REPLAY_EVENT, number=number, why=str(err)) from None
        return new
