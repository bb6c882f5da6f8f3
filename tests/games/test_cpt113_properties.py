"""Properties of CPT-113 over random games: after every move, legal or refused."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.errors import GameError
from games.cpt113 import DECK, Game, replay
from games.cpt113.bots import RandomBot, view_for
from games.cpt113.state import DROP_OUT, State

JUNK = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=5),
    st.fixed_dictionaries({"kind": st.sampled_from(["play", "draw", "x"])}),
    st.fixed_dictionaries({"kind": st.just("play"), "card": st.sampled_from(DECK + ("Z", ""))}),
    st.fixed_dictionaries(
        {
            "kind": st.just("play"),
            "card": st.sampled_from(["W", "W4"]),
            "colour": st.sampled_from(["R", "Y", "G", "B", "P"])
            | st.lists(st.just("R"), max_size=1),
        }
    ),
)


def check_invariants(state: State) -> None:
    everything = sum(state.hands, []) + sum(state.set_aside, []) + state.deck + state.discard
    assert Counter(everything) == Counter(DECK), "every card is somewhere, as often as dealt"
    assert all(len(h) < DROP_OUT for h in state.hands), "a group at 11 has dropped out"
    assert all(not state.hands[g] for g in state.out)
    assert state.colour in "RYGB" and 0 <= state.number <= 9
    assert not set(state.winners) & set(state.out), "a dropped-out group never wins"
    if state.finished:
        assert state.winners
        if state.ending == "pile_empty":
            assert not state.deck
    else:
        assert state.seat % state.groups not in state.out, "a dropped-out group never plays"
        assert state.deck, "an empty draw pile ends the game"
        assert all(state.hands[g] for g in state.playing())
        assert len(state.playing()) >= 2
    json.dumps(state.as_dict())


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    groups=st.integers(2, 4),
    choices=st.randoms(use_true_random=False),
    junk=st.lists(JUNK, max_size=30),
)
def test_random_games_keep_every_card_and_refusals_change_nothing(
    seed: int, groups: int, choices: random.Random, junk: list
) -> None:
    game = Game(seed, groups)
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
        else:
            game.apply(bot.choose(view_for(game.state, game.legal()), choices))
        check_invariants(game.state)
    again, error = replay(json.loads(json.dumps(game.record())))
    assert error is None and again.state.as_dict() == game.state.as_dict()
