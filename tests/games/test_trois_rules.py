"""Trois's rules (seed 003) and the readings of docs/games-trois.md, one test each."""

from __future__ import annotations

import pytest

from games.common.errors import IllegalMove
from games.trois import DECK, WILDCARDS, Game
from games.trois.rules import apply, legal
from games.trois.state import NAMES, State


def table(
    hands: list[list[str]], pile: list[str], deck: list[str] | None = None, turn: int = 0
) -> State:
    """A hand-made moment of a game: the four hands, the pile and the deck (tops last)."""
    return State(seed=7, names=NAMES, hands=hands, deck=deck or [], pile=pile, turn=turn)


def play(*cards: str) -> dict:
    return {"kind": "play", "cards": list(cards)}


TAKE = {"kind": "take"}
TIME = {"kind": "time"}


def test_the_deal_gives_eight_numbered_cards_each_and_player_starts() -> None:
    for seed in range(50):
        state = Game(seed).state
        assert [len(h) for h in state.hands] == [8, 8, 8, 8]
        assert not any(c in WILDCARDS for h in state.hands for c in h)
        assert state.top not in WILDCARDS and len(state.pile) == 1
        assert state.turn == 0
        assert sorted(sum(state.hands, []) + state.deck + state.pile) == sorted(DECK)


# -- the seed's worked examples (top card B7) ----------------------------------------------


@pytest.mark.parametrize("cards", [["B0", "B3", "B8"], ["B6"], ["G7", "P7"], ["O7"]])
def test_the_seeds_examples_on_a_blue_7_are_legal(cards: list[str]) -> None:
    state = table(
        [["B0", "B3", "B8", "B6", "G7", "P7", "O7", "R1"], ["G1"], ["G2"], ["G3"]], ["B7"]
    )
    after, effects = apply(state, play(*cards))
    assert after.top == cards[-1]
    assert all(c not in after.hands[0] for c in cards)
    assert after.turn == 1
    assert effects[0].text.startswith("Player plays ")


# -- reading 1: how many wildcards ----------------------------------------------------------


def test_reading_one_plus_two_and_one_plus_four_in_a_deck_of_72() -> None:
    assert len(DECK) == 72 and len(set(DECK)) == 72
    assert [c for c in DECK if c in WILDCARDS] == ["+2", "+4"]


# -- reading 2: what a combination may contain ---------------------------------------------


def test_reading_a_combination_is_all_of_the_top_colour_or_all_of_the_top_number() -> None:
    state = table([["G7", "G2", "B1", "R7"], ["G1"], ["G2"], ["G3"]], ["B7"])
    with pytest.raises(IllegalMove, match="all have the colour of blue 7 or all have its number"):
        apply(state, play("G7", "G2"))  # G2 matches G7, but not the blue 7 on top
    with pytest.raises(IllegalMove, match="does not match blue 7"):
        apply(state, play("G2"))
    after, _ = apply(state, play("R7", "G7"))  # the player chooses the order: G7 ends on top
    assert after.pile == ["B7", "R7", "G7"]


def test_reading_a_combination_is_laid_in_the_order_given() -> None:
    state = table([["B1", "B2", "B3", "R0"], ["G1"], ["G2"], ["G3"]], ["B7"])
    after, _ = apply(state, play("B3", "B1", "B2"))
    assert after.pile == ["B7", "B3", "B1", "B2"] and after.top == "B2"


# -- reading 3: the deck running out -------------------------------------------------------


def test_reading_an_empty_deck_is_refilled_from_the_pile_but_its_top_card() -> None:
    state = table([["R1"], ["G1"], ["G2"], ["G3"]], ["B3", "B4", "B5", "B7"], deck=[])
    after, effects = apply(state, TAKE)
    assert after.pile == ["B7"]
    assert len(after.hands[0]) == 2 and len(after.deck) == 2
    assert sorted(after.deck + after.hands[0]) == ["B3", "B4", "B5", "R1"]
    assert effects[0].kind == "reshuffle"


def test_reading_with_no_card_anywhere_to_take_the_character_passes() -> None:
    state = table([["R1"], ["G1"], ["G2"], ["G3"]], ["B7"], deck=[])
    after, effects = apply(state, TAKE)
    assert after.hands[0] == ["R1"] and after.turn == 1
    assert effects[-1].text == "No card is left to take: Player passes."


# -- reading 4: wildcards taken as extra cards do not chain --------------------------------


def test_reading_a_wildcard_among_the_extra_cards_is_discarded_and_asks_for_nothing() -> None:
    # The deck's top is last: +4 first, then R1, +2, R2, R3, then R4 stays in the deck.
    state = table(
        [["Y1"], ["G1"], ["G2"], ["G3"]], ["B7"], deck=["R4", "R3", "R2", "+2", "R1", "+4"]
    )
    after, effects = apply(state, TAKE)
    assert after.wild_pile == ["+4", "+2"]
    assert sorted(after.hands[0]) == ["R1", "R2", "R3", "Y1"]  # four drawn, one was the +2
    assert after.deck == ["R4"]
    assert [e.kind for e in effects] == ["wildcard", "wildcard_extra", "take"]


