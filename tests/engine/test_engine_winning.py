"""RULES.md section 6: reaching 0, challenges, double zero and the referee's endings."""

from __future__ import annotations

import pytest

from games.split_uno import IllegalEvent


def _at_zero(make, E, preset="arbiter", **options):
    """A reaches 0 by winning a round from 1 card; B drew 1 and holds ``b`` action cards."""
    return make(preset, E.round(A=9, B=3), starting_number_cards=1, **options)


def test_6_no_action_card_to_challenge_the_potential_winner_wins_shed_all(make, E) -> None:
    duel = _at_zero(make, E)
    state = duel.state()
    assert (state["status"], state["winner"], state["finish"]) == ("finished", "A", "shed_all")


def test_6_a_seat_at_zero_is_offered_to_the_opponents_challenge(make, E) -> None:
    duel = _at_zero(make, E, starting_action_cards={"B": 2})
    assert duel.state()["awaiting"] == {
        "decision": "challenge",
        "seat": "B",
        "choices": ["draw_two", "draw_four", "pass"],
    }


def test_6_challenge_passed_the_potential_winner_wins(make, E) -> None:
    duel = _at_zero(make, E, starting_action_cards={"B": 2})
    duel.apply(E.resp("B", "pass"))
    assert (duel.state()["winner"], duel.state()["finish"]) == ("A", "shed_all")


@pytest.mark.parametrize(("card", "drawn"), [("draw_two", 2), ("draw_four", 4)])
def test_2_challenge_two_cards_with_two_cards_the_potential_winner_draws_and_play_goes_on(
    make, E, card, drawn
) -> None:
    duel = _at_zero(make, E, starting_action_cards={"B": 2})
    duel.apply(E.resp("B", card))
    state = duel.state()
    assert state["status"] == "playing"
    assert make.hands(duel) == ((drawn, 0), (2, 1))
    assert state["discards"]["action"] == 1


@pytest.mark.parametrize("preset", ["arbiter", "tournament", "paper"])
def test_6_two_cards_one_action_card_challenger_draws_one_keeps_it_and_the_win_stands(
    make, E, preset
) -> None:
    duel = _at_zero(make, E, preset, starting_action_cards={"B": 1})
    # The window is still offered, and draw_two is a legal respond.
    assert duel.state()["awaiting"]["decision"] == "challenge"
    effects = duel.apply(E.resp("B", "draw_two"))
    state = duel.state()
    b_before = 2 if preset != "paper" else 1  # paper: B discarded its revealed card
    assert make.hands(duel) == ((0, 0), (b_before + 1, 1))
    assert (state["winner"], state["finish"]) == ("A", "shed_all")
    assert state["discards"]["action"] == 0
    assert any(e.kind == "one_card_challenge" for e in effects)


def test_2_challenge_any_card_one_action_card_is_enough(make, E) -> None:
    duel = _at_zero(make, E, "official", starting_action_cards={"B": 1})
    duel.apply(E.resp("B", "draw_four"))
    assert duel.state()["status"] == "playing"
    assert make.hands(duel) == ((4, 0), (2, 0))


def test_2_challenge_none_the_potential_winner_wins_at_once(make, E) -> None:
    duel = _at_zero(make, E, challenge="none", starting_action_cards={"B": 3})
    assert (duel.state()["winner"], duel.state()["finish"]) == ("A", "shed_all")
    duel = _at_zero(make, E, "official", variants=("hardcore",), starting_action_cards={"B": 3})
    assert (duel.state()["winner"], duel.state()["finish"]) == ("A", "shed_all")


@pytest.mark.parametrize("preset", ["arbiter", "paper", "official"])
def test_6_an_empty_deck_leaving_the_winner_at_zero_opens_a_new_window(make, E, preset) -> None:
    # Pool 3: one card each, one left, which B draws on losing; the challenge draws nothing.
    duel = _at_zero(make, E, preset, number_pool=3, starting_action_cards={"B": 3})
    duel.apply(E.resp("B", "draw_two"))
    state = duel.state()
    assert state["seats"]["A"]["number_cards"] == 0
    assert state["awaiting"] == {
        "decision": "challenge",
        "seat": "B",
        "choices": ["draw_two", "draw_four", "pass"],
    }
    duel.apply(E.resp("B", "draw_four"))
    assert duel.state()["awaiting"]["decision"] == "challenge"
    assert duel.state()["seats"]["B"]["action_cards"] == 1
    duel.apply(E.resp("B", "draw_two"))
    # Two-card presets: the last lone card cannot challenge; any_card: it can, and then B holds
    # none, so the win stands either way.
    assert (duel.state()["winner"], duel.state()["finish"]) == ("A", "shed_all")


