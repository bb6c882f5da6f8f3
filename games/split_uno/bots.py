"""Bots: what a seat does next, given its own concrete cards and the public state.

A bot answers four questions for its seat ``i`` of a ``Simulator`` (``simulate.py``):

- ``free(sim, i)`` when no decision is pending: an action event to play now, the value it
  reveals if a round is played, or ``None`` (blocked, it reveals nothing);
- ``respond(sim, i, decision, choices)`` when the engine asks seat ``i`` a decision; ``choices``
  are the engine's choices that its hand allows (a +2 counter needs a +2 in hand);
- ``shed(sim, i)`` which number card to shed where the seat chooses (COLOR CHANGE, TRUTH, DARE,
  BLOCK battle);
- ``discard_action(sim, i)`` which action card a REVERSE actor gives up under ``"after"``.

Fair play: a bot reads its own seat's cards (``sim.hands.num[i]``, ``sim.hands.act[i]``) and the
public state only — the engine's counts, streaks, blocks and decks (``sim.table``), the rules,
the last event and the values each seat has revealed so far (``sim.seen``, kept when a bot sets
``watches``) — never another seat's cards. Its randomness comes from ``sim.random`` (the
simulator's ``rng.random``), so that a seed fixes a whole duel.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import floor
from typing import TYPE_CHECKING, Any

from .constants import CARDS, COLORS
from .hands import KIND
from .native import mypyc_attr

if TYPE_CHECKING:
    from .simulate import Simulator

#: What ``Bot.free`` returns: an action event, a value to reveal, or None (nothing to reveal).
Move = dict[str, Any] | int | None

BLOCK, REVERSE, COLOR_CHANGE = KIND["block"], KIND["reverse"], KIND["color_change"]
DRAW_TWO, DRAW_FOUR, TRUTH, DARE = KIND["draw_two"], KIND["draw_four"], KIND["truth"], KIND["dare"]


# Anyone may write a bot: a class of their own deriving from Bot, even with the engine compiled.
@mypyc_attr(allow_interpreted_subclasses=True)
class Bot:
    """The bot interface; ``name`` is how the command line and summaries call it."""

    name = "bot"
    #: Whether the bot reads ``sim.seen`` (the simulator keeps it only for such bots).
    watches = False

    def free(self, sim: Simulator, i: int) -> Move:
        raise NotImplementedError

    def respond(self, sim: Simulator, i: int, decision: str, choices: Sequence[str]) -> str:
        raise NotImplementedError

    def shed(self, sim: Simulator, i: int) -> int:
        raise NotImplementedError

    def discard_action(self, sim: Simulator, i: int) -> int:
        """The kind (an index into CARDS) of the action card given up."""
        raise NotImplementedError

    def target(self, sim: Simulator, i: int, why: str) -> int:
        """With more than two seats: the opponent (a seat index) that seat ``i`` names for
        ``why``, an action card's name or ``"zero"``/``"seven"`` for a revealed 0 or 7.
        Uniformly random unless a bot knows better."""
        opponents = sim.opponents(i)
        return opponents[floor(sim.random() * len(opponents))]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def _distinct(counts: list[int]) -> int:
    """How many entries of ``counts`` are not 0 (the distinct values or kinds a hand holds).

    A loop over whole numbers: compiled, ``list.count`` compares every entry as a generic
    object, several times the cost."""
    n = 0
    for count in counts:
        if count != 0:
            n += 1
    return n


class RandomBot(Bot):
    """Uniform over the moves its own hand allows, as docs/rules.md defines it.

    When free, a seat's moves are each distinct value it could reveal for the round (one move,
    "no card", when blocked) and each distinct action card kind it holds (a COLOR CHANGE counts
    once, its colour then uniform); it picks one of these uniformly. A decision is uniform over
    the choices its hand allows; a chosen shed or discard is a uniformly random card of its hand.
    """

    name = "random"

    # ``floor`` rather than ``int`` turns a random float into an index: the same whole number
    # for a non-negative float, several times cheaper in CPython.

    def free(self, sim: Simulator, i: int) -> Move:
        rnd = sim.random
        t = sim.table
        counts = sim.hands.num[i]
        blocked = t.blocked[i]
        if t.act[i]:
            # The decks hold no card the rules forbid, so every kind held may be played.
            values = 1 if blocked or not t.num[i] else _distinct(counts)
            held = sim.hands.act[i]
            kinds = _distinct(held)
            r = floor(rnd() * (values + kinds))
            if r < kinds:
                for k, count in enumerate(held):
                    if count:
                        if r == 0:
                            return sim.action_event(i, k, COLORS[floor(rnd() * 4)])
                        r -= 1
        if blocked or not t.num[i]:
            # Nothing to reveal: blocked, or at 0 in a team game (RULES.md section 11.9).
            return None
        # Uniform over the distinct values held: draw a value until the hand holds it.
        while True:
            v = floor(rnd() * 10)
            if counts[v]:
                return v

    def respond(self, sim: Simulator, i: int, decision: str, choices: Sequence[str]) -> str:
        return choices[floor(sim.random() * len(choices))]

    def shed(self, sim: Simulator, i: int) -> int:
        return sim.hands.random_card(i)

    def discard_action(self, sim: Simulator, i: int) -> int:
        held = sim.hands.act[i]
        kinds = [k for k in range(len(CARDS)) if held[k]]
        return kinds[floor(sim.random() * len(kinds))]


#: Action kinds from least to most worth keeping, for the heuristic's discards.
_DISCARD_ORDER = (COLOR_CHANGE, REVERSE, DRAW_TWO, TRUTH, BLOCK, DARE, DRAW_FOUR)


class HeuristicBot(Bot):
    """A bot that plays to win with public information and its own hand only.

    Number rounds: it models the opponent's next reveal from the pool's spread and the values
    that seat has revealed so far, and plays the value with the best expected outcome: the
    card-count swing of winning, tying or losing — a 7's draw and a 0's steal, streak bonuses
    and reaching 0 included — less the worth of the card given up when it wins or ties, so high
    cards are kept for when they matter (a streak bonus, an opponent near 0). A 7 thus goes out
    while the deck can serve its draw. A 0 wins nothing and its steal moves a card from the
    opponent's hand into this one, a loss both ways in a game won at 0 cards: the bot reveals a
    0 only when it holds nothing else, and gives 0s up first when it chooses a shed. Against a
    blocked seat it wins alone with a 7, or else its cheapest card but a 0.

    Action cards: from its last number card a COLOR CHANGE (or TRUTH/DARE) that reaches 0;
    TRUTH and DARE where only the actor sheds; BLOCK for a sure round (or back against a
    block); +2/+4 while the deck can serve them, keeping one to challenge with once the
    opponent nears 0; REVERSE when its hand is ``reverse_gap`` cards bigger and the swap
    stands (``_reverse_target``; never straight back after a REVERSE); COLOR CHANGE to shed a
    0 or when behind. Decisions: counter a +2
    with a +4 or +2 and a +4 with a +4 only; counter a BLOCK; answer every truth and dare;
    challenge a 0 whenever it can make the winner draw; pick the bonus and the penalty worth
    more in card counts. Chosen sheds give up a 0 first, then the lowest card but a 7. The
    weights are the class attributes below, tuned against the random bot (docs/rules.md).
    """

    name = "heuristic"
    watches = True

    #: Pseudo-reveals the spread counts for before the opponent has shown anything.
    prior = 10.0
    #: The card-count worth of reaching 0 (halved when the other seat can challenge).
    finish_worth = 12.0
    #: The worth of a streak bonus, earned by the win after a win.
    bonus_worth = 2.0
    #: The worth, in card counts, of a card's chance of winning a later round.
    keep_worth = 1.4
    #: Extra worth of keeping a 7 (it can be played again after a lost round).
    seven_keep = 0.6
    #: What an action card in hand is worth, in card counts.
    action_worth = 3.0
    #: Play REVERSE when the opponent holds this many fewer number cards.
    reverse_gap = 3
    #: Under ``reverse_discard: "after"`` the played REVERSE goes to the target with the
    #: actor's hand, and the target can swap straight back: a REVERSE then only swaps with a
    #: seat holding this few number cards, about to win, whose hand may finish the game first.
    reverse_stop = 1
    #: Keep a +2/+4 to challenge with once the opponent holds this few number cards.
    reserve_at = 3

    def __init__(self, **weights: int | float) -> None:
        for name, value in weights.items():
            if not hasattr(HeuristicBot, name) or callable(getattr(HeuristicBot, name)):
                raise ValueError(f"unknown heuristic weight {name!r}")
            setattr(self, name, value)

    # -- free moments ----------------------------------------------------------------------

    def free(self, sim: Simulator, i: int) -> Move:
        if sim.many:
            return self._free_many(sim, i)
        held = sim.hands.act[i]
        if any(held):
            event = self._action(sim, i, [k for k in sim.kinds if held[k]])
            if event is not None:
                return event
        if sim.table.blocked[i]:
            return None
        return self._reveal(sim, i)

    def _action(self, sim: Simulator, i: int, kinds: list[int]) -> dict[str, Any] | None:
        t, rules = sim.table, sim.rules
        o = 1 - i
        mine, theirs, deck = t.num[i], t.num[o], t.deck_n
        has = set(kinds)
        actor_sheds = rules.truth_dare_shed == "actor"
        # From the last card, anything that makes this seat shed reaches 0.
        if mine == 1 and theirs >= 2:
            for k in (COLOR_CHANGE, TRUTH, DARE):
                if k in has:
                    return sim.action_event(i, k, COLORS[0])
        if actor_sheds and mine >= 2:
            # The actor alone sheds, and the target may refuse: a free card (or the duel).
            for k in (DARE, TRUTH):
                if k in has:
                    return sim.action_event(i, k)
        if BLOCK in has and not t.blocked[o]:
            # A sure round (or, blocked, a block back that makes the next round void).
            return sim.action_event(i, BLOCK)
        draws = [k for k in (DRAW_FOUR, DRAW_TWO) if k in has]
        if draws and deck >= 2 and not self._keep_for_challenge(sim, i, draws, theirs):
            return sim.action_event(i, draws[0])
        if REVERSE in has and self._reverse_target(sim, i) >= 0:
            return sim.action_event(i, REVERSE)
        if theirs >= 3 and (mine < theirs or sim.hands.num[i][0]):
            for k in (COLOR_CHANGE, TRUTH, DARE):
                if k in has:
                    return sim.action_event(i, k, COLORS[0])
        return None

    def _keep_for_challenge(self, sim: Simulator, i: int, draws: list[int], theirs: int) -> bool:
        """Whether playing a +2/+4 now would leave no challenge for the opponent's 0 (the
        opponent holding ``theirs`` number cards)."""
        rule = sim.rules.challenge
        if rule == "none" or theirs > self.reserve_at:
            return False
        held = sim.hands.act[i]
        spare = held[DRAW_TWO] + held[DRAW_FOUR] - 1
        need_more = rule == "two_cards" and sum(held) - 1 < 2
        return spare < 1 or need_more

    def _reveal(self, sim: Simulator, i: int) -> int:
        t = sim.table
        o = 1 - i
        counts = sim.hands.num[i]
        values = [v for v in range(10) if counts[v]]
        if len(values) == 1:
            return values[0]
        return self._best_value(sim, i, o, values, None if t.blocked[o] else self._model(sim, o))

    def _best_value(
        self, sim: Simulator, i: int, o: int, values: list[int], q: list[float] | None
    ) -> int:
        """The value with the best expected outcome against the highest card of the others,
        whose distribution is ``q`` (None: nobody else reveals), counting the 0/7 effects and
        the finish against seat ``o``."""
        t = sim.table
        counts = sim.hands.num[i]
        if q is None:
            # A sure win alone: a 7 lands its draw, else the cheapest card but a 0 (whose
            # steal would give the blocked seat's card back to this hand).
            if counts[7] and t.deck_n:
                return 7
            return next((v for v in values if v), values[0])
        below = 0.0
        best, best_worth = values[0], float("-inf")
        finish_mine = self.finish_worth * (0.5 if self._can_challenge(sim, o) else 1.0)
        finish_theirs = self.finish_worth * (0.5 if self._can_challenge(sim, i) else 1.0)
        streak_mine = self.bonus_worth if t.streak[i] == 1 else 0.0
        streak_theirs = self.bonus_worth if t.streak[o] == 1 else 0.0
        cumulative = [0.0] * 11
        for v in range(10):
            cumulative[v + 1] = cumulative[v] + q[v]

        def score(m: int, p: int) -> float:
            worth = float(p - m)
            if m <= 0:
                worth += finish_mine
            if p <= 0:
                worth -= finish_theirs
            return worth

        for v in values:
            below, tie = cumulative[v], q[v]
            above = 1.0 - below - tie
            m, p, d = t.num[i], t.num[o], t.deck_n
            if v == 7:
                drawn = min(2, d)
                p, d = p + drawn, d - drawn
            elif v == 0 and p > 1:
                m, p = m + 1, p - 1
            one, two = (1 if d >= 1 else 0), (1 if d >= 2 else 0)
            worth = (
                below * (score(m - 1, p + one) + streak_mine)
                + tie * score(m - 1 + one, p - 1 + two)
                + above * (score(m + one, p - 1) - streak_theirs)
            )
            keep = below + 0.5 * tie + (self.seven_keep if v == 7 else 0.0)
            worth -= (below + tie) * self.keep_worth * keep
            if worth > best_worth:
                best, best_worth = v, worth
        return best

    def _model(self, sim: Simulator, o: int) -> list[float]:
        """The chance of each value 0–9 being the opponent's next reveal."""
        prior = sim.composition
        scale = self.prior / sum(prior)
        seen = sim.seen[o]
        weights = [prior[v] * scale + seen[v] for v in range(10)]
        whole = sum(weights)
        return [w / whole for w in weights]

    @staticmethod
    def _can_challenge(sim: Simulator, j: int) -> bool:
        """Whether seat ``j`` could challenge a 0 (for the opponent: judged by its count)."""
        rule = sim.rules.challenge
        if rule == "none":
            return False
        count = sim.table.act[j]
        return count >= (2 if rule == "two_cards" else 1)

    # -- more than two seats (RULES.md section 11) -----------------------------------------

    def target(self, sim: Simulator, i: int, why: str) -> int:
        """Steal from and hit the opponent closest to winning; never a team-mate (the engine
        offers none). A 0 goes where there is a card to take."""
        if why == "zero":
            t = sim.table
            # A seat that reveals keeps its card on the table: it must hold two to lose one.
            robbable = [j for j in sim.opponents(i) if t.num[j] >= (1 if t.blocked[j] else 2)]
            if robbable:
                return self._closest(sim, robbable)
        return self._closest(sim, sim.opponents(i))

    @staticmethod
    def _closest(sim: Simulator, seats: list[int]) -> int:
        """Of ``seats``, the one whose side is closest to winning (fewest number cards),
        then the one holding fewest itself, then one drawn at random: a tie-break by seat order
        made every bot hit seat A first, which tilted the game between seats (issue 30)."""
        num = sim.table.num
        return _pick(sim, seats, lambda j: (sim.side_count(j), num[j]))

    def _free_many(self, sim: Simulator, i: int) -> Move:
        t = sim.table
        held = sim.hands.act[i]
        if any(held):
            event = self._action_many(sim, i, [k for k in sim.kinds if held[k]])
            if event is not None:
                return event
        if t.blocked[i] or not t.num[i]:
            return None
        counts = sim.hands.num[i]
        values = [v for v in range(10) if counts[v]]
        if len(values) == 1:
            return values[0]
        others = [
            j for j in sim.order
            if j != i and not t.out[j] and not t.blocked[j] and t.num[j]
        ]  # fmt: skip
        q = self._model_max(sim, others) if others else None
        return self._best_value(sim, i, self.target(sim, i, "seven"), values, q)

    def _model_max(self, sim: Simulator, others: list[int]) -> list[float]:
        """The chance of each value 0–9 being the highest card the ``others`` reveal."""
        below = [1.0] * 11  # below[v]: every other card is below v
        for j in others:
            q = self._model(sim, j)
            acc = 0.0
            for v in range(10):
                below[v] *= acc
                acc += q[v]
        below[10] = 1.0
        return [below[v + 1] - below[v] for v in range(10)]

    def _action_many(self, sim: Simulator, i: int, kinds: list[int]) -> dict[str, Any] | None:
        t, rules = sim.table, sim.rules
        o = self.target(sim, i, "draw_two")
        mine, theirs, deck = t.num[i], t.num[o], t.deck_n
        lowest = min(sim.side_count(j) for j in sim.opponents(i))
        has = set(kinds)
        # COLOR CHANGE helps every opponent too: only to reach 0 when no opponent side does.
        if mine == 1 and lowest >= 2:
            for k in (COLOR_CHANGE, TRUTH, DARE):
                if k in has:
                    return sim.action_event(i, k, COLORS[0], o)
        if rules.truth_dare_shed == "actor" and mine >= 2:
            for k in (DARE, TRUTH):
                if k in has:
                    return sim.action_event(i, k, target=o)
        if BLOCK in has and not t.blocked[o]:
            return sim.action_event(i, BLOCK, target=o)
        draws = [k for k in (DRAW_FOUR, DRAW_TWO) if k in has]
        if draws and deck >= 2 and not self._keep_for_challenge(sim, i, draws, theirs):
            return sim.action_event(i, draws[0], target=o)
        if REVERSE in has:
            swap = self._reverse_target(sim, i)
            if swap >= 0:
                return sim.action_event(i, REVERSE, target=swap)
        return None

    def _reverse_target(self, sim: Simulator, i: int) -> int:
        """The opponent seat ``i`` would swap hands with by a REVERSE, or -1 when a swap
        would not help it.

        The swap trades this hand for the smallest, and helps only if it stands. Under
        ``"before"`` the played REVERSE is discarded first, so the target, handed this hand
        without it, can rarely undo the swap. Under ``"after"`` (``official``) the REVERSE goes
        to the target with the hand, and the target can play it back at its next move: a
        rule of "swap whenever bigger" made the big hand and its REVERSE go round the table
        for ever (issue 30: three quarters of the action cards at four seats were REVERSEs).
        So under ``"after"`` the bot swaps only with a seat holding ``reverse_stop`` number
        cards or fewer: that seat was about to win, and the small hand may finish the game
        before the REVERSE can come back. Never straight back after a REVERSE."""
        if _just_reversed(sim):
            return -1
        t = sim.table
        seats = sim.opponents(i) if sim.many else [1 - i]
        fewest = min(t.num[j] for j in seats)
        if t.num[i] - fewest < self.reverse_gap:
            return -1
        if sim.rules.reverse_discard == "after" and fewest > self.reverse_stop:
            return -1
        # Of the seats holding fewest, the side closest to winning; then chance, not seat order.
        return _pick(sim, [j for j in seats if t.num[j] == fewest], sim.side_count)

    # -- decisions -------------------------------------------------------------------------

    def respond(self, sim: Simulator, i: int, decision: str, choices: Sequence[str]) -> str:
        return _ANSWERS[decision](self, sim, i, choices)

    def _counter(self, sim: Simulator, i: int, choices: Sequence[str]) -> str:
        pending = sim.table.pending
        played = pending.card if pending is not None else "draw_two"
        if "draw_four" in choices:
            return "draw_four"
        # Answering a +4 with a +2 saves one card at the cost of a card: not worth it.
        if "draw_two" in choices and played == "draw_two":
            return "draw_two"
        return "pass"

    def _penalty(self, sim: Simulator, i: int, choices: Sequence[str]) -> str:
        t = sim.table
        five = min(5, t.deck_n)
        actions = min(2, t.deck_n) + self.action_worth * min(2, t.deck_a)
        return "actions" if actions > five else "five"

    def _bonus(self, sim: Simulator, i: int, choices: Sequence[str]) -> str:
        t = sim.table
        # Every opponent draws 2 while the deck lasts (one opponent with two seats).
        draw = min(2 * len(sim.opponents(i)), t.deck_n) if sim.many else min(2, t.deck_n)
        card = self.action_worth if t.deck_a else 0.0
        return "action_card" if card > draw else "opponents_draw"

    def _challenge(self, sim: Simulator, i: int, choices: Sequence[str]) -> str:
        t = sim.table
        lone = sim.rules.challenge == "two_cards" and t.act[i] == 1
        if lone or t.deck_n == 0:
            return "pass"
        for choice in ("draw_four", "draw_two"):
            if choice in choices:
                return choice
        return "pass"

    # -- chosen sheds ----------------------------------------------------------------------

    def shed(self, sim: Simulator, i: int) -> int:
        counts = sim.hands.num[i]
        for v in (0, 1, 2, 3, 4, 5, 6, 8, 9, 7):
            if counts[v]:
                return v
        raise ValueError("no number card to shed")

    def discard_action(self, sim: Simulator, i: int) -> int:
        held = sim.hands.act[i]
        return next(k for k in _DISCARD_ORDER if held[k])


