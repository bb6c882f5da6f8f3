"""Whole duels played by bots through the real engine, fast and reproducibly.

A ``Simulator`` holds a ``Duel``, concrete ``Hands`` kept in step with it, and a bot (or
nobody, for a seat a person plays) per seat. At each moment it asks the bots for their moves
and applies the resulting event through the duel's checked path — the very code ``Duel.apply``
runs, which refuses anything the rules forbid — then follows the event's effects in the hands.

How a moment is played (docs/rules.md, "Bots and simulation"): when the engine waits for a
decision, the asked seat's bot answers. Otherwise every seat says at once what it would do — play
an action card, or reveal a given value if a round is played (a blocked seat reveals nothing).
If any seat wants to play an action card, one of them, picked uniformly, plays it and the others
are asked again afterwards; otherwise the round is played with every revealed value.

``play_duel`` plays one whole duel; ``simulate`` plays many and sums them up in a ``Summary``.
"""

from __future__ import annotations

import functools
import io
import json
import multiprocessing
import os
import random
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from math import floor
from typing import IO, Any

from .bots import Bot, Move, make_bot
from .constants import CARDS, DECISIONS, TRUTH_DARE
from .duel import Duel
from .effects import Effect, RawEffect, build
from .hands import (
    DEFAULT_SPREAD,
    KIND,
    Hands,
    HandsOutOfStep,
    Spread,
    number_composition,
    spread_weights,
)
from .state import Setup

#: A duel that lasts this many events is ended by a referee ``time_limit`` (the last event).
DEFAULT_MAX_EVENTS = 1000
#: The ``reason`` of that ending, so that a record says why it ended.
CAP_REASON = "simulation event cap"

_DRAW_TWO, _DRAW_FOUR, _BLOCK = KIND["draw_two"], KIND["draw_four"], KIND["block"]
#: A counter's or challenge's choices by [holds a +2][holds a +4], in DECISIONS' order.
_DRAW_CHOICES = (
    (("pass",), ("draw_four", "pass")),
    (("draw_two", "pass"), ("draw_two", "draw_four", "pass")),
)
#: The action kinds the rules allow, by ``truth_dare``.
_KINDS = {
    allowed: tuple(k for k, card in enumerate(CARDS) if allowed or card not in TRUTH_DARE)
    for allowed in (False, True)
}

BotSpec = str | Bot | None


@functools.lru_cache(maxsize=64)
def _composition(pool: int, weights: tuple[int, ...]) -> tuple[int, ...]:
    # Cached since every simulated duel starts by asking for it.
    return tuple(number_composition(pool, weights))


class IllegalMove(Exception):
    """A bot chose a move that is not among the engine's legal moves (``check`` mode)."""


class SimulatedDuel:
    """One simulated duel: its record (RULES.md section 8), final state and events in order.

    ``record``, ``state`` and ``events`` are fresh plain JSON, built on first use (a long run
    that only counts wins never pays for them).
    """

    __slots__ = ("duel", "capped", "bots", "_record", "_state")

    def __init__(self, duel: Duel, capped: bool, bots: dict[str, str]) -> None:
        self.duel = duel
        #: True when the duel was ended by the event cap (a ``time_limit`` with CAP_REASON).
        self.capped = capped
        #: Seat letter -> bot name.
        self.bots = bots
        self._record: dict[str, Any] | None = None
        self._state: dict[str, Any] | None = None

    @property
    def record(self) -> dict[str, Any]:
        if self._record is None:
            self._record = self.duel.record()
        return self._record

    @property
    def state(self) -> dict[str, Any]:
        if self._state is None:
            self._state = self.duel.state()
        return self._state

    @property
    def events(self) -> list[dict[str, Any]]:
        """The events in order, as the record holds them."""
        return self.record["events"]  # type: ignore[no-any-return]

    # The next three read the engine's table, as ``state`` does, without building the whole
    # state: a run that only sums duels up reads them once per duel.

    @property
    def winner(self) -> str | None:
        """The winning seat's letter, or None for a drawn duel (the state's ``winner``)."""
        t = self.duel._table
        return t.seats[t.winner] if t.winner >= 0 else None

    @property
    def winners(self) -> tuple[str, ...]:
        """Every seat of the winning side (in a team game the whole team), or () if drawn."""
        t = self.duel._table
        if t.winner < 0:
            return ()
        lead = t.team_of[t.winner]
        return tuple(seat for j, seat in enumerate(t.seats) if t.team_of[j] == lead)

    @property
    def finish(self) -> str:
        """How the duel ended (the state's ``finish``)."""
        return self.duel._table.finish  # type: ignore[return-value]

    @property
    def event_count(self) -> int:
        return self.duel.event_count

    @property
    def rounds(self) -> int:
        return self.duel._table.rounds

    def __repr__(self) -> str:
        return f"<SimulatedDuel {self.bots} {self.finish}, winner {self.winner}>"


