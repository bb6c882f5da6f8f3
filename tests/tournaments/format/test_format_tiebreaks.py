"""The tie-break planner, by example (TOURNAMENT.md "Tie-breaks for the top four", points 1–5,
and "Corrections").

Lines are fixed through stored draws (a stored draw is authoritative, point 1), so that the
examples do not depend on the seeded shuffle.
"""

from __future__ import annotations

import pytest

from tournaments.format import (
    FULL,
    MINIMAL,
    TieBreakDuel,
    derive_seed,
    duel_key,
    knockout_key,
    plan_tiebreaks,
    seat_draw_key,
    seeded_order,
    what_if_now,
)

SEED = "master"


def line(*players: int) -> dict[str, tuple[int, ...]]:
    return {knockout_key(players): players}


def won(plan, winner: int, *, among: list[TieBreakDuel]) -> None:
    """Record ``winner`` for the duel to play now in which they sit."""
    match = next(m for m in plan.to_play if winner in (m.seat_a, m.seat_b))
    among.append(TieBreakDuel(match.key, match.seat_a, match.seat_b, winner))


def pairs(plan) -> list[tuple[int, int]]:
    return [(m.seat_a, m.seat_b) for m in plan.to_play]


# Nothing to play.


def test_no_level_players_in_the_top_four_needs_no_tie_break():
    plan = plan_tiebreaks({1: 9, 2: 6, 3: 3, 4: 0, 5: -2, 6: -2}, master_seed=SEED)
    assert plan.settled and not plan.needed and plan.to_play == ()
    assert plan.positions == {1: (1,), 2: (2,), 3: (3,), 4: (4,)}


def test_a_level_block_covering_position_four_plays():
    plan = plan_tiebreaks({1: 9, 2: 6, 3: 3, 4: 0, 5: 0, 6: 0}, master_seed=SEED)
    assert not plan.settled and plan.positions == {}
    assert plan.knockouts[0].members == (4, 5, 6)
    assert (plan.knockouts[0].first, plan.knockouts[0].last) == (4, 6)


def test_a_level_block_after_position_four_is_never_separated():
    plan = plan_tiebreaks({1: 9, 2: 6, 3: 3, 4: 1, 5: 0, 6: 0}, master_seed=SEED)
    assert plan.settled and plan.to_play == ()
    assert plan.positions == {1: (1,), 2: (2,), 3: (3,), 4: (4,)}
    assert plan.tiers[-1].players == (5, 6) and plan.tiers[-1].state == "level"


# Point 1: seeded draws.


def test_a_new_draw_is_the_seeded_order_of_a_seed_derived_from_master_seed_and_sorted_ids():
    plan = plan_tiebreaks({7: 3, 3: 3, 12: 3, 1: 0}, master_seed=SEED)
    (ko,) = plan.knockouts
    assert ko.members == (3, 7, 12)
    assert ko.seed == derive_seed(SEED, "knockout", [3, 7, 12])
    assert ko.line == seeded_order([3, 7, 12], ko.seed)
    assert [d.key for d in plan.new_draws] == [knockout_key([3, 7, 12])]


def test_a_stored_draw_is_authoritative_and_not_reported_as_new():
    plan = plan_tiebreaks({1: 3, 2: 3, 3: 3, 4: 0}, master_seed=SEED, draws=line(2, 3, 1))
    assert plan.knockouts[0].line == (2, 3, 1)
    assert plan.new_draws == ()


def test_a_stored_draw_that_does_not_list_its_members_is_refused():
    with pytest.raises(ValueError):
        plan_tiebreaks({1: 3, 2: 3, 3: 0}, master_seed=SEED, draws={knockout_key([1, 2]): (1, 3)})


# Point 2: byes, later rounds, seat A.


def test_byes_go_to_the_first_drawn_and_seat_a_to_the_earlier_in_the_line():
    # Three players: P = 4, one bye for the first drawn; 3 v 1 with 3 in seat A.
    plan = plan_tiebreaks({1: 3, 2: 3, 3: 3, 4: 0}, master_seed=SEED, draws=line(2, 3, 1))
    assert plan.knockouts[0].rounds[0].byes == (2,)
    assert pairs(plan) == [(3, 1)]
    duels: list[TieBreakDuel] = []
    won(plan, 1, among=duels)
    plan = plan_tiebreaks(
        {1: 3, 2: 3, 3: 3, 4: 0}, master_seed=SEED, draws=line(2, 3, 1), duels=duels
    )
    # Round 2: bye holders first, then the winners in match order.
    assert pairs(plan) == [(2, 1)]
    assert plan.to_play[0].key == duel_key(knockout_key([1, 2, 3]), 2, 1)


