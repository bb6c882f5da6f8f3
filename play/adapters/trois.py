"""The Trois adapter (issue 27): ``games.trois`` as the table core plays it.

Four seats in the engine's order (the first always starts); ``config`` names them
(``"names"``) and says which are bots (``"bots"``: seat letter -> "heuristic" or "random");
practice seats the person at the first and three heuristic bots. Commands:

- ``play`` (a seat): ``args["cards"]``, the cards in the order they are laid (the last ends on
  top), or with ``args["top"]`` naming the one to end on top, as practice's form sends it;
- ``take`` (a seat): a card from the deck, when nothing matches;
- ``time`` (no seat: the dealer, when the 25 minutes have passed — the core keeps the
  deadline, ``TIME_LIMIT_SECONDS``, and sends it, as practice does today): the fewest cards
  wins.

Events: the deal (``by`` "dealer": each hand under its seat's letter, the deck under
``DEALER``, the top card public), then one a move — the person's (``by`` its letter), each
bot's ("bot:B") and the dealer's time ("clock") — with the move and the log everyone reads in
``public``, and under the mover's letter the cards it took and the lines naming them. A take
that empties the deck records the reshuffled deck under ``DEALER``; ``restore`` lays it under
the deck before applying the take, so the engine draws exactly what it drew live without
shuffling again. Nothing in ``restore`` asks a bot or draws from a random stream.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.common.errors import GameError
from games.trois import rules
from games.trois.bots import BOTS, view_for
from games.trois.cards import DECK, sort_key
from games.trois.game import FORMAT, VERSION
from games.trois.state import NAMES, SEATS, State

from .base import DEALER, Await, Command, Event, Refused, Viewer
from .matching import (
    CLOCK,
    MAX_EVENTS,
    Seating,
    bot_random,
    check_seed,
    dealer_seed,
    log,
    private_lines,
    seat_of,
    seating,
    sentence,
)

GAME = "trois"
#: The seed's time limit (docs/games-trois.md, reading 5): the core keeps the deadline.
TIME_LIMIT_SECONDS = 25 * 60
MAX_CARDS_IN_A_MOVE = len(DECK)

#: What a person reads when a command is refused before the rules see it (practice's words).
WORDS = {
    "over": "This game is over: start a new one.",
    "not_your_turn": "It is not your turn.",
    "unknown": "Choose a card to play, or take a card.",
    "no_cards": "Choose the cards to play.",
    "top": "The card to end on top must be one of the cards you play.",
    "too_long": "This game has gone on too long: start a new one.",
}


@dataclass
class TroisTable:
    """A table as the core holds it between two commands: the engine's state after
    ``events``. Opaque to the core: only the adapter reads it."""

    seating: Seating
    seed: bytes
    state: State
    events: list[Event] = field(default_factory=list)


class TroisAdapter:
    kind: ClassVar[str] = "trois"

    def start(
        self, config: Mapping[str, Any], seats: Sequence[str], seed: bytes
    ) -> tuple[TroisTable, list[Event]]:
        check_seed(seed)
        sitting = _seating(config, seats)
        state = rules.new_game(dealer_seed(seed, GAME), sitting.names)
        table = TroisTable(sitting, seed, state)
        state, events = _bots(table, state, [_deal(sitting, state)])
        table.state, table.events = state, events
        return table, events

    def restore(
        self,
        config: Mapping[str, Any],
        seats: Sequence[str],
        seed: bytes,
        events: Sequence[Event],
    ) -> TroisTable:
        check_seed(seed)
        sitting = _seating(config, seats)
        state = _dealt(sitting, seed, events)
        for number, event in enumerate(events[1:], start=1):
            state = _replayed(sitting, state, event, number)
        return TroisTable(sitting, seed, state, list(events))

    def apply(self, table: TroisTable, command: Command) -> list[Event]:
        state = table.state
        if state.finished:
            raise Refused(WORDS["over"])
        if command.name == "time" and command.seat is None:
            move: dict[str, Any] = {"kind": "time"}  # ends even a game gone on too long
            by = CLOCK
        elif len(table.events) >= MAX_EVENTS:
            raise Refused(WORDS["too_long"])
        else:
            index = table.seating.index(command.seat)
            if index is None or index != state.turn or command.seat in table.seating.bots:
                raise Refused(WORDS["not_your_turn"])
            move = _move(command)
            by = table.seating.by(index)
        state, event = _applied(table.seating, state, move, by)
        state, events = _bots(table, state, [event])
        table.state = state
        table.events.extend(events)
        return events

    def view(self, table: TroisTable, viewer: Viewer) -> dict[str, Any]:
        state, sitting = table.state, table.seating
        letters = sitting.seats
        me = sitting.index(viewer.seat) if viewer.kind == "seat" else None
        if viewer.kind == "seat" and me is None:
            raise ValueError(f"no seat {viewer.seat!r} at this table")
        everything = viewer.kind == "owner" and state.finished
        out: dict[str, Any] = {
            "game": GAME,
            "events": len(table.events),
            "seats": [
                {
                    "seat": letters[s],
                    "name": sitting.names[s],
                    "bot": letters[s] in sitting.bots,
                    "cards": len(state.hands[s]),
                    "winner": s in state.winners,
                }
                for s in range(SEATS)
            ],
            "turn": None if state.finished else letters[state.turn],
            "top": state.top,
            "deck": len(state.deck),
            "pile": len(state.pile),
            "wild_pile": list(state.wild_pile),
            "finished": state.finished,
            "ending": state.ending,
            "winners": [letters[s] for s in state.winners],
            "log": log(table.events, viewer, everything),
        }
        if me is not None:
            out["seat"] = letters[me]
            out["hand"] = sorted(state.hands[me], key=sort_key)
            out["legal"] = None
            if not state.finished and state.turn == me:
                legal = rules.legal(state)
                out["legal"] = {
                    "by_colour": sorted(legal.by_colour, key=sort_key),
                    "by_number": sorted(legal.by_number, key=sort_key),
                    "can_take": legal.can_take,
                }
        # After the end every seat sees the whole deal (ONLINE.md section 5); the public
        # only what was public.
        if state.finished and viewer.kind in ("seat", "owner"):
            out["hands"] = {letters[s]: sorted(state.hands[s], key=sort_key) for s in range(SEATS)}
        if everything:
            out["deck_order"] = list(state.deck)
            out["deal"] = {k: dict(v) for k, v in table.events[0].private.items()}
        return out

    def awaiting(self, table: TroisTable) -> list[Await]:
        state = table.state
        if state.finished:
            return []
        return [Await(table.seating.seats[state.turn], "turn")]

    def finished(self, table: TroisTable) -> bool:
        return table.state.finished

    def events_from_record(
        self, config: Mapping[str, Any], seats: Sequence[str], record: Mapping[str, Any]
    ) -> list[Event]:
        """The events of a game stored the old way, from the engine's record of it (its
        integer seed and every move, the bots' included: ``Game.record()`` after practice
        replayed it with today's code) — for the data migration of stored practice games.
        Refused if a move does not apply. ``restore`` then needs no seed of the old kind."""
        sitting = _seating(config, seats)
        seed, moves = record.get("seed"), record.get("moves")
        if record.get("format") != FORMAT or type(seed) is not int or not isinstance(moves, list):
            raise Refused("This game cannot be replayed: its record is not a Trois game's.")
        state = rules.new_game(seed, sitting.names)
        events = [_deal(sitting, state)]
        for move in moves:
            kind = move.get("kind") if isinstance(move, Mapping) else None
            by = CLOCK if kind == "time" else sitting.by(state.turn)
            try:
                state, event = _applied(sitting, state, dict(move), by)
            except (Refused, TypeError, ValueError) as err:
                raise Refused(f"This game cannot be replayed: move {len(events)}: {err}") from None
            events.append(event)
        return events

    def record(self, table: TroisTable) -> dict[str, Any]:
        """The game as the engine's own record (``python -m games.trois replay`` reads it):
        the dealer's seed and every move. It tells the whole deal: the owner's, after the end."""
        moves = [dict(e.public["move"]) for e in table.events[1:]]
        return {
            "format": FORMAT,
            "version": VERSION,
            "seed": table.state.seed,
            "names": list(table.seating.names),
            "moves": moves,
        }


def _seating(config: Mapping[str, Any], seats: Sequence[str]) -> Seating:
    return seating(config, seats, SEATS, NAMES, sorted(BOTS))


def _deal(sitting: Seating, state: State) -> Event:
    """The deal's event: each hand under its seat's letter, the deck under the dealer's key,
    the top card and the hands' sizes for everyone."""
    return Event(
        DEALER,
        {"deal": {"top": state.top, "hand_sizes": [len(h) for h in state.hands]}},
        {
            **{sitting.seats[s]: {"hand": list(state.hands[s])} for s in range(SEATS)},
            DEALER: {"deck": list(state.deck)},
        },
    )


