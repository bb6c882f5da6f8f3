"""The Page playoff (TOURNAMENT.md "Playoffs: the Page playoff"; "Corrections")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.format import (
    E1,
    GF,
    Q1,
    Q2,
    PlayoffDuel,
    page_bracket,
    seeding_from_positions,
)

SEEDS = (11, 22, 33, 44)  # ranks 1, 2, 3, 4


def result(bracket, stage, winner, ref=None):
    m = bracket.match(stage)
    return PlayoffDuel(stage, m.seat_a, m.seat_b, winner, ref)


def test_q1_is_rank_1_v_rank_2_and_e1_rank_3_v_rank_4_side_by_side():
    b = page_bracket(SEEDS)
    assert [(m.stage, m.seat_a, m.seat_b) for m in b.to_play] == [(Q1, 11, 22), (E1, 33, 44)]
    assert not b.match(Q2).known and not b.complete and b.placings == {}


def test_the_bracket_progresses_and_gives_placings_when_the_grand_final_ends():
    duels = []
    b = page_bracket(SEEDS)
    duels += [result(b, Q1, 22), result(b, E1, 44)]
    b = page_bracket(SEEDS, duels)
    q2 = b.match(Q2)
    # Q2: loser Q1 (rank 1) v winner E1 (rank 4); seat A to the better group-phase rank.
    assert (q2.seat_a, q2.seat_b) == (11, 44)
    assert b.placings == {4: 33}
    duels.append(result(b, Q2, 44))
    b = page_bracket(SEEDS, duels)
    gf = b.match(GF)
    assert (gf.seat_a, gf.seat_b) == (22, 44)
    assert b.placings == {3: 11, 4: 33}
    duels.append(result(b, GF, 44))
    b = page_bracket(SEEDS, duels)
    assert b.complete and b.to_play == ()
    assert b.placings == {1: 44, 2: 22, 3: 11, 4: 33}


def test_level_ranks_take_seat_a_by_the_seat_draw_order():
    # Minimal mode: 22 and 11 share rank 1, their seat draw put 22 first.
    seeding = seeding_from_positions({1: (22, 11), 3: (44, 33)})
    assert seeding == (22, 11, 44, 33)
    b = page_bracket(seeding)
    assert (b.match(Q1).seat_a, b.match(E1).seat_a) == (22, 44)


def test_a_qualifier_who_withdraws_after_the_start_forfeits_that_duel_and_every_later_one():
    b = page_bracket(SEEDS, forfeited={11})
    q1 = b.match(Q1)
    assert q1.walkover and q1.winner == 22 and q1.loser == 11
    b = page_bracket(SEEDS, [result(b, E1, 33)], forfeited={11})
    q2 = b.match(Q2)
    assert q2.walkover and q2.winner == 33
    assert b.match(GF).playable and b.placings == {3: 11, 4: 44}


def test_a_recorded_walkover_stands_when_the_winner_withdraws_later():
    b = page_bracket(SEEDS, forfeited={11})
    assert [m.stage for m in b.walkovers] == [Q1]
    recorded = [PlayoffDuel(Q1, 11, 22, b.match(Q1).winner)]
    b = page_bracket(SEEDS, recorded, forfeited={11, 22})
    assert b.match(Q1).winner == 22 and b.walkovers == ()


def test_when_both_players_of_a_stage_forfeit_the_better_seed_goes_through_nominally():
    # docs/format.md reading 22.
    b = page_bracket(SEEDS, forfeited={11, 22})
    q1 = b.match(Q1)
    assert (q1.winner, q1.loser, q1.walkover) == (11, 22, True)
    b = page_bracket(SEEDS, [PlayoffDuel(Q1, 11, 22, 11), result(b, E1, 33)], forfeited={11, 22})
    assert b.match(Q2).winner == 33 and b.match(GF).winner == 33
    assert b.placings == {1: 33, 2: 11, 3: 22, 4: 44}


def test_a_result_played_before_the_withdrawal_stands():
    duels = [PlayoffDuel(Q1, 11, 22, 11)]
    b = page_bracket(SEEDS, duels, forfeited={11})
    assert b.match(Q1).winner == 11 and not b.match(Q1).walkover


def test_a_vacant_seat_is_a_walkover():
    b = page_bracket((11, 22, 33, None))
    e1 = b.match(E1)
    assert e1.walkover and e1.winner == 33 and e1.loser is None
    assert b.placings == {4: None}
    assert [m.stage for m in b.to_play] == [Q1]


def test_a_pending_row_of_a_walkover_is_referenced_for_the_forfeit():
    b = page_bracket(SEEDS, [PlayoffDuel(Q1, 11, 22, None, ref=5)], forfeited={22})
    assert b.match(Q1).ref == 5 and b.match(Q1).walkover and b.void == ()


def test_a_drawn_duels_replay_is_the_row_to_play_and_takes_the_walkover():
    drawn = PlayoffDuel(Q1, 11, 22, None, ref=5, drawn=True)
    replay = PlayoffDuel(Q1, 11, 22, None, ref=6)
    b = page_bracket(SEEDS, [drawn, replay])
    assert [(m.stage, m.ref) for m in b.to_play] == [(Q1, 6), (E1, None)]
    b = page_bracket(SEEDS, [drawn, replay], forfeited={22})
    assert [(m.stage, m.ref, m.winner) for m in b.walkovers] == [(Q1, 6, 11)]
    assert b.void == ()


def test_a_corrected_result_voids_later_duels_that_no_longer_follow():
    duels = [
        PlayoffDuel(Q1, 11, 22, 11),
        PlayoffDuel(E1, 33, 44, 33),
        PlayoffDuel(Q2, 22, 33, 22, ref=3),
        PlayoffDuel(GF, 11, 22, 11, ref=4),
    ]
    assert page_bracket(SEEDS, duels).placings == {1: 11, 2: 22, 3: 33, 4: 44}
    corrected = [PlayoffDuel(Q1, 11, 22, 22), *duels[1:]]
    b = page_bracket(SEEDS, corrected)
    assert [d.ref for d in b.void] == [3, 4]
    assert [(m.stage, m.seat_a, m.seat_b) for m in b.to_play] == [(Q2, 11, 33)]
    assert not b.complete and b.placings == {4: 44}


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        page_bracket((1, 2, 3))
    with pytest.raises(ValueError):
        page_bracket((1, 1, 2, 3))
    with pytest.raises(ValueError):
        page_bracket(SEEDS, [PlayoffDuel("Q3", 11, 22, 11)])
    with pytest.raises(ValueError):
        page_bracket(SEEDS, [PlayoffDuel(Q1, 11, 22, 33)])
    with pytest.raises(ValueError):
        seeding_from_positions({1: (1,), 2: (2,), 3: (3,), 4: (4, 5)})


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 4),
    st.randoms(use_true_random=False),
    st.lists(st.tuples(st.integers(0, 6), st.integers(0, 3)), max_size=3),
)
def test_the_bracket_always_ends_with_four_distinct_placings(count, rnd, withdrawals):
    seeding = tuple([101, 202, 303, 404][:count]) + (None,) * (4 - count)
    qualifiers = {p for p in seeding if p is not None}
    duels: list[PlayoffDuel] = []
    out: set[int] = set()
    for step in range(12):
        out |= {seeding[i] for s, i in withdrawals if s == step and seeding[i] is not None}
        b = page_bracket(seeding, duels, forfeited=out)
        assert b.void == ()
        # The caller records every walkover as a forfeit (docs/format.md).
        duels += [PlayoffDuel(m.stage, m.seat_a, m.seat_b, m.winner) for m in b.walkovers]
        if b.complete:
            break
        assert b.to_play, "an unfinished bracket always has a duel to play"
        for m in b.to_play:
            assert m.seat_a not in out and m.seat_b not in out
            assert seeding.index(m.seat_a) < seeding.index(m.seat_b)  # seat A: better rank
            duels.append(PlayoffDuel(m.stage, m.seat_a, m.seat_b, rnd.choice([m.seat_a, m.seat_b])))
    assert b.complete
    assert sorted(b.placings) == [1, 2, 3, 4]
    placed = [p for p in b.placings.values() if p is not None]
    assert len(placed) == len(set(placed)) and set(placed) == qualifiers
    if count == 4:
        assert None not in b.placings.values()
