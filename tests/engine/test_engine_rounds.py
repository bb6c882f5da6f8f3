"""RULES.md section 3: a number round — reveal, 0 and 7, compare, ties, blocked rounds, streaks."""

from __future__ import annotations

import pytest

from games.split_uno import IllegalEvent
from games.split_uno.effects import Effect
from games.split_uno.state import Setup, Table


def test_3_3_highest_card_wins_winner_sheds_loser_draws_and_keeps_its_card(make, E) -> None:
    duel = make("arbiter", E.round(A=9, B=3))
    state = duel.state()
    assert make.hands(duel) == ((19, 0), (21, 0))
    assert state["decks"] == {"number": 67, "action": 32}
    assert state["discards"] == {"number": 1, "action": 0}
    assert (state["seats"]["A"]["streak"], state["seats"]["B"]["streak"]) == (1, 0)
    assert state["rounds"] == 1


def test_2_loser_discards_revealed_true_paper_loser_discards_and_draws_net_zero(make, E) -> None:
    duel = make("paper", E.round(A=3, B=9))
    assert make.hands(duel) == ((20, 0), (19, 0))
    assert duel.state()["discards"]["number"] == 2
    assert duel.state()["decks"]["number"] == 67


def test_2_loser_discards_revealed_false_loser_keeps_revealed_card_net_plus_one(make, E) -> None:
    duel = make("paper", E.round(A=3, B=9), loser_discards_revealed=False)
    assert make.hands(duel) == ((21, 0), (19, 0))
    assert duel.state()["discards"]["number"] == 1


@pytest.mark.parametrize(
    "cards",
    [{"A": 5}, {"B": 5}, {}, {"A": 5, "B": 6, "C": 1}, {"A": 5, "b": 1}],
)
def test_3_1_every_seat_that_is_not_blocked_reveals_exactly_one_card(make, E, cards) -> None:
    duel = make()
    with pytest.raises(IllegalEvent) as err:
        duel.apply({"type": "round", "cards": cards})
    assert "A, B" in str(err.value)
    assert duel.state()["events"] == 0


@pytest.mark.parametrize("value", [10, -1, "7", 7.0, True, None, [7], 1e3])
def test_3_1_a_revealed_card_is_a_json_integer_from_0_to_9(make, value) -> None:
    duel = make()
    with pytest.raises(IllegalEvent, match="whole number from 0 to 9"):
        duel.apply({"type": "round", "cards": {"A": value, "B": 3}})


def test_3_2_zero_steals_one_number_card_from_the_opponent(make, E) -> None:
    duel = make("arbiter", E.round(A=0, B=5))
    # A takes one of B's 20 (A 21, B 19); B wins and sheds (18); A loses and draws (22).
    assert make.hands(duel) == ((22, 0), (18, 0))


def test_3_2_zero_never_steals_revealed_card(make, E) -> None:
    duel = make("arbiter", starting_number_cards=1)
    effects = duel.apply(E.round(A=0, B=5))
    steal = next(e for e in effects if e.kind == "steal")
    assert (steal.number, steal.cause) == (0, "revealed")
    # B's only card lay on the table: nothing stolen; B wins, sheds it and is at 0.
    state = duel.state()
    assert state["seats"]["A"]["number_cards"] == 2
    assert state["seats"]["B"]["number_cards"] == 0
    assert (state["winner"], state["finish"]) == ("B", "shed_all")


def test_3_2_zero_steals_when_the_revealing_victim_holds_one_more_card(make, E) -> None:
    duel = make("arbiter", starting_number_cards=2)
    duel.apply(E.round(A=0, B=5))
    # B 2 -> 1 (steal) -> 0 (wins, sheds); A 2 -> 3 -> 4 (draws).
    assert make.hands(duel) == ((4, 0), (0, 0))


def test_3_2_zero_can_steal_any_card_from_a_blocked_seat_that_revealed_nothing(make, E) -> None:
    duel = make("arbiter", starting_number_cards=1, starting_action_cards={"A": 1})
    duel.apply(E.act("A", "block"))
    effects = duel.apply({"type": "round", "cards": {"A": 0}})
    assert any(e.kind == "steal" and e.number == 1 for e in effects)
    # B 1 -> 0 (stolen) -> 1 (draws for the blocked round); A 1 -> 2 -> 1 (wins, sheds).
    assert make.hands(duel) == ((1, 0), (1, 0))
    assert duel.state()["status"] == "playing"


def test_3_2_seven_makes_the_opponent_draw_two_number_cards_and_one_action_card(make, E) -> None:
    duel = make("arbiter", E.round(A=7, B=3))
    assert make.hands(duel) == ((19, 0), (23, 1))
    assert duel.state()["decks"] == {"number": 65, "action": 31}


