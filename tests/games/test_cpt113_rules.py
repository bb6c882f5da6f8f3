"""CPT-113's rules (seed 004) and the readings of docs/games-cpt113.md, one test each."""

from __future__ import annotations

from collections import Counter

import pytest

from games.common.errors import GameError, IllegalMove
from games.cpt113 import DECK, Game
from games.cpt113.cards import is_number, points
from games.cpt113.rules import apply, legal
from games.cpt113.state import State, default_names

DRAW = {"kind": "draw"}


def table(
    hands: list[list[str]],
    discard: list[str],
    deck: list[str] | None = None,
    colour: str | None = None,
    number: int | None = None,
    seat: int = 0,
    groups: int | None = None,
) -> State:
    """A hand-made moment: each group's hand, the discard pile and the draw pile (tops last)."""
    groups = groups or len(hands)
    top = discard[-1]
    return State(
        seed=3,
        groups=groups,
        names=default_names(groups),
        hands=hands,
        deck=["Y9"] * 5 if deck is None else deck,
        discard=discard,
        colour=colour or top[0],
        number=int(top[1]) if number is None else number,
        seat=seat,
        set_aside=[[] for _ in range(groups)],
    )


def play(card: str, colour: str | None = None) -> dict:
    return {"kind": "play", "card": card} | ({"colour": colour} if colour else {})


# -- reading 1: five cards per group, one hand the two players share ----------------------


@pytest.mark.parametrize("groups", [2, 3, 4])
def test_reading_each_group_starts_with_five_cards_in_one_shared_hand(groups: int) -> None:
    state = Game(11, groups).state
    assert [len(h) for h in state.hands] == [5] * groups
    assert len(state.names) == 2 * groups
    assert Counter(sum(state.hands, []) + state.deck + state.discard) == Counter(DECK)


def test_reading_the_partner_plays_from_the_same_hand() -> None:
    # Two groups: seats A1, B1, A2, B2. After B1, A2 plays group A's hand.
    state = table([["R1", "R2", "Y5"], ["R3", "G5"]], ["R0"], seat=1)
    after, _ = apply(state, play("R3"))
    assert after.seat == 2 and after.names[2] == "A2" and after.group == 0
    after, effects = apply(after, play("R2"))
    assert after.hands[0] == ["R1", "Y5"] and effects[0].text == "A2 plays red 2."


# -- the seed's worked example ---------------------------------------------------------------


def test_the_seeds_example_on_a_blue_5_a_blue_card_or_a_5() -> None:
    # "if the discard pile has a blue card that is a 5, the player must place either a blue
    # card or a card with a 5 on it" — or a wild; nothing else.
    state = table([["B1", "BS", "G5", "Y5", "R1", "RS", "W", "Y9"], ["G6"]], ["B5"])
    assert set(legal(state).playable) == {"B1", "BS", "G5", "Y5", "W"}
    with pytest.raises(IllegalMove, match="red 1 cannot go on blue 5"):
        apply(state, play("R1"))


# -- reading 2: the 20 number cards --------------------------------------------------------


def test_reading_the_deck_has_40_cards_and_numbers_0_to_9_twice() -> None:
    assert len(DECK) == 40
    numbers = [c for c in DECK if is_number(c)]
    assert sorted(numbers) == sorted(
        [f"{c}{n}" for c in "RB" for n in range(5)]
        + [f"{c}{n}" for c in "YG" for n in range(5, 10)]
    )
    assert Counter(DECK)["W"] == 4 and Counter(DECK)["W4"] == 4
    for action in "SRD":
        assert sorted(c for c in DECK if c[1:] == action) == [f"{c}{action}" for c in "BGRY"]
    assert sum(points(c) for c in DECK) == 2 * 45 + 12 * 20 + 8 * 50


# -- reading 3: the order of play ----------------------------------------------------------


def test_reading_seats_go_round_group_by_group_and_reverse_turns_the_table() -> None:
    assert default_names(3) == ("A1", "B1", "C1", "A2", "B2", "C2")
    state = table([["R1", "Y5"], ["R2", "RR"], ["R3", "Y7"]], ["R0"], seat=4)  # B2 plays
    after, effects = apply(state, play("RR"))
    assert after.seat == 3 and after.names[3] == "A2"  # anticlockwise: back to A2
    assert effects[0].text == "B2 plays red reverse: play now goes anticlockwise."


