"""Issue 30, the expert bot: legal complete games at two and four seats and in a team game, fair
play (its move depends on what its seat may know, never on the other seats' hidden cards), and a
seed that fixes its moves. Its strength and time per move are measured by bench/bots.py, not
here (docs/performance.md, "The expert bot (issue 30)")."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.split_uno import Duel
from games.split_uno.bots import BOTS, make_bot
from games.split_uno.expert import ExpertBot, _deal_world, _known_in_hand, _public_discards
from games.split_uno.hands import Hands
from games.split_uno.simulate import Simulator, duel_rng, play_duel
from tests.engine.budget import examples


def small() -> ExpertBot:
    """A search small enough for a test: a few worlds, short rollouts."""
    return ExpertBot(budget=6, budget_many=6, min_worlds=2, horizon=8)


def test_make_bot_knows_the_expert() -> None:
    assert "expert" in BOTS
    assert isinstance(make_bot("expert"), ExpertBot)
    assert make_bot("expert").name == "expert"


def test_it_plays_whole_legal_duels_at_two_seats() -> None:
    # check: every move is looked up in the engine's legal moves, the hands compared with the
    # engine's counts after every event.
    for k in range(2):
        bots = [small(), "heuristic"] if k == 0 else ["heuristic", small()]
        played = play_duel("tournament", {"A": "a", "B": "b"}, bots, duel_rng("x2", k), check=True)
        assert played.finish is not None and not played.capped


def test_it_plays_whole_legal_games_at_four_seats_and_in_teams() -> None:
    seats = {s: s.lower() for s in "ABCD"}
    played = play_duel(
        "official", seats, [small(), "heuristic", small(), "heuristic"], duel_rng("x4", 0),
        check=True,
    )  # fmt: skip
    assert played.finish is not None and not played.capped
    team = play_duel(
        "official", seats, [small(), "heuristic", "heuristic", small()], duel_rng("xt", 0),
        variants=["team"], teams=[["A", "C"], ["B", "D"]], check=True,
    )  # fmt: skip
    assert team.finish is not None and not team.capped


def test_a_seed_fixes_its_moves() -> None:
    def events(seed: int) -> list[dict[str, Any]]:
        duel = play_duel("tournament", {"A": "a", "B": "b"}, [small(), "heuristic"],
                         duel_rng("seed", seed))  # fmt: skip
        return duel.events

    assert events(1) == events(1)
    assert events(1) != events(2)


def test_it_plays_as_measured_at_two_seats() -> None:
    # The two-seat benchmark (docs/performance.md, "The expert bot (issue 30)") stands only
    # while the bot plays the same moves at two seats: these digests of seeded duels were
    # taken with the expert bot as it was measured (commit bee8698), before the budget, the
    # worlds and the targets at more seats changed (the two-seat budget as measured, 120:
    # ``test_it_searches_with_a_bigger_budget_at_more_seats``).
    def digest(bots: list[Any], seed: int) -> str:
        duel = play_duel("tournament", {"A": "a", "B": "b"}, bots, duel_rng("pin", seed))
        return hashlib.sha256(json.dumps(duel.events, sort_keys=True).encode()).hexdigest()[:16]

    small_first = ExpertBot(budget=6, min_worlds=2, horizon=8)
    assert digest([small_first, "heuristic"], 0) == "498751f668a215c7"
    assert digest(["heuristic", ExpertBot(budget=6, min_worlds=2, horizon=8)], 1) == (
        "2c1b7088a8a73cd6"
    )


def test_it_searches_with_a_bigger_budget_at_more_seats() -> None:
    bot = ExpertBot()
    two = Simulator(Duel.new("tournament", {"A": "a", "B": "b"}), ["heuristic"] * 2,
                    random.Random(0))  # fmt: skip
    four = Simulator(Duel.new("official", {s: s for s in "ABCD"}), ["heuristic"] * 4,
                     random.Random(0))  # fmt: skip
    assert (bot.budget, bot.budget_many) == (120, 240)
    assert bot._worlds(two, 10) == 12
    assert bot._worlds(four, 10) == 24
    assert bot._worlds(four, 7) == 34  # split evenly, rounded down
    assert bot._worlds(four, 40) == bot.min_worlds == 8


def test_the_cards_the_record_shows_in_a_hand_are_in_it_and_in_every_world() -> None:
    # Four seats under ``official``, where a round's loser keeps the card it revealed: after
    # every event, every value the record shows in another seat's hand is in its real hand
    # (steals, REVERSE swaps and chosen sheds included: random bots play every action card),
    # and a world deals it there, each hand in its public size.
    found = 0
    for seed, bots in ((1, "random"), (2, "random"), (3, "heuristic")):
        sim = Simulator(Duel.new("official", {s: s for s in "ABCD"}), [bots] * 4,
                        random.Random(seed))  # fmt: skip
        rng = random.Random(seed)
        while sim.table.finish is None and sim.table.events < 200:
            i = sim.table.events % 4
            known = _known_in_hand(sim, i)
            assert known is not None and not any(known[i])
            world = _deal_world(sim, i, rng, _public_discards(sim), known)
            for j in range(4):
                if j == i:
                    continue
                assert sum(world.num[j]) == sim.table.num[j]
                for v in range(10):
                    assert known[j][v] <= sim.hands.num[j][v]
                    assert known[j][v] <= world.num[j][v]
                    found += known[j][v]
            if sim.step() is None:
                break
    assert found > 100  # not vacuous


def under_way(seed: int, events: int, ruleset: str, seats: str) -> Duel:
    """A duel after ``events`` events of heuristic bots (fewer if it ends first)."""
    sim = Simulator(Duel.new(ruleset, {s: s for s in seats}), ["heuristic"] * len(seats),
                    random.Random(seed))  # fmt: skip
    while sim.table.finish is None and sim.table.events < events:
        sim.step()
    return sim.duel


def redeal(sim: Simulator, i: int, rng: random.Random) -> Simulator:
    """The same duel and the same hand for seat ``i``, every card it cannot see — the other
    hands and the decks — shuffled and dealt again in the same sizes (the discards as they
    are)."""
    hands = sim.hands
    others = [j for j in sim.order if j != i]
    numbers = [v for j in others for v in range(10) for _ in range(hands.num[j][v])]
    numbers += hands.deck_num
    actions = [k for j in others for k, c in enumerate(hands.act[j]) for _ in range(c)]
    actions += hands.deck_act
    rng.shuffle(numbers)
    rng.shuffle(actions)
    again = Hands(hands.seats, sim.rng, hands.after, True)
    again.num[i], again.act[i] = hands.num[i][:], hands.act[i][:]
    again.disc_num, again.disc_act = hands.disc_num[:], hands.disc_act[:]
    for j in others:
        for _ in range(sum(hands.num[j])):
            again.num[j][numbers.pop()] += 1
        for _ in range(sum(hands.act[j])):
            again.act[j][actions.pop()] += 1
    again.deck_num, again.deck_act = numbers, actions
    return Simulator(sim.duel.copy(), sim.bots, random.Random(0), hands=again)


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    events=st.integers(0, 60),
    shape=st.sampled_from([("tournament", "AB"), ("official", "ABCD")]),
    again=st.integers(0, 10**6),
)
def test_its_move_does_not_depend_on_the_cards_it_cannot_see(
    seed: int, events: int, shape: tuple[str, str], again: int
) -> None:
    ruleset, seats = shape
    duel = under_way(seed, events, ruleset, seats)
    if duel.finished:
        return
    first = Simulator(duel.copy(), ["heuristic"] * len(seats), random.Random(seed))
    pending = first.table.pending
    # The seat to ask: the one a decision waits for, else the first still in play.
    i = (
        pending.seat
        if pending is not None
        else next(j for j in first.order if not first.table.out[j])
    )
    first.bots[i] = bot = small()
    second = redeal(first, i, random.Random(again))
    hidden = [j for j in first.order if j != i]
    if len(set(first.hands.deck_num)) > 1 and any(sum(first.hands.num[j]) > 4 for j in hidden):
        # Not a vacuous re-deal: what the seat cannot see differs (with a deck of more than one
        # value to mix in, nearly always).
        hands_before = [first.hands.num[j] for j in hidden] + [sorted(first.hands.deck_num)]
        hands_after = [second.hands.num[j] for j in hidden] + [sorted(second.hands.deck_num)]
        assert hands_before != hands_after
    for sim in (first, second):
        sim.rng.seed(seed)  # the same random numbers for both
    if pending is not None:
        choices = first.choices_for(i, pending.decision)
        assert bot.respond(first, i, pending.decision, choices) == bot.respond(
            second, i, pending.decision, choices
        )
    else:
        assert bot.free(first, i) == bot.free(second, i)