def test_3_2_every_zero_then_every_seven_each_in_seat_order(make, E) -> None:
    duel = make()
    effects = duel.apply(E.round(A=7, B=0))
    kinds = [(e.kind, e.seat) for e in effects if e.kind in ("steal", "draw")]
    assert kinds[:2] == [("steal", "B"), ("draw", "B")]  # B's 0 first, then A's 7 on B
    duel = make()
    effects = duel.apply(E.round(A=0, B=0))
    steals = [(e.seat, e.other) for e in effects if e.kind == "steal"]
    assert steals == [("A", "B"), ("B", "A")]


def test_3_2_two_sevens_on_a_short_deck_b_draws_for_as_seven_first(make, E) -> None:
    duel = make("arbiter", number_pool=42)  # 2 number cards left after the deal
    duel.apply(E.round(A=7, B=7))
    # B draws 2+1 for A's 7; A draws 0+1 for B's 7; the tie sheds both and draws nothing.
    assert make.hands(duel) == ((19, 1), (21, 1))
    assert duel.state()["decks"]["number"] == 0


def test_3_3_draws_never_exceed_the_deck_and_say_so(make, E) -> None:
    duel = make("arbiter", number_pool=40)
    effects = duel.apply(E.round(A=9, B=3))
    draw = next(e for e in effects if e.kind == "draw")
    assert (draw.seat, draw.number, draw.short) == ("B", 0, True)
    assert make.hands(duel) == ((19, 0), (20, 0))


def test_3_4_tie_for_highest_every_tied_seat_sheds_1_draws_1_and_streaks_reset(make, E) -> None:
    duel = make("arbiter", E.round(A=9, B=3), E.round(A=5, B=5))
    assert make.hands(duel) == ((19, 0), (21, 0))
    state = duel.state()
    assert state["discards"]["number"] == 3
    assert state["decks"]["number"] == 65
    assert (state["seats"]["A"]["streak"], state["seats"]["B"]["streak"]) == (0, 0)


def test_3_4_tie_on_a_short_deck_serves_seats_in_seat_order(make, E) -> None:
    duel = make("arbiter", E.round(A=5, B=5), number_pool=41)
    assert make.hands(duel) == ((20, 0), (19, 0))


def test_3_4_a_tie_is_the_same_under_paper(make, E) -> None:
    duel = make("paper", E.round(A=5, B=5))
    assert make.hands(duel) == ((20, 0), (20, 0))
    assert duel.state()["discards"]["number"] == 2


def test_2_blocked_seat_draws_free_seat_wins_alone_blocked_seat_draws_1(make, E) -> None:
    duel = make("arbiter", E.round(A=3, B=9), starting_action_cards={"A": 1})
    duel.apply(E.act("A", "block"))
    assert make.seat(duel, "B")["blocked"] is True
    assert duel.legal().round_seats == ("A",)
    duel.apply({"type": "round", "cards": {"A": 4}})
    state = duel.state()
    assert make.hands(duel) == ((20, 0), (20, 0))
    assert state["seats"]["A"]["streak"] == 1
    assert state["seats"]["B"]["streak"] == 0  # the blocked seat's streak resets
    assert state["seats"]["B"]["blocked"] is False


def test_2_blocked_seat_sits_out_no_card_no_draw_streak_kept(make, E) -> None:
    duel = make("official", E.round(A=3, B=9), starting_action_cards={"A": 1})
    duel.apply(E.act("A", "block"))  # B holds no action card: no counter
    duel.apply({"type": "round", "cards": {"A": 4}})
    state = duel.state()
    assert make.hands(duel) == ((20, 0), (19, 0))
    assert state["seats"]["A"]["streak"] == 1
    assert state["seats"]["B"]["streak"] == 1
    assert state["seats"]["B"]["blocked"] is False


def test_3_5_a_blocked_seat_must_be_left_out_of_the_round(make, E) -> None:
    duel = make("arbiter", E.act("A", "block"), starting_action_cards={"A": 1})
    with pytest.raises(IllegalEvent, match="B is blocked and must be left out"):
        duel.apply(E.round(A=4, B=5))


def test_3_5_the_free_seats_revealed_card_keeps_its_seven(make, E) -> None:
    duel = make("official", E.act("A", "block"), starting_action_cards={"A": 1})
    duel.apply({"type": "round", "cards": {"A": 7}})
    # B sits out but is still the target of the 7.
    assert make.hands(duel) == ((19, 0), (22, 1))


def test_3_5_a_sitting_out_seat_can_lose_its_last_card_to_a_zero(make, E) -> None:
    duel = make("official", starting_number_cards=1, starting_action_cards={"A": 1})
    duel.apply(E.act("A", "block"))
    duel.apply({"type": "round", "cards": {"A": 0}})
    state = duel.state()
    # A takes B's only card and sheds one; B is at 0 and A holds no action card to challenge.
    assert make.hands(duel) == ((1, 0), (0, 0))
    assert (state["winner"], state["finish"]) == ("B", "shed_all")