def test_the_game_starts_with_the_first_player() -> None:
    assert Game(5, 3).state.seat == 0


# -- reading 4: a group has zero cards when its shared hand is empty -----------------------


def test_reading_a_group_wins_when_its_shared_hand_is_empty() -> None:
    state = table([["R4"], ["G6", "Y6"]], ["R0"])
    after, effects = apply(state, play("R4"))
    assert after.winners == (0,) and after.ending == "emptied"
    assert effects[-1].text == "Group A has no card left and wins."


# -- reading 5 and 7: the draw pile running out, and ties ----------------------------------


def test_reading_an_empty_draw_pile_gives_the_win_to_the_fewest_points_in_hand() -> None:
    # A draws the last card; A holds 1 + 9 = 10 points, B holds 50 + 2 = 52.
    state = table([["G9"], ["W", "R2"]], ["B3"], deck=["R1"])
    after, effects = apply(state, DRAW)
    assert after.ending == "pile_empty" and after.winners == (0,)
    assert effects[-1].text == (
        "The draw pile is empty: group A holds 10 points and group B "
        "holds 52 points. Group A wins with the highest score, 52 (the "
        "points in the other groups' hands)."
    )


def test_reading_equal_points_when_the_pile_runs_out_is_a_tie() -> None:
    state = table([["G9"], ["Y9", "R1"]], ["B3"], deck=["R1"])
    after, effects = apply(state, DRAW)
    assert after.winners == (0, 1)
    assert "A tie between group A and group B, with a score of 10 each." in effects[-1].text


# -- reading 6: an action card turned up to start ------------------------------------------


def test_reading_the_start_card_is_the_first_number_card_turned_up() -> None:
    for seed in range(200):
        state = Game(seed, 4).state
        assert state.top[1:].isdigit() and len(state.discard) == 1
        assert state.colour == state.top[0] and state.number == int(state.top[1])


# -- drop-out at 11, and the original program's misreport ----------------------------------


def test_a_group_reaching_eleven_cards_drops_out_and_the_last_group_wins() -> None:
    hand = ["G5", "G6", "G7", "G8", "G9", "Y5", "Y6", "Y7", "Y8"]
    state = table([["RD", "B1"], hand], ["R0"], deck=["Y9", "B4", "B3"])
    after, effects = apply(state, play("RD"))
    assert after.out == [1] and after.winners == (0,) and after.ending == "last_group"
    assert after.set_aside[1] == hand + ["B3", "B4"] and after.deck == ["Y9"]
    assert [e.kind for e in effects] == ["play", "draw", "drop_out", "win"]
    assert effects[-1].text == "Group A is the only group left and wins."


def test_a_group_that_drops_out_as_the_pile_empties_is_never_the_winner() -> None:
    # B holds the fewest points but reaches 11 on the pile's last cards: A and C are scored.
    b = ["B0", "B0", "B1", "B1", "R0", "R0", "R1", "R1", "B2"]
    state = table([["RD", "R4", "G9"], b, ["GS", "Y9"]], ["R0"], deck=["R0", "B0"])
    after, effects = apply(state, play("RD"))
    assert after.out == [1] and after.ending == "pile_empty"
    assert after.winners == (0,)  # 4 + 9 = 13 points against C's 29
    assert [e.kind for e in effects] == ["play", "draw", "drop_out", "score"]
    assert "group B" not in effects[-1].text


def test_drawing_until_playable_stops_at_eleven_and_play_goes_on_without_the_group() -> None:
    hand = ["G5", "G6", "G7", "G8", "G9", "Y5", "Y6", "Y7", "Y8", "Y9"]
    state = table([hand, ["R2"], ["R3"]], ["R0"], deck=["B1", "GS"])
    after, effects = apply(state, DRAW)
    assert after.out == [0] and after.seat == 1 and not after.finished
    assert [e.kind for e in effects] == ["draw", "drop_out"]
    assert effects[0].text == "A1 has no card to play and draws 1 card for group A."
    assert effects[1].text == "Group A holds 11 cards and drops out."


# -- drawing, actions, wilds ---------------------------------------------------------------


