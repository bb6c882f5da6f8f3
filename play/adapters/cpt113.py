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
from typing import Any, ClassVar

import games.cpt113
from games.cpt113 import rules
from games.cpt113.bots import BOTS
from games.cpt113.cards import COLOURS, colour_of, is_number, sort_key
from games.cpt113.state import LETTERS, MAX_GROUPS, MIN_GROUPS, State, default_names

from . import matching
from .base import Command, gettext_noop, refused
from .matching import MatchingAdapter, MatchingTable, Seating, private_lines, seating

#: What a person reads when a command is refused before the rules see it (practice's words):
#: the matching games' and this game's own.
WORDS = {
    **matching.WORDS,
    "groups": gettext_noop("Choose 2, 3 or 4 groups."),
    "unknown": gettext_noop("Choose a card to play, or draw."),
    "colour": gettext_noop("Name red, yellow, green or blue."),
    "not_a_record": gettext_noop(
        "This game cannot be replayed: its record is not this CPT-113 game's."
    ),
}


class Cpt113Adapter(MatchingAdapter):
    kind: ClassVar[str] = "cpt113"
    engine = games.cpt113
    seats_a_hand = 2
    words = WORDS

    def _seating(self, config: Mapping[str, Any], seats: Sequence[str]) -> Seating:
        groups = config.get("groups")
        if type(groups) is not int or not MIN_GROUPS <= groups <= MAX_GROUPS:
            raise refused(WORDS["groups"])
        return seating(config, seats, 2 * groups, default_names(groups), sorted(BOTS))

    def _new_game(self, seed: int, sitting: Seating) -> State:
        return rules.new_game(seed, len(sitting.seats) // 2, sitting.names)

    def _top_fits(self, top: str) -> bool:
        return is_number(top)

    def _set_out(
        self, seed: int, sitting: Seating, hands: list[list[str]], deck: list[str], top: str
    ) -> State:
        colour = colour_of(top)
        assert colour is not None
        groups = len(hands)
        return State(
            seed=seed,
            groups=groups,
            names=sitting.names,
            hands=hands,
            deck=deck,
            discard=[top],
            colour=colour,
            number=int(top[1]),
            set_aside=[[] for _ in range(groups)],
        )

    def _turn(self, state: State) -> int:
        return state.seat

    def _move(self, command: Command) -> dict[str, Any]:
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
            raise refused(WORDS["unknown"])
        move: dict[str, Any] = {"kind": "play", "card": card}
        colour = args.get("colour")
        if colour:
            if not isinstance(colour, str) or colour not in COLOURS:
                raise refused(WORDS["colour"])
            move["colour"] = colour
        return move

    def _private(
        self,
        table: MatchingTable,
        before: State,
        after: State,
        move: Mapping[str, Any],
        effects: Sequence[Any],
        public: Mapping[str, Any],
    ) -> dict[str, dict[str, Any]]:
        """Each group's lines naming the cards it drew, and the cards themselves: both its
        seats read them."""
        groups = range(before.groups)
        private = private_lines(effects, {g: table.readers(g) for g in groups}, self.kind)
        for g in groups:
            held = before.hands[g]
            # A group that drops out sets its hand aside, the cards it drew included.
            now = after.set_aside[g] if g in after.out and g not in before.out else after.hands[g]
            if len(now) > len(held) and now[: len(held)] == held:
                for seat in table.readers(g):
                    private.setdefault(seat, {"log": public["log"]})["drew"] = now[len(held) :]
        return private

    def _seat_facts(self, state: State, seat: int) -> dict[str, Any]:
        return {"group": LETTERS[seat % state.groups]}

    def _table_facts(self, table: MatchingTable) -> dict[str, Any]:
        state = table.state
        return {
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
            "turn": None if state.finished else table.seating.seats[state.seat],
            "top": state.top,
            "colour": state.colour,
            "number": state.number,
            "direction": "clockwise" if state.direction == 1 else "anticlockwise",
            "deck": len(state.deck),
            "discard": len(state.discard),
        }

    def _winners(self, table: MatchingTable) -> list[str]:
        return [LETTERS[g] for g in table.state.winners]

    def _legal(self, state: State) -> dict[str, Any]:
        legal = rules.legal(state)
        return {"playable": sorted(legal.playable, key=sort_key), "can_draw": legal.can_draw}

    def _hands_shown(self, table: MatchingTable) -> dict[str, list[str]]:
        """The hands a group set aside when it dropped out included."""
        state = table.state
        return {
            LETTERS[g]: sorted(state.hands[g] or state.set_aside[g], key=sort_key)
            for g in range(state.groups)
        }

    def _record_fits(self, record: Mapping[str, Any], sitting: Seating) -> bool:
        return record.get("groups") == len(sitting.seats) // 2

    def _record_facts(self, table: MatchingTable) -> dict[str, Any]:
        return {"groups": table.state.groups}


ADAPTER = Cpt113Adapter()
