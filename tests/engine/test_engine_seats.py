"""RULES.md section 11: more than two seats, and teams, through the same checked path."""

from __future__ import annotations

from typing import Any

import pytest

from games.split_uno import Duel, IllegalEvent, MalformedRecord

NAMES = {"A": "Ann", "B": "Bo", "C": "Cy", "D": "Di", "E": "Ed", "F": "Fay"}


def seats(n: int) -> dict[str, str]:
    return {s: NAMES[s] for s in "ABCDEF"[:n]}


def many(
    n: int,
    ruleset: str = "official",
    *events: dict[str, Any],
    variants: tuple[str, ...] = (),
    teams: list[list[str]] | None = None,
    **options: Any,
) -> Duel:
    """An ``n``-seat duel (``max_seats`` raised where the preset needs it) after ``events``."""
    if n > 2 and ruleset != "official":
        options.setdefault("max_seats", n)
    if teams is not None and "team" not in variants:
        variants = (*variants, "team")
    duel = Duel.new(ruleset, seats(n), variants, options, teams=teams)
    for event in events:
        duel.apply(event)
    return duel


def rnd(targets: dict[str, str] | None = None, **cards: int) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "round", "cards": cards}
    if targets is not None:
        event["targets"] = targets
    return event


def act(seat: str, card: str, target: str | None = None, **extra: Any) -> dict[str, Any]:
    event = {"type": "action", "seat": seat, "card": card, **extra}
    if target is not None:
        event["target"] = target
    return event


def resp(seat: str, choice: str) -> dict[str, Any]:
    return {"type": "respond", "seat": seat, "choice": choice}


def forfeit(seat: str) -> dict[str, Any]:
    return {"type": "forfeit", "seat": seat}


def num(duel: Duel) -> dict[str, int]:
    return {s: v["number_cards"] for s, v in duel.state()["seats"].items()}


def act_counts(duel: Duel) -> dict[str, int]:
    return {s: v["action_cards"] for s, v in duel.state()["seats"].items()}


def awaiting(duel: Duel) -> tuple[str, str] | None:
    a = duel.state()["awaiting"]
    return None if a is None else (a["decision"], a["seat"])


def refused(duel: Duel, event: dict[str, Any], match: str) -> None:
    before = (duel.state(), duel.record())
    with pytest.raises(IllegalEvent, match=match):
        duel.apply(event)
    assert (duel.state(), duel.record()) == before


# -- 11.1 seats, presets and the deal -----------------------------------------------------------


def test_11_1_the_deal_with_more_seats_and_its_limits() -> None:
    assert many(5).state()["decks"]["number"] == 8
    with pytest.raises(MalformedRecord, match="cannot deal 20 number cards to each of 6 seats"):
        many(6)
    assert many(6, number_pool=188).state()["decks"]["number"] == 68
    assert many(6, variants=("speed",)).state()["decks"]["number"] == 18
    assert many(3, "tournament").state()["decks"]["number"] == 48
    with pytest.raises(MalformedRecord, match="3 seats but this ruleset allows at most 2"):
        Duel.new("tournament", seats(3))
    with pytest.raises(MalformedRecord, match="4 seats but this ruleset allows at most 3"):
        Duel.new("official", seats(4), options={"max_seats": 3})
    with pytest.raises(MalformedRecord, match="first letters A, B"):
        Duel.new("official", {"A": "a", "B": "b", "D": "d"})
    with pytest.raises(MalformedRecord, match="2 to 6 seats"):
        Duel.new("official", {**seats(6), "G": "g"})


def test_11_11_states_with_more_seats_show_out_and_two_seat_states_do_not() -> None:
    assert set(many(3).state()["seats"]["C"]) == {
        "name", "number_cards", "action_cards", "streak", "blocked", "out",
    }  # fmt: skip
    assert "out" not in many(2).state()["seats"]["A"]


# -- 11.3 a number round -----------------------------------------------------------------------


