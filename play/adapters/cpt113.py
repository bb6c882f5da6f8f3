"""The CPT-113 adapter (issue 27): ``games.cpt113`` as the table core plays it.

``config["groups"]`` (2–4) groups of two; ``seats`` lists the ``2 * groups`` seat letters in
the engine's order (A1, B1, …, A2, B2, …: the seat at ``i`` plays for group ``i % groups``),
``config["names"]`` names them and ``config["bots"]`` says which are bots (seat letter ->
"heuristic" or "random"). Practice seats the person at the first seat and bots everywhere
else, its partner included. The two seats of a group share its hand: both read it, and both
read the lines naming the cards it draws. Commands (a seat's):

- ``play``: ``args["card"]`` and, for a wild, ``args["colour"]`` (R, Y, G or B);
- ``draw``: cards until one can be played, when nothing can.

Events: the deal (``by`` "dealer": each group's hand under both its seats' letters, the deck
under ``DEALER``, the first card of the pile public), then one a move — the person's (``by``
its letter) and each bot's ("bot:B1"…) — with the move and the log everyone reads in
``public``, and under a group's seats the cards it drew and the lines naming them. The engine
shuffles only at the deal, so ``restore`` is the recorded deal and the moves through the rules:
it never asks a bot nor draws from a random stream.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.common.errors import GameError
from games.cpt113 import rules
from games.cpt113.bots import BOTS, view_for
from games.cpt113.cards import COLOURS, DECK, colour_of, is_number, sort_key
from games.cpt113.game import FORMAT, VERSION
from games.cpt113.state import LETTERS, MAX_GROUPS, MIN_GROUPS, State, default_names

from .base import DEALER, Await, Command, Event, Refused, Viewer
from .matching import (
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

GAME = "cpt113"

#: What a person reads when a command is refused before the rules see it (practice's words).
WORDS = {
    "groups": "Choose 2, 3 or 4 groups.",
    "over": "This game is over: start a new one.",
    "not_your_turn": "It is not your turn.",
    "unknown": "Choose a card to play, or draw.",
    "colour": "Name red, yellow, green or blue.",
    "too_long": "This game has gone on too long: start a new one.",
}


@dataclass
class Cpt113Table:
    """A table as the core holds it between two commands: the engine's state after
    ``events``. Opaque to the core: only the adapter reads it."""

    seating: Seating
    seed: bytes
    state: State
    events: list[Event] = field(default_factory=list)

    def readers(self, group: int) -> list[str]:
        """The seats of ``group``: both read its hand."""
        seats = self.seating.seats
        return [seats[s] for s in range(len(seats)) if s % self.state.groups == group]


class Cpt113Adapter:
    kind: ClassVar[str] = "cpt113"

    def start(
        self, config: Mapping[str, Any], seats: Sequence[str], seed: bytes
    ) -> tuple[Cpt113Table, list[Event]]:
        check_seed(seed)
        groups, sitting = _seating(config, seats)
        state = rules.new_game(dealer_seed(seed, GAME), groups, sitting.names)
        table = Cpt113Table(sitting, seed, state)
        state, events = _bots(table, state, [_deal(table)])
        table.state, table.events = state, events
        return table, events

    def restore(
        self,
        config: Mapping[str, Any],
        seats: Sequence[str],
        seed: bytes,
        events: Sequence[Event],
    ) -> Cpt113Table:
        check_seed(seed)
        groups, sitting = _seating(config, seats)
        state = _dealt(sitting, groups, seed, events)
        for number, event in enumerate(events[1:], start=1):
            state = _replayed(sitting, state, event, number)
        return Cpt113Table(sitting, seed, state, list(events))

    def apply(self, table: Cpt113Table, command: Command) -> list[Event]:
        state = table.state
        if state.finished:
            raise Refused(WORDS["over"])
        if len(table.events) >= MAX_EVENTS:
            raise Refused(WORDS["too_long"])
        index = table.seating.index(command.seat)
        if index is None or index != state.seat or command.seat in table.seating.bots:
            raise Refused(WORDS["not_your_turn"])
        state, event = _applied(table, state, _move(command), table.seating.by(index))
        state, events = _bots(table, state, [event])
        table.state = state
        table.events.extend(events)
        return events

    def view(self, table: Cpt113Table, viewer: Viewer) -> dict[str, Any]:
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
                    "group": LETTERS[s % state.groups],
                }
                for s in range(len(letters))
            ],
            "groups": [
                {
                    "group": LETTERS[g],
                    "seats": table.readers(g),
                    "cards": len(state.hands[g]),
                    "out": g in state.out,
                    "winner": g in state.winners,
                }
                for g in range(state.groups)
            ],
            "turn": None if state.finished else letters[state.seat],
            "top": state.top,
            "colour": state.colour,
            "number": state.number,
            "direction": "clockwise" if state.direction == 1 else "anticlockwise",
            "deck": len(state.deck),
            "discard": len(state.discard),
            "finished": state.finished,
            "ending": state.ending,
            "winners": [LETTERS[g] for g in state.winners],
            "log": log(table.events, viewer, everything),
        }
        if me is not None:
            group = me % state.groups
            out["seat"] = letters[me]
            out["hand"] = sorted(state.hands[group], key=sort_key)
            out["legal"] = None
            if not state.finished and state.seat == me:
                legal = rules.legal(state)
                out["legal"] = {
                    "playable": sorted(legal.playable, key=sort_key),
                    "can_draw": legal.can_draw,
                }
        # After the end every seat sees the whole deal (ONLINE.md section 5), the hands a
        # group set aside when it dropped out included; the public only what was public.
        if state.finished and viewer.kind in ("seat", "owner"):
            out["hands"] = {
                LETTERS[g]: sorted(state.hands[g] or state.set_aside[g], key=sort_key)
                for g in range(state.groups)
            }
        if everything:
            out["deck_order"] = list(state.deck)
            out["deal"] = {k: dict(v) for k, v in table.events[0].private.items()}
        return out

    def awaiting(self, table: Cpt113Table) -> list[Await]:
        state = table.state
        if state.finished:
            return []
        return [Await(table.seating.seats[state.seat], "turn")]

    def finished(self, table: Cpt113Table) -> bool:
        return table.state.finished

    def events_from_record(
        self, config: Mapping[str, Any], seats: Sequence[str], record: Mapping[str, Any]
    ) -> list[Event]:
        """The events of a game stored the old way, from the engine's record of it (its
        integer seed, its groups and every move, the bots' included: ``Game.record()`` after
        practice replayed it with today's code) — for the data migration of stored practice
        games. Refused if a move does not apply."""
        groups, sitting = _seating(config, seats)
        seed, moves = record.get("seed"), record.get("moves")
        if (
            record.get("format") != FORMAT
            or type(seed) is not int
            or record.get("groups") != groups
            or not isinstance(moves, list)
        ):
            raise Refused("This game cannot be replayed: its record is not this CPT-113 game's.")
        table = Cpt113Table(sitting, b"", rules.new_game(seed, groups, sitting.names))
        state = table.state
        events = [_deal(table)]
        for move in moves:
            try:
                state, event = _applied(table, state, dict(move), sitting.by(state.seat))
            except (Refused, TypeError, ValueError) as err:
                raise Refused(f"This game cannot be replayed: move {len(events)}: {err}") from None
            events.append(event)
        return events

    def record(self, table: Cpt113Table) -> dict[str, Any]:
        """The game as the engine's own record (``python -m games.cpt113 replay`` reads it):
        the dealer's seed and every move. It tells the whole deal: the owner's, after the end."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "seed": table.state.seed,
            "groups": table.state.groups,
            "names": list(table.seating.names),
            "moves": [dict(e.public["move"]) for e in table.events[1:]],
        }