def test_a_group_with_no_playable_card_draws_until_one_comes_then_the_same_seat_plays() -> None:
    state = table([["G5"], ["R2"]], ["R0"], deck=["Y9", "R4", "Y6", "G7"])
    with pytest.raises(IllegalMove, match="cards are drawn only when none can be played"):
        apply(table([["R5"], ["R2"]], ["R0"]), DRAW)
    after, effects = apply(state, DRAW)
    assert after.hands[0] == ["G5", "G7", "Y6", "R4"] and after.seat == 0
    assert effects[0].secret == (
        "A1 has no card to play and draws 3 cards for group A: green "
        "7, yellow 6 and red 4 — red 4 can be played."
    )
    assert effects[0].seen_by(1) == "A1 has no card to play and draws 3 cards for group A."


def test_draw_two_makes_the_next_group_draw_and_miss_the_turn() -> None:
    state = table([["RD", "R1"], ["G6"]], ["R0"], deck=["Y9", "Y8", "Y7"])
    after, effects = apply(state, play("RD"))
    assert after.hands[1] == ["G6", "Y7", "Y8"] and after.seat == 2  # B1 missed: A2 plays
    assert effects[0].text == "A1 plays red draw two: B1 misses the turn."
    assert effects[1].text == "B1 draws 2 cards for group B."


def test_draw_twos_do_not_stack_the_victim_has_drawn_already() -> None:
    # B holds two draw twos but cannot pass the two cards on: it has drawn them already.
    state = table([["RD", "R1"], ["YD", "GD"]], ["R0"], deck=["Y9"] * 6)
    after, _ = apply(state, play("RD"))
    assert len(after.hands[1]) == 4 and after.seat == 2 and after.group == 0


def test_skip_passes_over_the_next_player() -> None:
    state = table([["BS", "R1"], ["G6"], ["G7"]], ["B0"])
    after, effects = apply(state, play("BS"))
    assert after.seat == 2 and effects[0].text == "A1 plays blue skip: B1 misses the turn."


def test_reading_after_an_action_card_match_its_colour_or_the_last_number() -> None:
    state = table([["Y3", "G6", "Y8", "GS", "RD"], ["G6"]], ["R6", "GS"], colour="G", number=6)
    now = legal(state)
    assert set(now.playable) == {"G6", "GS"}  # green (the skip's), a 6 (the last number)
    assert not now.can_draw


def test_a_wild_names_the_colour_and_may_be_played_any_time() -> None:
    state = table([["W", "W4", "R1"], ["G6", "G5"]], ["R0"], deck=["Y9"] * 6)
    with pytest.raises(IllegalMove, match="must name the colour for wild"):
        apply(state, play("W"))
    after, effects = apply(state, play("W", "G"))
    assert after.colour == "G" and after.number == 0 and after.seat == 1
    assert effects[0].text == "A1 plays wild and names green."
    after, effects = apply(after, play("G5"))
    after, effects = apply(after, play("W4", "Y"))
    assert len(after.hands[1]) == 5 and after.seat == 0  # B2 drew 4 and missed the turn


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ([], "a move is an object"),
        ({"kind": "pass"}, "unknown move"),
        ({"kind": "play"}, "name a card of the deck"),
        ({"kind": "play", "card": "X"}, "name a card of the deck"),
        ({"kind": "play", "card": "G5"}, "Group A does not hold green 5"),
        ({"kind": "play", "card": "Y6"}, "yellow 6 cannot go on red 0: play red, a 0, or a wild"),
        ({"kind": "play", "card": "R1", "colour": "G"}, "only a wild names a colour"),
        ({"kind": "play", "card": "W", "colour": "purple"}, "must name the colour"),
        ({"kind": "play", "card": "W", "colour": ["R"]}, "must name the colour"),
        ({"kind": "draw"}, "cards are drawn only when none can be played"),
        ({"kind": "draw", "n": 2}, "a draw is just"),
    ],
)
def test_refusals_say_why_and_change_nothing(move: object, words: str) -> None:
    state = table([["R1", "Y6", "W"], ["G6"]], ["R0"])
    before = state.as_dict()
    with pytest.raises(IllegalMove, match=words):
        apply(state, move)
    assert state.as_dict() == before


def test_groups_are_two_to_four() -> None:
    with pytest.raises(GameError, match="2 to 4"):
        Game(1, 5)