def test_11_3_zeros_then_sevens_on_the_named_targets_then_one_winner() -> None:
    duel = many(3, "official", rnd({"A": "C", "B": "C"}, A=7, B=0, C=5))
    # B's 0 takes one of C's cards (C keeps its revealed 5 and more); A's 7 hits C; A wins.
    assert num(duel) == {"A": 19, "B": 22, "C": 22}
    assert act_counts(duel) == {"A": 0, "B": 0, "C": 1}
    state = duel.state()
    assert state["decks"] == {"number": 44, "action": 31}
    assert [state["seats"][s]["streak"] for s in "ABC"] == [1, 0, 0]
    assert duel.record()["events"][0]["targets"] == {"A": "C", "B": "C"}


def test_11_3_a_blocked_or_idle_seat_is_a_valid_target() -> None:
    duel = many(3, "official", act("A", "block", "B"), rnd({"A": "B"}, A=7, C=2),
                starting_action_cards={"A": 1})  # fmt: skip
    # B sat out (official) and still drew 2 + 1 for A's 7; its block is lifted.
    assert num(duel) == {"A": 19, "B": 22, "C": 21}
    assert duel.state()["seats"]["B"]["blocked"] is False
    # A 0 on a seat that revealed nothing may take its last card.
    duel = many(3, "official", act("A", "block", "B"), rnd({"A": "B"}, A=0, C=2),
                starting_number_cards=1, number_pool=3, starting_action_cards={"A": 1})  # fmt: skip
    assert duel.state()["finish"] == "double_zero"  # B robbed to 0, C won its last card


def test_11_3_two_sevens_on_one_seat_draw_twice_and_two_zeros_test_it_again() -> None:
    duel = many(3, "official", rnd({"A": "C", "B": "C"}, A=7, B=7, C=1))
    assert num(duel)["C"] == 20 + 2 * 2 + 1  # two 7s (2 each) and the round lost
    assert act_counts(duel)["C"] == 2
    duel = many(4, "official", rnd({"A": "C", "B": "C"}, A=0, B=0, C=1, D=9),
                starting_number_cards=2, number_pool=8)  # fmt: skip
    # C holds 2 with 1 on the table: A's 0 takes its spare card, B's 0 then finds none.
    assert num(duel) == {"A": 3, "B": 2, "C": 1, "D": 1}


@pytest.mark.parametrize(
    ("targets", "match"),
    [
        (None, "A reveals a 7 and must name its target"),
        ({}, "A reveals a 7 and must name its target"),
        ({"A": "B", "C": "A"}, "targets names C, which reveals no 0 or 7"),
        ({"A": "A"}, "a seat cannot target itself"),
        ({"A": "Z"}, "is not a seat of this duel"),
        ({"A": 1}, "is not a seat of this duel"),
        ([["A", "B"]], "targets must be an object"),
        ("B", "targets must be an object"),
    ],
)
def test_11_3_every_0_and_7_names_one_opponent_and_only_they(targets: Any, match: str) -> None:
    duel = many(3)
    event = rnd(A=7, B=3, C=2)
    if targets is not None:
        event["targets"] = targets
    refused(duel, event, match)


def test_11_3_null_targets_is_illegal_and_empty_targets_without_0_or_7_is_dropped() -> None:
    refused(many(3), {"type": "round", "cards": {"A": 1, "B": 3, "C": 2}, "targets": None},
            "targets must be an object")  # fmt: skip
    duel = many(3, "official", rnd({}, A=1, B=3, C=2))
    assert duel.record()["events"][0] == {"type": "round", "cards": {"A": 1, "B": 3, "C": 2}}


def test_11_3_a_tie_above_losers_and_draws_served_in_seat_order() -> None:
    duel = many(3, "official", rnd(A=8, B=8, C=3))
    assert num(duel) == {"A": 20, "B": 20, "C": 21}
    # A deck of 1: the tied A and B shed, then A draws the last card; B and C go without.
    duel = many(3, "official", rnd(A=5, B=5, C=2), starting_number_cards=3, number_pool=10)
    assert num(duel) == {"A": 3, "B": 2, "C": 3}
    assert duel.state()["decks"]["number"] == 0


def test_11_3_paper_losers_discard_their_card_with_more_seats() -> None:
    duel = many(3, "paper", rnd(A=9, B=1, C=2))
    assert num(duel) == {"A": 19, "B": 20, "C": 20}


