"""RULES.md section 5: truth and dare, with the penalty choice."""

from __future__ import annotations

import pytest

from games.split_uno import IllegalEvent


@pytest.mark.parametrize("card", ["truth", "dare"])
def test_5_tournament_rejects_truth_and_dare(make, E, card) -> None:
    duel = make("tournament", starting_action_cards={"A": 1})
    with pytest.raises(IllegalEvent, match="truth and dare are switched off"):
        duel.apply(E.act("A", card))
    assert duel.legal().actions["A"] == (
        "block",
        "reverse",
        "color_change",
        "draw_two",
        "draw_four",
    )


@pytest.mark.parametrize("card", ["truth", "dare"])
def test_2_truth_dare_false_rejects_both_cards_speed_included(make, E, card) -> None:
    for duel in (
        make("arbiter", truth_dare=False, starting_action_cards={"A": 1}),
        make("official", variants=("speed",), starting_action_cards={"A": 1}),
    ):
        with pytest.raises(IllegalEvent, match="truth_dare false"):
            duel.apply(E.act("A", card))


@pytest.mark.parametrize("card", ["truth", "dare"])
def test_2_truth_dare_true_allows_both_cards_official_included(make, E, card) -> None:
    for preset in ("arbiter", "paper", "official"):
        duel = make(preset, E.act("A", card), starting_action_cards={"A": 1})
        assert duel.state()["awaiting"]["decision"] == card
    duel = make("tournament", E.act("A", card), truth_dare=True, starting_action_cards={"A": 1})
    assert duel.state()["awaiting"]["decision"] == card


def test_2_truth_dare_shed_both_both_seats_shed_when_the_card_is_played(make, E) -> None:
    duel = make("arbiter", E.act("A", "truth"), starting_action_cards={"A": 1})
    assert make.hands(duel) == ((19, 0), (19, 0))
    assert duel.state()["awaiting"] == {
        "decision": "truth",
        "seat": "B",
        "choices": ["answer", "refuse"],
    }


def test_2_truth_dare_shed_actor_only_the_actor_sheds_for_truth_as_for_dare(make, E) -> None:
    for card in ("truth", "dare"):
        duel = make("paper", E.act("A", card), starting_action_cards={"A": 1})
        assert make.hands(duel) == ((19, 0), (20, 0))


def test_5_truth_answered_nothing_more_happens(make, E) -> None:
    duel = make(
        "arbiter", E.act("A", "truth"), E.resp("B", "answer"), starting_action_cards={"A": 1}
    )
    assert duel.state()["status"] == "playing"
    assert make.hands(duel) == ((19, 0), (19, 0))


def test_5_dare_completed_nothing_more_happens(make, E) -> None:
    duel = make(
        "paper", E.act("A", "dare"), E.resp("B", "complete"), starting_action_cards={"A": 1}
    )
    assert duel.state()["status"] == "playing"
    assert duel.state()["awaiting"] is None


def test_5_truth_refused_the_actor_chooses_a_penalty(make, E) -> None:
    duel = make("paper", E.act("A", "truth"), E.resp("B", "refuse"), starting_action_cards={"A": 1})
    assert duel.state()["awaiting"] == {
        "decision": "penalty",
        "seat": "A",
        "choices": ["actions", "five"],
    }


def test_5_penalty_actions_actor_draws_two_action_cards_target_two_number_cards(make, E) -> None:
    duel = make(
        "arbiter",
        E.act("A", "truth"),
        E.resp("B", "refuse"),
        E.resp("A", "actions"),
        starting_action_cards={"A": 1},
    )
    assert make.hands(duel) == ((19, 2), (21, 0))
    assert duel.state()["decks"]["action"] == 29


def test_5_penalty_five_target_draws_five_number_cards(make, E) -> None:
    duel = make(
        "arbiter",
        E.act("A", "truth"),
        E.resp("B", "refuse"),
        E.resp("A", "five"),
        starting_action_cards={"A": 1},
    )
    assert make.hands(duel) == ((19, 0), (24, 0))


def test_2_dare_refused_penalty_the_actor_chooses_a_penalty_as_for_truth(make, E) -> None:
    duel = make(
        "arbiter", E.act("A", "dare"), E.resp("B", "refuse"), starting_action_cards={"A": 1}
    )
    assert duel.state()["awaiting"]["decision"] == "penalty"
    duel.apply(E.resp("A", "five"))
    assert make.hands(duel) == ((19, 0), (24, 0))


def test_2_dare_refused_forfeit_the_refuser_forfeits_and_the_actor_wins(make, E) -> None:
    for preset in ("paper", "official"):
        duel = make(
            preset, E.act("B", "dare"), E.resp("A", "refuse"), starting_action_cards={"B": 1}
        )
        state = duel.state()
        assert (state["status"], state["winner"], state["finish"]) == (
            "finished",
            "B",
            "dare_refused",
        )
        assert state["awaiting"] is None


def test_5_only_the_target_answers_and_only_with_the_offered_words(make, E) -> None:
    duel = make("arbiter", E.act("A", "dare"), starting_action_cards={"A": 1})
    with pytest.raises(IllegalEvent, match="waiting for Bob"):
        duel.apply(E.resp("A", "complete"))
    with pytest.raises(IllegalEvent, match="'answer' is not a choice for dare"):
        duel.apply(E.resp("B", "answer"))
