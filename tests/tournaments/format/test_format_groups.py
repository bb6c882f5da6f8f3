"""Group limits, changes, the split and the start check.

TOURNAMENT.md "Group phase: 15 rounds, two fluid groups" (Split, Fluid membership,
Withdrawals) and "Phases" (starting the group phase).
"""

from __future__ import annotations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from tournaments.format import (
    GROUP_MAX,
    GROUP_MIN,
    NEEDS_CONFIRMATION,
    OK,
    REFUSED,
    Move,
    alternating_split,
    check_change,
    check_split,
    check_start,
    end_state,
    group_sizes,
    random_split,
)

GROUPS = (1, 2)


def membership(first: int, second: int) -> dict[int, int]:
    """Players 1..first in group 1, the next ``second`` players in group 2."""
    return {p: (1 if p <= first else 2) for p in range(1, first + second + 1)}


# Fluid membership: checked on the end state only.


def test_a_transfer_within_limits_is_accepted():
    before = membership(8, 8)
    verdict = check_change(before, end_state(before, {1: 2}), GROUPS)
    assert verdict.outcome == OK
    assert verdict.sizes == {1: 7, 2: 9}
    assert verdict.moves == (Move(1, 1, 2),)


def test_a_swap_is_one_change_judged_on_its_end_state():
    before = membership(5, 15)
    # Moving player 1 alone would leave group 1 at 4; the swap as a whole is fine.
    verdict = check_change(before, end_state(before, {1: 2, 20: 1}), GROUPS)
    assert verdict.outcome == OK
    assert verdict.sizes == {1: 5, 2: 15}


def test_above_fifteen_is_refused_and_checked_first():
    before = membership(5, 15)
    verdict = check_change(before, end_state(before, {1: 2}), GROUPS)
    # Group 2 at 16 and group 1 at 4: refused for the 16, not an elimination.
    assert verdict.outcome == REFUSED
    assert verdict.code == "above_limit"
    assert verdict.eliminated_group is None


def test_both_groups_below_five_is_refused():
    before = membership(5, 5)
    verdict = check_change(before, end_state(before, {1: None, 6: None}), GROUPS)
    assert verdict.outcome == REFUSED
    assert verdict.code == "both_below"


def test_one_group_below_five_needs_confirmation_and_eliminates_its_members_after_the_change():
    before = membership(5, 9)
    # Player 1 defects to group 2 in time: safe. Group 1 keeps 2..5 and is eliminated.
    verdict = check_change(before, end_state(before, {1: 2}), GROUPS)
    assert verdict.outcome == NEEDS_CONFIRMATION
    assert verdict.needs_confirmation and not verdict.refused
    assert verdict.code == "elimination"
    assert verdict.eliminated_group == 1
    assert verdict.eliminated_players == (2, 3, 4, 5)
    assert verdict.phase_winner == 2


def test_a_group_emptied_entirely_is_eliminated_with_nobody_in_it():
    # docs/format.md reading 5: 0 is below 5.
    before = membership(5, 11)
    verdict = check_change(before, end_state(before, {p: 2 for p in range(1, 6)}), GROUPS)
    assert verdict.code == "above_limit"  # 11 + 5 = 16: refused first
    verdict = check_change(before, end_state(before, {p: None for p in range(1, 6)}), GROUPS)
    assert verdict.needs_confirmation
    assert (verdict.eliminated_group, verdict.eliminated_players) == (1, ())


def test_a_withdrawal_counts_as_leaving_the_group():
    before = membership(5, 9)
    verdict = check_change(before, end_state(before, {3: None}), GROUPS)
    assert verdict.outcome == NEEDS_CONFIRMATION
    assert verdict.eliminated_players == (1, 2, 4, 5)
    assert verdict.moves == (Move(3, 1, None),)


def test_a_withdrawal_together_with_a_transfer_is_one_change():
    before = membership(5, 9)
    verdict = check_change(before, end_state(before, {3: None, 10: 1}), GROUPS)
    assert verdict.outcome == OK
    assert verdict.sizes == {1: 5, 2: 8}


