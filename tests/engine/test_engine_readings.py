"""RULES.md section 10, and the readings the engine chose where RULES.md is silent.

Each reading is written down in docs/rules.md ("Readings") under the same words.
"""

from __future__ import annotations

import pytest

from games.split_uno import Duel, IllegalEvent, MalformedRecord

SEATS = {"A": "Alice", "B": "Bob"}

# -- section 10 -----------------------------------------------------------------------------


def test_10_the_zeros_steal_is_compulsory(make, E) -> None:
    duel = make()
    duel.apply({"type": "round", "cards": {"A": 0, "B": 5}, "steal": False})
    assert make.hands(duel)[0][0] == 22  # 20 + 1 stolen + 1 drawn for the loss


@pytest.mark.parametrize("preset", ["arbiter", "paper", "official"])
def test_10_truth_and_dare_shed_when_played_in_every_preset(make, E, preset) -> None:
    for card in ("truth", "dare"):
        duel = make(preset, E.act("A", card), starting_action_cards={"A": 1})
        assert duel.state()["status"] == "awaiting"
        assert make.hands(duel)[0] == (19, 0)


def test_10_a_duel_is_won_at_zero_number_cards_even_holding_action_cards(make, E) -> None:
    duel = make("paper", E.round(A=9, B=3), starting_number_cards=1, starting_action_cards={"A": 3})
    state = duel.state()
    assert (state["winner"], state["finish"]) == ("A", "shed_all")
    assert state["seats"]["A"]["action_cards"] == 3


def test_10_color_change_names_no_single_opponent(make, E) -> None:
    duel = make("official", starting_action_cards={"A": 1})
    effects = duel.apply(E.act("A", "color_change", color="green"))
    play = effects[0]
    assert (play.kind, play.other, play.cause) == ("play", None, "green")


def test_10_streak_less_than_5_never_binds_since_a_bonus_resets_it_at_2(make, E) -> None:
    duel = make("arbiter", E.round(A=9, B=3), E.round(A=9, B=3))
    with pytest.raises(IllegalEvent, match="bonus"):
        duel.apply(E.round(A=9, B=3))
    assert make.seat(duel, "A")["streak"] == 2


# -- readings where RULES.md is silent ------------------------------------------------------


def test_reading_a_record_without_events_is_malformed() -> None:
    record = {"format": "split-uno-duel", "version": 1, "ruleset": "arbiter", "seats": SEATS}
    with pytest.raises(MalformedRecord, match="events must be a list"):
        Duel.from_record(record)


def test_reading_a_seat_name_is_any_non_empty_string_and_names_may_repeat() -> None:
    """Section 8 now asks for one character that is not white space (``str.isspace``)."""
    duel = Duel.new("arbiter", {"A": " x ", "B": " x "})
    assert duel.seats == {"A": " x ", "B": " x "}
    for blank in (" ", "\t\n", "\u00a0", "\u2003"):
        with pytest.raises(MalformedRecord, match="seat B needs a non-empty name"):
            Duel.new("arbiter", {"A": "Alice", "B": blank})
    # Not white space for str.isspace, hence a name: a zero-width space.
    assert Duel.new("arbiter", {"A": "Alice", "B": "\u200b"}).seats["B"] == "\u200b"


def test_reading_a_repeated_variant_is_applied_again_and_changes_nothing() -> None:
    duel = Duel.new("arbiter", SEATS, ["speed", "speed"])
    assert duel.rules.starting_number_cards == 15
    assert duel.record()["variants"] == ["speed", "speed"]


def test_reading_the_record_keeps_only_the_fields_the_engine_reads(make, E) -> None:
    duel = make("arbiter", starting_action_cards={"A": 1})
    duel.apply({"type": "forfeit", "seat": "B", "reason": "late", "by": "referee 7"})
    assert duel.record()["events"] == [{"type": "forfeit", "seat": "B", "reason": "late"}]


def test_reading_a_paper_blocked_seat_in_a_blocked_round_only_draws(make, E) -> None:
    duel = make("paper", E.act("A", "block"), starting_action_cards={"A": 1})
    duel.apply({"type": "round", "cards": {"A": 5}})
    assert make.hands(duel)[1] == (21, 0)


