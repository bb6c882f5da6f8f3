"""The 15 rounds (TOURNAMENT.md "Group phase": Rounds, Fluid membership; "Phases")."""

from __future__ import annotations

import pytest

from tournaments.format import (
    GroupDuel,
    change_window_open,
    group_phase_over,
    next_round,
    seat_a_group,
)


def decided(n: int) -> GroupDuel:
    return GroupDuel(n, 1, "red", 2, "blue", winner=1)


def test_seat_a_goes_to_the_first_named_group_in_odd_rounds():
    assert seat_a_group(1, ("red", "blue")) == "red"
    assert seat_a_group(2, ("red", "blue")) == "blue"
    assert seat_a_group(15, ("red", "blue")) == "red"
    with pytest.raises(ValueError):
        seat_a_group(16, ("red", "blue"))


def test_round_n_plus_one_opens_when_round_n_has_a_decisive_result():
    assert next_round([]) == 1
    drawn = GroupDuel(1, 1, "red", 2, "blue", winner=None)
    assert next_round([drawn]) == 1  # a drawn duel is replayed, the round stays open
    assert next_round([decided(1)]) == 2
    assert next_round([decided(n) for n in range(1, 15)]) == 15
    assert next_round([decided(n) for n in range(1, 16)]) is None


def test_a_round_voided_without_replay_is_closed():
    # Corrections: voiding a group round may leave no result for that round.
    assert next_round([decided(1)], not_played=[2]) == 3


def test_the_group_phase_ends_after_round_15_or_an_elimination():
    assert not group_phase_over([decided(n) for n in range(1, 15)])
    assert group_phase_over([decided(n) for n in range(1, 16)])
    assert group_phase_over([decided(1)], eliminated="blue")
    assert group_phase_over([decided(n) for n in range(1, 15)], not_played=[15])


def test_the_change_window_opens_after_a_decisive_result_and_closes_at_the_next_duel():
    assert not change_window_open(0, next_duel_started=False)  # set-up, not a change window
    assert change_window_open(1, next_duel_started=False)
    assert not change_window_open(1, next_duel_started=True)
    assert change_window_open(14, next_duel_started=False)
    assert not change_window_open(15, next_duel_started=False)  # none after round 15
