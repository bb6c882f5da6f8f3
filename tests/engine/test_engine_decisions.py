"""RULES.md section 7: one decision at a time, in order, and only the named seat answers."""

from __future__ import annotations

import pytest

from games.split_uno import DECISIONS, IllegalEvent


def test_7_choices_are_listed_in_the_order_of_the_table() -> None:
    assert DECISIONS == {
        "counter": ("draw_two", "draw_four", "pass"),
        "block_counter": ("block", "pass"),
        "truth": ("answer", "refuse"),
        "dare": ("complete", "refuse"),
        "penalty": ("actions", "five"),
        "bonus": ("action_card", "opponents_draw"),
        "challenge": ("draw_two", "draw_four", "pass"),
    }


def _pending(make, E):
    return make("arbiter", E.act("A", "draw_two"), starting_action_cards={"A": 2, "B": 1})


def test_7_while_waiting_a_round_is_illegal_and_changes_nothing(make, E) -> None:
    duel = _pending(make, E)
    before = duel.state()
    with pytest.raises(IllegalEvent, match=r"waiting for Bob \(B\) to decide counter") as err:
        duel.apply(E.round(A=1, B=2))
    assert "respond from B with draw_two, draw_four or pass" in str(err.value)
    assert "forfeit, time_limit, adjudicate" in str(err.value)
    assert duel.state() == before


def test_7_while_waiting_an_action_card_is_illegal_even_from_the_deciding_seat(make, E) -> None:
    duel = _pending(make, E)
    for seat in "AB":
        with pytest.raises(IllegalEvent, match="cannot be played now"):
            duel.apply(E.act(seat, "block"))
    assert duel.legal().actions == {"A": (), "B": ()}


def test_7_only_the_named_seat_may_respond(make, E) -> None:
    duel = _pending(make, E)
    with pytest.raises(IllegalEvent, match="A cannot respond now"):
        duel.apply(E.resp("A", "pass"))


@pytest.mark.parametrize("choice", ["block", "PASS", "answer", "", 2, None])
def test_7_only_an_offered_choice_is_legal(make, E, choice) -> None:
    duel = _pending(make, E)
    with pytest.raises(IllegalEvent, match="choice"):
        duel.apply(E.resp("B", choice))


def test_7_a_respond_with_nothing_pending_is_illegal(make, E) -> None:
    duel = make()
    with pytest.raises(IllegalEvent, match="nothing to respond to"):
        duel.apply(E.resp("A", "pass"))


def test_7_streak_bonus_comes_before_the_challenge(make, E) -> None:
    # A wins twice, the second time shedding its last card while B holds action cards.
    duel = make(
        "arbiter",
        E.round(A=9, B=3),
        E.round(A=9, B=3),
        starting_number_cards=2,
        starting_action_cards={"B": 2},
    )
    state = duel.state()
    assert state["seats"]["A"]["number_cards"] == 0
    assert state["awaiting"]["decision"] == "bonus"
    duel.apply(E.resp("A", "action_card"))
    assert duel.state()["awaiting"] == {
        "decision": "challenge",
        "seat": "B",
        "choices": ["draw_two", "draw_four", "pass"],
    }


def test_7_a_bonus_comes_before_judging_zero_and_its_card_may_then_challenge(make, E) -> None:
    # Paper with an empty deck: B's own truth sheds a card, then B loses from its last card.
    duel = make(
        "paper",
        E.round(A=9, B=3),
        E.act("B", "truth"),
        E.resp("A", "answer"),
        E.round(A=9, B=3),
        starting_number_cards=3,
        number_pool=6,
        starting_action_cards={"B": 1},
    )
    state = duel.state()
    assert [state["seats"][s]["number_cards"] for s in "AB"] == [1, 0]
    assert state["awaiting"]["decision"] == "bonus"
    duel.apply(E.resp("A", "action_card"))
    assert duel.state()["awaiting"] == {
        "decision": "challenge",
        "seat": "A",
        "choices": ["draw_two", "draw_four", "pass"],
    }


def test_7_truth_answer_then_penalty_then_challenge(make, E) -> None:
    # Paper: A's truth sheds A's last card; B refuses; A picks five; then A is at 0.
    duel = make(
        "paper",
        E.act("A", "truth"),
        starting_number_cards=1,
        starting_action_cards={"A": 1, "B": 2},
    )
    assert duel.state()["seats"]["A"]["number_cards"] == 0
    assert duel.state()["awaiting"]["decision"] == "truth"
    duel.apply(E.resp("B", "refuse"))
    assert duel.state()["awaiting"]["decision"] == "penalty"
    duel.apply(E.resp("A", "five"))
    assert duel.state()["awaiting"] == {
        "decision": "challenge",
        "seat": "B",
        "choices": ["draw_two", "draw_four", "pass"],
    }


def test_6_two_seats_at_zero_are_judged_only_after_the_decisions_before_the_challenge(
    make, E
) -> None:
    # Arbiter: a truth sheds both seats' last cards, but B's refusal and A's penalty come first.
    duel = make(
        "arbiter", E.act("A", "truth"), starting_number_cards=1, starting_action_cards={"A": 1}
    )
    state = duel.state()
    assert [state["seats"][s]["number_cards"] for s in "AB"] == [0, 0]
    assert state["status"] == "awaiting"
    duel.apply(E.resp("B", "refuse"))
    duel.apply(E.resp("A", "five"))
    state = duel.state()
    assert [state["seats"][s]["number_cards"] for s in "AB"] == [0, 5]
    assert (state["winner"], state["finish"]) == ("A", "shed_all")


def test_6_two_seats_at_zero_after_an_answered_truth_is_a_double_zero(make, E) -> None:
    duel = make(
        "arbiter",
        E.act("A", "truth"),
        E.resp("B", "answer"),
        starting_number_cards=1,
        starting_action_cards={"A": 1},
    )
    assert duel.state()["finish"] == "double_zero"


def test_7_a_counter_comes_before_judging_zero(make, E) -> None:
    # BLOCK countered under paper: both seats shed their last card only once B answers.
    duel = make(
        "paper",
        E.act("A", "block"),
        starting_number_cards=1,
        starting_action_cards={"A": 1, "B": 1},
    )
    assert duel.state()["awaiting"]["decision"] == "block_counter"
    duel.apply(E.resp("B", "block"))
    assert duel.state()["finish"] == "double_zero"