class Simulator:
    """A duel, its concrete hands and a bot per seat; see the module docstring.

    ``bots`` maps seat letters (or gives, in seat order) a bot name, a ``Bot``, or None for a
    seat played from outside: ``next_event`` then returns None when that seat has to act, and
    ``move_for`` gives a bot seat's own move. A duel that already has events gets hands guessed
    to match its counts (``Hands.matching``). With a seat played from outside the hands are not
    strict: that seat's modelled hand is corrected when an event names a card it lacks. With
    ``check`` every bot move is first looked up in ``duel.legal()``, and the hands are compared
    with the engine's counts after every event.

    Attributes bots read: ``rng`` and ``random`` (its ``random`` method), ``hands``, ``table``
    (the engine's counts, read-only), ``rules``, ``kinds`` (the action kinds the rules allow,
    as indices into CARDS), ``composition`` (number cards per value in the pool), ``seen`` (per
    seat, how many of each value it has revealed so far; kept when a bot ``watches``) and
    ``last_event``.
    """

    def __init__(
        self,
        duel: Duel,
        bots: Mapping[str, BotSpec] | Sequence[BotSpec],
        rng: random.Random | None = None,
        spread: Spread = DEFAULT_SPREAD,
        hands: Hands | None = None,
        check: bool = False,
    ) -> None:
        seats = duel._setup.seats
        if isinstance(bots, Mapping):
            specs = [bots.get(seat) for seat in seats]
            unknown = set(bots) - set(seats)
            if unknown:
                raise ValueError(f"bots name seats {sorted(unknown)} not in this duel")
        else:
            specs = list(bots)
            if len(specs) != len(seats):
                raise ValueError(f"{len(specs)} bots for {len(seats)} seats")
        self.duel = duel
        self.seats = seats
        self.order = tuple(range(len(seats)))
        #: More than two seats (RULES.md section 11): targets are chosen and named.
        self.many = len(seats) > 2
        self.bots: list[Bot | None] = [None if b is None else make_bot(b) for b in specs]
        self.rng = rng if rng is not None else random.Random()
        self.random = self.rng.random
        self.rules = duel.rules
        if hands is None:
            strict = all(b is not None for b in self.bots)
            if duel.event_count == 0:
                hands = Hands.deal(self.rules, seats, self.rng, spread, strict)
            else:
                hands = Hands.matching(duel, self.rng, spread, strict)
        self.hands = hands
        self.check = check
        self.table = duel._table
        self.kinds = _KINDS[self.rules.truth_dare]
        self.composition = _composition(self.rules.number_pool, spread_weights(spread))
        self.seen: list[list[int]] = [[0] * 10 for _ in seats]
        for past in duel._events:
            # A duel under way: what each seat has shown so far is public.
            for seat, value in past.get("cards", {}).items():
                self.seen[seats.index(seat)][value] += 1
        self._watch = any(b is not None and b.watches for b in self.bots)
        #: Whether a round needs more than the hands' update (besides ``check``): its revealed
        #: values fitted to a hand that is not strict, or noted for a watching bot.
        self._round_work = not hands.strict or self._watch
        #: The last event applied, as the record keeps it (None before the first).
        self.last_event: dict[str, Any] | None = duel._events[-1] if duel._events else None
        if check:
            hands.check(duel.state())

    # -- choosing --------------------------------------------------------------------------

    def choices_for(self, i: int, decision: str) -> tuple[str, ...]:
        """The engine's choices for ``decision`` that seat ``i``'s hand allows (section 7)."""
        if decision == "counter" or decision == "challenge":
            held = self.hands.act[i]
            return _DRAW_CHOICES[held[_DRAW_TWO] > 0][held[_DRAW_FOUR] > 0]
        if decision == "block_counter":
            return ("block", "pass") if self.hands.act[i][_BLOCK] else ("pass",)
        return DECISIONS[decision]

    def action_event(
        self, i: int, kind: int, color: str = "red", target: int = -1
    ) -> dict[str, Any]:
        """The event of seat ``i`` playing an action card of ``kind`` (an index into CARDS).

        With more than two seats a card that needs a target names ``target``, or, when it is
        -1, the one the seat's bot chooses (``Bot.target``)."""
        card = CARDS[kind]
        if card == "color_change":
            return {"type": "action", "seat": self.seats[i], "card": card, "color": color}
        if self.many:
            if target < 0:
                bot = self.bots[i]
                target = bot.target(self, i, card) if bot is not None else self.opponents(i)[0]
            return {"type": "action", "seat": self.seats[i], "card": card,
                    "target": self.seats[target]}  # fmt: skip
        return {"type": "action", "seat": self.seats[i], "card": card}

    def opponents(self, i: int) -> list[int]:
        """Seat ``i``'s opponents in seat order (in play, not team-mates; section 11)."""
        return self.table.opponents(i)

    def side_count(self, j: int) -> int:
        """The number cards of seat ``j``'s side: its team's sum, or its own count."""
        t = self.table
        if not self.duel._setup.teams:
            return t.num[j]
        lead = t.team_of[j]
        return sum(t.num[k] for k in self.order if t.team_of[k] == lead)

    def move_for(self, seat: str) -> Move:
        """What the bot of ``seat`` does now: a respond or action event to apply, the value it
        reveals if a round is played now, or None (nothing to do, or blocked with nothing to
        play). For a bot facing a person: apply an event at once; keep a value until the
        person's card is known and play the round with both."""
        i = self.seats.index(seat)
        bot = self.bots[i]
        if bot is None:
            raise ValueError(f"seat {seat} has no bot")
        t = self.table
        if t.finish is not None or t.out[i]:
            return None
        p = t.pending
        if p is not None:
            if p.seat != i:
                return None
            choice = bot.respond(self, i, p.decision, self.choices_for(i, p.decision))
            return {"type": "respond", "seat": seat, "choice": choice}
        return bot.free(self, i)

    def next_event(self) -> dict[str, Any] | None:
        """The event the bots play next, or None when the duel is over or a seat played from
        outside must act."""
        t = self.table
        if t.finish is not None:
            return None
        p = t.pending
        seats = self.seats
        bots = self.bots
        if p is not None:
            bot = bots[p.seat]
            if bot is None:
                return None
            choice = bot.respond(self, p.seat, p.decision, self.choices_for(p.seat, p.decision))
            return {"type": "respond", "seat": seats[p.seat], "choice": choice}
        cards: dict[str, int] = {}
        actions: list[dict[str, Any]] | None = None  # built only when a bot plays a card
        outside = False
        out = t.out
        # Every seat is asked, in seat order, even once one plays a card: the same duel then
        # draws the same random numbers.
        for i in self.order:
            if out[i]:
                continue  # a departed side plays nothing (section 11.7)
            bot = bots[i]
            if bot is None:
                outside = True
                continue
            move = bot.free(self, i)
            if move is None:
                continue
            if type(move) is int:
                cards[seats[i]] = move
            elif actions is None:
                actions = [move]  # type: ignore[list-item]
            else:
                actions.append(move)  # type: ignore[arg-type]
        if actions is not None:
            if len(actions) == 1:
                return actions[0]
            return actions[floor(self.random() * len(actions))]
        if outside:
            return None
        if self.many:
            return self._round_of_many(cards)
        return {"type": "round", "cards": cards}

    def _round_of_many(self, cards: dict[str, int]) -> dict[str, Any]:
        """A round with more than two seats: each 0 and 7 names the target its bot chooses."""
        targets = {}
        index = self.hands.index
        for seat, value in cards.items():
            if value == 0 or value == 7:
                i = index[seat]
                bot = self.bots[i]
                if bot is not None:
                    why = "zero" if value == 0 else "seven"
                    targets[seat] = self.seats[bot.target(self, i, why)]
        if targets:
            return {"type": "round", "cards": cards, "targets": targets}
        return {"type": "round", "cards": cards}

    # -- applying --------------------------------------------------------------------------

    def apply(self, event: Mapping[str, Any]) -> list[Effect]:
        """Apply ``event`` (a bot's, or a person's) and keep the hands in step; returns its
        effects as ``Duel.apply`` does. Raises EngineError, changing nothing, if refused.
        (With ``check``, bot moves are looked up in the legal moves by ``step`` and ``run``.)"""
        return build(self._advance(event))

    def _advance(self, event: Mapping[str, Any], owned: bool = False) -> list[RawEffect]:
        """Apply ``event`` through the duel's checked path and follow it in the hands. With
        ``owned`` (an event the simulator built for its bots and never changes again) the
        record may keep the event itself rather than a copy, once the engine has checked every
        field of it."""
        duel = self.duel
        # The checked path that Duel.apply wraps, without building Effect objects.
        fx = duel._apply(event, owned)
        self.table = duel._table
        hands = self.hands
        # The event as the record keeps it: the engine accepted it, so it is well-formed.
        self.last_event = applied = duel._events[-1]
        if (self._round_work or self.check) and applied["type"] == "round":
            cards = applied["cards"]
            if not hands.strict or self.check:
                hands.prepare_round(cards)
            if self._watch:
                seen = self.seen
                index = hands.index
                for seat, value in cards.items():
                    seen[index[seat]][value] += 1
        hands.update(applied, fx, self)
        if self.check:
            hands.check(duel.state())
        return fx

    # The simulator is the hands' ``Chooser``: a seat's chosen cards are its bot's choice.

    def shed_choice(self, i: int) -> int:
        bot = self.bots[i]
        return self.hands.random_card(i) if bot is None else bot.shed(self, i)

    def discard_choice(self, i: int) -> int:
        bot = self.bots[i]
        if bot is None:
            held = self.hands.act[i]
            return next(k for k in range(len(CARDS)) if held[k])
        return bot.discard_action(self, i)

    def _check_legal(self, event: Mapping[str, Any]) -> None:
        legal = self.duel.legal()
        kind = event.get("type")
        if kind == "round":
            ok = legal.can_play_round and sorted(event["cards"]) == sorted(legal.round_seats)
        elif kind == "action":
            ok = event["card"] in legal.actions.get(event["seat"], ())
            if "target" in event:
                ok = ok and event["target"] in legal.targets.get(event["seat"], ())
        elif kind == "respond":
            awaiting = legal.awaiting or {}
            ok = awaiting.get("seat") == event["seat"] and event["choice"] in awaiting["choices"]
        else:
            ok = kind in legal.endings
        if not ok:
            raise IllegalMove(f"{event} is not among the legal moves {legal}")

    def step(self) -> dict[str, Any] | None:
        """Play the bots' next event; returns it, or None when there is none to play."""
        event = self.next_event()
        if event is not None:
            if self.check:
                self._check_legal(event)
            self._advance(event)
        return event

    def run(self, max_events: int = DEFAULT_MAX_EVENTS) -> SimulatedDuel:
        """Play until the duel ends; a duel reaching ``max_events - 1`` events is ended by a
        ``time_limit`` (reason CAP_REASON) as its ``max_events``-th event."""
        if max_events < 1:
            raise ValueError("max_events must be at least 1")
        duel = self.duel
        capped = False
        last = max_events - 1
        check = self.check
        # Methods called as methods: compiled, that is a direct call, where a bound method
        # kept in a local would go through Python's generic call.
        while self.table.finish is None:
            if self.table.events >= last:
                self._advance({"type": "time_limit", "reason": CAP_REASON})
                capped = True
                break
            event = self.next_event()
            if event is None:
                raise ValueError("a seat without a bot must act: run needs a bot in every seat")
            if check:
                self._check_legal(event)
            self._advance(event, True)
        names = {s: (b.name if b else "") for s, b in zip(self.seats, self.bots, strict=True)}
        return SimulatedDuel(duel, capped, names)