def _seating(config: Mapping[str, Any], seats: Sequence[str]) -> tuple[int, Seating]:
    groups = config.get("groups")
    if type(groups) is not int or not MIN_GROUPS <= groups <= MAX_GROUPS:
        raise Refused(WORDS["groups"])
    return groups, seating(config, seats, 2 * groups, default_names(groups), sorted(BOTS))


def _deal(table: Cpt113Table) -> Event:
    """The deal's event: each group's hand under both its seats' letters, the deck under the
    dealer's key, the first card of the pile and the hands' sizes for everyone."""
    state = table.state
    return Event(
        DEALER,
        {"deal": {"top": state.top, "hand_sizes": [len(h) for h in state.hands]}},
        {
            **{
                seat: {"hand": list(state.hands[g])}
                for g in range(state.groups)
                for seat in table.readers(g)
            },
            DEALER: {"deck": list(state.deck)},
        },
    )


def _move(command: Command) -> dict[str, Any]:
    """A seat's command as the engine's move, its arguments bounded (the rules check the
    rest, in their own words)."""
    args = command.args
    if command.name == "draw" and not args:
        return {"kind": "draw"}
    card = args.get("card")
    if (
        command.name != "play"
        or not set(args) <= {"card", "colour"}
        or not isinstance(card, str)
        or not card
    ):
        raise Refused(WORDS["unknown"])
    move: dict[str, Any] = {"kind": "play", "card": card}
    colour = args.get("colour")
    if colour:
        if not isinstance(colour, str) or colour not in COLOURS:
            raise Refused(WORDS["colour"])
        move["colour"] = colour
    return move


