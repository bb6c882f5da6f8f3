"""Scoring (TOURNAMENT.md "Group phase": Scoring, No winner; "Standings": the progression)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.format import (
    ROUNDS,
    GroupDuel,
    duel_points,
    group_progression,
    group_tallies,
    group_totals,
    player_tallies,
)

GROUPS = ("red", "blue")


def test_a_decisive_result_gives_plus_three_and_minus_two():
    duel = GroupDuel(1, 10, "red", 20, "blue", winner=20)
    assert duel_points(duel) == {20: 3, 10: -2}
    assert group_totals([duel], GROUPS) == {"red": -2, "blue": 3}


def test_a_duel_without_winner_counts_nothing():
    # No winner: drawn duels do not count in the tables.
    duel = GroupDuel(1, 10, "red", 20, "blue", winner=None)
    assert duel_points(duel) == {}
    assert player_tallies([duel]) == {}
    assert group_totals([duel], GROUPS) == {"red": 0, "blue": 0}


def test_points_go_to_the_group_represented_and_travel_with_the_player():
    # A player who changes groups takes their own points along; the group keeps what was earned.
    duels = [
        GroupDuel(1, 10, "red", 20, "blue", winner=10),  # 10 wins for red
        GroupDuel(2, 30, "red", 10, "blue", winner=10),  # 10, now in blue, wins for blue
    ]
    assert player_tallies(duels)[10].points == 6
    assert group_totals(duels, GROUPS) == {"red": 3 - 2, "blue": -2 + 3}


def test_no_floor():
    duels = [GroupDuel(n, 10, "red", 20, "blue", winner=20) for n in range(1, 6)]
    assert player_tallies(duels)[10].points == -10


def test_progression_gives_the_totals_round_by_round():
    duels = [
        GroupDuel(1, 10, "red", 20, "blue", winner=10),
        GroupDuel(2, 20, "blue", 10, "red", winner=20),
    ]
    progression = group_progression(duels, GROUPS)
    assert len(progression) == ROUNDS
    assert progression[0].totals == {"red": 3, "blue": -2}
    assert progression[1].gained == {"red": -2, "blue": 3}
    assert progression[1].totals == {"red": 1, "blue": 1}
    assert not progression[2].decided and progression[14].totals == {"red": 1, "blue": 1}


def test_bad_duels_are_refused():
    with pytest.raises(ValueError):
        GroupDuel(1, 10, "red", 20, "blue", winner=30)
    with pytest.raises(ValueError):
        GroupDuel(16, 10, "red", 20, "blue")
    with pytest.raises(ValueError):
        player_tallies([GroupDuel(1, 1, "red", 2, "blue", 1), GroupDuel(1, 3, "red", 4, "blue", 3)])
    with pytest.raises(ValueError):
        group_totals([GroupDuel(1, 1, "red", 2, "green", 1)], GROUPS)


@st.composite
def group_phases(draw):
    """Fifteen rounds with random representatives, random transfers and random results."""
    players = list(range(1, draw(st.integers(10, 30)) + 1))
    duels = []
    for number in range(1, ROUNDS + 1):
        a, b = draw(st.lists(st.sampled_from(players), min_size=2, max_size=2, unique=True))
        group_a = draw(st.sampled_from(GROUPS))
        group_b = GROUPS[1] if group_a == GROUPS[0] else GROUPS[0]
        winner = draw(st.sampled_from([a, b, None]))
        duels.append(GroupDuel(number, a, group_a, b, group_b, winner))
    return duels


@settings(max_examples=150, deadline=None)
@given(group_phases())
def test_points_always_equal_three_wins_minus_two_losses(duels):
    players = player_tallies(duels)
    for tally in players.values():
        assert tally.points == 3 * tally.won - 2 * tally.lost
        assert tally.played == tally.won + tally.lost
    groups = group_tallies(duels, GROUPS)
    for tally in groups.values():
        assert tally.points == 3 * tally.won - 2 * tally.lost
    decisive = sum(1 for d in duels if d.winner is not None)
    # Arithmetic: every decisive round adds +1 overall, to players and to groups alike.
    assert sum(t.points for t in players.values()) == decisive
    assert sum(t.points for t in groups.values()) == decisive
    assert group_progression(duels, GROUPS)[-1].totals == {g: t.points for g, t in groups.items()}
