"""The counts the engine tracks (RULES.md section 1) and the state shape of section 8.

A ``Table`` is small on purpose: a few lists of ints indexed by seat, the decks and discard
piles, the pending decision and the outcome. ``Duel.apply`` takes a ``snapshot`` of it before
the rules change anything and ``restore``s it if the event fails for any reason, which is what
makes an illegal event (or a bug) change nothing.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from .constants import DECISIONS
from .effects import RawEffect
from .rules import Rules


@dataclass(frozen=True, slots=True)
class Setup:
    """What never changes during a duel: the rules and the seats."""

    ruleset: str
    variants: tuple[str, ...]
    options: dict[str, Any]
    rules: Rules
    seats: tuple[str, ...]
    names: tuple[str, ...]
    index: dict[str, int]
    #: The record's ``teams`` as given (section 11.9); empty without the team variant.
    teams: tuple[tuple[str, ...], ...] = ()
    #: Per seat, the index of its side's first seat (section 11.6): the seat itself without
    #: teams. Two seats are on one side exactly when their entries are equal.
    team_of: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision the engine waits for (section 7).

    ``seat`` is asked; ``other`` is the other seat concerned (the player of the +2/+4, BLOCK,
    TRUTH or DARE being answered; the refuser a penalty falls on; the potential winner of a
    challenge); ``card`` is the card that raised it, where that matters.
    """

    decision: str
    seat: int
    other: int = -1
    card: str = ""

    @property
    def choices(self) -> tuple[str, ...]:
        return DECISIONS[self.decision]


#: ``Pending(...)``, shared: a frozen dataclass takes microseconds to build (every field goes
#: through ``object.__setattr__``), and a duel raises the same few decisions again and again.
#: Sharing is safe because a ``Pending`` is immutable and compared by value.
pending = functools.cache(Pending)


def _common_effects(
    seats: tuple[str, ...],
) -> tuple[tuple[tuple[RawEffect, ...], ...], tuple[RawEffect, ...]]:
    """The effects a round repeats most, built once per seating and shared: per seat, its
    reveal of each value 0–9, and its lost round. Sharing is safe because a raw effect is an
    immutable tuple; it saves a tuple built and freed for most of them (compiled, that is most
    of their cost)."""
    reveals = tuple(tuple(("reveal", seat, None, 0, 0, v) for v in range(10)) for seat in seats)
    losses = tuple(("lose_round", seat) for seat in seats)
    return reveals, losses


common_effects = functools.cache(_common_effects)


