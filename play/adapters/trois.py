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
from typing import Any, ClassVar

import games.trois
from games.trois import rules
from games.trois.bots import BOTS
from games.trois.cards import DECK, sort_key
from games.trois.state import NAMES, SEATS, State

from . import matching
from .base import DEALER, Command, Event, gettext_noop, refused
from .matching import MatchingAdapter, MatchingTable, Seating, private_lines, seating

#: The seed's time limit (docs/games-trois.md, reading 5): the core keeps the deadline.
TIME_LIMIT_SECONDS = 25 * 60
MAX_CARDS_IN_A_MOVE = len(DECK)

#: What a person reads when a command is refused before the rules see it (practice's words):
#: the matching games' and this game's own.
WORDS = {
    **matching.WORDS,
    "unknown": gettext_noop("Choose a card to play, or take a card."),
    "no_cards": gettext_noop("Choose the cards to play."),
    "top": gettext_noop("The card to end on top must be one of the cards you play."),
    "not_a_record": gettext_noop("This game cannot be replayed: its record is not a Trois game's."),
}


class TroisAdapter(MatchingAdapter):
    kind: ClassVar[str] = "trois"
    engine = games.trois
    clock_move: ClassVar[Mapping[str, Any] | None] = {"kind": "time"}
    words = WORDS

    def _seating(self, config: Mapping[str, Any], seats: Sequence[str]) -> Seating:
        return seating(config, seats, SEATS, NAMES, sorted(BOTS))

    def _new_game(self, seed: int, sitting: Seating) -> State:
        return rules.new_game(seed, sitting.names)

    def _set_out(
        self, seed: int, sitting: Seating, hands: list[list[str]], deck: list[str], top: str
    ) -> State:
        return State(seed, sitting.names, hands, deck, [top])

    def _turn(self, state: State) -> int:
        return state.turn

    def _move(self, command: Command) -> dict[str, Any]:
        args = command.args
        if command.name == "take" and not args:
            return {"kind": "take"}
        if command.name != "play" or not set(args) <= {"cards", "top"}:
            raise refused(WORDS["unknown"])
        cards = args.get("cards")
        if (
            not isinstance(cards, list | tuple)
            or not cards
            or len(cards) > MAX_CARDS_IN_A_MOVE
            or not all(isinstance(c, str) for c in cards)
        ):
            raise refused(WORDS["no_cards"])
        chosen = list(cards)
        top = args.get("top")
        if top:
            if top not in chosen:
                raise refused(WORDS["top"])
            chosen.remove(top)
            chosen.append(top)
        return {"kind": "play", "cards": chosen}

    def _private(
        self,
        table: MatchingTable,
        before: State,
        after: State,
        move: Mapping[str, Any],
        effects: Sequence[Any],
        public: Mapping[str, Any],
    ) -> dict[str, dict[str, Any]]:
        """The mover's lines naming the cards it took, the cards themselves, and the deck a
        take reshuffled (the dealer's)."""
        mover = before.turn
        letter = table.seating.seats[mover]
        private = private_lines(effects, {mover: [letter]}, self.kind)
        took = after.hands[mover][len(before.hands[mover]) :] if move["kind"] == "take" else []
        if took:
            private.setdefault(letter, {"log": public["log"]})["took"] = took
        if after.reshuffles > before.reshuffles:
            private[DEALER] = {"reshuffled": _reshuffled(before, after)}
        return private

    def _replaying(self, state: State, event: Event) -> State:
        """A reshuffle laid under the deck, as it was recorded, before its take."""
        reshuffled = event.private.get(DEALER, {}).get("reshuffled")
        if reshuffled:
            state = state.copy()
            state.deck = [*reshuffled, *state.deck]
            state.pile = state.pile[-1:]
            state.reshuffles += 1
        return state

    def _seat_facts(self, state: State, seat: int) -> dict[str, Any]:
        return {"cards": len(state.hands[seat]), "winner": seat in state.winners}

    def _table_facts(self, table: MatchingTable) -> dict[str, Any]:
        state = table.state
        return {
            "turn": None if state.finished else table.seating.seats[state.turn],
            "top": state.top,
            "deck": len(state.deck),
            "pile": len(state.pile),
            "wild_pile": list(state.wild_pile),
        }

    def _winners(self, table: MatchingTable) -> list[str]:
        return [table.seating.seats[s] for s in table.state.winners]

    def _legal(self, state: State) -> dict[str, Any]:
        legal = rules.legal(state)
        return {
            "by_colour": sorted(legal.by_colour, key=sort_key),
            "by_number": sorted(legal.by_number, key=sort_key),
            "can_take": legal.can_take,
        }

    def _hands_shown(self, table: MatchingTable) -> dict[str, list[str]]:
        state, letters = table.state, table.seating.seats
        return {letters[s]: sorted(state.hands[s], key=sort_key) for s in range(SEATS)}


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


ADAPTER = TroisAdapter()
