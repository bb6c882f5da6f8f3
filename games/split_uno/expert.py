"""The expert bot (issue 30): determinised Monte Carlo search over its own moves, anchored on
the heuristic bot.

What it searches. At every moment where its seat has more than one move — a free moment (each
distinct value it could reveal, each action card kind it holds, with each target at more than
two seats) or a decision the engine asks of it (counter, challenge, bonus, penalty, answers) —
the bot plays each candidate in a number of *sampled worlds* through the real engine (a
``Simulator`` on a copy of the ``Duel``: no second rules implementation) for ``horizon`` events,
every seat following the default policy (the heuristic bot) after the candidate, and scores
the end: a win 1, a draw ½, a loss 0, or, for a rollout cut at the horizon, a logistic of the
margin between its side and the opponent side closest to winning, in number cards less 1.5 per
action card held and less ``keep_worth`` times each card's chance of winning a round (a hand of
high cards is worth more than one of low cards). Chosen sheds, a REVERSE actor's discard and the
targets of a revealed 0 or 7 follow the heuristic.

Worlds. A world is a determinisation of what the seat cannot see, drawn consistently with what
it may know: its own hand exactly; the other hands', the decks' and the discards' sizes from
the public table; the cards seen going to the discards, read from the public record (a round's
winner, or each seat tied for the highest card, sheds the card it revealed; action cards are
played face up); at three seats or more, the values the record shows still in another hand (a
round's loser keeps the card it revealed: ``_known_in_hand``) in that hand; every other card
of the pools shuffled and dealt to the other hands and the decks. Nothing of another seat's
real cards, nor of the real decks, is read: the same public history and hand give the same
worlds, whatever the hidden cards are
(``test_its_move_does_not_depend_on_the_cards_it_cannot_see``).

Why flat and anchored, not a tree. A Split UNO moment is a simultaneous sealed bid: every seat
picks its reveal (or an action card) without seeing the others'. An information-set tree that
lets the opponent choose after our bid, or searches the opponent's replies in a world where it
"knows" our hand, suffers strategy fusion and assumes the opponent reacts to our hidden card.
Here the root is flat over our own candidates only; in each world the other seats bid from
their own policy on *their* sampled hand and the public state, so they never see our bid. Every
candidate is played in the same worlds with the same rollout random numbers (common random
numbers), so candidates are compared as paired samples. The pick is *anchored*: the heuristic
bot's own move stands unless another candidate beats it in the same worlds by more than
``confidence`` standard errors of the paired difference. Taking the plain best mean instead
picks, among ten close candidates, the one with the luckiest noise, and lost to the heuristic
bot (38–46 % of 40 duels; the anchored search won 74 %: docs/performance.md). So the search
improves on the default policy where the worlds show a clear gain — a round worth winning now,
an action card worth holding — and plays like it elsewhere.

Budget. ``budget`` rollouts per searched decision at two seats, ``budget_many`` at three or
more (never wall time, so that a seed fixes a game), split evenly over the candidates, at least
``min_worlds`` worlds each. At two seats the bot plays exactly as it did when its two-seat
figures were measured (``test_it_plays_as_measured_at_two_seats``): the bigger budget and the
known cards are for three seats or more, where a round has several losers to learn from and
each action card a candidate per target. All randomness comes from one number drawn from
``sim.random`` per searched decision, which seeds the search's own generator: a seed fixes
the bot's moves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import exp, sqrt

from .bots import Bot, HeuristicBot, Move
from .constants import CARDS, COLORS
from .hands import KIND, Hands, action_composition
from .simulate import Simulator

_REVERSE = KIND["reverse"]
_COLOR_CHANGE = KIND["color_change"]

#: A candidate move at a free moment: a value to reveal, (kind, target) of an action card,
#: or None (nothing to reveal).
Candidate = int | tuple[int, int] | None

#: What an action card in hand is worth in number cards, for the score of a cut rollout.
ACTION_WORTH = 1.5


class _Opening(Bot):
    """The searching seat in a rollout: its candidate first, then the default policy."""

    name = "expert-rollout"
    watches = True

    def __init__(self, base: Bot, free_move: Candidate, answer: str) -> None:
        self.base = base
        self.free_move = free_move
        self.answer = answer
        self.fresh = True

    def free(self, sim: Simulator, i: int) -> Move:
        if self.fresh:
            self.fresh = False
            move = self.free_move
            if isinstance(move, tuple):
                return sim.action_event(i, move[0], COLORS[0], move[1])
            return move
        return self.base.free(sim, i)

    def respond(self, sim: Simulator, i: int, decision: str, choices: Sequence[str]) -> str:
        if self.fresh:
            self.fresh = False
            return self.answer
        return self.base.respond(sim, i, decision, choices)

    def shed(self, sim: Simulator, i: int) -> int:
        return self.base.shed(sim, i)

    def discard_action(self, sim: Simulator, i: int) -> int:
        return self.base.discard_action(sim, i)

    def target(self, sim: Simulator, i: int, why: str) -> int:
        return self.base.target(sim, i, why)


class ExpertBot(Bot):
    """Determinised flat Monte Carlo over its own moves; see the module docstring."""

    name = "expert"
    watches = True

    #: Rollouts per searched decision at two seats, split over the candidates.
    budget = 120
    #: Rollouts per searched decision at three seats or more, where there are more candidates
    #: (each action card with each target) and a decision costs more.
    budget_many = 240
    #: At three seats or more: whether the worlds keep in each other hand the values it is
    #: known to hold (a round's loser keeps the card it revealed, under rules where losers do
    #: not discard it) — see ``_known_in_hand``.
    known_cards = 1
    #: The fewest worlds each candidate is tried in, whatever the number of candidates.
    min_worlds = 8
    #: A rollout stops after this many events and is scored by the card-count margin.
    horizon = 10
    #: The margin (in number cards) that the logistic score of a cut rollout counts as one unit.
    margin_scale = 3.0
    #: Another move replaces the default policy's only when its paired gain over it, in the
    #: same worlds, exceeds this many standard errors.
    confidence = 1.5
    #: The worth of a number card's chance of winning a round, in number cards (a cut
    #: rollout's score).
    keep_worth = 1.4

    def __init__(self, **settings: int | float) -> None:
        for key, value in settings.items():
            if not hasattr(ExpertBot, key) or callable(getattr(ExpertBot, key)):
                raise ValueError(f"unknown expert setting {key!r}")
            setattr(self, key, value)
        self.policy = HeuristicBot()

    # -- the interface ---------------------------------------------------------------------

    def free(self, sim: Simulator, i: int) -> Move:
        moves = self._free_candidates(sim, i)
        if len(moves) == 1:
            best: Candidate = moves[0]
        else:
            default = _as_candidate(sim, self.policy.free(sim, i))
            anchor = moves.index(default) if default in moves else 0
            best = moves[self._search(sim, i, moves, [""] * len(moves), anchor)]
        if isinstance(best, tuple):
            return sim.action_event(i, best[0], COLORS[0], best[1])
        return best

    def respond(self, sim: Simulator, i: int, decision: str, choices: Sequence[str]) -> str:
        if len(choices) == 1:
            return choices[0]
        default = self.policy.respond(sim, i, decision, choices)
        anchor = list(choices).index(default) if default in choices else 0
        return choices[self._search(sim, i, [None] * len(choices), list(choices), anchor)]

    def shed(self, sim: Simulator, i: int) -> int:
        return self.policy.shed(sim, i)

    def discard_action(self, sim: Simulator, i: int) -> int:
        return self.policy.discard_action(sim, i)

    def target(self, sim: Simulator, i: int, why: str) -> int:
        return self.policy.target(sim, i, why)

    # -- candidates ------------------------------------------------------------------------

    def _free_candidates(self, sim: Simulator, i: int) -> list[Candidate]:
        t = sim.table
        moves: list[Candidate] = []
        if t.blocked[i] or not t.num[i]:
            moves.append(None)
        else:
            counts = sim.hands.num[i]
            moves.extend(v for v in range(10) if counts[v])
        held = sim.hands.act[i]
        for k in sim.kinds:
            if not held[k]:
                continue
            if sim.many and k != _COLOR_CHANGE:
                moves.extend((k, j) for j in sim.opponents(i))
            else:
                moves.append((k, -1))
        return moves

    # -- search ----------------------------------------------------------------------------

    def _search(
        self, sim: Simulator, i: int, moves: list[Candidate], answers: list[str], anchor: int
    ) -> int:
        """The index of the candidate (a free move, or an answer) to play: the default
        policy's own move (``anchor``) unless another does better in the same worlds by more
        than ``confidence`` standard errors of the paired difference."""
        rng = random.Random(sim.random())
        n = len(moves)
        worlds = self._worlds(sim, n)
        shown = _public_discards(sim)
        known = _known_in_hand(sim, i) if sim.many and self.known_cards else None
        scores = [[0.0] * worlds for _ in range(n)]
        for w in range(worlds):
            world = _deal_world(sim, i, rng, shown, known)
            seed = rng.random()
            for c in range(n):
                scores[c][w] = self._rollout(sim, i, world, seed, moves[c], answers[c])
        base = scores[anchor]
        best, best_bound = anchor, 0.0
        for c in range(n):
            if c == anchor:
                continue
            diffs = [scores[c][w] - base[w] for w in range(worlds)]
            mean = sum(diffs) / worlds
            spread = sum((d - mean) ** 2 for d in diffs) / max(1, worlds - 1)
            bound = mean - self.confidence * sqrt(spread / worlds)
            if bound > best_bound:
                best, best_bound = c, bound
        return best

    def _worlds(self, sim: Simulator, n: int) -> int:
        """The worlds each of ``n`` candidates is played in: the budget for this many seats
        (``budget`` at two, ``budget_many`` at more) split evenly, at least ``min_worlds``."""
        return max(self.min_worlds, (self.budget_many if sim.many else self.budget) // n)

    def _rollout(
        self, sim: Simulator, i: int, world: Hands, seed: float, move: Candidate, answer: str
    ) -> float:
        duel = sim.duel.copy()
        rng = random.Random(seed)
        hands = _copy_hands(world, rng)
        policy = self.policy
        bots: list[Bot | None] = [policy] * len(sim.seats)
        bots[i] = _Opening(policy, move, answer)
        rollout = Simulator(duel, bots, rng, hands=hands)
        stop = duel.event_count + self.horizon
        t = rollout.table
        while t.finish is None and t.events < stop:
            if rollout.step() is None:
                break
            t = rollout.table
        return self._score(rollout, i)

    def _score(self, rollout: Simulator, i: int) -> float:
        t = rollout.table
        mine = t.team_of[i]
        if t.finish is not None:
            if t.winner < 0:
                return 0.5
            return 1.0 if t.team_of[t.winner] == mine else 0.0
        own, theirs = _margin_counts(rollout, i, self.keep_worth)
        return 1.0 / (1.0 + exp((own - theirs) / self.margin_scale))


def _margin_counts(rollout: Simulator, i: int, keep: float) -> tuple[float, float]:
    """Seat ``i``'s side's worth in number cards and that of the opponent side closest to
    winning: its number cards, less ``ACTION_WORTH`` per action card held and ``keep`` times
    each number card's chance of winning a round against a card drawn from the pool (a hand of
    high cards is worth more than one of low cards of the same size)."""
    t = rollout.table
    hands = rollout.hands
    chance = _win_chances(rollout.composition)
    mine = t.team_of[i]
    own = 0.0
    sides: dict[int, float] = {}
    for j in rollout.order:
        if t.out[j]:
            continue
        counts = hands.num[j]
        strength = 0.0
        for v in range(10):
            strength += counts[v] * chance[v]
        worth = t.num[j] - ACTION_WORTH * t.act[j] - keep * strength
        if t.team_of[j] == mine:
            own += worth
        else:
            sides[t.team_of[j]] = sides.get(t.team_of[j], 0.0) + worth
    return own, min(sides.values(), default=own)


_CHANCES: dict[tuple[int, ...], list[float]] = {}


def _win_chances(composition: tuple[int, ...]) -> list[float]:
    """For each value, its chance of beating a card drawn from the pool (a tie half)."""
    chances = _CHANCES.get(composition)
    if chances is None:
        whole = sum(composition)
        below = 0
        chances = []
        for v in range(10):
            chances.append((below + 0.5 * composition[v]) / whole)
            below += composition[v]
        _CHANCES[composition] = chances
    return chances


def _as_candidate(sim: Simulator, move: Move) -> Candidate:
    """The default policy's free move as a candidate: a value, (kind, target) or None."""
    if isinstance(move, dict):
        target = move.get("target")
        return (KIND[move["card"]], sim.hands.index[target] if target is not None else -1)
    return move


