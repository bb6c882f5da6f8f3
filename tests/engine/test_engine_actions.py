"""RULES.md section 4: the seven action cards and the draw battle."""

from __future__ import annotations

import pytest

from games.split_uno import CARDS, IllegalEvent


def test_4_cards_are_the_seven_snake_case_names() -> None:
    assert CARDS == ("block", "reverse", "color_change", "draw_two", "draw_four", "truth", "dare")


def test_4_a_seat_without_an_action_card_cannot_play_one(make, E) -> None:
    duel = make("arbiter", starting_action_cards={"B": 1})
    with pytest.raises(IllegalEvent, match=r"Alice \(A\) holds no action card.*only B holds one"):
        duel.apply(E.act("A", "block"))
    assert duel.state()["events"] == 0


def test_4_the_actors_card_is_discarded_as_it_is_played(make, E) -> None:
    duel = make("arbiter", E.act("A", "draw_two"), starting_action_cards={"A": 1})
    state = duel.state()
    assert state["seats"]["A"]["action_cards"] == 0
    assert state["discards"]["action"] == 1


def test_4_a_blocked_seat_may_still_play_an_action_card(make, E) -> None:
    duel = make(
        "arbiter",
        E.act("A", "block"),
        E.act("B", "color_change", color="green"),
        starting_action_cards={"A": 1, "B": 1},
    )
    assert make.hands(duel) == ((19, 0), (19, 0))
    assert make.seat(duel, "B")["blocked"] is True


@pytest.mark.parametrize("card", ["sikp", "Block", "DRAW_TWO", None, 3])
def test_4_an_unknown_card_name_is_illegal(make, E, card) -> None:
    duel = make("arbiter", starting_action_cards={"A": 1})
    with pytest.raises(IllegalEvent, match="not an action card; the cards are block, reverse"):
        duel.apply(E.act("A", card))


def test_8_a_target_with_two_seats_must_name_the_opponent(make, E) -> None:
    duel = make("arbiter", starting_action_cards={"A": 2})
    for target in ("A", "C", None, 1):
        with pytest.raises(IllegalEvent, match="must be A's opponent B"):
            duel.apply(E.act("A", "draw_two", target=target))
    duel.apply(E.act("A", "draw_two", target="B"))
    assert duel.record()["events"][0]["target"] == "B"


# -- BLOCK ----------------------------------------------------------------------------------


def test_4_block_blocks_the_target_for_the_next_number_round(make, E) -> None:
    duel = make("arbiter", E.act("A", "block"), starting_action_cards={"A": 1})
    assert make.seat(duel, "B")["blocked"] is True
    assert make.seat(duel, "A")["blocked"] is False


def test_4_a_second_block_adds_nothing_but_still_spends_the_card(make, E) -> None:
    duel = make("arbiter", E.act("A", "block"), starting_action_cards={"A": 2})
    effects = duel.apply(E.act("A", "block"))
    assert any(e.kind == "blocked" and e.cause == "already" for e in effects)
    state = duel.state()
    assert state["seats"]["A"]["action_cards"] == 0
    assert state["discards"]["action"] == 2
    duel.apply({"type": "round", "cards": {"A": 5}})
    assert make.seat(duel, "B")["blocked"] is False


def test_2_block_counter_false_the_target_cannot_answer_a_block(make, E) -> None:
    duel = make("arbiter", E.act("A", "block"), starting_action_cards={"A": 1, "B": 1})
    assert duel.state()["status"] == "playing"
    assert make.seat(duel, "B")["blocked"] is True


def test_2_block_counter_true_the_target_holding_an_action_card_decides(make, E) -> None:
    duel = make("paper", E.act("A", "block"), starting_action_cards={"A": 1, "B": 1})
    state = duel.state()
    assert state["awaiting"] == {
        "decision": "block_counter",
        "seat": "B",
        "choices": ["block", "pass"],
    }
    assert state["seats"]["B"]["blocked"] is False  # stays false while B decides


