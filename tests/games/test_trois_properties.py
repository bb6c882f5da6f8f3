"""Properties of Trois over random games: after every move, legal or refused."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.errors import GameError
from games.trois import DECK, WILDCARDS, Game, replay
from games.trois.bots import RandomBot, view_for
from games.trois.rules import legal
from games.trois.state import State

JUNK = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=5),
    st.fixed_dictionaries({"kind": st.sampled_from(["play", "take", "time", "x"])}),
    st.fixed_dictionaries(
        {"kind": st.just("play"), "cards": st.lists(st.sampled_from(DECK + ("Z9", "")), max_size=4)}
    ),
)


def check_invariants(state: State) -> None:
    everything = sum(state.hands, []) + state.deck + state.pile + state.wild_pile
    assert Counter(everything) == Counter(DECK), "every card is somewhere, once"
    assert not any(c in WILDCARDS for c in sum(state.hands, []) + state.pile)
    assert all(c in WILDCARDS for c in state.wild_pile)
    assert state.pile, "the pile always has its top card"
    assert 0 <= state.turn < 4
    if state.finished:
        assert state.winners and state.ending in ("emptied", "time")
        if state.ending == "emptied":
            assert [len(state.hands[s]) for s in state.winners] == [0]
        else:
            fewest = min(len(h) for h in state.hands)
            assert state.winners == tuple(s for s in range(4) if len(state.hands[s]) == fewest)
    else:
        assert all(state.hands), "nobody is empty-handed while the game is on"
    json.dumps(state.as_dict())


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    choices=st.randoms(use_true_random=False),
    junk=st.lists(JUNK, max_size=30),
    call_time=st.integers(20, 400),
)
def test_random_games_keep_every_card_and_refusals_change_nothing(
    seed: int, choices: random.Random, junk: list, call_time: int
) -> None:
    game = Game(seed)
    bot = RandomBot()
    check_invariants(game.state)
    while not game.finished:
        if junk and choices.random() < 0.3:
            before = game.state.as_dict()
            try:
                game.apply(junk.pop())
            except GameError as err:
                assert str(err)
                assert game.state.as_dict() == before
        elif len(game.moves) >= call_time:
            game.apply({"kind": "time"})
        else:
            game.apply(bot.choose(view_for(game.state, legal(game.state)), choices))
        check_invariants(game.state)
    again, error = replay(json.loads(json.dumps(game.record())))
    assert error is None and again.state.as_dict() == game.state.as_dict()