def _move(command: Command) -> dict[str, Any]:
    """A seat's command as the engine's move, its arguments bounded (the rules check the
    rest, in their own words)."""
    args = command.args
    if command.name == "take" and not args:
        return {"kind": "take"}
    if command.name != "play" or not set(args) <= {"cards", "top"}:
        raise Refused(WORDS["unknown"])
    cards = args.get("cards")
    if (
        not isinstance(cards, list | tuple)
        or not cards
        or len(cards) > MAX_CARDS_IN_A_MOVE
        or not all(isinstance(c, str) for c in cards)
    ):
        raise Refused(WORDS["no_cards"])
    chosen = list(cards)
    top = args.get("top")
    if top:
        if top not in chosen:
            raise Refused(WORDS["top"])
        chosen.remove(top)
        chosen.append(top)
    return {"kind": "play", "cards": chosen}


def _applied(sitting: Seating, state: State, move: dict[str, Any], by: str) -> tuple[State, Event]:
    """The engine's state after ``move`` and the event recording it; Refused in words."""
    try:
        new, effects = rules.apply(state, move)
    except GameError as refused:
        raise Refused(sentence(str(refused))) from None
    public = {"move": move, "log": [e.text for e in effects]}
    mover = state.turn
    private = private_lines(effects, {mover: [sitting.seats[mover]]})
    took = new.hands[mover][len(state.hands[mover]) :] if move["kind"] == "take" else []
    if took:
        private.setdefault(sitting.seats[mover], {"log": public["log"]})["took"] = took
    if new.reshuffles > state.reshuffles:
        private[DEALER] = {"reshuffled": _reshuffled(state, new)}
    return new, Event(by, public, private)