def test_later_rounds_put_bye_holders_first_then_winners_in_match_order():
    points = {p: 0 for p in range(1, 7)}
    draws = line(6, 5, 4, 3, 2, 1)
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws)
    assert plan.knockouts[0].rounds[0].byes == (6, 5)
    assert pairs(plan) == [(4, 3), (2, 1)]
    duels: list[TieBreakDuel] = []
    won(plan, 3, among=duels)
    won(plan, 2, among=duels)
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws, duels=duels)
    assert pairs(plan) == [(6, 5), (3, 2)]


def test_rounds_are_played_round_by_round():
    points = {p: 0 for p in range(1, 7)}
    plan = plan_tiebreaks(points, master_seed=SEED, draws=line(6, 5, 4, 3, 2, 1))
    # 6 v 5 (both byes) waits for round 1 to finish.
    assert (6, 5) not in pairs(plan)


# Point 3: final loser next; same-round losers level; their own knockouts.


def test_full_mode_four_level_players_play_semis_then_final_and_losers_duel_side_by_side():
    points = {1: 5, 2: 5, 3: 5, 4: 5, 5: 0}
    draws = line(1, 2, 3, 4)
    duels: list[TieBreakDuel] = []
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws)
    assert pairs(plan) == [(1, 2), (3, 4)]
    won(plan, 2, among=duels)
    won(plan, 3, among=duels)
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws, duels=duels)
    # The semi-final losers' duel runs beside the final, with its own (new) draw.
    final = (2, 3)
    losers = plan.knockouts[1].line
    assert sorted(pairs(plan)) == sorted([final, losers])
    assert plan.knockouts[1].parent == plan.knockouts[0].key
    assert [d.key for d in plan.new_draws] == [knockout_key([1, 4])]
    draws.update({d.key: d.order for d in plan.new_draws})
    won(plan, 3, among=duels)
    won(plan, 4, among=duels)
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws, duels=duels)
    assert plan.settled
    assert plan.positions == {1: (3,), 2: (2,), 3: (4,), 4: (1,)}


def test_positions_after_four_are_never_separated():
    points = {p: 0 for p in range(1, 9)}
    draws = line(1, 2, 3, 4, 5, 6, 7, 8)
    duels: list[TieBreakDuel] = []
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws)
    for winner in (1, 3, 5, 7):
        won(plan, winner, among=duels)
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws, duels=duels)
    # Round-1 losers 2, 4, 6, 8 are level at 5–8 and play nothing more.
    assert pairs(plan) == [(1, 3), (5, 7)]
    assert plan.tiers[-1].players == (2, 4, 6, 8) and plan.tiers[-1].state == "level"
    assert len(plan.knockouts) == 1


def test_a_block_straddling_position_four_plays_until_four_is_settled():
    points = {1: 9, 2: 6, 3: 3, 4: 3, 5: 3, 6: -2}
    draws = line(3, 4, 5)
    duels: list[TieBreakDuel] = []
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws)
    assert pairs(plan) == [(4, 5)]
    won(plan, 5, among=duels)
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws, duels=duels)
    assert pairs(plan) == [(3, 5)]
    won(plan, 5, among=duels)
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws, duels=duels)
    assert plan.settled
    assert plan.positions == {1: (1,), 2: (2,), 3: (5,), 4: (3,)}


# Point 4: minimal mode.


def test_minimal_mode_four_level_at_the_top_play_the_semis_only():
    points = {1: 5, 2: 5, 3: 5, 4: 5, 5: 0}
    draws = line(1, 2, 3, 4)
    duels: list[TieBreakDuel] = []
    plan = plan_tiebreaks(points, master_seed=SEED, mode=MINIMAL, draws=draws)
    won(plan, 2, among=duels)
    won(plan, 3, among=duels)
    plan = plan_tiebreaks(points, master_seed=SEED, mode=MINIMAL, draws=draws, duels=duels)
    assert plan.settled and plan.to_play == ()
    assert plan.knockouts[0].state == "stopped"
    # 2 and 3 share rank 1, 1 and 4 share rank 3; each pair ordered by a stored seat draw.
    assert set(plan.positions) == {1, 3}
    assert sorted(plan.positions[1]) == [2, 3] and sorted(plan.positions[3]) == [1, 4]
    seat = next(d for d in plan.draws if d.key == seat_draw_key([2, 3]))
    assert seat.kind == "seat" and seat.new
    assert plan.positions[1] == seat.order == seeded_order([2, 3], seat.seed)