def _pick(sim: Simulator, seats: list[int], key: Callable[[int], Any]) -> int:
    """The seat of ``seats`` with the least ``key``; among several, one drawn with equal odds
    from the bot's random source (so that a seed still fixes a game), never the first in seat
    order. No random number is drawn without a tie."""
    best = min(key(j) for j in seats)
    tied = [j for j in seats if key(j) == best]
    if len(tied) == 1:
        return tied[0]
    return tied[floor(sim.random() * len(tied))]


def _just_reversed(sim: Simulator) -> bool:
    """Whether the last event was a REVERSE. Swapping straight back only undoes it, and under
    ``reverse_discard: "after"`` a lone REVERSE can cost nothing (RULES.md section 4): two
    bots doing so would swap hands for ever."""
    last = sim.last_event
    return last is not None and last.get("card") == "reverse"


_ANSWERS: dict[str, Callable[[HeuristicBot, Simulator, int, Sequence[str]], str]] = {
    "counter": HeuristicBot._counter,
    "block_counter": lambda bot, sim, i, choices: "block" if "block" in choices else "pass",
    "truth": lambda bot, sim, i, choices: "answer",
    "dare": lambda bot, sim, i, choices: "complete",
    "penalty": HeuristicBot._penalty,
    "bonus": HeuristicBot._bonus,
    "challenge": HeuristicBot._challenge,
}


def _expert(**settings: int | float) -> Bot:
    """The expert bot (expert.py), imported when first asked for: it searches through the
    simulator, which imports this module."""
    from .expert import ExpertBot

    return ExpertBot(**settings)


#: Bots by the names the command line and ``play_duel`` take.
BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "expert": _expert,
}


def make_bot(bot: str | Bot) -> Bot:
    """A bot from its name in BOTS, or ``bot`` itself if it already is one."""
    if isinstance(bot, Bot):
        return bot
    if isinstance(bot, str) and bot in BOTS:
        return BOTS[bot]()
    raise ValueError(f"unknown bot {bot!r}: choose one of {', '.join(BOTS)}")


__all__ = ["BOTS", "Bot", "HeuristicBot", "Move", "RandomBot", "make_bot"]
