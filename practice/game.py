"""The old practice duel (before issue 27), kept for the data migration 0007 only: plain
functions over the referee engine that replay a duel stored as its seed and the person's
moves (``replay``, ``traced_replay``). Practice duels are played through the table core now
(practice/services.py, the dealt adapter); nothing but that migration, its tests and
``bench/practice_replay.py`` plays this code, and ``Refused``, ``Unreplayable`` and
``bot_name`` are the only names the product still imports from here.

What follows describes that old duel.

The person holds seat A, a bot each other seat (B at two seats; B to F at up to six, RULES.md
section 11, the table chosen in ``seating.py``). Nothing is stored but the table, the seed and
the person's moves: ``replay(ruleset, seed, name, moves, seating)`` plays the duel again from
its seed — the deal, every bot decision and every draw come from one random source in the same
order — so the same moves always give the same table, and the server never trusts a hand or a
state sent by the browser.

Every move goes through the engine's checked path (``Simulator.apply``). What the engine cannot
know is checked here first: a person reveals only a value they hold and plays only an action
card they hold. Where the rules let a seat choose which number card to shed (COLOR CHANGE,
TRUTH, DARE, a BLOCK battle), the person's card is picked at random (docs/practice.md).

A round is simultaneous: when the person is free, the bots have already decided — one that
plays an action card plays it at once (the person then sees it before choosing; with several,
one picked at random, as ``Simulator.next_event`` does), or each keeps a value hidden for the
round, which the person's reveal then plays. With more than two seats every 0 and 7 names a
target (RULES.md 11.3) and so does every action card but COLOR CHANGE (11.4): the person's
from the move, a bot's from its ``target``. If the person's side leaves (resign) while other
sides play on, the bots play the duel to its end (11.7).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import floor
from typing import Any

from games.split_uno import CARDS, COLORS, PRESETS, EngineError, Simulator
from games.split_uno import Duel as EngineDuel
from games.split_uno.constants import CARD_LABELS
from games.split_uno.simulate import CAP_REASON, DEFAULT_MAX_EVENTS

from .seating import Seating

PERSON, BOT = 0, 1
BOT_NAME = "Bot"
#: Moves a person may make, by ``kind``.
KINDS = ("reveal", "blocked_round", "action", "respond", "resign")
#: The 0 and 7 name a target at more than two seats (RULES.md 11.3).
TARGETED_VALUES = (0, 7)
TWO_SEATS = Seating()


def bot_name(seat: str, seats: int) -> str:
    """The bot's name in the log: "Bot" facing the person alone, else "Bot B", "Bot C", …"""
    return BOT_NAME if seats == 2 else f"{BOT_NAME} {seat}"


class Refused(ValueError):
    """A move the table does not take, in words for the person; nothing has changed."""


class Unreplayable(Exception):
    """A stored game that cannot be set out: stored the old way and not convertible, or whose
    stored events no longer restore. The game is kept and said to be so (practice/words.py),
    never a 500."""


@dataclass(frozen=True)
class Entry:
    """One applied event, as the log shows it."""

    number: int
    by_bot: bool
    lines: tuple[str, ...]