def test_minimal_mode_a_level_pair_inside_one_two_plays_nothing():
    plan = plan_tiebreaks({1: 5, 2: 5, 3: 3, 4: 1}, master_seed=SEED, mode=MINIMAL)
    assert plan.settled and not plan.needed
    assert sorted(plan.positions[1]) == [1, 2]
    stored = {seat_draw_key([1, 2]): (2, 1)}
    plan = plan_tiebreaks({1: 5, 2: 5, 3: 3, 4: 1}, master_seed=SEED, mode=MINIMAL, draws=stored)
    assert plan.positions[1] == (2, 1) and plan.new_draws == ()


def test_minimal_mode_a_bye_can_carry_a_player_through_without_playing():
    points = {1: 5, 2: 5, 3: 5, 4: 0, 5: -2}
    draws = line(1, 2, 3)
    duels: list[TieBreakDuel] = []
    plan = plan_tiebreaks(points, master_seed=SEED, mode=MINIMAL, draws=draws)
    assert pairs(plan) == [(2, 3)]
    won(plan, 3, among=duels)
    plan = plan_tiebreaks(points, master_seed=SEED, mode=MINIMAL, draws=draws, duels=duels)
    # 1 (bye) and 3 are in 1–2, 2 is third: the 2/3 boundary is settled without 1 playing.
    assert plan.settled
    assert sorted(plan.positions[1]) == [1, 3] and plan.positions[3] == (2,)


def test_minimal_mode_three_level_at_three_to_five_play_one_duel():
    points = {1: 9, 2: 6, 3: 3, 4: 3, 5: 3}
    draws = line(3, 4, 5)
    duels: list[TieBreakDuel] = []
    plan = plan_tiebreaks(points, master_seed=SEED, mode=MINIMAL, draws=draws)
    won(plan, 4, among=duels)
    plan = plan_tiebreaks(points, master_seed=SEED, mode=MINIMAL, draws=draws, duels=duels)
    assert plan.settled
    assert sorted(plan.positions[3]) == [3, 4]


def test_minimal_mode_records_no_walkover_for_a_final_it_never_scheduled():
    """Three level at 3–5: one duel settles 4/5 and minimal mode stops before the final. When
    the bye holder then withdraws, the unscheduled final is no walkover: the plan stays
    stopped, the withdrawn player leaves the order and the others move up."""
    points = {1: 9, 2: 6, 3: 3, 4: 3, 5: 3, 6: 0}
    draws = line(3, 4, 5)  # 3 holds the bye; 4 v 5 is the one duel
    duels: list[TieBreakDuel] = []
    plan = plan_tiebreaks(points, master_seed=SEED, mode=MINIMAL, draws=draws)
    won(plan, 4, among=duels)
    plan = plan_tiebreaks(
        points, master_seed=SEED, mode=MINIMAL, draws=draws, duels=duels, withdrawn={3}
    )
    assert plan.walkovers == ()
    assert plan.to_play == ()
    assert plan.void == ()
    assert plan.settled
    assert plan.positions[3] == (4,) and plan.positions[4] == (5,)


# Point 5: draws replayed, withdrawals.


def test_a_duel_without_winner_is_still_to_be_played():
    points = {1: 3, 2: 3, 3: 0}
    plan = plan_tiebreaks(points, master_seed=SEED)
    m = plan.to_play[0]
    drawn = TieBreakDuel(m.key, m.seat_a, m.seat_b, None, ref=41)
    plan = plan_tiebreaks(points, master_seed=SEED, duels=[drawn])
    assert [(x.key, x.ref) for x in plan.to_play] == [(m.key, 41)]
    assert plan.void == ()