def test_11_3_draws_every_blocked_seat_draws_whatever_the_free_seats_did() -> None:
    duel = many(4, "arbiter", act("A", "block", "B"), rnd(A=5, C=5, D=1),
                starting_action_cards={"A": 1})  # fmt: skip
    # A and C tie, D loses, blocked B draws 1 too; all in one step.
    assert num(duel) == {"A": 20, "B": 21, "C": 20, "D": 21}
    assert not any(s["blocked"] for s in duel.state()["seats"].values())


def test_11_3_sits_out_a_blocked_seat_keeps_its_streak_and_draws_nothing() -> None:
    duel = many(3, "official", rnd(A=1, B=9, C=2), act("A", "block", "B"), rnd(A=3, C=4),
                starting_action_cards={"A": 1})  # fmt: skip
    state = duel.state()
    assert num(duel) == {"A": 22, "B": 19, "C": 20}
    assert state["seats"]["B"]["streak"] == 1 and state["seats"]["B"]["blocked"] is False


def test_11_3_a_seat_revealing_alone_wins_and_no_reveal_only_lifts_blocks() -> None:
    duel = many(3, "arbiter", act("A", "block", "B"), act("B", "block", "C"), rnd(A=4),
                starting_action_cards={"A": 1, "B": 1})  # fmt: skip
    assert num(duel) == {"A": 19, "B": 21, "C": 21}
    assert duel.state()["seats"]["A"]["streak"] == 1
    duel = many(3, "arbiter", act("A", "block", "B"), act("B", "block", "C"),
                act("C", "block", "A"), starting_action_cards={"A": 1, "B": 1, "C": 1})  # fmt: skip
    refused(duel, rnd(A=3), "no seat in play can reveal")
    duel.apply(rnd())
    state = duel.state()
    assert num(duel) == {"A": 20, "B": 20, "C": 20}
    assert not any(s["blocked"] for s in state["seats"].values()) and state["rounds"] == 1


def test_11_3_cards_must_name_exactly_the_seats_that_reveal() -> None:
    duel = many(3)
    refused(duel, rnd(A=1, B=2), r"each seat in play that is not blocked .*\(A, B, C\)")
    refused(duel, rnd(A=1, B=2, C=3, D=4), "cards names 'D'")


# -- 11.4 action cards -------------------------------------------------------------------------


def test_11_4_a_targeted_card_needs_an_opponent() -> None:
    duel = many(3, starting_action_cards={"A": 1})
    refused(duel, act("A", "draw_two"), "draw_two needs a target with more than two seats")
    refused(duel, act("A", "draw_two", "A"), "a seat cannot target itself")
    refused(duel, act("A", "draw_two", "Q"), "is not a seat of this duel")
    duel.apply(act("A", "draw_two", "C"))
    assert num(duel) == {"A": 20, "B": 20, "C": 22}


def test_11_4_each_card_is_settled_between_actor_and_target_alone() -> None:
    cards = {"A": 3, "B": 1, "C": 2}
    duel = many(3, "official", act("A", "draw_four", "C"), resp("C", "draw_four"),
                starting_action_cards=cards)  # fmt: skip
    assert num(duel) == {"A": 21, "B": 20, "C": 21}  # both draw 1, in seat order
    duel.apply(act("A", "block", "B"))
    assert awaiting(duel) == ("block_counter", "B")
    duel.apply(resp("B", "block"))
    assert num(duel) == {"A": 20, "B": 19, "C": 21}
    duel.apply(act("A", "reverse", "C"))
    # Under "after" A discards from the new hand, which holds C's action card.
    assert num(duel) == {"A": 21, "B": 19, "C": 20}
    assert act_counts(duel) == {"A": 0, "B": 0, "C": 1}


def test_11_4_truth_and_dare_shed_the_actor_and_target_only_and_the_penalty_is_theirs() -> None:
    duel = many(3, "arbiter", act("A", "truth", "C"), resp("C", "refuse"), resp("A", "five"),
                starting_action_cards={"A": 1})  # fmt: skip
    assert num(duel) == {"A": 19, "B": 20, "C": 24}