def test_nobody_new_joins_during_the_group_phase():
    before = membership(6, 6)
    verdict = check_change(before, {**before, 99: 1}, GROUPS)
    assert verdict.outcome == REFUSED
    assert verdict.code == "unknown_player"


def test_an_unknown_group_is_refused():
    before = membership(6, 6)
    verdict = check_change(before, {**before, 1: 3}, GROUPS)
    assert verdict.code == "unknown_group"


# Split and start.


def test_alternating_split_follows_registration_order_extra_player_to_first_group():
    split = alternating_split([10, 11, 12, 13, 14], ("red", "blue"))
    assert split == {10: "red", 11: "blue", 12: "red", 13: "blue", 14: "red"}


def test_random_split_is_reproducible_from_its_seed_and_balanced():
    players = list(range(1, 12))
    split = random_split(players, GROUPS, "seed-1")
    assert split == random_split(reversed(players), GROUPS, "seed-1")
    assert group_sizes(split, GROUPS) == {1: 6, 2: 5}
    assert any(random_split(players, GROUPS, f"seed-{i}") != split for i in range(2, 6))


def test_start_needs_ten_to_thirty_active_entrants_all_in_groups_of_five_to_fifteen():
    assert check_start(range(1, 11), membership(5, 5), GROUPS) == ()
    codes = {p.code for p in check_start(range(1, 10), membership(5, 4), GROUPS)}
    assert codes == {"entrant_count", "group_too_small"}
    codes = {p.code for p in check_start(range(1, 13), membership(5, 6), GROUPS)}
    assert codes == {"not_in_group"}
    codes = {p.code for p in check_start(range(1, 32), membership(16, 15), GROUPS)}
    assert codes == {"entrant_count", "group_too_large"}


def test_a_split_at_four_blocks_round_one_but_eliminates_nobody():
    # Split: before round 1's duel starts a group at 4 only blocks round 1.
    problems = check_split(membership(4, 7), GROUPS)
    assert [p.code for p in problems] == ["group_too_small"]


# Property: random transfer sequences never leave a group above 15 and always eliminate below 5.


@settings(max_examples=200, deadline=None)
@given(st.integers(GROUP_MIN, GROUP_MAX), st.integers(GROUP_MIN, GROUP_MAX), st.data())
def test_random_changes_keep_the_limits(first, second, data):
    state = membership(first, second)
    for _ in range(data.draw(st.integers(1, 12), label="changes")):
        # One change: some players cross in each direction, some withdraw from each group.
        wanted: dict[int, int | None] = {}
        for source, target in ((1, 2), (2, 1)):
            members = data.draw(st.permutations(sorted(p for p, g in state.items() if g == source)))
            crossing = data.draw(st.integers(0, min(8, len(members))))
            leaving = data.draw(st.integers(0, min(10, len(members) - crossing)))
            wanted.update({p: target for p in members[:crossing]})
            wanted.update({p: None for p in members[crossing : crossing + leaving]})
        after = end_state(state, wanted)
        sizes = group_sizes(after, GROUPS)
        verdict = check_change(state, after, GROUPS)
        event(verdict.code)
        if max(sizes.values()) > GROUP_MAX:
            assert verdict.refused and verdict.code == "above_limit"
        elif max(sizes.values()) < GROUP_MIN:
            assert verdict.refused and verdict.code == "both_below"
        elif min(sizes.values()) < GROUP_MIN:
            assert verdict.needs_confirmation
            sinking = min(sizes, key=sizes.get)
            assert verdict.eliminated_group == sinking
            assert verdict.eliminated_players == tuple(
                sorted(p for p, g in after.items() if g == sinking)
            )
            assert verdict.phase_winner != sinking
            return  # the organiser confirms: the group phase is over
        else:
            assert verdict.outcome == OK
        if verdict.outcome == OK:
            state = after
        assert all(GROUP_MIN <= n <= GROUP_MAX for n in group_sizes(state, GROUPS).values())