def test_a_plus_two_makes_its_taker_take_two_more_and_the_turn_passes() -> None:
    state = table([["Y1"], ["G1"], ["G2"], ["G3"]], ["B7"], deck=["R5", "R2", "R1", "+2"])
    after, effects = apply(state, TAKE)
    assert after.wild_pile == ["+2"] and sorted(after.hands[0]) == ["R1", "R2", "Y1"]
    assert after.turn == 1
    assert "must take 2 more cards" in effects[0].text


# -- the original program's crash: a wildcard drawn as the last card of the deck ------------


def test_a_wildcard_taken_as_the_decks_last_card_refills_the_deck_for_the_extra_cards() -> None:
    state = table([["Y1"], ["G1"], ["G2"], ["G3"]], ["R1", "R2", "R3", "B7"], deck=["+4"])
    after, effects = apply(state, TAKE)
    assert after.wild_pile == ["+4"]
    assert sorted(after.hands[0]) == ["R1", "R2", "R3", "Y1"]  # only three could be taken
    assert after.pile == ["B7"] and after.deck == []
    assert [e.kind for e in effects] == ["wildcard", "reshuffle", "short", "take"]


def test_a_wildcard_as_the_very_last_card_anywhere_takes_what_there_is() -> None:
    state = table([["Y1"], ["G1"], ["G2"], ["G3"]], ["B7"], deck=["+2"])
    after, effects = apply(state, TAKE)
    assert after.hands[0] == ["Y1"] and after.wild_pile == ["+2"] and after.turn == 1
    assert effects[-1].kind == "short"


# -- reading 5: the time limit ----------------------------------------------------------------


def test_reading_at_the_time_limit_the_fewest_cards_wins() -> None:
    state = table([["Y1", "Y2"], ["G1"], ["G2", "G3"], ["G3", "G4", "G5"]], ["B7"])
    after, effects = apply(state, TIME)
    assert after.finished and after.ending == "time" and after.winners == (1,)
    assert effects[0].text.endswith("Bot 1 wins with the fewest cards.")


def test_reading_at_the_time_limit_a_shared_fewest_is_a_tie() -> None:
    state = table([["Y1"], ["G1"], ["G2", "G3"], ["G4"]], ["B7"])
    after, effects = apply(state, TIME)
    assert after.winners == (0, 1, 3)
    assert "A tie between Player, Bot 1 and Bot 3, with 1 card each." in effects[0].text


# -- reading 6: a card is taken only when none matches; then the turn passes ----------------


def test_reading_taking_is_refused_while_a_card_matches() -> None:
    state = table([["B1", "R2"], ["G1"], ["G2"], ["G3"]], ["B7"], deck=["R9"])
    with pytest.raises(IllegalMove, match="a card is taken from the deck only when none matches"):
        apply(state, TAKE)


def test_reading_after_taking_a_card_the_turn_passes_even_if_it_matches() -> None:
    state = table([["R2"], ["G1"], ["G2"], ["G3"]], ["B7"], deck=["B9"])
    after, effects = apply(state, TAKE)
    assert after.turn == 1 and after.hands[0] == ["R2", "B9"]
    assert effects[0].text == "Player takes a card." and effects[0].secret == "Player takes blue 9."


def test_emptying_the_hand_wins_at_once() -> None:
    state = table([["B1", "B2"], ["G1"], ["G2"], ["G3"]], ["B7"])
    after, effects = apply(state, play("B1", "B2"))
    assert after.finished and after.winners == (0,) and after.ending == "emptied"
    assert effects[-1].text == "Player has no card left and wins."
    with pytest.raises(IllegalMove, match="the game is over"):
        apply(after, TIME)


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("play", "a move is an object"),
        ({"kind": "jump"}, "unknown move"),
        ({"kind": "play", "cards": []}, "at least one card"),
        ({"kind": "play", "cards": "B1"}, "at least one card"),
        ({"kind": "play", "cards": ["Z1"]}, "there is no card 'Z1'"),
        ({"kind": "play", "cards": ["B9"]}, "Player does not hold blue 9"),
        ({"kind": "play", "cards": ["B1", "B1"]}, "only once"),
        ({"kind": "play", "cards": [1]}, "name each card as text"),
        ({"kind": "play", "cards": ["B1"], "extra": 1}, "a play is"),
        ({"kind": "take", "cards": []}, "a take is just"),
        ({"kind": "time", "now": 1}, "a time move is just"),
    ],
)
def test_refusals_say_why_and_change_nothing(move: object, words: str) -> None:
    state = table([["B1", "B2"], ["G1"], ["G2"], ["G3"]], ["B7"], deck=["R1"])
    before = state.as_dict()
    with pytest.raises(IllegalMove, match=words):
        apply(state, move)
    assert state.as_dict() == before


def test_legal_lists_the_colour_and_number_groups() -> None:
    state = table([["B1", "G7", "R2", "B7"], ["G1"], ["G2"], ["G3"]], ["B7"])
    now = legal(state)
    assert now.by_colour == ("B1", "B7") and now.by_number == ("G7", "B7")
    assert now.playable == ("B1", "B7", "G7") and not now.can_take