def test_11_4_color_change_every_seat_in_play_sheds_and_a_nominee_changes_nothing() -> None:
    duel = many(4, "official", forfeit("D"), starting_action_cards={"A": 2})
    refused(duel, act("A", "color_change", "A", color="red"), "cannot target itself")
    refused(duel, act("A", "color_change", "D", color="red"), "has left the game")
    duel.apply(act("A", "color_change", "B", color="red"))
    duel.apply(act("A", "color_change", color="blue"))
    assert num(duel) == {"A": 18, "B": 18, "C": 18, "D": 20}
    assert duel.record()["events"][1]["target"] == "B"


def test_11_4_dare_refused_under_forfeit_ends_the_game_for_the_actor() -> None:
    duel = many(3, "official", act("B", "dare", "C"), resp("C", "refuse"),
                starting_action_cards={"B": 1})  # fmt: skip
    state = duel.state()
    assert (state["winner"], state["finish"]) == ("B", "dare_refused")
    assert not any(s["out"] for s in state["seats"].values())


# -- 11.5 the streak bonus ---------------------------------------------------------------------


def test_11_5_opponents_draw_every_opponent_in_seat_order_each_its_full_two() -> None:
    duel = many(4, "official", rnd(A=9, B=1, C=1, D=1), rnd(A=9, B=1, C=1, D=1),
                starting_number_cards=5, number_pool=28)  # fmt: skip
    assert awaiting(duel) == ("bonus", "A")
    assert duel.state()["decks"]["number"] == 2
    duel.apply(resp("A", "opponents_draw"))
    assert num(duel) == {"A": 3, "B": 9, "C": 7, "D": 7}


# -- 11.6 reaching 0 and challenges ------------------------------------------------------------


def test_11_6_challengers_are_asked_one_at_a_time_from_the_seat_after_the_winner() -> None:
    duel = many(4, "official", rnd(A=1, B=2, C=9, D=3), starting_number_cards=1,
                starting_action_cards={"A": 1, "B": 1, "D": 1})  # fmt: skip
    # C is at 0: D first, then round to A, then B.
    assert awaiting(duel) == ("challenge", "D")
    refused(duel, resp("A", "pass"), "cannot respond now")
    duel.apply(resp("D", "pass"))
    assert awaiting(duel) == ("challenge", "A")
    duel.apply(resp("A", "pass"))
    assert awaiting(duel) == ("challenge", "B")
    duel.apply(resp("B", "pass"))
    assert (duel.state()["winner"], duel.state()["finish"]) == ("C", "shed_all")


def test_11_6_the_first_challenge_closes_the_window() -> None:
    duel = many(3, "official", rnd(A=9, B=1, C=2), resp("B", "draw_four"), starting_number_cards=1,
                starting_action_cards={"B": 1, "C": 1})  # fmt: skip
    assert num(duel)["A"] == 4 and duel.state()["status"] == "playing"
    assert act_counts(duel) == {"A": 0, "B": 0, "C": 1}


def test_11_6_two_cards_a_lone_card_makes_the_win_stand_at_once() -> None:
    duel = many(3, "arbiter", rnd(A=9, B=1, C=2), resp("B", "draw_two"), starting_number_cards=1,
                starting_action_cards={"B": 1, "C": 2})  # fmt: skip
    state = duel.state()
    assert (state["winner"], state["finish"]) == ("A", "shed_all")
    assert num(duel)["B"] == 3 and act_counts(duel)["C"] == 2


def test_11_6_an_empty_deck_opens_a_new_window_asking_every_opponent_again() -> None:
    duel = many(3, "official", rnd(A=9, B=1, C=2), resp("B", "draw_two"),
                starting_number_cards=1, number_pool=3,
                starting_action_cards={"B": 1, "C": 1})  # fmt: skip
    assert num(duel)["A"] == 0
    assert awaiting(duel) == ("challenge", "C")


