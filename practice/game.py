"""A practice duel against the heuristic bot: plain functions over the referee engine.

The person holds seat A, the bot seat B. Nothing is stored but the seed and the person's moves:
``replay(ruleset, seed, name, moves)`` plays the duel again from its seed — the deal, every bot
decision and every draw come from one random source in the same order — so the same moves
always give the same table, and the server never trusts a hand or a state sent by the browser.

Every move goes through the engine's checked path (``Simulator.apply``). What the engine cannot
know is checked here first: a person reveals only a value they hold and plays only an action
card they hold. Where the rules let a seat choose which number card to shed (COLOR CHANGE,
TRUTH, DARE, a BLOCK battle), the person's card is picked at random (docs/practice.md).

A round is simultaneous: when the person is free, the bot has already decided — it plays an
action card at once (the person then sees it before choosing), or it keeps a value hidden for
the round, which the person's reveal then plays.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.numbers import read_int
from duels.engine import CARDS, COLORS, PRESETS, EngineError, Simulator
from duels.engine import Duel as EngineDuel
from duels.engine.constants import CARD_LABELS

PERSON, BOT = 0, 1
BOT_NAME = "Bot"
#: Moves a person may make, by ``kind``.
KINDS = ("reveal", "blocked_round", "action", "respond", "resign")


class Refused(ValueError):
    """A move the table does not take, in words for the person; nothing has changed."""


@dataclass(frozen=True)
class Entry:
    """One applied event, as the log shows it."""

    number: int
    by_bot: bool
    lines: tuple[str, ...]


class Game:
    """One practice duel in play. Build it with ``start`` or ``replay``."""

    def __init__(self, ruleset: str, seed: int, name: str) -> None:
        if ruleset not in PRESETS:
            raise Refused(f"Choose one of the rule sets: {', '.join(PRESETS)}.")
        duel = EngineDuel.new(ruleset, {"A": name, "B": BOT_NAME})
        self.sim = Simulator(duel, [None, "heuristic"], random.Random(seed))
        self.log: list[Entry] = []
        #: The value the bot keeps hidden for the next round (None: blocked, or not free).
        self._bot_value: int | None = None
        self._bot_turns()

    # -- reading ---------------------------------------------------------------------------

    @property
    def duel(self) -> EngineDuel:
        return self.sim.duel

    @property
    def finished(self) -> bool:
        return self.sim.duel.finished

    def state(self) -> dict[str, Any]:
        return self.sim.duel.state()

    def awaiting_me(self) -> tuple[str, tuple[str, ...]] | None:
        """The decision the person must take now and its choices their hand allows."""
        pending = self.sim.table.pending
        if self.finished or pending is None or pending.seat != PERSON:
            return None
        return pending.decision, self.sim.choices_for(PERSON, pending.decision)

    def free(self) -> bool:
        """No decision pending and the duel on: the person may reveal or play a card."""
        return not self.finished and self.sim.table.pending is None

    def blocked(self) -> bool:
        return bool(self.sim.table.blocked[PERSON])

    def my_numbers(self) -> list[tuple[int, int]]:
        """(value, how many) for every value the person holds, lowest first."""
        return [(v, n) for v, n in enumerate(self.sim.hands.num[PERSON]) if n]

    def my_actions(self) -> list[tuple[str, int]]:
        """(card, how many) for every action card the person holds, in the order of CARDS."""
        return [(CARDS[k], n) for k, n in enumerate(self.sim.hands.act[PERSON]) if n]

    def playable_actions(self) -> list[str]:
        """The action cards the person holds and the engine lets them play now."""
        if not self.free():
            return []
        allowed = set(self.sim.duel.legal().actions.get("A", ()))
        return [card for card, _ in self.my_actions() if card in allowed]

    # -- playing ---------------------------------------------------------------------------

    def play(self, move: Mapping[str, Any]) -> None:
        """Apply the person's ``move`` and then the bot's answers; Refused changes nothing."""
        if self.finished:
            raise Refused("This duel is over: start a new one.")
        kind = move.get("kind")
        if kind == "resign":
            self._apply({"type": "forfeit", "seat": "A", "reason": "resigned"}, False)
            return
        if kind == "respond":
            asked = self.awaiting_me()
            if asked is None:
                raise Refused("Nothing is asked of you now.")
            choice = move.get("choice")
            if choice not in asked[1]:
                raise Refused(f"Choose one of: {', '.join(asked[1])}.")
            self._apply({"type": "respond", "seat": "A", "choice": choice}, False)
        elif kind in ("reveal", "blocked_round"):
            self._round(kind, move.get("value"))
        elif kind == "action":
            self._action(move.get("card"), move.get("color"))
        else:
            raise Refused(f"Unknown move: choose one of {', '.join(KINDS)}.")
        self._bot_turns()

    def _round(self, kind: str, value: object) -> None:
        if not self.free():
            raise Refused("Answer the question first.")
        cards: dict[str, int] = {}
        if kind == "reveal":
            if self.blocked():
                raise Refused("You are blocked this round: play it without a card.")
            if type(value) is not int or not 0 <= value <= 9:
                raise Refused("Reveal a number card from 0 to 9.")
            if not self.sim.hands.num[PERSON][value]:
                raise Refused(f"You hold no {value}.")
            cards["A"] = value
        elif not self.blocked():
            raise Refused("You are not blocked: reveal a card.")
        if self._bot_value is not None:
            cards["B"] = self._bot_value
        self._apply({"type": "round", "cards": cards}, False)

    def _action(self, card: object, color: object) -> None:
        if not self.free():
            raise Refused("Answer the question first.")
        if card not in CARDS:
            raise Refused("That is not an action card.")
        if card not in self.playable_actions():
            raise Refused(f"You cannot play {CARD_LABELS.get(str(card), card)} now.")
        if card == "color_change" and color not in COLORS:
            raise Refused(f"Name a colour: {', '.join(COLORS)}.")
        event: dict[str, Any] = {"type": "action", "seat": "A", "card": card}
        if card == "color_change":
            event["color"] = color
        self._apply(event, False)

    def _apply(self, event: Mapping[str, Any], by_bot: bool) -> None:
        try:
            effects = self.sim.apply(event)
        except EngineError as refused:
            raise Refused(str(refused)) from None
        self.log.append(
            Entry(self.sim.duel.event_count, by_bot, tuple(self.sim.duel.describe(effects)))
        )

    def _bot_turns(self) -> None:
        """The bot answers its decisions and plays its action cards until the person is asked
        something or free; its value for the next round stays hidden."""
        self._bot_value = None
        sim = self.sim
        while not self.finished:
            pending = sim.table.pending
            if pending is not None and pending.seat != BOT:
                return
            move = sim.move_for("B")
            if pending is None and not isinstance(move, dict):
                self._bot_value = move
                return
            self._apply(move, True)  # type: ignore[arg-type]


def start(ruleset: str, seed: int, name: str) -> Game:
    return Game(ruleset, seed, name)


def replay(ruleset: str, seed: int, name: str, moves: Sequence[Mapping[str, Any]]) -> Game:
    """The duel after ``moves``, played again from its seed (each was accepted once)."""
    game = Game(ruleset, seed, name)
    for move in moves:
        game.play(move)
    return game


def parse_move(data: Mapping[str, str]) -> dict[str, Any]:
    """A move from a submitted form: strings in, a move of KINDS out (checked when played)."""
    kind = data.get("kind", "")
    move: dict[str, Any] = {"kind": kind}
    if kind == "reveal":
        value = data.get("value", "")
        move["value"] = read_int(value, hi=9) if read_int(value, hi=9) is not None else value
    elif kind == "action":
        move["card"] = data.get("card", "")
        if data.get("color"):
            move["color"] = data["color"]
    elif kind == "respond":
        move["choice"] = data.get("choice", "")
    return move