class Table:
    """Counts per seat, the two decks and discard piles, the pending decision, the outcome."""

    __slots__ = (
        "setup",
        "rules",
        "seats",
        "order",
        "num",
        "act",
        "streak",
        "blocked",
        "deck_n",
        "deck_a",
        "disc_n",
        "disc_a",
        "pending",
        "winner",
        "finish",
        "events",
        "rounds",
        "multi",
        "out",
        "team_of",
        "reveals",
        "losses",
    )

    def __init__(self, setup: Setup) -> None:
        """The deal of section 2: number cards to every seat, then ``starting_action_cards``."""
        rules = setup.rules
        n = len(setup.seats)
        self.setup = setup
        #: ``setup.rules`` and ``setup.seats``, one attribute away: the rules read them on
        #: nearly every event.
        self.rules = rules
        self.seats = setup.seats
        #: The seat indices in seating order, for loops: cheaper than ``enumerate`` or
        #: ``range`` on every event.
        self.order = tuple(range(n))
        self.num = [rules.starting_number_cards] * n
        self.act = [0] * n
        for seat, count in rules.starting_action_cards:
            self.act[setup.index[seat]] = count
        self.streak = [0] * n
        self.blocked = [False] * n
        self.deck_n = rules.number_pool - rules.starting_number_cards * n
        self.deck_a = rules.action_pool - sum(self.act)
        self.disc_n = 0
        self.disc_a = 0
        self.pending: Pending | None = None
        self.winner = -1
        self.finish: str | None = None
        self.events = 0
        self.rounds = 0
        #: More than two seats (section 11): the rules take their general paths.
        self.multi = n > 2
        #: Per seat, whether its side has left (section 11.7). A tuple, replaced and never
        #: changed in place, so that a snapshot holds it as one value.
        self.out: tuple[bool, ...] = (False,) * n
        self.team_of = setup.team_of or tuple(range(n))
        #: ``reveals[i][v]``: seat ``i`` reveals ``v``; ``losses[i]``: seat ``i`` loses the
        #: round (``common_effects``).
        self.reveals, self.losses = common_effects(setup.seats)

    def copy(self) -> Table:
        """An independent table with the same values (its lists are fresh)."""
        other = Table(self.setup)
        other.restore(self.snapshot())
        return other

    def snapshot(self) -> tuple[Any, ...]:
        """Every value of the table in one flat tuple, for ``restore``.

        One tuple is far cheaper to build than a copy of the table (four lists and a new
        object), and ``Duel.apply`` takes one before every event. Two seats (nearly every
        event) name their eight per-seat values one by one: a single allocation, where
        unpacking the four lists costs four list extensions (about a quarter of the cost of
        a simple round, compiled).
        """
        # Read as lists of objects: compiled, each value is then copied as it is, where a
        # list of whole numbers would have it unboxed and boxed again.
        num: list[Any] = self.num
        act: list[Any] = self.act
        streak: list[Any] = self.streak
        blocked: list[Any] = self.blocked
        if not self.multi:
            return (
                num[0],
                num[1],
                act[0],
                act[1],
                streak[0],
                streak[1],
                blocked[0],
                blocked[1],
                self.deck_n,
                self.deck_a,
                self.disc_n,
                self.disc_a,
                self.pending,
                self.winner,
                self.finish,
                self.events,
                self.rounds,
                self.out,
                self.setup,
            )
        return (
            *num,
            *act,
            *streak,
            *blocked,
            self.deck_n,
            self.deck_a,
            self.disc_n,
            self.disc_a,
            self.pending,
            self.winner,
            self.finish,
            self.events,
            self.rounds,
            self.out,
            self.setup,
        )

    def restore(self, saved: tuple[Any, ...]) -> None:
        """Put the table back as it was at ``snapshot``: every slot, even one a bug rebound
        (``setup``, ``rules``, ``seats``, ``order`` come from the saved set-up; the lists are
        fresh), so that a failed event leaves nothing behind."""
        n = (len(saved) - 11) // 4  # four values per seat, then eleven more
        self.num = list(saved[0:n])
        self.act = list(saved[n : 2 * n])
        self.streak = list(saved[2 * n : 3 * n])
        self.blocked = list(saved[3 * n : 4 * n])
        (
            self.deck_n,
            self.deck_a,
            self.disc_n,
            self.disc_a,
            self.pending,
            self.winner,
            self.finish,
            self.events,
            self.rounds,
            self.out,
            self.setup,
        ) = saved[4 * n :]
        self.rules = self.setup.rules
        self.seats = self.setup.seats
        self.order = tuple(range(n))
        self.multi = n > 2
        self.team_of = self.setup.team_of or self.order
        self.reveals, self.losses = common_effects(self.seats)

    # -- the primitives every rule is made of (section 3, "Draws never exceed ...") --------

    def draw(
        self,
        i: int,
        number: int,
        action: int,
        fx: list[RawEffect],
        cause: str,
        source: int = -1,
    ) -> None:
        """Seat ``i`` draws up to ``number`` number and ``action`` action cards: an empty deck
        means "draw 0"."""
        deck_n = self.deck_n
        n = number if number <= deck_n else deck_n
        # ``x[i] = x[i] + n`` rather than ``x[i] += n`` here and below: compiled, the first
        # adds two whole numbers, the second goes through Python's generic in-place add.
        if n:
            self.deck_n = deck_n - n
            num = self.num
            num[i] = num[i] + n
        a = 0
        if action:
            # Most draws are number cards only: the action deck is not looked at for them.
            deck_a = self.deck_a
            a = action if action <= deck_a else deck_a
            if a:
                self.deck_a = deck_a - a
                act = self.act
                act[i] = act[i] + a
        seats = self.seats
        fx.append(
            (
                "draw",
                seats[i],
                None,
                n,
                a,
                None,
                cause,
                seats[source] if source >= 0 else None,
                n < number or a < action,
            )
        )

    def shed(self, i: int, fx: list[RawEffect], cause: str, source: int = -1) -> None:
        """Seat ``i`` sheds 1 number card to the discard pile; never below 0."""
        num = self.num
        n = 1 if num[i] > 0 else 0
        num[i] = num[i] - n
        self.disc_n += n
        seats = self.seats
        fx.append(
            ("shed", seats[i], None, n, 0, None, cause, seats[source] if source >= 0 else None)
        )

    def spend_action(self, i: int) -> None:
        """Seat ``i`` discards one action card (played, countered, or used to challenge)."""
        act = self.act
        act[i] = act[i] - 1
        self.disc_a += 1

    def opponent(self, i: int) -> int:
        """The other seat; with two seats every target is implied (section 8)."""
        return 1 - i

    # -- sides (section 11): a seat, or in a team game a team --------------------------------

    def is_opponent(self, i: int, j: int) -> bool:
        """Whether ``j`` is an opponent of ``i``: in play, and not ``i`` or a team-mate."""
        return not self.out[j] and self.team_of[j] != self.team_of[i]

    def opponents(self, i: int) -> list[int]:
        """Seat ``i``'s opponents in seat order."""
        team_of, out = self.team_of, self.out
        mine = team_of[i]
        return [j for j in self.order if team_of[j] != mine and not out[j]]

    def sides(self) -> list[list[int]]:
        """The sides in play, each as its seats in seat order, ordered by their first seat."""
        by_lead: dict[int, list[int]] = {}
        for j in self.order:
            if not self.out[j]:
                by_lead.setdefault(self.team_of[j], []).append(j)
        return [by_lead[lead] for lead in sorted(by_lead)]

    def end(
        self,
        winner: int,
        finish: str,
        fx: list[RawEffect],
        *,
        other: int = -1,
        reason: str | None = None,
        count: int = 0,
    ) -> None:
        """The duel is over (section 6): nothing is awaited any more."""
        seats = self.seats
        self.pending = None
        self.winner = winner
        self.finish = finish
        fx.append(
            (
                "finish",
                seats[winner] if winner >= 0 else None,
                seats[other] if other >= 0 else None,
                count,
                0,
                reason,
                finish,
            )
        )

    # -- reading -------------------------------------------------------------------------

    @property
    def status(self) -> str:
        if self.finish is not None:
            return "finished"
        return "awaiting" if self.pending is not None else "playing"

    def awaiting(self) -> dict[str, Any] | None:
        p = self.pending
        if p is None:
            return None
        return {
            "decision": p.decision,
            "seat": self.setup.seats[p.seat],
            "choices": list(DECISIONS[p.decision]),
        }

    def as_state(self) -> dict[str, Any]:
        """The state of section 8, as a fresh dict of plain JSON values."""
        setup = self.setup
        num, act, streak, blocked = self.num, self.act, self.streak, self.blocked
        state: dict[str, Any] = {
            "ruleset": setup.ruleset,
            "status": self.status,
            "events": self.events,
            "rounds": self.rounds,
            "decks": {"number": self.deck_n, "action": self.deck_a},
            "discards": {"number": self.disc_n, "action": self.disc_a},
            "seats": {
                seat: {
                    "name": setup.names[i],
                    "number_cards": num[i],
                    "action_cards": act[i],
                    "streak": streak[i],
                    "blocked": blocked[i],
                }
                for i, seat in enumerate(setup.seats)
            },
            "awaiting": self.awaiting(),
            "winner": setup.seats[self.winner] if self.winner >= 0 else None,
            "finish": self.finish,
        }
        if self.multi:
            # Section 11.11: a sixth key per seat with more than two seats only.
            for i, seat in enumerate(setup.seats):
                state["seats"][seat]["out"] = self.out[i]
        return state