def test_11_6_no_opponent_holding_a_card_or_none_means_the_win_at_once() -> None:
    duel = many(3, "official", rnd(A=9, B=1, C=2), starting_number_cards=1)
    assert duel.state()["winner"] == "A"
    duel = many(3, "official", rnd(A=9, B=1, C=2), variants=("hardcore",),
                starting_number_cards=1, starting_action_cards={"B": 2})  # fmt: skip
    assert duel.state()["winner"] == "A"


def test_11_6_two_or_more_sides_at_zero_at_once_draw_the_game() -> None:
    duel = many(4, "official", act("A", "color_change", color="red"), starting_number_cards=1,
                starting_action_cards={"A": 1})  # fmt: skip
    state = duel.state()
    assert (state["winner"], state["finish"], state["status"]) == (None, "double_zero", "finished")


# -- 11.7 referee endings ----------------------------------------------------------------------


def test_11_7_a_forfeit_takes_a_side_out_and_the_others_play_on() -> None:
    duel = many(3, "official", forfeit("C"), starting_action_cards={"A": 1, "C": 1})
    state = duel.state()
    assert state["status"] == "playing" and state["seats"]["C"]["out"] is True
    refused(duel, rnd(A=1, B=2, C=3), "must be left out")
    refused(duel, act("A", "draw_two", "C"), "has left the game")
    refused(duel, act("C", "draw_two", "A"), "has left the game and plays nothing")
    refused(duel, rnd({"A": "C"}, A=7, B=2), "has left the game")
    refused(duel, forfeit("C"), "has left the game")
    refused(duel, {"type": "adjudicate", "winner": "C"}, "has left the game")
    duel.apply(rnd({"A": "B"}, A=7, B=2))
    assert num(duel) == {"A": 19, "B": 23, "C": 20}
    duel.apply(forfeit("B"))
    state = duel.state()
    assert (state["winner"], state["finish"]) == ("A", "forfeit")


def test_11_7_time_limit_among_several_sides() -> None:
    duel = many(3, "official", rnd(A=9, B=1, C=2), {"type": "time_limit"})
    assert duel.state()["winner"] == "A"
    duel = many(3, "official", rnd(A=8, B=8, C=3), {"type": "time_limit"})
    assert (duel.state()["winner"], duel.state()["finish"]) == (None, "time_limit")
    # A departed seat is not counted, however few cards it holds.
    duel = many(3, "official", rnd(A=1, B=2, C=9), forfeit("C"), {"type": "time_limit"})
    assert duel.state()["winner"] is None


# -- 11.8 decisions when a seat leaves ---------------------------------------------------------


def test_11_8_a_counter_lapses_when_its_target_leaves_and_stays_for_others() -> None:
    duel = many(4, "official", act("A", "draw_two", "B"), forfeit("C"),
                starting_action_cards={"A": 1, "B": 1})  # fmt: skip
    assert awaiting(duel) == ("counter", "B")
    duel.apply(forfeit("B"))
    assert awaiting(duel) is None and duel.state()["status"] == "playing"
    assert num(duel)["B"] == 20 and act_counts(duel) == {"A": 0, "B": 1, "C": 0, "D": 0}


def test_11_8_a_bonus_lapses_and_the_streak_stays_frozen_at_two() -> None:
    duel = many(3, "official", rnd(A=9, B=1, C=2), rnd(A=9, B=1, C=2), forfeit("A"))
    state = duel.state()
    assert state["awaiting"] is None and state["status"] == "playing"
    assert state["seats"]["A"]["streak"] == 2 and state["seats"]["A"]["out"] is True


def test_11_8_a_penalty_lapses_when_the_refuser_leaves() -> None:
    duel = many(3, "arbiter", act("A", "truth", "B"), resp("B", "refuse"), forfeit("B"),
                starting_action_cards={"A": 1})  # fmt: skip
    assert awaiting(duel) is None and num(duel) == {"A": 19, "B": 19, "C": 20}


def test_11_8_a_departed_challenger_counts_as_a_pass() -> None:
    duel = many(4, "official", rnd(A=9, B=1, C=2, D=3), forfeit("B"), starting_number_cards=1,
                starting_action_cards={"B": 1, "C": 1})  # fmt: skip
    assert awaiting(duel) == ("challenge", "C")
    duel.apply(forfeit("C"))
    state = duel.state()
    assert (state["winner"], state["finish"]) == ("A", "shed_all")