def test_reading_an_already_blocked_target_is_still_offered_the_block_counter(make, E) -> None:
    duel = make(
        "official",
        E.act("A", "block"),
        E.resp("B", "pass"),
        E.act("A", "block"),
        starting_action_cards={"A": 2, "B": 1},
    )
    assert duel.state()["awaiting"]["decision"] == "block_counter"
    assert make.seat(duel, "B")["blocked"] is True


def test_reading_an_ending_during_a_bonus_leaves_the_streak_shown_as_2(make, E) -> None:
    duel = make("arbiter", E.round(A=9, B=3), E.round(A=9, B=3), {"type": "time_limit"})
    state = duel.state()
    assert state["seats"]["A"]["streak"] == 2
    assert (state["awaiting"], state["winner"]) == (None, "A")


def test_reading_time_limit_compares_number_cards_only(make, E) -> None:
    duel = make("arbiter", {"type": "time_limit"}, starting_action_cards={"A": 3})
    assert duel.state()["winner"] is None


def test_reading_a_reason_when_given_must_be_a_string_not_null(make) -> None:
    duel = make()
    with pytest.raises(IllegalEvent, match="reason must be a string"):
        duel.apply({"type": "adjudicate", "winner": "A", "reason": None})


def test_reading_an_event_after_the_end_is_refused_before_it_is_read(make) -> None:
    duel = make("arbiter", {"type": "time_limit"})
    with pytest.raises(IllegalEvent, match="the duel is finished"):
        duel.apply("not even an event")


def test_reading_target_is_checked_on_action_events_only(make, E) -> None:
    duel = make()
    duel.apply({"type": "round", "cards": {"A": 1, "B": 2}, "target": "nobody"})
    assert "target" not in duel.record()["events"][0]


def test_reading_starting_action_cards_may_name_every_seat_or_none() -> None:
    assert Duel.new("arbiter", SEATS, options={"starting_action_cards": {}}).state()["decks"] == {
        "number": 68,
        "action": 32,
    }


def test_reading_the_one_card_challenge_on_an_empty_deck_draws_nothing_and_the_win_stands(
    make, E
) -> None:
    duel = make(
        "arbiter",
        E.round(A=9, B=3),
        E.resp("B", "draw_four"),
        starting_number_cards=1,
        number_pool=3,
        starting_action_cards={"B": 1},
    )
    assert make.hands(duel) == ((0, 0), (2, 1))
    assert duel.state()["finish"] == "shed_all"


def test_reading_str_of_an_illegal_event_is_the_reason_and_located_adds_its_number(make) -> None:
    duel = make()
    with pytest.raises(IllegalEvent) as err:
        duel.apply({"type": "nap"})
    assert str(err.value) == err.value.reason
    assert err.value.located() == f"event 1: {err.value.reason}"
    assert IllegalEvent("x").located() == "x"


def test_reading_an_internal_error_becomes_an_illegal_event_and_changes_nothing(
    make, E, monkeypatch
) -> None:
    from games.split_uno import duel as duel_module

    duel = make("arbiter", E.round(A=9, B=3))
    before, record = duel.state(), duel.record()

    def broken(t, ev, fx):
        # A rule with a bug: it changes the table, then fails. (Swapped in through the table
        # of rules by event type: a compiled engine calls its functions directly.)
        t.num[0] = -99
        raise ZeroDivisionError("boom")

    monkeypatch.setitem(duel_module._APPLY, "round", broken)
    with pytest.raises(IllegalEvent, match="could not apply this event.*ZeroDivisionError") as err:
        duel.apply(E.round(A=5, B=4))
    assert err.value.index == 2
    monkeypatch.undo()
    assert duel.state() == before
    assert duel.record() == record


def test_docs_rules_md_cites_only_tests_that_exist() -> None:
    """docs/rules.md names a test for every reading; each must exist in tests/engine."""
    import re
    from pathlib import Path

    here = Path(__file__).resolve().parent
    doc = (here.parents[1] / "docs" / "rules.md").read_text()
    cited = set(re.findall(r"`(test_\w+)`", doc))
    defined = {
        name
        for path in here.glob("test_engine_*.py")
        for name in re.findall(r"^def (test_\w+)", path.read_text(), re.M)
    }
    assert len(cited) > 20
    assert cited <= defined, sorted(cited - defined)
