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


def test_while_the_playoffs_run_the_qualifiers_come_in_the_order_of_the_places_open():
    """Placings come from the bottom (4th, then 3rd): the table never lists 3rd and 4th above
    the two finalists; each qualifier still in is listed by the worst place left to them."""
    from tournaments.format import PlayoffDuel, page_bracket, places_open

    rows = individual_standings(ENTRANTS, DUELS)  # A B C D lead, seeded in that order
    seeds = (1, 2, 3, 4)
    start = page_bracket(seeds)
    assert places_open(start) == {1: (1, 2, 3), 2: (1, 2, 3), 3: (1, 2, 3, 4), 4: (1, 2, 3, 4)}
    e1 = page_bracket(seeds, [PlayoffDuel("E1", 3, 4, winner=4)])
    assert places_open(e1) == {1: (1, 2, 3), 2: (1, 2, 3), 4: (1, 2, 3)}
    table = final_table(rows, e1.placings, places_open(e1))
    assert [r.name for r in table[:4]] == ["A", "B", "D", "C"]
    played = [PlayoffDuel("E1", 3, 4, winner=4), PlayoffDuel("Q1", 1, 2, winner=2)]
    q2 = page_bracket(seeds, [*played, PlayoffDuel("Q2", 1, 4, winner=4)])
    assert places_open(q2) == {2: (1, 2), 4: (1, 2)}
    table = final_table(rows, q2.placings, places_open(q2))
    assert [(r.name, r.placing) for r in table[:4]] == [
        ("B", None),
        ("D", None),
        ("A", 3),
        ("C", 4),
    ]
    assert [r.name for r in table[4:]] == ["E", "F", "G", "H", "I"]
    # Qualifier 1's winner waits in the Grand Final: 1st or 2nd, listed first.
    q1 = page_bracket(seeds, [PlayoffDuel("Q1", 1, 2, winner=2)])
    assert list(places_open(q1).items())[0] == (1, (1, 2, 3))
    assert places_open(q1)[2] == (1, 2)
    assert [r.name for r in final_table(rows, q1.placings, places_open(q1))[:4]] == [
        "B",
        "A",
        "C",
        "D",
    ]
    # A qualifier who forfeits: still, 3rd is never given before 4th (Qualifier 2 waits for
    # the Eliminator), so the places open are always the best ones.
    early = page_bracket(seeds, [], forfeited={1})
    assert early.placings == {}
    assert places_open(early) == {1: (1, 2, 3), 2: (1, 2), 3: (1, 2, 3, 4), 4: (1, 2, 3, 4)}
    late = page_bracket(seeds, [PlayoffDuel("E1", 3, 4, winner=3)], forfeited={1})
    assert late.placings == {4: 4, 3: 1}
    assert places_open(late) == {2: (1, 2), 3: (1, 2)}