def _public_discards(sim: Simulator) -> tuple[list[int], list[int]]:
    """The cards every seat has seen go to the discards, by value and by kind, read from the
    record: a round's winner, or every seat tied for the highest card, sheds the card it
    revealed (every revealed card under ``loser_discards_revealed``); an action card played
    face up is discarded (a REVERSE under ``reverse_discard: "after"`` stays in play). The
    other discards (chosen sheds, a REVERSE actor's discard) were not shown."""
    numbers = [0] * 10
    actions = [0] * len(CARDS)
    after = sim.rules.reverse_discard == "after"
    losers_too = sim.rules.loser_discards_revealed
    for event in sim.duel._events:
        kind = event["type"]
        if kind == "round":
            cards: dict[str, int] = event["cards"]
            if not cards:
                continue
            top = max(cards.values())
            for value in cards.values():
                if value == top or losers_too:
                    numbers[value] += 1
        elif kind == "action":
            k = KIND[event["card"]]
            if not (after and k == _REVERSE):
                actions[k] += 1
    return numbers, actions


def _known_in_hand(sim: Simulator, i: int) -> list[list[int]] | None:
    """For each seat but ``i``, the number cards (counts by value) the public record shows it
    still holds, or None when it shows none (``loser_discards_revealed``: losers discard).

    A round's loser keeps the card it revealed: that value is in its hand until something
    could take it out unseen. Followed event by event: a seat revealing a known value and
    winning or tying sheds it; a REVERSE swaps what is known with the hands; a seat robbed by a
    0 may lose any card but the one it shows, a chosen shed (COLOR CHANGE, TRUTH, DARE, a block
    battle) any card: then what was known of it is forgotten."""
    if sim.rules.loser_discards_revealed:
        return None
    index = sim.hands.index
    seats = len(sim.seats)
    known = [[0] * 10 for _ in range(seats)]
    for event in sim.duel._events:
        kind = event["type"]
        if kind == "round":
            cards: dict[str, int] = event["cards"]
            if not cards:
                continue
            for seat, target in event.get("targets", {}).items():
                if cards[seat] == 0:
                    known[index[target]] = [0] * 10
            top = max(cards.values())
            for seat, value in cards.items():
                held = known[index[seat]]
                if value == top:
                    if held[value]:
                        held[value] -= 1
                elif not held[value]:
                    held[value] = 1
        elif kind == "action":
            card = event["card"]
            if card == "reverse":
                a, b = index[event["seat"]], index[event["target"]]
                known[a], known[b] = known[b], known[a]
            elif card not in _NO_SHED:
                known = [[0] * 10 for _ in range(seats)]
        elif kind == "respond" and event["choice"] == "block":
            known = [[0] * 10 for _ in range(seats)]
    known[i] = [0] * 10
    return known