def test_11_8_the_window_lapses_when_the_potential_winner_leaves() -> None:
    duel = many(4, "official", rnd(A=9, B=1, C=2, D=3), forfeit("A"), starting_number_cards=1,
                starting_action_cards={"B": 1})  # fmt: skip
    state = duel.state()
    assert state["status"] == "playing" and state["awaiting"] is None
    assert state["seats"]["A"]["out"] and state["seats"]["A"]["number_cards"] == 0


# -- 11.9 teams --------------------------------------------------------------------------------

AC_BD = [["A", "C"], ["B", "D"]]


@pytest.mark.parametrize(
    ("teams", "match"),
    [
        (None, "the team variant needs teams"),
        ("AC", "teams must be a list of at least two teams"),
        ([["A", "B", "C", "D"]], "teams must be a list of at least two teams"),
        ([["A"], ["B", "C", "D"]], "each team is a list of 2 or 3 seat letters"),
        ([["A", "C"], "BD"], "each team is a list of 2 or 3 seat letters"),
        ([["A", "E"], ["B", "D"]], "teams names 'E', which is not a seat"),
        ([["A", "C"], ["B", "C"]], "teams names seat C twice"),
        ([["A", "C"], ["B", "B"]], "teams names seat B twice"),
    ],
)
def test_11_9_bad_teams_are_malformed(teams: Any, match: str) -> None:
    record = Duel.new("official", seats(4)).record()
    record["variants"] = ["team"]
    if teams is not None:
        record["teams"] = teams
    with pytest.raises(MalformedRecord, match=match):
        Duel.from_record(record)


def test_11_9_every_seat_in_a_team_and_teams_only_with_the_variant() -> None:
    with pytest.raises(MalformedRecord, match="E is in none"):
        many(5, teams=AC_BD)
    record = many(4).record()
    record["teams"] = AC_BD
    with pytest.raises(MalformedRecord, match="only read with the team variant"):
        Duel.from_record(record)
    duel = many(5, teams=[["E", "A"], ["D", "C", "B"]])
    assert duel.record()["teams"] == [["E", "A"], ["D", "C", "B"]]


def test_11_9_team_mates_are_never_targets() -> None:
    duel = many(4, teams=AC_BD, starting_action_cards={"A": 1})
    refused(duel, act("A", "draw_two", "C"), "team-mate")
    refused(duel, rnd({"A": "C"}, A=7, B=1, C=2, D=3), "team-mate")


def test_11_9_a_seat_at_zero_sits_out_until_it_holds_cards_again() -> None:
    duel = many(4, "official", rnd(A=9, B=1, C=2, D=3), teams=AC_BD, starting_number_cards=1)
    assert num(duel) == {"A": 0, "B": 2, "C": 2, "D": 2}
    assert duel.state()["status"] == "playing"
    refused(duel, rnd(A=1, B=2, C=3, D=4), r"\(B, C, D\)")
    duel.apply(rnd({"B": "A"}, B=7, C=1, D=2))
    assert num(duel) == {"A": 2, "B": 1, "C": 3, "D": 3}
    assert duel.state()["seats"]["A"]["streak"] == 1  # kept while sitting out
    assert duel.legal().round_seats == ("A", "B", "C", "D")


def test_11_9_a_team_at_zero_its_first_seat_draws_and_team_mates_do_not_challenge() -> None:
    duel = many(4, "official", rnd(A=9, B=1, C=2, D=3), rnd(B=1, C=9, D=2), rnd(B=1, C=9, D=2),
                teams=AC_BD, starting_number_cards=1,
                starting_action_cards={"B": 1, "D": 1})  # fmt: skip
    assert num(duel) == {"A": 0, "B": 4, "C": 0, "D": 4}
    assert awaiting(duel) == ("bonus", "C")  # the bonus comes before the challenge
    duel.apply(resp("C", "action_card"))
    # The window opens for A, the team's first seat; C, a team-mate holding a card, is not asked.
    assert awaiting(duel) == ("challenge", "B")
    duel.apply(resp("B", "pass"))
    assert awaiting(duel) == ("challenge", "D")
    duel.apply(resp("D", "draw_two"))
    assert num(duel) == {"A": 2, "B": 4, "C": 0, "D": 4}
    duel.apply(rnd(A=9, B=1, D=2))
    # A's streak of 1 was kept while it sat out: this win is its second in a row.
    assert awaiting(duel) == ("bonus", "A")
    duel.apply(resp("A", "action_card"))
    duel.apply(rnd(A=9, B=1, D=2))
    assert awaiting(duel) == ("challenge", "B")
    duel.apply(resp("B", "pass"))
    state = duel.state()
    assert (state["winner"], state["finish"]) == ("A", "shed_all")