def play_duel(
    ruleset: str,
    seats: Mapping[str, str],
    bots: Mapping[str, str | Bot] | Sequence[str | Bot] = ("heuristic", "random"),
    rng: random.Random | None = None,
    variants: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    max_events: int = DEFAULT_MAX_EVENTS,
    spread: Spread = DEFAULT_SPREAD,
    check: bool = False,
    teams: Sequence[Sequence[str]] | None = None,
) -> SimulatedDuel:
    """Play one whole duel between bots (one per seat, in seat order or by seat letter).

    The same ``rng`` state always gives the same duel. Raises MalformedRecord for a bad
    ruleset, variants, options, seats or teams, as ``Duel.new`` does.
    """
    duel = Duel.new(ruleset, seats, variants, options, teams)
    return Simulator(duel, bots, rng, spread, check=check).run(max_events)


# -- many duels ----------------------------------------------------------------------------


def duel_rng(seed: int | str, k: int) -> random.Random:
    """The random source of duel ``k`` (0-based) of a run seeded ``seed``: any duel of a run
    can be played again alone."""
    return random.Random(f"split-uno:{seed}:{k}")


@dataclass
class Summary:
    """What many simulated duels came to."""

    ruleset: str
    seed: int | str
    duels: int = 0
    events: int = 0
    rounds: int = 0
    #: Wins by seat letter; drawn duels under None.
    seat_wins: Counter[str | None] = field(default_factory=Counter)
    #: Duels played and won by bot name, and by (bot name, seat letter).
    bot_duels: Counter[str] = field(default_factory=Counter)
    bot_wins: Counter[str] = field(default_factory=Counter)
    bot_seat_duels: Counter[tuple[str, str]] = field(default_factory=Counter)
    bot_seat_wins: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: How duels ended: the state's ``finish``, with the event cap's endings as "event cap".
    endings: Counter[str] = field(default_factory=Counter)
    #: Wins by team (its seat letters, e.g. "AC") in a team game; drawn duels under None.
    team_wins: Counter[str | None] = field(default_factory=Counter)

    def add(self, played: SimulatedDuel) -> None:
        self.duels += 1
        self.events += played.event_count
        self.rounds += played.rounds
        # In a team game every seat of the winning team wins (RULES.md section 11.9).
        winners = played.winners if played.winner is not None else ()
        if not winners:
            self.seat_wins[None] += 1
        for seat in winners:
            self.seat_wins[seat] += 1
        for seat, bot in played.bots.items():
            # A bot in several seats counts one duel, and one win if any of them won.
            self.bot_seat_duels[(bot, seat)] += 1
            if seat in winners:
                self.bot_seat_wins[(bot, seat)] += 1
        for bot in set(played.bots.values()):
            self.bot_duels[bot] += 1
            if any(played.bots[seat] == bot for seat in winners):
                self.bot_wins[bot] += 1
        self.endings["event cap" if played.capped else played.finish] += 1
        if played.duel._setup.teams:
            self.team_wins["".join(winners) if winners else None] += 1

    def merge(self, other: Summary) -> None:
        """Add the duels of ``other`` (another part of the same run) to this summary."""
        self.duels += other.duels
        self.events += other.events
        self.rounds += other.rounds
        self.seat_wins.update(other.seat_wins)
        self.bot_duels.update(other.bot_duels)
        self.bot_wins.update(other.bot_wins)
        self.bot_seat_duels.update(other.bot_seat_duels)
        self.bot_seat_wins.update(other.bot_seat_wins)
        self.endings.update(other.endings)
        self.team_wins.update(other.team_wins)

    def as_dict(self) -> dict[str, Any]:
        """The summary as plain JSON."""
        n = max(self.duels, 1)
        return {
            "ruleset": self.ruleset,
            "seed": self.seed,
            "duels": self.duels,
            "wins_by_seat": {str(s): w for s, w in sorted(self.seat_wins.items(), key=_seat_key)},
            "wins_by_bot": {
                bot: {"duels": self.bot_duels[bot], "wins": self.bot_wins[bot]}
                for bot in sorted(self.bot_duels)
            },
            "wins_by_bot_and_seat": {
                f"{bot}@{seat}": {"duels": d, "wins": self.bot_seat_wins[(bot, seat)]}
                for (bot, seat), d in sorted(self.bot_seat_duels.items())
            },
            "average_events": self.events / n,
            "average_rounds": self.rounds / n,
            "endings": dict(sorted(self.endings.items())),
        } | (
            {"wins_by_team": {str(k): w for k, w in sorted(self.team_wins.items(), key=_seat_key)}}
            if self.team_wins
            else {}
        )

    def text(self) -> str:
        """The summary in a few lines of plain text."""
        n = max(self.duels, 1)

        def share(k: int, of: int = n) -> str:
            return f"{k} ({100 * k / max(of, 1):.1f}%)"

        seats = "  ".join(
            f"{'drawn' if s is None else s} {share(w)}"
            for s, w in sorted(self.seat_wins.items(), key=_seat_key)
        )
        bots = "  ".join(
            f"{bot} {share(self.bot_wins[bot], self.bot_duels[bot])}"
            for bot in sorted(self.bot_duels)
        )
        by_seat = "  ".join(
            f"{bot} in {seat} {share(self.bot_seat_wins[(bot, seat)], d)} of {d}"
            for (bot, seat), d in sorted(self.bot_seat_duels.items())
        )
        endings = ", ".join(f"{how} {k}" for how, k in sorted(self.endings.items()))
        teams = "  ".join(
            f"{'drawn' if k is None else k} {share(w)}"
            for k, w in sorted(self.team_wins.items(), key=_seat_key)
        )
        return "\n".join(
            [
                f"duels: {self.duels} ({self.ruleset}, seed {self.seed})",
                *([f"wins by team: {teams}"] if teams else []),
                f"wins by seat: {seats}",
                f"wins by bot: {bots}",
                f"wins by bot and seat: {by_seat}",
                f"average events: {self.events / n:.1f}  average rounds: {self.rounds / n:.1f}",
                f"ended by: {endings}",
            ]
        )