class Game:
    """One practice duel in play. Build it with ``start`` or ``replay``."""

    def __init__(self, ruleset: str, seed: int, name: str, seating: Seating = TWO_SEATS) -> None:
        if ruleset not in PRESETS:
            raise Refused(f"Choose one of the rule sets: {', '.join(PRESETS)}.")
        self.seating = seating
        letters = seating.letters
        names = {"A": name} | {s: bot_name(s, seating.seats) for s in letters[1:]}
        try:
            duel = EngineDuel.new(
                ruleset,
                names,
                list(seating.variants),
                seating.options or None,
                [list(team) for team in seating.teams] or None,
            )
        except EngineError as malformed:
            raise Refused(f"This table cannot be dealt: {malformed}.") from None
        bots = [None] + ["heuristic"] * (seating.seats - 1)
        self.sim = Simulator(duel, bots, random.Random(seed))
        #: More than two seats: 0s, 7s and action cards name targets (RULES.md 11.3, 11.4).
        self.many = seating.seats > 2
        self.log: list[Entry] = []
        #: The values the bots keep hidden for the next round, by seat (none: not free).
        self._bot_values: dict[str, int] = {}
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

    def out(self) -> bool:
        """The person's side has left the duel (resigned, RULES.md 11.7)."""
        return bool(self.sim.table.out[PERSON])

    def reveals(self) -> bool:
        """The person reveals a card if a round is played now (RULES.md 11.3: not blocked,
        and in a team game holding a number card)."""
        return self.free() and "A" in self.sim.duel.legal().round_seats

    def targets(self) -> list[str]:
        """The seats the person may name as a target, in seat order (their opponents in
        play); empty at two seats, where nothing names one."""
        if not self.many or self.finished:
            return []
        return list(self.sim.duel.legal().targets.get("A", ()))

    def needs_target(self, card: str) -> bool:
        """Whether the action ``card`` names a target at this table (RULES.md 11.4)."""
        return self.many and card != "color_change"

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

    def play(self, move: Mapping[str, Any]) -> dict[str, Any]:
        """Apply the person's ``move`` and then the bots' answers; Refused changes nothing.

        Returns the move as it is kept: only the fields that played (a target only where one
        was named, RULES.md 11.3 and 11.4), each one checked."""
        if self.finished:
            raise Refused("This duel is over: start a new one.")
        kind = move.get("kind")
        kept: dict[str, Any]
        if kind == "resign":
            self._apply({"type": "forfeit", "seat": "A", "reason": "resigned"}, False)
            kept = {"kind": kind}
        elif kind == "respond":
            asked = self.awaiting_me()
            if asked is None:
                raise Refused("Nothing is asked of you now.")
            choice = move.get("choice")
            if choice not in asked[1]:
                raise Refused(f"Choose one of: {', '.join(asked[1])}.")
            self._apply({"type": "respond", "seat": "A", "choice": choice}, False)
            kept = {"kind": kind, "choice": choice}
        elif kind in ("reveal", "blocked_round"):
            kept = self._round(kind, move.get("value"), move.get("target"))
        elif kind == "action":
            kept = self._action(move.get("card"), move.get("color"), move.get("target"))
        else:
            raise Refused(f"Unknown move: choose one of {', '.join(KINDS)}.")
        self._bot_turns()
        return kept

    def _target(self, target: object, what: str) -> str:
        """The person's target for ``what``: one of their opponents in play."""
        allowed = self.targets()
        if target not in allowed:
            raise Refused(f"Choose whom your {what} targets: {', '.join(allowed)}.")
        return str(target)

    def _round(self, kind: str, value: object, target: object = None) -> dict[str, Any]:
        if not self.free():
            raise Refused("Answer the question first.")
        cards: dict[str, int] = {}
        targets: dict[str, str] = {}
        reveals = self.reveals()
        if kind == "reveal":
            if self.blocked():
                raise Refused("You are blocked this round: play it without a card.")
            if not reveals:
                raise Refused("You hold no number card: play the round without a card.")
            if type(value) is not int or not 0 <= value <= 9:
                raise Refused("Reveal a number card from 0 to 9.")
            if not self.sim.hands.num[PERSON][value]:
                raise Refused(f"You hold no {value}.")
            cards["A"] = value
            if self.many and value in TARGETED_VALUES:
                targets["A"] = self._target(target, str(value))
        elif reveals:
            raise Refused("You are not blocked: reveal a card.")
        cards.update(self._bot_values)
        if self.many:
            # Each bot's 0 or 7 names the target its bot chooses, in seat order (RULES.md 11.3).
            sim = self.sim
            for seat, shown in self._bot_values.items():
                if shown in TARGETED_VALUES:
                    i = sim.seats.index(seat)
                    why = "zero" if shown == 0 else "seven"
                    targets[seat] = sim.seats[sim.bots[i].target(sim, i, why)]  # type: ignore[union-attr]
        event: dict[str, Any] = {"type": "round", "cards": cards}
        if targets:
            event["targets"] = targets
        self._apply(event, False)
        kept: dict[str, Any] = {"kind": kind}
        if "A" in cards:
            kept["value"] = cards["A"]
        if "A" in targets:
            kept["target"] = targets["A"]
        return kept

    def _action(self, card: object, color: object, target: object = None) -> dict[str, Any]:
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
        elif self.many:
            event["target"] = self._target(target, CARD_LABELS[str(card)])
        self._apply(event, False)
        return {"kind": "action", **{k: v for k, v in event.items() if k not in ("type", "seat")}}

    def _apply(self, event: Mapping[str, Any], by_bot: bool) -> None:
        try:
            effects = self.sim.apply(event)
        except EngineError as refused:
            raise Refused(str(refused)) from None
        self.log.append(
            Entry(self.sim.duel.event_count, by_bot, tuple(self.sim.duel.describe(effects)))
        )

    def _bot_turns(self) -> None:
        """The bots answer their decisions and play their action cards until the person is
        asked something or free; their values for the next round stay hidden.

        At two seats this asks the one bot exactly as before more seats came (the same random
        numbers in the same order), so every stored two-seat duel replays as it was played."""
        self._bot_values = {}
        sim = self.sim
        seats = sim.seats
        while not self.finished:
            t = sim.table
            if t.out[PERSON]:
                self._bots_finish()
                return
            pending = t.pending
            if pending is not None:
                if pending.seat == PERSON:
                    return
                self._apply(sim.move_for(seats[pending.seat]), True)  # type: ignore[arg-type]
                continue
            values: dict[str, int] = {}
            actions: list[dict[str, Any]] = []
            for i in range(1, len(seats)):
                move = sim.move_for(seats[i])  # None for a seat that left, or has nothing
                if isinstance(move, dict):
                    actions.append(move)
                elif move is not None:
                    values[seats[i]] = move
            if actions:
                # One of the bots that play a card plays it (as Simulator.next_event picks).
                pick = (
                    actions[0] if len(actions) == 1 else actions[floor(sim.random() * len(actions))]
                )
                self._apply(pick, True)
                continue
            self._bot_values = values
            return

    def _bots_finish(self) -> None:
        """The person's side has left but other sides play on (RULES.md 11.7): the bots play
        to the end, a ``time_limit`` ending a duel that reaches the simulator's event cap."""
        sim = self.sim
        while not self.finished:
            if sim.table.events >= DEFAULT_MAX_EVENTS - 1:
                self._apply({"type": "time_limit", "reason": CAP_REASON}, True)
                break
            event = sim.next_event()
            if event is None:  # cannot happen: every seat in play has a bot
                break
            self._apply(event, True)