def test_6_double_zero_two_seats_at_zero_draw_the_duel(make, E) -> None:
    duel = make(
        "arbiter",
        E.act("A", "color_change", color="red"),
        starting_number_cards=1,
        starting_action_cards={"A": 1, "B": 2},
    )
    state = duel.state()
    assert (state["status"], state["winner"], state["finish"]) == ("finished", None, "double_zero")


def test_6_a_tie_on_an_empty_deck_can_end_in_double_zero(make, E) -> None:
    duel = make("arbiter", E.round(A=4, B=4), starting_number_cards=1, number_pool=2)
    assert duel.state()["finish"] == "double_zero"


def test_6_paper_round_loser_whose_last_card_was_discarded_is_at_zero(make, E) -> None:
    duel = make(
        "paper",
        E.act("A", "draw_two"),  # B draws the last 2 number cards: B 3, deck 0
        E.round(A=3, B=9),  # A discards its last (revealed) card and draws nothing
        starting_number_cards=1,
        number_pool=4,
        starting_action_cards={"A": 1},
    )
    state = duel.state()
    assert make.hands(duel) == ((0, 0), (2, 0))
    assert (state["winner"], state["finish"]) == ("A", "shed_all")


# -- the referee's endings ------------------------------------------------------------------


def test_6_forfeit_the_other_seat_wins(make, E) -> None:
    duel = make("arbiter", {"type": "forfeit", "seat": "A", "reason": "no_show"})
    state = duel.state()
    assert (state["status"], state["winner"], state["finish"]) == ("finished", "B", "forfeit")


def test_6_time_limit_fewest_number_cards_wins(make, E) -> None:
    duel = make("arbiter", E.round(A=1, B=3), {"type": "time_limit"})
    assert (duel.state()["winner"], duel.state()["finish"]) == ("B", "time_limit")


def test_6_time_limit_with_equal_counts_is_drawn(make, E) -> None:
    duel = make("arbiter", {"type": "time_limit", "reason": "45 minutes"})
    assert (duel.state()["winner"], duel.state()["finish"]) == (None, "time_limit")


def test_6_adjudicate_names_the_winner(make, E) -> None:
    duel = make("arbiter", {"type": "adjudicate", "winner": "B", "reason": "table talk"})
    assert (duel.state()["winner"], duel.state()["finish"]) == ("B", "adjudicated")


@pytest.mark.parametrize(
    "ending",
    [
        {"type": "forfeit", "seat": "B"},
        {"type": "time_limit"},
        {"type": "adjudicate", "winner": "A"},
    ],
)
def test_6_the_referee_may_end_a_duel_during_a_pending_decision(make, E, ending) -> None:
    duel = make("arbiter", E.act("A", "draw_two"), starting_action_cards={"A": 1, "B": 1})
    assert duel.state()["status"] == "awaiting"
    duel.apply(ending)
    state = duel.state()
    assert state["status"] == "finished"
    assert state["awaiting"] is None


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"type": "forfeit"}, "seat is missing"),
        ({"type": "forfeit", "seat": "C"}, "not a seat"),
        ({"type": "adjudicate"}, "winner is missing"),
        ({"type": "adjudicate", "winner": None}, "not a seat"),
        ({"type": "time_limit", "reason": 5}, "reason must be a string"),
        ({"type": "forfeit", "seat": "A", "reason": None}, "reason must be a string"),
    ],
)
def test_6_endings_name_seats_and_reasons_are_strings(make, event, message) -> None:
    duel = make()
    with pytest.raises(IllegalEvent, match=message):
        duel.apply(event)


def test_6_after_the_end_every_further_event_is_rejected(make, E) -> None:
    duel = make("arbiter", {"type": "forfeit", "seat": "A"})
    for event in (E.round(A=1, B=2), {"type": "time_limit"}, {"type": "forfeit", "seat": "B"}, 42):
        with pytest.raises(IllegalEvent, match="the duel is finished") as err:
            duel.apply(event)
        assert err.value.index == 2
    assert duel.state()["events"] == 1
    legal = duel.legal()
    assert (legal.status, legal.endings, legal.can_play_round) == ("finished", (), False)
    assert legal.events(include_endings=True) == []