def test_a_drawn_duels_replay_is_the_row_to_play_and_takes_the_walkover():
    """A drawn row has ended: its replay is the row still to play; a withdrawal's walkover is
    recorded on the replay (the drawn row takes no more events), and the drawn row is kept."""
    points = {1: 3, 2: 3, 3: 3, 4: 0}
    draws = line(1, 2, 3)  # 1 has a bye; 2 v 3
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws)
    m = plan.to_play[0]
    drawn = TieBreakDuel(m.key, m.seat_a, m.seat_b, None, ref=41, drawn=True)
    replay = TieBreakDuel(m.key, m.seat_a, m.seat_b, None, ref=42)
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws, duels=[drawn, replay])
    assert [(x.key, x.ref) for x in plan.to_play] == [(m.key, 42)]
    plan = plan_tiebreaks(
        points, master_seed=SEED, draws=draws, duels=[drawn, replay], withdrawn={m.seat_a}
    )
    assert [(w.ref, w.winner) for w in plan.walkovers] == [(42, m.seat_b)]
    assert plan.void == ()
    # No replay row (yet): the walkover goes on a new row, never on the drawn one.
    plan = plan_tiebreaks(
        points, master_seed=SEED, draws=draws, duels=[drawn], withdrawn={m.seat_a}
    )
    assert [(w.ref, w.winner) for w in plan.walkovers] == [(None, m.seat_b)]


def test_a_withdrawal_forfeits_the_pending_duel_and_removes_the_player_from_the_order():
    points = {1: 3, 2: 3, 3: 3, 4: 0, 5: 0, 6: -2}
    draws = line(1, 2, 3)
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws)
    pending = TieBreakDuel(plan.to_play[0].key, 2, 3, None, ref=7)
    # 3 withdraws with the duel pending: a walkover the caller records on row 7.
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws, duels=[pending], withdrawn={3})
    assert plan.knockouts[0].rounds[0].matches[0].walkover
    assert plan.knockouts[0].rounds[0].matches[0].ref == 7
    assert [(m.ref, m.winner) for m in plan.walkovers] == [(7, 2)]
    assert plan.void == ()
    # Players below move up: 4 and 5 are level at 3–4 now and play for position 3 beside the
    # final of what is left of the first knockout.
    assert [set(p) for p in pairs(plan)] == [{1, 2}, {4, 5}]


def test_finished_knockouts_stand_after_a_withdrawal_and_a_block_now_covering_four_plays():
    points = {1: 9, 2: 3, 3: 3, 4: 1, 5: 0, 6: 0}
    draws = line(2, 3)
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws)
    duels = [TieBreakDuel(plan.to_play[0].key, 2, 3, 3)]
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws, duels=duels)
    assert plan.settled and plan.positions == {1: (1,), 2: (3,), 3: (2,), 4: (4,)}
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws, duels=duels, withdrawn={1})
    assert plan.void == ()
    assert [t.players for t in plan.tiers[:3]] == [(3,), (2,), (4,)]
    assert [set(p) for p in pairs(plan)] == [{5, 6}]


# Corrections: re-planning from results and stored draws.


def test_a_correction_that_changes_a_block_gives_it_a_new_draw_and_voids_its_old_duels():
    before = {1: 3, 2: 3, 3: 0, 4: 0, 5: -2}
    plan = plan_tiebreaks(before, master_seed=SEED)
    old = TieBreakDuel(plan.to_play[0].key, plan.to_play[0].seat_a, plan.to_play[0].seat_b, 1)
    draws = {d.key: d.order for d in plan.new_draws}
    after = {1: 3, 2: 3, 3: 3, 4: 0, 5: -2}  # a group-phase result corrected in 3's favour
    plan = plan_tiebreaks(after, master_seed=SEED, draws=draws, duels=[old])
    assert plan.void == (old,)
    assert [d.key for d in plan.new_draws] == [knockout_key([1, 2, 3])]


def test_a_knockout_whose_members_are_unchanged_keeps_its_draw_and_results():
    before = {1: 3, 2: 3, 3: 0, 4: 0, 5: -2}
    plan = plan_tiebreaks(before, master_seed=SEED)
    top = next(m for m in plan.to_play if {m.seat_a, m.seat_b} == {1, 2})
    kept = TieBreakDuel(top.key, top.seat_a, top.seat_b, 2)
    draws = {d.key: d.order for d in plan.new_draws}
    after = {1: 3, 2: 3, 3: 0, 4: -2, 5: 0}  # 4 and 5 swapped by a correction
    plan = plan_tiebreaks(after, master_seed=SEED, draws=draws, duels=[kept])
    assert plan.void == ()
    assert plan.knockouts[0].draw.new is False
    assert [t.players for t in plan.tiers[:2]] == [(2,), (1,)]
    assert [set(p) for p in pairs(plan)] == [{3, 5}]


