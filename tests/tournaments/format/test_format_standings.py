"""Standings (TOURNAMENT.md "Standings"; "Group phase": Group winner)."""

from __future__ import annotations

from tournaments.format import (
    ELIMINATED,
    GROUP_ACTIVE,
    GROUP_ELIMINATED,
    GROUP_JOINT_WINNER,
    GROUP_WINNER,
    WITHDRAWN,
    Entrant,
    GroupDuel,
    active_points,
    blocks_covering,
    group_phase_winners,
    group_standings,
    individual_standings,
    level_blocks,
)

GROUPS = ("red", "blue")


def win(n: int, winner: int, loser: int) -> GroupDuel:
    return GroupDuel(n, winner, "red", loser, "blue", winner=winner)


ENTRANTS = [
    Entrant(1, "Zoe"),
    Entrant(2, "adam"),
    Entrant(3, "Bea"),
    Entrant(4, "Cy"),
    Entrant(5, "Dee"),
    Entrant(6, "Eve", WITHDRAWN),
    Entrant(7, "Fay", ELIMINATED),
]


def test_ranks_are_standard_competition_ranks_by_points_among_active_players():
    duels = [win(1, 1, 5), win(2, 6, 5), win(3, 6, 4), win(4, 2, 7), win(5, 3, 4)]
    rows = individual_standings(ENTRANTS, duels)
    table = [(r.name, r.points, r.rank_label) for r in rows]
    # Eve (withdrawn, 6 points) and Fay take no rank; Zoe, adam and Bea share rank 1 and are
    # shown alphabetically (casefolded); Dee and Cy follow.
    assert table == [
        ("adam", 3, "=1"),
        ("Bea", 3, "=1"),
        ("Zoe", 3, "=1"),
        ("Cy", -4, "=4"),
        ("Dee", -4, "=4"),
        ("Eve", 6, "withdrawn"),
        ("Fay", -2, "eliminated"),
    ]
    assert [r.position for r in rows] == [1, 2, 3, 4, 5, None, None]


def test_players_who_never_played_sit_at_zero_and_are_ranked():
    rows = individual_standings(ENTRANTS[:5], [win(1, 1, 2)])
    by_name = {r.name: r for r in rows}
    assert by_name["Zoe"].rank == 1
    assert by_name["Bea"].points == 0 and by_name["Bea"].played == 0
    assert by_name["Bea"].rank == 2 and by_name["Bea"].shared
    assert by_name["adam"].rank == 5


def test_played_won_lost_count_decisive_duels_only():
    rows = individual_standings(ENTRANTS[:2], [win(1, 1, 2), GroupDuel(2, 1, "red", 2, "blue")])
    zoe = rows[0]
    assert (zoe.points, zoe.played, zoe.won, zoe.lost) == (3, 1, 1, 0)


def test_level_blocks_and_the_blocks_covering_positions_one_to_four():
    duels = [win(1, 1, 5), win(2, 2, 4)]
    rows = individual_standings(ENTRANTS[:5], duels)
    blocks = level_blocks(rows)
    assert [(b.points, b.first, b.last) for b in blocks] == [(3, 1, 2), (0, 3, 3), (-2, 4, 5)]
    assert blocks[0].players == (2, 1)  # adam before Zoe: display order
    assert [b.first for b in blocks_covering(rows)] == [1, 3, 4]
    assert active_points(rows) == {1: 3, 2: 3, 3: 0, 4: -2, 5: -2}


def test_group_winner_after_round_15_has_the_higher_total():
    duels = [win(n, 1, 2) for n in range(1, 16)]  # red wins every round
    rows = group_standings(GROUPS, duels, phase_over=True, membership={1: "red", 2: "blue"})
    assert [(r.group, r.total, r.status, r.members) for r in rows] == [
        ("red", 45, GROUP_WINNER, (1,)),
        ("blue", -30, GROUP_ACTIVE, (2,)),
    ]


def test_the_group_left_standing_after_an_elimination_wins_whatever_the_totals():
    duels = [win(1, 1, 2)]
    assert group_phase_winners(GROUPS, duels, phase_over=True, eliminated="red") == ("blue",)
    rows = group_standings(GROUPS, duels, phase_over=True, eliminated="red")
    assert [r.status for r in rows] == [GROUP_ELIMINATED, GROUP_WINNER]


def test_equal_totals_share_the_title():
    # Only possible when a round was voided without a replay.
    duels = [win(1, 1, 2), GroupDuel(2, 2, "blue", 1, "red", winner=2)]
    rows = group_standings(GROUPS, duels, phase_over=True)
    assert [r.status for r in rows] == [GROUP_JOINT_WINNER, GROUP_JOINT_WINNER]


def test_no_winner_while_the_phase_runs():
    rows = group_standings(GROUPS, [win(1, 1, 2)], phase_over=False)
    assert [r.status for r in rows] == [GROUP_ACTIVE, GROUP_ACTIVE]