def _seat_key(item: tuple[str | None, int]) -> str:
    return "~" if item[0] is None else item[0]


def seatings(bots: Sequence[str], count: int, swap: bool) -> Iterator[list[str]]:
    """The bots in seat order for each duel: as given, or with ``swap`` moved round one seat
    per duel (two seats: reversed every odd-numbered duel), so that each bot sits in each seat
    equally often."""
    for k in range(count):
        yield seating(bots, k, swap)


def seating(bots: Sequence[str], k: int, swap: bool) -> list[str]:
    """The bots in seat order for duel ``k`` of a run (``seatings``)."""
    n = len(bots)
    if n == 2:
        return list(reversed(bots)) if swap and k % 2 else list(bots)
    r = k % n if swap else 0
    return list(bots[n - r :]) + list(bots[: n - r])


def simulate(
    ruleset: str,
    count: int,
    seed: int | str = 0,
    bots: Sequence[str] = ("random", "random"),
    swap: bool = False,
    variants: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    max_events: int = DEFAULT_MAX_EVENTS,
    spread: Spread = DEFAULT_SPREAD,
    records: IO[str] | None = None,
    check: bool = False,
    progress: Callable[[int, int], None] | None = None,
    teams: Sequence[Sequence[str]] | None = None,
    jobs: int = 1,
) -> Summary:
    """Play ``count`` duels between ``bots`` (names, in seat order) and sum them up.

    Duel ``k`` uses ``duel_rng(seed, k)``, so a run is the same for the same arguments. Each
    seat is named after its bot. ``records`` receives one record per line (JSON Lines);
    ``progress(done, count)`` is called after each duel.

    ``jobs`` above 1 plays the duels in that many processes, each a run of consecutive ``k``;
    since duel ``k`` depends on ``seed`` and ``k`` alone, the summary and the records are
    exactly those of one process (the records in the same order). ``progress`` is then called
    as each run of duels comes back.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    plan = _Plan(
        ruleset, seed, tuple(bots), swap, tuple(variants),
        None if options is None else dict(options), max_events, spread, check,
        None if teams is None else tuple(tuple(team) for team in teams),
    )  # fmt: skip
    if jobs > 1 and count > 1:
        return _simulate_in_processes(plan, count, jobs, records, progress)
    summary = Summary(ruleset=ruleset, seed=seed)
    plan.play(summary, 0, count, records, progress, count)
    return summary


class _Plan:
    """The arguments of a run of ``simulate``, and duels ``start`` to ``stop`` of it played."""

    def __init__(
        self,
        ruleset: str,
        seed: int | str,
        bots: tuple[str, ...],
        swap: bool,
        variants: tuple[str, ...],
        options: dict[str, Any] | None,
        max_events: int,
        spread: Spread,
        check: bool,
        teams: tuple[tuple[str, ...], ...] | None,
    ) -> None:
        self.ruleset = ruleset
        self.seed = seed
        self.bots = bots
        self.swap = swap
        self.variants = variants
        self.options = options
        self.max_events = max_events
        self.spread = spread
        self.check = check
        self.teams = teams
        self.setups: dict[tuple[str, ...], Setup] = {}

    def setup(self, seated: list[str]) -> Setup:
        """The set-up of a duel with these bots in seat order (each seat named after its bot).

        Read once per seating: it is immutable and a duel shares it, and reading a header
        costs about as much as a tenth of a random-bot duel. Raises MalformedRecord as
        ``Duel.new`` does."""
        key = tuple(seated)
        setup = self.setups.get(key)
        if setup is None:
            names = dict(zip("ABCDEF"[: len(seated)], seated, strict=True))
            duel = Duel.new(self.ruleset, names, self.variants, self.options, self.teams)
            setup = self.setups[key] = duel._setup
        return setup

    def args(self) -> tuple[Any, ...]:
        """The arguments again, plain data that another process receives."""
        return (
            self.ruleset, self.seed, self.bots, self.swap, self.variants, self.options,
            self.max_events, self.spread, self.check, self.teams,
        )  # fmt: skip

    def play(
        self,
        summary: Summary,
        start: int,
        stop: int,
        records: IO[str] | None,
        progress: Callable[[int, int], None] | None,
        count: int,
    ) -> None:
        """Play duels ``start`` to ``stop - 1`` into ``summary`` (``records``, ``progress``
        as ``simulate`` says; ``count`` is the run's whole number of duels)."""
        for k in range(start, stop):
            seated = seating(self.bots, k, self.swap)
            simulator = Simulator(Duel(self.setup(seated)), seated, duel_rng(self.seed, k),
                                  self.spread, check=self.check)  # fmt: skip
            played = simulator.run(self.max_events)
            summary.add(played)
            if records is not None:
                records.write(json.dumps(played.record, separators=(",", ":")) + "\n")
            if progress is not None:
                progress(k + 1, count)


def _play_part(task: tuple[tuple[Any, ...], int, int, bool]) -> tuple[Summary, str | None]:
    """In a worker process: duels ``start`` to ``stop - 1`` of a run, summed up, and their
    records as JSON Lines when asked."""
    args, start, stop, want_records = task
    plan = _Plan(*args)
    summary = Summary(ruleset=plan.ruleset, seed=plan.seed)
    out = io.StringIO() if want_records else None
    plan.play(summary, start, stop, out, None, stop)
    return summary, None if out is None else out.getvalue()


def _start_method() -> str:
    """How worker processes start: forked, the quickest (about 10 ms, the engine already
    loaded), when this process runs a single thread; otherwise from a clean server process
    ("forkserver", about 0.1 s here; "spawn" where there is none), so that a caller with
    threads (a test runner, a server) is never forked with another thread holding a lock."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and _threads() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _threads() -> int:
    """This process's threads, those started outside ``threading`` too (a test runner's, a
    library's), as the operating system counts them where it says (Linux), else as
    ``threading`` knows them."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def _simulate_in_processes(
    plan: _Plan,
    count: int,
    jobs: int,
    records: IO[str] | None,
    progress: Callable[[int, int], None] | None,
) -> Summary:
    """``simulate`` in ``jobs`` processes (see there)."""
    # Whatever the arguments get wrong is said here, as one process would say it, before any
    # worker starts: the set-up, the spread, the event cap.
    plan.setup(seating(plan.bots, 0, plan.swap))
    spread_weights(plan.spread)
    for name in plan.bots:
        make_bot(name)
    if plan.max_events < 1:
        raise ValueError("max_events must be at least 1")
    # Eight parts per process: the processes stay busy to the end however long each duel
    # is, and the progress bar moves; parts are consecutive, so results come back in order.
    parts = min(count, jobs * 8)
    bounds = [count * p // parts for p in range(parts + 1)]
    tasks = [(plan.args(), bounds[p], bounds[p + 1], records is not None) for p in range(parts)]
    summary = Summary(ruleset=plan.ruleset, seed=plan.seed)
    context = multiprocessing.get_context(_start_method())
    with ProcessPoolExecutor(max_workers=min(jobs, parts), mp_context=context) as pool:
        for p, (part, text) in enumerate(pool.map(_play_part, tasks)):
            summary.merge(part)
            if records is not None and text is not None:
                records.write(text)
            if progress is not None:
                progress(bounds[p + 1], count)
    return summary


__all__ = [
    "CAP_REASON",
    "DEFAULT_MAX_EVENTS",
    "HandsOutOfStep",
    "IllegalMove",
    "SimulatedDuel",
    "Simulator",
    "Summary",
    "duel_rng",
    "play_duel",
    "seating",
    "seatings",
    "simulate",
]