#: Action cards after which no seat has shed a card of its choice.
_NO_SHED = frozenset({"block", "draw_two", "draw_four"})


def _deal_world(
    sim: Simulator,
    i: int,
    rng: random.Random,
    shown: tuple[list[int], list[int]],
    known: list[list[int]] | None = None,
) -> Hands:
    """One determinisation: seat ``i``'s own hand as it is, the discards seen (``shown``) in
    the discards, the cards the record shows in another hand (``known``, as far as the unseen
    cards and the hand's size allow) in that hand, and every other unseen card dealt at
    random to the other hands, the decks and the rest of the discards, in the sizes the public
    table shows."""
    t = sim.table
    rules = sim.rules
    own_num = sim.hands.num[i]
    own_act = sim.hands.act[i]
    world = Hands(sim.seats, rng, rules.reverse_discard == "after", True)
    others = [j for j in sim.order if j != i]
    composition = action_composition(rules.action_pool, rules.truth_dare)
    pools = (list(sim.composition), [composition.get(card, 0) for card in CARDS])
    dealt: list[list[int]] = []
    for pool, own, seen, needed in (
        (pools[0], own_num, shown[0], sum(t.num[j] for j in others) + t.deck_n),
        (pools[1], own_act, shown[1], sum(t.act[j] for j in others) + t.deck_a),
    ):
        cards = _unseen(pool, own, seen)
        if len(cards) < needed:
            # The public record and this hand disagree (a hand guessed for a person's seat):
            # forget what was seen discarded.
            cards = _unseen(pool, own, [0] * len(pool))
        rng.shuffle(cards)
        dealt.append(cards)
    numbers, actions = dealt
    world.num[i] = own_num[:]
    world.act[i] = own_act[:]
    placed = [0] * len(others)
    if known is not None:
        left = [0] * 10
        for v in numbers:
            left[v] += 1
        for n, j in enumerate(others):
            hand = world.num[j]
            for v in range(10):
                take = min(known[j][v], left[v], t.num[j] - placed[n])
                if take > 0:
                    hand[v] += take
                    left[v] -= take
                    placed[n] += take
        if any(placed):
            # The rest of the unseen cards, in the order shuffled, less those placed.
            taken = [left[v] for v in range(10)]
            rest: list[int] = []
            for v in numbers:
                if taken[v]:
                    taken[v] -= 1
                    rest.append(v)
            numbers = rest
    for n, j in enumerate(others):
        hand = world.num[j]
        for _ in range(t.num[j] - placed[n]):
            if numbers:
                hand[numbers.pop()] += 1
        held = world.act[j]
        for _ in range(t.act[j]):
            if actions:
                held[actions.pop()] += 1
    # The rest go to the discards: which cards lie there changes no rule, only their count.
    world.deck_num = numbers[: t.deck_n]
    world.deck_act = actions[: t.deck_a]
    return world


def _unseen(pool: list[int], own: list[int], known: list[int]) -> list[int]:
    cards: list[int] = []
    for k, count in enumerate(pool):
        cards.extend([k] * max(0, count - own[k] - known[k]))
    return cards


def _copy_hands(world: Hands, rng: random.Random) -> Hands:
    """An independent copy of a world's hands, decks and discards (a rollout changes them),
    drawing from ``rng``."""
    other = Hands(world.seats, rng, world.after, True)
    other.num = [hand[:] for hand in world.num]
    other.act = [held[:] for held in world.act]
    other.deck_num = world.deck_num[:]
    other.deck_act = world.deck_act[:]
    other.disc_num = world.disc_num[:]
    other.disc_act = world.disc_act[:]
    return other


__all__ = ["ExpertBot"]