def test_11_9_the_winning_team_is_shown_by_its_first_seat_whatever_seat_won() -> None:
    duel = many(4, "official", act("C", "dare", "B"), resp("B", "refuse"), teams=AC_BD,
                starting_action_cards={"C": 1})  # fmt: skip
    assert (duel.state()["winner"], duel.state()["finish"]) == ("A", "dare_refused")
    duel = many(4, "official", {"type": "adjudicate", "winner": "D"}, teams=AC_BD)
    assert duel.state()["winner"] == "B"
    duel = many(4, "official", rnd(A=1, B=2, C=3, D=9), {"type": "time_limit"}, teams=AC_BD)
    assert duel.state()["winner"] == "B"  # B+D hold 21 + 19 = 40 < A+C's 42


def test_11_9_a_forfeit_takes_the_whole_team_out() -> None:
    duel = many(6, "official", forfeit("F"), teams=[["A", "D"], ["B", "E"], ["C", "F"]],
                number_pool=188)  # fmt: skip
    outs = {s: v["out"] for s, v in duel.state()["seats"].items()}
    assert outs == {"A": False, "B": False, "C": True, "D": False, "E": False, "F": True}
    duel.apply(forfeit("B"))
    assert (duel.state()["winner"], duel.state()["finish"]) == ("A", "forfeit")


def test_11_9_bonus_opponents_draw_spares_team_mates() -> None:
    duel = many(4, "official", rnd(A=9, B=1, C=1, D=1), rnd(A=9, B=1, C=1, D=1),
                resp("A", "opponents_draw"), teams=AC_BD)  # fmt: skip
    assert num(duel) == {"A": 18, "B": 24, "C": 22, "D": 24}


# -- 11.10 speed and hardcore ------------------------------------------------------------------


def test_11_10_speed_and_hardcore_set_their_switches_with_more_seats() -> None:
    duel = many(6, "official", variants=("speed",), teams=[["A", "B", "C"], ["D", "E", "F"]])
    assert num(duel) == dict.fromkeys("ABCDEF", 15)
    refused(Duel.new("official", seats(3), ["speed"], {"starting_action_cards": {"A": 1}}),
            act("A", "truth", "B"), "truth and dare are switched off")  # fmt: skip
    duel = many(3, "official", act("A", "draw_two", "B"), variants=("hardcore",),
                starting_action_cards={"A": 1, "B": 1})  # fmt: skip
    assert awaiting(duel) is None and num(duel)["B"] == 22


# -- legal moves -------------------------------------------------------------------------------


def test_legal_moves_are_described_per_seat_with_their_targets() -> None:
    duel = many(4, "official", forfeit("D"), teams=AC_BD, starting_action_cards={"A": 1})
    legal = duel.legal()
    assert legal.targets == {"A": (), "C": ()}
    duel = many(4, "official", teams=[["A", "C"], ["B", "D"]], starting_action_cards={"A": 1})
    legal = duel.legal()
    assert legal.targets == {"A": ("B", "D"), "B": ("A", "C"), "C": ("B", "D"), "D": ("A", "C")}
    assert legal.round_seats == ("A", "B", "C", "D")
    events = legal.events(include_endings=True)
    assert {"type": "action", "seat": "A", "card": "block", "target": "D"} in events
    assert not [e for e in events if e["type"] == "round"]
    for event in events:
        duel.copy().apply(event)
