"""Concrete hands for simulated duels: card values kept in step with the engine's counts.

The engine is count-based (RULES.md section 1); bots need to know which cards they hold. A
``Hands`` gives every seat concrete number cards (values 0–9) and action cards (by kind), deals
them from shuffled decks built from the pools, and follows each event's effects: draws take
cards from the decks, sheds and spent action cards go to the discards, steals and swaps move
cards between seats. Card identities never reach the engine; the engine never reaches into a
``Hands``.

Where the counts leave a concrete choice open, the readings are (docs/rules.md, "Bots and
simulation"):

- a 0 steals a uniformly random card of the victim's hand, except one copy of the value the
  victim revealed (it lies on the table);
- a round's winner, a tied seat and a ``paper`` loser shed the card they revealed;
- a COLOR CHANGE, TRUTH, DARE or BLOCK-battle shed, and the action card a REVERSE actor gives up
  under ``reverse_discard: "after"``, are chosen by the seat itself (its bot);
- under ``"after"`` the played REVERSE is not discarded when played (the engine keeps it in the
  count), so it travels with the actor's old hand to the target.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from math import floor
from typing import TYPE_CHECKING, Any, Final, Protocol

from .constants import CARDS
from .effects import RawEffect
from .rules import Rules

if TYPE_CHECKING:
    from .duel import Duel

#: Named value spreads: the relative frequency of the values 0–9 in the number pool.
SPREADS: dict[str, tuple[int, ...]] = {
    # Every value equally often: the simplest reading of a count-only pool of 108.
    "uniform": (1,) * 10,
    # A standard UNO deck's proportions: per colour one 0 and two of each of 1–9.
    "uno": (1,) + (2,) * 9,
}
DEFAULT_SPREAD = "uniform"

#: Seed 001's action deck (32 cards), then seed 002's five special cards (3 TRUTH, 2 DARE).
ACTION_WEIGHTS: dict[str, int] = {
    "block": 8,
    "reverse": 8,
    "draw_two": 8,
    "color_change": 4,
    "draw_four": 4,
}
TRUTH_DARE_WEIGHTS: dict[str, int] = {"truth": 3, "dare": 2}

#: Action card kinds are held as indices into CARDS.
KIND: Final[dict[str, int]] = {card: k for k, card in enumerate(CARDS)}

Spread = str | Sequence[int]

# ``Final``: compiled, a module constant is then read directly, not looked up by name in the
# module's dictionary on every use.
_REVEALED_SHEDS: Final = frozenset({"round_won", "tie", "revealed_discarded"})
_SPENDING_ANSWERS: Final = frozenset({"counter", "challenge"})
#: Effects that move no card (the draws and sheds that follow them do).
_SILENT: Final = frozenset(
    {
        "reveal",
        "win_round",
        "lose_round",
        "tie",
        "blocked_out",
        "all_blocked",
        "unblock",
        "blocked",
        "block_void",
        "penalty",
        "bonus",
        "one_card_challenge",
        "zero",
        "await",
        "finish",
        "leave",
        "lapse",
    }
)


class Chooser(Protocol):
    """Who picks the cards a seat gives up by its own choice (the simulator asks its bots)."""

    def shed_choice(self, i: int) -> int:
        """The value seat ``i`` sheds where the seat chooses (COLOR CHANGE, TRUTH, DARE, a
        BLOCK battle)."""
        ...

    def discard_choice(self, i: int) -> int:
        """The action kind a REVERSE actor gives up under ``reverse_discard: "after"``."""
        ...


class HandsOutOfStep(Exception):
    """The concrete hands cannot follow an event: a bug in the simulator, or (strict mode) an
    event that names a card its seat does not hold."""


def apportion(total: int, weights: Sequence[int]) -> list[int]:
    """``total`` cards split in proportion to ``weights`` by the largest-remainder method.

    Equal remainders favour the later entry (for number values: the higher value), so the
    split is the same on every machine.
    """
    if total < 0 or len(weights) == 0 or any(type(w) is not int or w < 0 for w in weights):
        raise ValueError("apportion needs a non-negative total and non-negative integer weights")
    whole = sum(weights)
    if whole == 0:
        raise ValueError("apportion needs at least one positive weight")
    counts = [total * w // whole for w in weights]
    left = total - sum(counts)
    by_remainder = sorted(range(len(weights)), key=lambda k: (total * weights[k] % whole, k))
    for k in by_remainder[len(weights) - left :]:
        counts[k] += 1
    return counts


def spread_weights(spread: Spread) -> tuple[int, ...]:
    """The ten weights of ``spread``: a name in SPREADS or ten non-negative integers."""
    if isinstance(spread, str):
        if spread not in SPREADS:
            raise ValueError(f"unknown spread {spread!r}: use one of {', '.join(SPREADS)}")
        return SPREADS[spread]
    # Read as plain objects: a spread comes from the command line or a caller, unchecked.
    weights: tuple[object, ...] = tuple(spread)
    if len(weights) != 10 or any(type(w) is not int or w < 0 for w in weights) or not any(weights):
        raise ValueError("a spread is ten non-negative integers (values 0–9), not all zero")
    return weights  # type: ignore[return-value]


def number_composition(pool: int, spread: Spread = DEFAULT_SPREAD) -> list[int]:
    """How many number cards of each value 0–9 a pool of ``pool`` cards holds."""
    return apportion(pool, spread_weights(spread))


def action_composition(pool: int, truth_dare: bool) -> dict[str, int]:
    """How many action cards of each kind an action pool of ``pool`` cards holds.

    Seed 001's 8 BLOCK, 8 REVERSE, 8 +2, 4 COLOR CHANGE and 4 +4, plus 3 TRUTH and 2 DARE
    (seed 002) where the rules allow them, scaled to the pool: ``paper``'s 37 are exactly those
    37 cards, ``tournament``'s 32 exactly seed 001's deck.
    """
    weights = dict(ACTION_WEIGHTS)
    if truth_dare:
        weights.update(TRUTH_DARE_WEIGHTS)
    return dict(zip(weights, apportion(pool, list(weights.values())), strict=True))


def _action_counts(pool: int, truth_dare: bool) -> list[int]:
    """``action_composition`` as counts per kind, in the order of CARDS."""
    kinds = action_composition(pool, truth_dare)
    return [kinds.get(card, 0) for card in CARDS]


def _deck(counts: Sequence[int]) -> list[int]:
    return [value for value, count in enumerate(counts) for _ in range(count)]


_BASE_DECKS: dict[tuple[Any, ...], list[int]] = {}


def _base_deck(key: tuple[Any, ...], counts: Callable[[], Sequence[int]]) -> list[int]:
    """A fresh copy of an unshuffled deck, built once per composition (a duel starts often)."""
    deck = _BASE_DECKS.get(key)
    if deck is None:
        deck = _BASE_DECKS[key] = _deck(counts())
    return deck[:]


def _draw(deck: list[int], random: Callable[[], float]) -> int:
    """The next card of ``deck``, which is shuffled lazily: a uniformly random card of what is
    left (one step of a Fisher–Yates shuffle), the same as the top card of a deck shuffled once
    at the start, without paying for the cards never drawn.

    ``floor`` rather than ``int``: the same whole number for a non-negative float (so the same
    card from the same random number), several times cheaper in CPython."""
    j = floor(random() * len(deck))
    card = deck[j]
    deck[j] = deck[-1]
    deck.pop()
    return card


def _total(counts: list[int], end: int) -> int:
    """``sum(counts[:end])`` as a loop over whole numbers: compiled, several times cheaper than
    the built-in ``sum`` (which adds generic objects) and the slice it would need."""
    total = 0
    for k in range(end):
        total += counts[k]
    return total


def _nth(counts: list[int], n: int) -> int:
    """The value of the ``n``-th card (0-based) of a hand held as counts per value."""
    value = 0
    # A counter rather than enumerate: cheaper, and every 0 revealed steals a card.
    for count in counts:
        if n < count:
            return value
        n -= count
        value += 1  # noqa: SIM113
    raise HandsOutOfStep("a card was asked of a hand that is too small")


class Hands:
    """Every seat's concrete cards, the two shuffled decks and the two discard piles.

    ``num[i][v]`` is how many number cards of value ``v`` seat ``i`` holds and ``act[i][k]``
    how many action cards of kind ``CARDS[k]``. The decks are lists of values (kinds) in no
    particular order: each draw takes a uniformly random card of them (``_draw``). With
    ``strict`` (the default) an event that names a card its seat does not hold raises
    ``HandsOutOfStep``; without it the hand is corrected by relabelling one of its cards, for a
    seat whose real cards the simulator cannot see (a person playing a bot).
    """

    __slots__ = (
        "seats",
        "index",
        "num",
        "act",
        "deck_num",
        "deck_act",
        "disc_num",
        "disc_act",
        "rng",
        "random",
        "strict",
        "after",
    )

    def __init__(self, seats: Sequence[str], rng: random.Random, after: bool, strict: bool):
        self.seats = tuple(seats)
        self.index = {seat: i for i, seat in enumerate(self.seats)}
        self.num: list[list[int]] = [[0] * 10 for _ in self.seats]
        self.act: list[list[int]] = [[0] * len(CARDS) for _ in self.seats]
        self.deck_num: list[int] = []
        self.deck_act: list[int] = []
        self.disc_num = [0] * 10
        self.disc_act = [0] * len(CARDS)
        self.rng = rng
        self.random = rng.random
        self.strict = strict
        self.after = after

    # -- making hands ----------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: Rules,
        seats: Sequence[str],
        rng: random.Random,
        spread: Spread = DEFAULT_SPREAD,
        strict: bool = True,
    ) -> Hands:
        """Deal from both pools as the engine does (section 2): the starting number cards to
        every seat, then ``starting_action_cards``."""
        hands = cls(seats, rng, rules.reverse_discard == "after", strict)
        weights = spread_weights(spread)
        hands.deck_num = numbers = _base_deck(
            ("number", rules.number_pool, weights),
            lambda: apportion(rules.number_pool, weights),
        )
        hands.deck_act = actions = _base_deck(
            ("action", rules.action_pool, rules.truth_dare),
            lambda: _action_counts(rules.action_pool, rules.truth_dare),
        )
        random = rng.random
        for hand in hands.num:
            for _ in range(rules.starting_number_cards):
                # _draw, inlined: a deal is forty draws or so, and duels start often.
                j = floor(random() * len(numbers))
                v = numbers[j]
                hand[v] = hand[v] + 1  # compiled, ``+=`` on an item is a generic add
                numbers[j] = numbers[-1]
                numbers.pop()
        for seat, count in rules.starting_action_cards:
            hand = hands.act[hands.index[seat]]
            for _ in range(count):
                hand[_draw(actions, random)] += 1
        return hands

    @classmethod
    def matching(
        cls,
        duel: Duel,
        rng: random.Random,
        spread: Spread = DEFAULT_SPREAD,
        strict: bool = False,
    ) -> Hands:
        """Hands for a duel already under way: the pools shuffled and split to match its
        counts (hands, discards, decks), as a bot joining mid-game would guess them.

        Not strict by default, since a seat played by a person holds cards nobody modelled.
        """
        rules = duel.rules
        state = duel.state()
        hands = cls(tuple(state["seats"]), rng, rules.reverse_discard == "after", strict)
        numbers = _deck(number_composition(rules.number_pool, spread))
        actions = _deck(_action_counts(rules.action_pool, rules.truth_dare))
        rng.shuffle(numbers)
        rng.shuffle(actions)
        for i, seat in enumerate(hands.seats):
            counts = state["seats"][seat]
            for _ in range(counts["number_cards"]):
                hands.num[i][numbers.pop()] += 1
            for _ in range(counts["action_cards"]):
                hands.act[i][actions.pop()] += 1
        for _ in range(state["discards"]["number"]):
            hands.disc_num[numbers.pop()] += 1
        for _ in range(state["discards"]["action"]):
            hands.disc_act[actions.pop()] += 1
        hands.deck_num = numbers
        hands.deck_act = actions
        return hands

    # -- reading ---------------------------------------------------------------------------

    def number_cards(self, seat: str) -> list[int]:
        """The values ``seat`` holds, lowest first."""
        return _deck(self.num[self.index[seat]])

    def action_cards(self, seat: str) -> list[str]:
        """The action card kinds ``seat`` holds, in the order of CARDS."""
        return [CARDS[k] for k in _deck(self.act[self.index[seat]])]

    def counts(self) -> dict[str, Any]:
        """Hand sizes, decks and discards, shaped like the engine state's counts."""
        return {
            "decks": {"number": len(self.deck_num), "action": len(self.deck_act)},
            "discards": {"number": sum(self.disc_num), "action": sum(self.disc_act)},
            "seats": {
                seat: {"number_cards": sum(self.num[i]), "action_cards": sum(self.act[i])}
                for i, seat in enumerate(self.seats)
            },
        }

    def in_step(self, state: Mapping[str, Any]) -> bool:
        """Whether every hand, deck and discard pile has the size the engine state says."""
        mine = self.counts()
        return (
            mine["decks"] == state["decks"]
            and mine["discards"] == state["discards"]
            and all(
                mine["seats"][seat]["number_cards"] == s["number_cards"]
                and mine["seats"][seat]["action_cards"] == s["action_cards"]
                for seat, s in state["seats"].items()
            )
        )

    def check(self, state: Mapping[str, Any]) -> None:
        """Raise HandsOutOfStep unless ``in_step(state)``."""
        if not self.in_step(state):
            raise HandsOutOfStep(f"hands {self.counts()} do not match the engine's counts")

    # -- following events ------------------------------------------------------------------

    def random_card(self, i: int, but: int = -1) -> int:
        """A uniformly random number card of seat ``i`` (not counting one copy of ``but``)."""
        counts = self.num[i]
        size = _total(counts, len(counts)) - (1 if but >= 0 else 0)
        if size <= 0:
            raise HandsOutOfStep(f"seat {self.seats[i]} holds no card to take")
        n = floor(self.random() * size)
        # Laid out lowest first, the card skipped is the first ``but``: later ones move up.
        if but >= 0 and n >= _total(counts, but):
            n += 1
        return _nth(counts, n)

    def prepare_round(self, cards: Mapping[str, int]) -> None:
        """Before a round: each revealed value must be in its seat's hand (or, not strict, a
        random card of that hand becomes it)."""
        for seat, value in cards.items():
            i = self.index[seat]
            if self.num[i][value] == 0:
                if self.strict or sum(self.num[i]) == 0:
                    raise HandsOutOfStep(f"seat {seat} reveals {value} but holds none")
                self.num[i][self.random_card(i)] -= 1
                self.num[i][value] += 1

    def update(self, event: dict[str, Any], fx: list[RawEffect], chooser: Chooser) -> None:
        """Follow one applied event through its raw effects (``Duel._apply``'s tuples: the
        fields of ``Effect`` in order, trailing ones possibly left out); ``event`` is the event
        as the record keeps it. ``chooser`` picks the cards a seat gives up by choice.
        """
        index = self.index
        num = self.num
        cards: dict[str, int] | None = event["cards"] if event["type"] == "round" else None
        # Most effects move no card (a round's reveals, its win and loss): they are skipped
        # first, then the commonest that do, draws and sheds. ``kind`` is typed so that,
        # compiled, each comparison is one of strings (the same interned words, so mostly a
        # pointer compared) rather than a generic one.
        for e in fx:
            kind: str = e[0]
            if kind in _SILENT:
                continue
            if kind == "draw":
                n: int = e[3]
                a: int = e[4]
                if n:
                    hand = num[index[e[1]]]
                    deck = self.deck_num
                    random = self.random
                    while n:
                        # _draw, inlined: most events draw a card or two.
                        j = floor(random() * len(deck))
                        v = deck[j]
                        # Compiled, ``+=`` on an item is a generic add; this adds whole numbers.
                        hand[v] = hand[v] + 1
                        deck[j] = deck[-1]
                        deck.pop()
                        n -= 1
                if a:
                    actions = self.act[index[e[1]]]
                    for _ in range(a):
                        actions[_draw(self.deck_act, self.random)] += 1
            elif kind == "shed":
                if e[3]:
                    seat: str = e[1]
                    i = index[seat]
                    if cards is not None and e[6] in _REVEALED_SHEDS:
                        value = cards[seat]
                    else:
                        value = chooser.shed_choice(i)
                    held = num[i]
                    if held[value] <= 0:
                        raise HandsOutOfStep(f"seat {seat} cannot shed {value}: it holds none")
                    held[value] = held[value] - 1
                    discards = self.disc_num
                    discards[value] = discards[value] + 1
            elif kind == "steal":
                if e[3]:
                    thief, victim = index[e[1]], index[e[2]]
                    shown = cards.get(e[2], -1) if cards is not None else -1
                    value = self.random_card(victim, shown)
                    lost, won = num[victim], num[thief]
                    lost[value] = lost[value] - 1
                    won[value] = won[value] + 1
            elif kind == "play":
                if not (self.after and e[5] == "reverse"):
                    self._spend(index[e[1]], KIND[e[5]])
            elif kind == "respond":
                if e[6] in _SPENDING_ANSWERS and e[5] in KIND:
                    self._spend(index[e[1]], KIND[e[5]])
            elif kind == "swap":
                i, j = index[e[1]], index[e[2]]
                num[i], num[j] = num[j], num[i]
                self.act[i], self.act[j] = self.act[j], self.act[i]
            elif kind == "reverse_discard" and len(e) > 4 and e[4]:
                i = index[e[1]]
                self._spend(i, chooser.discard_choice(i))

    def _spend(self, i: int, k: int) -> None:
        """Seat ``i`` discards an action card of kind ``k``."""
        held = self.act[i]
        if held[k] <= 0:
            if self.strict or not any(held):
                raise HandsOutOfStep(f"seat {self.seats[i]} plays {CARDS[k]} but holds none")
            # Not strict: the seat's real card was not the one modelled.
            k = _nth(held, floor(self.random() * sum(held)))
        held[k] = held[k] - 1
        discards = self.disc_act
        discards[k] = discards[k] + 1