def test_4_block_countered_both_cards_go_both_seats_shed_and_no_block(make, E) -> None:
    duel = make(
        "paper", E.act("A", "block"), E.resp("B", "block"), starting_action_cards={"A": 1, "B": 1}
    )
    state = duel.state()
    assert make.hands(duel) == ((19, 0), (19, 0))
    assert state["discards"] == {"number": 2, "action": 2}
    assert state["seats"]["B"]["blocked"] is False
    assert state["status"] == "playing"


def test_4_block_not_countered_blocks_the_target(make, E) -> None:
    duel = make(
        "official", E.act("A", "block"), E.resp("B", "pass"), starting_action_cards={"A": 1, "B": 1}
    )
    assert make.seat(duel, "B")["blocked"] is True
    assert make.hands(duel) == ((20, 0), (20, 1))


def test_4_a_countered_block_leaves_a_block_already_in_place(make, E) -> None:
    duel = make(
        "paper",
        E.act("A", "block"),
        E.resp("B", "pass"),
        E.act("A", "block"),
        E.resp("B", "block"),
        starting_action_cards={"A": 2, "B": 1},
    )
    assert make.seat(duel, "B")["blocked"] is True


def test_4_block_counter_is_not_offered_to_a_target_without_an_action_card(make, E) -> None:
    duel = make("paper", E.act("A", "block"), starting_action_cards={"A": 1})
    assert duel.state()["status"] == "playing"
    assert make.seat(duel, "B")["blocked"] is True


# -- REVERSE --------------------------------------------------------------------------------


def _swap_setup(make, E, ruleset: str, **options):
    # A: 20 number, 1 action; B: 23 number, 1 action after A's 7... built by a round:
    # round A=7 B=3 gives B 2+1 and a loss: A 19/0, B 23/1; then the options' cards on top.
    return make(ruleset, E.round(A=7, B=3), **options)


def test_2_reverse_discard_before_the_actors_card_leaves_before_the_swap(make, E) -> None:
    duel = _swap_setup(make, E, "arbiter", starting_action_cards={"A": 1})
    assert make.hands(duel) == ((19, 1), (23, 1))
    duel.apply(E.act("A", "reverse"))
    assert make.hands(duel) == ((23, 1), (19, 0))


def test_2_reverse_discard_after_the_actor_discards_from_its_new_hand(make, E) -> None:
    duel = _swap_setup(make, E, "official", starting_action_cards={"A": 1})
    duel.apply(E.act("A", "reverse"))
    assert make.hands(duel) == ((23, 0), (19, 1))
    assert duel.state()["discards"]["action"] == 1


def test_4_reverse_after_with_no_action_card_in_the_new_hand_discards_nothing(make, E) -> None:
    duel = make("official", starting_action_cards={"A": 1})
    effects = duel.apply(E.act("A", "reverse"))
    assert make.hands(duel) == ((20, 0), (20, 1))
    assert duel.state()["discards"]["action"] == 0
    assert any(e.kind == "reverse_discard" and e.action == 0 for e in effects)


def test_4_reverse_swaps_hands_but_streaks_and_blocks_stay_with_the_seat(make, E) -> None:
    duel = make(
        "arbiter",
        E.round(A=9, B=3),
        E.act("B", "block"),
        E.act("A", "reverse"),
        starting_action_cards={"A": 2, "B": 1},
    )
    state = duel.state()
    assert (state["seats"]["A"]["streak"], state["seats"]["A"]["blocked"]) == (1, True)
    assert (state["seats"]["B"]["streak"], state["seats"]["B"]["blocked"]) == (0, False)
    assert make.hands(duel) == ((21, 0), (19, 1))


def test_4_reverse_cannot_be_countered(make, E) -> None:
    duel = make("paper", E.act("A", "reverse"), starting_action_cards={"A": 1, "B": 1})
    assert duel.state()["status"] == "playing"


# -- COLOR CHANGE ---------------------------------------------------------------------------


def test_4_color_change_every_seat_sheds_one_and_the_colour_is_logged_not_stated(make, E) -> None:
    duel = make("arbiter", starting_action_cards={"A": 1})
    effects = duel.apply(E.act("A", "color_change", color="yellow"))
    assert make.hands(duel) == ((19, 0), (19, 0))
    assert duel.record()["events"][0]["color"] == "yellow"
    assert "yellow" not in str(duel.state())
    assert "Alice plays COLOR CHANGE and names yellow" in duel.describe(effects)