def test_an_earlier_result_corrected_voids_a_later_duel_that_no_longer_follows():
    points = {p: 0 for p in range(1, 5)}
    draws = line(1, 2, 3, 4)
    ko = knockout_key([1, 2, 3, 4])
    duels = [
        TieBreakDuel(duel_key(ko, 1, 1), 1, 2, 1),
        TieBreakDuel(duel_key(ko, 1, 2), 3, 4, 3),
        TieBreakDuel(duel_key(ko, 2, 1), 1, 3, 3, ref=99),
    ]
    corrected = [TieBreakDuel(duel_key(ko, 1, 1), 1, 2, 2), *duels[1:]]
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws, duels=corrected)
    assert [d.ref for d in plan.void] == [99]
    assert (2, 3) in pairs(plan)


def test_a_win_corrected_to_none_makes_the_duel_due_again_and_voids_what_followed():
    points = {p: 0 for p in range(1, 4)}
    draws = line(1, 2, 3)
    ko = knockout_key([1, 2, 3])
    duels = [
        TieBreakDuel(duel_key(ko, 1, 1), 2, 3, None),
        TieBreakDuel(duel_key(ko, 2, 1), 1, 2, 1),
    ]
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws, duels=duels)
    assert pairs(plan) == [(2, 3)]
    assert plan.void == (duels[1],)


def test_planning_is_repeatable():
    points = {p: p % 3 for p in range(1, 12)}
    first = plan_tiebreaks(points, master_seed=SEED, mode=FULL)
    again = plan_tiebreaks(
        points, master_seed=SEED, mode=FULL, draws={d.key: d.order for d in first.new_draws}
    )
    assert again.to_play == first.to_play and again.new_draws == ()


def test_unknown_mode_is_refused():
    with pytest.raises(ValueError):
        plan_tiebreaks({1: 0}, master_seed=SEED, mode="quick")


# "What if it ended now".


def test_what_if_now_shows_the_knockouts_the_standings_would_need():
    points = {1: 6, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3, 7: 0}
    view = what_if_now(points)
    assert view.needed
    (ko,) = view.knockouts
    assert (ko.players, ko.first, ko.last) == ((2, 3, 4, 5, 6), 2, 6)
    assert (ko.byes, ko.first_round_duels, ko.rounds) == (3, 1, 3)
    minimal = what_if_now({1: 5, 2: 5, 3: 0, 4: -2}, mode=MINIMAL)
    assert not minimal.needed and [t.first for t in minimal.shared] == [1]


def test_a_finished_knockout_stands_when_all_but_one_of_its_players_withdraw():
    points = {1: 3, 2: 3, 3: 0, 4: -2}
    plan = plan_tiebreaks(points, master_seed=SEED)
    m = plan.to_play[0]
    draws = {d.key: d.order for d in plan.new_draws}
    duels = [TieBreakDuel(m.key, m.seat_a, m.seat_b, 2)]
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws, duels=duels, withdrawn={1})
    assert plan.void == () and plan.knockouts[0].state == "finished"
    assert plan.positions == {1: (2,), 2: (3,), 3: (4,)}


def test_minimal_mode_a_result_already_played_stands_when_it_is_no_longer_needed():
    # 4 and 5 played for position 4; then 1 withdraws and they sit at 3–4, where minimal mode
    # would not separate them: the finished knockout stands (point 5), no seat draw is needed.
    points = {1: 9, 2: 6, 3: 3, 4: 1, 5: 1, 6: 0}
    plan = plan_tiebreaks(points, master_seed=SEED, mode=MINIMAL)
    m = plan.to_play[0]
    draws = {d.key: d.order for d in plan.new_draws}
    duels = [TieBreakDuel(m.key, m.seat_a, m.seat_b, 5)]
    plan = plan_tiebreaks(
        points, master_seed=SEED, mode=MINIMAL, draws=draws, duels=duels, withdrawn={1}
    )
    assert plan.void == () and plan.new_draws == ()
    assert plan.positions == {1: (2,), 2: (3,), 3: (5,), 4: (4,)}


def test_two_withdrawn_players_meeting_send_the_earlier_in_the_line_through_nominally():
    points = {p: 0 for p in range(1, 5)}
    draws = line(1, 2, 3, 4)
    plan = plan_tiebreaks(points, master_seed=SEED, draws=draws, withdrawn={1, 2})
    first = plan.knockouts[0].rounds[0].matches[0]
    assert (first.winner, first.walkover) == (1, True)
    assert pairs(plan) == [(3, 4)]
    assert [m.key for m in plan.walkovers] == [first.key]