def _applied(
    table: Cpt113Table, state: State, move: dict[str, Any], by: str
) -> tuple[State, Event]:
    """The engine's state after ``move`` and the event recording it; Refused in words."""
    try:
        new, effects = rules.apply(state, move)
    except GameError as refused:
        raise Refused(sentence(str(refused))) from None
    public = {"move": move, "log": [e.text for e in effects]}
    groups = range(state.groups)
    private = private_lines(effects, {g: table.readers(g) for g in groups})
    for g in groups:
        before = state.hands[g]
        # A group that drops out sets its hand aside, the cards it drew included.
        after = new.set_aside[g] if g in new.out and g not in state.out else new.hands[g]
        if len(after) > len(before) and after[: len(before)] == before:
            for seat in table.readers(g):
                private.setdefault(seat, {"log": public["log"]})["drew"] = after[len(before) :]
    return new, Event(by, public, private)


def _bots(table: Cpt113Table, state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """The bots' moves until a person is on turn (or the game is over)."""
    sitting = table.seating
    while not state.finished and sitting.seats[state.seat] in sitting.bots:
        if len(table.events) + len(events) >= MAX_EVENTS:
            break
        seat = sitting.seats[state.seat]
        rng = bot_random(table.seed, GAME, seat, len(table.events) + len(events))
        move = BOTS[sitting.bots[seat]]().choose(view_for(state, rules.legal(state)), rng)
        state, event = _applied(table, state, move, sitting.by(state.seat))
        events.append(event)
    return state, events


def _dealt(sitting: Seating, groups: int, seed: bytes, events: Sequence[Event]) -> State:
    """The deal as its event recorded it, set out again (never dealt again)."""
    if not events or events[0].by != DEALER:
        raise Refused("This game cannot be replayed: its deal is missing.")
    deal = events[0]
    try:
        hands = [list(deal.private[sitting.seats[g]]["hand"]) for g in range(groups)]
        deck = list(deal.private[DEALER]["deck"])
        top = deal.public["deal"]["top"]
    except (KeyError, TypeError):
        raise Refused("This game cannot be replayed: its deal is incomplete.") from None
    if sorted([*sum(hands, []), *deck, top]) != sorted(DECK) or not is_number(top):
        raise Refused("This game cannot be replayed: its deal is not one deck.")
    colour = colour_of(top)
    assert colour is not None
    return State(
        seed=dealer_seed(seed, GAME),
        groups=groups,
        names=sitting.names,
        hands=hands,
        deck=deck,
        discard=[top],
        colour=colour,
        number=int(top[1]),
        set_aside=[[] for _ in range(groups)],
    )


def _replayed(sitting: Seating, state: State, event: Event, number: int) -> State:
    """The state after a stored event, from the event alone: its move through the rules."""
    seat = seat_of(event)
    if seat is None or sitting.index(seat) != state.seat:
        raise Refused(f"This game cannot be replayed: event {number} is not its seat's turn.")
    try:
        new, _ = rules.apply(state, event.public.get("move"))
    except GameError as refused:
        raise Refused(f"This game cannot be replayed: event {number}: {refused}") from None
    return new


ADAPTER = Cpt113Adapter()
