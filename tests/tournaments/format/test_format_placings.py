"""The final table (TOURNAMENT.md "Standings": placings 1–4, then everyone else by group-phase
rank, inactive players last)."""

from __future__ import annotations

import pytest

from tournaments.format import (
    ELIMINATED,
    WITHDRAWN,
    Entrant,
    GroupDuel,
    final_table,
    individual_standings,
)


def win(n, winner, loser):
    return GroupDuel(n, winner, "red", loser, "blue", winner=winner)


ENTRANTS = [Entrant(i, name) for i, name in enumerate("ABCDEFG", start=1)] + [
    Entrant(8, "H", WITHDRAWN),
    Entrant(9, "I", ELIMINATED),
]
DUELS = [win(1, 1, 7), win(2, 2, 6), win(3, 3, 6), win(4, 4, 7), win(5, 8, 5), win(6, 9, 5)]


def test_placings_first_then_group_phase_rank_then_inactive_players():
    rows = individual_standings(ENTRANTS, DUELS)
    table = final_table(rows, {1: 3, 2: 1, 3: 4, 4: 2})
    assert [(r.name, r.placing) for r in table[:4]] == [("C", 1), ("A", 2), ("D", 3), ("B", 4)]
    assert [r.name for r in table[4:]] == ["E", "F", "G", "H", "I"]
    # E, F and G are level at -4: rank 5 shared, shown alphabetically.
    assert [r.rank for r in table[4:]] == [5, 5, 5, None, None]
    assert [r.line for r in table] == list(range(1, 10))


def test_a_qualifier_who_withdrew_in_the_playoffs_keeps_the_placing_the_bracket_gives():
    entrants = [*ENTRANTS[:1], Entrant(2, "B", WITHDRAWN), *ENTRANTS[2:]]
    rows = individual_standings(entrants, DUELS)
    table = final_table(rows, {1: 1, 2: 3, 3: 4, 4: 2})
    assert (table[3].name, table[3].placing, table[3].status) == ("B", 4, WITHDRAWN)


def test_vacant_placings_are_skipped():
    rows = individual_standings(ENTRANTS[:3], [win(1, 1, 2)])
    table = final_table(rows, {1: 1, 2: 2, 3: 3, 4: None})
    assert [r.placing for r in table] == [1, 2, 3]


def test_placings_must_name_known_players_once():
    rows = individual_standings(ENTRANTS, DUELS)
    with pytest.raises(ValueError):
        final_table(rows, {1: 99})
    with pytest.raises(ValueError):
        final_table(rows, {1: 1, 2: 1})