def test_3_5_every_seat_blocked_round_with_no_cards_lifts_every_block(make, E) -> None:
    duel = make(
        "arbiter",
        E.round(A=9, B=3),
        E.act("A", "block"),
        E.act("B", "block"),
        starting_action_cards={"A": 1, "B": 1},
    )
    legal = duel.legal()
    assert legal.can_play_round is True and legal.round_seats == ()
    assert legal.events()[0] == {"type": "round", "cards": {}}
    with pytest.raises(IllegalEvent, match='"cards": {}'):
        duel.apply(E.round(A=1, B=2))
    before = make.hands(duel)
    duel.apply(E.round())
    state = duel.state()
    assert make.hands(duel) == before
    assert state["rounds"] == 2
    assert [state["seats"][s]["blocked"] for s in "AB"] == [False, False]
    assert [state["seats"][s]["streak"] for s in "AB"] == [1, 0]


def test_3_6_two_wins_in_a_row_await_a_bonus_with_the_streak_shown_as_2(make, E) -> None:
    duel = make("arbiter", E.round(A=9, B=3), E.round(A=8, B=2))
    state = duel.state()
    assert state["status"] == "awaiting"
    assert state["awaiting"] == {
        "decision": "bonus",
        "seat": "A",
        "choices": ["action_card", "opponents_draw"],
    }
    assert state["seats"]["A"]["streak"] == 2


def test_3_6_bonus_action_card_draws_one_action_card_and_resets_the_streak(make, E) -> None:
    duel = make("arbiter", E.round(A=9, B=3), E.round(A=8, B=2), E.resp("A", "action_card"))
    assert make.hands(duel) == ((18, 1), (22, 0))
    assert make.seat(duel, "A")["streak"] == 0
    assert duel.state()["decks"]["action"] == 31


def test_3_6_bonus_opponents_draw_makes_every_opponent_draw_two(make, E) -> None:
    duel = make("arbiter", E.round(A=9, B=3), E.round(A=8, B=2), E.resp("A", "opponents_draw"))
    assert make.hands(duel) == ((18, 0), (24, 0))
    assert make.seat(duel, "A")["streak"] == 0


def test_3_6_a_tie_breaks_a_streak(make, E) -> None:
    duel = make("arbiter", E.round(A=9, B=3), E.round(A=5, B=5), E.round(A=9, B=3))
    assert duel.state()["status"] == "playing"
    assert make.seat(duel, "A")["streak"] == 1


def test_3_6_a_loss_breaks_a_streak(make, E) -> None:
    duel = make("arbiter", E.round(A=9, B=3), E.round(A=1, B=3), E.round(A=9, B=3))
    assert duel.state()["status"] == "playing"


def test_3_6_action_cards_do_not_break_a_streak(make, E) -> None:
    duel = make(
        "arbiter",
        E.round(A=9, B=3),
        E.act("A", "color_change", color="blue"),
        E.act("B", "draw_two"),
        E.round(A=9, B=3),
        starting_action_cards={"A": 1, "B": 1},
    )
    assert duel.state()["awaiting"]["decision"] == "bonus"


def test_3_6_a_blocked_round_win_counts_for_the_streak(make, E) -> None:
    duel = make(
        "arbiter",
        E.round(A=9, B=3),
        E.act("A", "block"),
        {"type": "round", "cards": {"A": 2}},
        starting_action_cards={"A": 1},
    )
    assert duel.state()["awaiting"]["decision"] == "bonus"


def test_3_6_a_sits_out_seat_keeps_its_streak_and_can_complete_it_later(make, E) -> None:
    duel = make(
        "official",
        E.round(A=3, B=9),
        E.act("A", "block"),
        {"type": "round", "cards": {"A": 2}},
        E.round(A=3, B=9),
        starting_action_cards={"A": 1},
    )
    assert duel.state()["awaiting"] == {
        "decision": "bonus",
        "seat": "B",
        "choices": ["action_card", "opponents_draw"],
    }


def test_3_draws_and_sheds_never_go_below_zero() -> None:
    """No rule sheds from an empty hand while playing; the primitive still refuses to."""
    from games.split_uno.rules import resolve_rules

    rules = resolve_rules("arbiter", options={"number_pool": 40})
    setup = Setup("arbiter", (), {}, rules, ("A", "B"), ("Alice", "Bob"), {"A": 0, "B": 1})
    table = Table(setup)
    table.num[0] = 0
    fx: list = []
    table.shed(0, fx, "tie")
    table.draw(1, 3, 1, fx, "penalty")
    assert table.num == [0, 20]
    assert table.disc_n == 0
    assert table.act == [0, 1]
    draw = Effect(*fx[1])
    assert (draw.number, draw.action, draw.short) == (0, 1, True)
