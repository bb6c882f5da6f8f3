"""Hypothesis strategies and set-up choices shared by the engine's property tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

#: Worded and on/off switches a simulated duel's set-up may override, with their values.
SWITCH_CHOICES: tuple[tuple[str, list[Any]], ...] = (
    ("blocked_seat", ["draws", "sits_out"]),
    ("reverse_discard", ["before", "after"]),
    ("block_counter", [True, False]),
    ("loser_discards_revealed", [True, False]),
    ("challenge", ["two_cards", "any_card", "none"]),
    ("truth_dare_shed", ["both", "actor"]),
    ("dare_refused", ["penalty", "forfeit"]),
)

#: The team sizes section 11.9 allows for each number of seats.
TEAM_SIZES: dict[int, list[tuple[int, ...]]] = {4: [(2, 2)], 5: [(2, 3)], 6: [(3, 3), (2, 2, 2)]}


@st.composite
def teams_of(draw: st.DrawFn, letters: str) -> list[list[str]]:
    """The seats ``letters`` (4 to 6) split at random into teams of 2 or 3."""
    order = draw(st.permutations(letters))
    teams, k = [], 0
    for size in draw(st.sampled_from(TEAM_SIZES[len(letters)])):
        teams.append(list(order[k : k + size]))
        k += size
    return teams