@pytest.mark.parametrize("color", [None, "Red", "purple", 1])
def test_4_color_change_must_name_one_of_the_four_colours(make, E, color) -> None:
    duel = make("arbiter", starting_action_cards={"A": 1})
    event = E.act("A", "color_change") if color is None else E.act("A", "color_change", color=color)
    with pytest.raises(IllegalEvent, match="red, yellow, green, blue"):
        duel.apply(event)


# -- DRAW TWO / DRAW FOUR and the draw battle ----------------------------------------------


@pytest.mark.parametrize(("card", "drawn"), [("draw_two", 2), ("draw_four", 4)])
def test_4_draw_card_without_counter_the_target_draws(make, E, card, drawn) -> None:
    duel = make("arbiter", E.act("A", card), starting_action_cards={"A": 1})
    assert make.hands(duel) == ((20, 0), (20 + drawn, 0))


@pytest.mark.parametrize(("card", "drawn"), [("draw_two", 2), ("draw_four", 4)])
def test_4_draw_card_passed_the_target_draws(make, E, card, drawn) -> None:
    duel = make("arbiter", E.act("A", card), starting_action_cards={"A": 1, "B": 1})
    assert duel.state()["awaiting"] == {
        "decision": "counter",
        "seat": "B",
        "choices": ["draw_two", "draw_four", "pass"],
    }
    duel.apply(E.resp("B", "pass"))
    assert make.hands(duel) == ((20, 0), (20 + drawn, 1))


@pytest.mark.parametrize(
    ("played", "counter", "a_draws", "b_draws"),
    [
        ("draw_two", "draw_two", 1, 1),
        ("draw_two", "draw_four", 3, 0),
        ("draw_four", "draw_two", 0, 3),
        ("draw_four", "draw_four", 1, 1),
    ],
)
def test_4_draw_battle_table(make, E, played, counter, a_draws, b_draws) -> None:
    duel = make(
        "arbiter", E.act("A", played), E.resp("B", counter), starting_action_cards={"A": 1, "B": 1}
    )
    state = duel.state()
    assert make.hands(duel) == ((20 + a_draws, 0), (20 + b_draws, 0))
    assert state["discards"]["action"] == 2
    assert state["status"] == "playing"


def test_4_draw_battle_both_draw_one_served_in_seat_order_on_a_short_deck(make, E) -> None:
    duel = make(
        "arbiter",
        E.act("B", "draw_two"),
        E.resp("A", "draw_two"),
        number_pool=41,
        starting_action_cards={"A": 1, "B": 1},
    )
    assert make.hands(duel) == ((21, 0), (20, 0))


def test_2_draw_counter_false_a_draw_card_cannot_be_countered(make, E) -> None:
    duel = make(
        "arbiter",
        E.act("A", "draw_four"),
        draw_counter=False,
        starting_action_cards={"A": 1, "B": 1},
    )
    assert duel.state()["status"] == "playing"
    assert make.hands(duel) == ((20, 0), (24, 1))


def test_2_draw_counter_true_is_every_presets_default(make, E) -> None:
    for preset in ("arbiter", "tournament", "paper", "official"):
        duel = make(preset, E.act("A", "draw_two"), starting_action_cards={"A": 1, "B": 1})
        assert duel.state()["awaiting"]["decision"] == "counter"


def test_4_hardcore_plus_cards_are_not_countered_but_block_counter_still_applies(make, E) -> None:
    duel = make(
        "paper",
        E.act("A", "draw_two"),
        variants=("hardcore",),
        starting_action_cards={"A": 2, "B": 1},
    )
    assert duel.state()["status"] == "playing"
    duel.apply(E.act("A", "block"))
    assert duel.state()["awaiting"]["decision"] == "block_counter"


def test_4_honour_system_any_action_card_may_answer_with_either_draw_card(make, E) -> None:
    # B's one action card may have been anything; the engine checks counts, not identities.
    duel = make("arbiter", E.act("A", "draw_two"), starting_action_cards={"A": 1, "B": 1})
    duel.apply(E.resp("B", "draw_four"))
    assert make.hands(duel) == ((23, 0), (20, 0))