def start(ruleset: str, seed: int, name: str, seating: Seating = TWO_SEATS) -> Game:
    return Game(ruleset, seed, name, seating)


def replay(
    ruleset: str,
    seed: int,
    name: str,
    moves: Sequence[Mapping[str, Any]],
    seating: Seating = TWO_SEATS,
) -> Game:
    """The duel after ``moves``, played again from its seed (each was accepted once)."""
    game = Game(ruleset, seed, name, seating)
    for move in moves:
        game.play(move)
    return game


def traced_replay(
    ruleset: str,
    seed: int,
    name: str,
    moves: Sequence[Mapping[str, Any]],
    seating: Seating = TWO_SEATS,
) -> Any:
    """The duel after ``moves``, watched for the data migration 0007: the hands as dealt, each
    event with the hands before and after it and the random numbers the hands drew during it
    (``play.adapters.split_uno_dealt_import.OldDuel``)."""
    from play.adapters.split_uno_dealt_import import OldDuel, snapshot

    class Traced(Game):
        def _bot_turns(self) -> None:
            if not hasattr(self, "trace"):
                hands = self.sim.hands
                self.trace: list[dict[str, Any]] = []
                self.dealt = snapshot(hands)
                self.numbers: list[float] = []
                draw = hands.random

                def logged() -> float:
                    r = draw()
                    self.numbers.append(r)
                    return r

                hands.random = logged
            super()._bot_turns()

        def _apply(self, event: Mapping[str, Any], by_bot: bool) -> None:
            before = snapshot(self.sim.hands)
            mark = len(self.numbers)
            super()._apply(event, by_bot)
            self.trace.append(
                {
                    "event": dict(event),
                    "by_bot": by_bot,
                    "before": before,
                    "numbers": self.numbers[mark:],
                    "after": snapshot(self.sim.hands),
                }
            )

    game = Traced(ruleset, seed, name, seating)
    for move in moves:
        game.play(move)
    return OldDuel(game.dealt, game.trace, snapshot(game.sim.hands), game.state())