def _reshuffled(before: State, after: State) -> list[str]:
    """The deck the engine shuffled from the pile during a take, top card last: the
    engine's own reshuffle of ``before`` (the pile is untouched until then), checked against
    what is left of it ``after``."""
    probe = before.copy()
    probe.deck = []
    top = rules._draw(probe, [])  # the engine's reshuffle, kept in one place
    assert top is not None
    deck = [*probe.deck, top]
    assert deck[: len(after.deck)] == after.deck, "the reshuffle is the engine's"
    return deck


def _bots(table: TroisTable, state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """The bots' moves until a person is on turn (or the game is over)."""
    sitting = table.seating
    while not state.finished and sitting.seats[state.turn] in sitting.bots:
        if len(table.events) + len(events) >= MAX_EVENTS:
            break
        seat = sitting.seats[state.turn]
        rng = bot_random(table.seed, GAME, seat, len(table.events) + len(events))
        move = BOTS[sitting.bots[seat]]().choose(view_for(state, rules.legal(state)), rng)
        state, event = _applied(sitting, state, move, sitting.by(state.turn))
        events.append(event)
    return state, events


def _dealt(sitting: Seating, seed: bytes, events: Sequence[Event]) -> State:
    """The deal as its event recorded it, set out again (never dealt again)."""
    if not events or events[0].by != DEALER:
        raise Refused("This game cannot be replayed: its deal is missing.")
    deal = events[0]
    try:
        hands = [list(deal.private[seat]["hand"]) for seat in sitting.seats]
        deck = list(deal.private[DEALER]["deck"])
        top = deal.public["deal"]["top"]
    except (KeyError, TypeError):
        raise Refused("This game cannot be replayed: its deal is incomplete.") from None
    if sorted([*sum(hands, []), *deck, top]) != sorted(DECK):
        raise Refused("This game cannot be replayed: its deal is not one deck.")
    return State(dealer_seed(seed, GAME), sitting.names, hands, deck, [top])


def _replayed(sitting: Seating, state: State, event: Event, number: int) -> State:
    """The state after a stored event, from the event alone: its move through the rules
    (a reshuffle laid under the deck first, as it was recorded)."""
    move = event.public.get("move")
    seat = seat_of(event)
    if seat is None and (event.by != CLOCK or move != {"kind": "time"}):
        raise Refused(f"This game cannot be replayed: event {number} is no one's move.")
    if seat is not None and sitting.index(seat) != state.turn:
        raise Refused(f"This game cannot be replayed: event {number} is not its seat's turn.")
    reshuffled = event.private.get(DEALER, {}).get("reshuffled")
    if reshuffled:
        state = state.copy()
        state.deck = [*reshuffled, *state.deck]
        state.pile = state.pile[-1:]
        state.reshuffles += 1
    try:
        new, _ = rules.apply(state, move)
    except GameError as refused:
        raise Refused(f"This game cannot be replayed: event {number}: {refused}") from None
    return new


ADAPTER = TroisAdapter()
