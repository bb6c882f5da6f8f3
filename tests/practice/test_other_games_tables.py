"""The practice tables of Trois and CPT-113: a game replayed from its seed and the person's
moves is the game that was played, and a refused move changes nothing."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from practice import cpt113_table, trois_table
from practice.game import Refused


def person_move(table, rng: random.Random) -> dict:
    """A legal move as the page offers it, or now and then a bad one."""
    if rng.random() < 0.15:
        return rng.choice(
            [
                {"kind": "play", "cards": ["Z1"]},
                {"kind": "draw", "x": 1},
                {"kind": "play", "card": "W", "colour": "P"},
                {"kind": "take"},
                {"kind": "play", "cards": []},
            ]
        )
    hand = [c for c in table.hand() if c["playable"]]
    if isinstance(table, trois_table.TroisTable):
        if table.can_take():
            return {"kind": "take"}
        groups = table.groups()
        if groups and rng.random() < 0.5:
            return {"kind": "play", "cards": rng.choice(groups)}
        return {"kind": "play", "cards": [rng.choice(hand)["card"]]}
    if table.can_draw():
        return {"kind": "draw"}
    card = rng.choice(hand)
    return {"kind": "play", "card": card["card"]} | ({"colour": "G"} if card["wild"] else {})


def snapshot(table) -> tuple:
    return (table.state.as_dict(), [(e.number, e.by_bot, e.lines) for e in table.log])


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**48 - 1),
    groups=st.sampled_from([0, 2, 3, 4]),
    person=st.integers(0, 2**32 - 1),
)
def test_a_replay_is_the_game_played_and_refusals_change_nothing(seed, groups, person):
    rng = random.Random(person)  # the person's choices

    def fresh(moves):
        if groups:
            return cpt113_table.replay(seed, groups, "ada", moves)
        return trois_table.replay(seed, "ada", moves)

    table = fresh([])
    moves: list[dict] = []
    while not table.finished and len(moves) < 150:
        move = person_move(table, rng)
        before = snapshot(table)
        try:
            table.play(move)
        except Refused as refused:
            assert str(refused).endswith(".")
            assert snapshot(table) == before
            continue
        moves.append(move)
        assert table.finished or table.my_turn(), "the bots play until the person's turn"
    assert snapshot(fresh(moves)) == snapshot(table)
