"""RULES.md section 8: the duel record, the state, and the engine's API around them."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from games.split_uno import (
    Duel,
    Effect,
    EngineError,
    IllegalEvent,
    MalformedRecord,
    describe,
    describe_all,
    replay,
    state_after,
)
from tests.engine.worked_example import TEAM_WORKED, TEAM_WORKED_STATE, WORKED, WORKED_STATE

SHARED = Path(__file__).resolve().parents[3] / "shared" / "examples"

# Worked through by hand: (A number, A action, A streak, B number, B action, B streak,
# number deck, action deck, number discards, action discards, awaited decision) after n events.
CHECKPOINTS = {
    0: (20, 0, 0, 20, 0, 0, 68, 32, 0, 0, None),
    1: (19, 0, 1, 23, 1, 0, 65, 31, 1, 0, None),
    2: (22, 1, 0, 22, 1, 1, 62, 30, 2, 0, None),
    3: (22, 1, 0, 22, 0, 1, 62, 30, 2, 1, "counter"),
    4: (22, 0, 0, 25, 0, 1, 59, 30, 2, 2, None),
    5: (20, 0, 1, 27, 0, 0, 58, 30, 3, 2, None),
    6: (19, 0, 2, 28, 0, 0, 57, 30, 4, 2, "bonus"),
    7: (19, 1, 0, 28, 0, 0, 57, 29, 4, 2, None),
    8: (18, 0, 0, 27, 0, 0, 57, 29, 6, 3, None),
}


def test_8_worked_example_replays_to_exactly_the_documented_state() -> None:
    assert replay(WORKED) == WORKED_STATE


@pytest.mark.skipif(not SHARED.exists(), reason="the shared examples are not beside this clone")
def test_8_worked_example_files_agree_with_the_engine() -> None:
    record = json.loads((SHARED / "duel-worked-example.json").read_text())
    state = json.loads((SHARED / "duel-worked-example.state.json").read_text())
    assert replay(record) == state


@pytest.mark.skipif(not SHARED.exists(), reason="the shared examples are not beside this clone")
def test_11_12_team_worked_example_replays_to_exactly_the_documented_state() -> None:
    record = json.loads((SHARED / "team-worked-example.json").read_text())
    state = json.loads((SHARED / "team-worked-example.state.json").read_text())
    assert replay(record) == state
    assert Duel.from_record(Duel.from_record(record).record()).state() == state


def test_11_12_team_worked_example_as_kept_in_the_tests() -> None:
    """The same game, kept here so that it is checked without the shared folder."""
    assert replay(TEAM_WORKED) == TEAM_WORKED_STATE


@pytest.mark.parametrize("n", sorted(CHECKPOINTS))
def test_8_worked_example_state_after_every_prefix(n: int) -> None:
    state = state_after(WORKED, n)
    a, b = state["seats"]["A"], state["seats"]["B"]
    got = (
        a["number_cards"], a["action_cards"], a["streak"],
        b["number_cards"], b["action_cards"], b["streak"],
        state["decks"]["number"], state["decks"]["action"],
        state["discards"]["number"], state["discards"]["action"],
        state["awaiting"] and state["awaiting"]["decision"],
    )  # fmt: skip
    assert got == CHECKPOINTS[n]
    assert state["events"] == n


def test_8_incremental_application_equals_a_full_replay_at_every_prefix() -> None:
    duel = Duel.new("tournament", WORKED["seats"])
    for n, event in enumerate(WORKED["events"], start=1):
        duel.apply(event)
        assert duel.state() == state_after(WORKED, n)
        assert Duel.from_record(duel.record()).state() == duel.state()


def test_8_state_has_every_key_always() -> None:
    state = Duel.new("arbiter", {"A": "Alice", "B": "Bob"}).state()
    assert set(state) == {
        "ruleset", "status", "events", "rounds", "decks", "discards", "seats", "awaiting",
        "winner", "finish",
    }  # fmt: skip
    assert set(state["decks"]) == set(state["discards"]) == {"number", "action"}
    assert set(state["seats"]["A"]) == {
        "name", "number_cards", "action_cards", "streak", "blocked",
    }  # fmt: skip
    assert (state["status"], state["awaiting"], state["winner"], state["finish"]) == (
        "playing", None, None, None,
    )  # fmt: skip


def test_8_state_is_a_fresh_dict_every_call() -> None:
    duel = Duel.new("arbiter", {"A": "Alice", "B": "Bob"})
    state = duel.state()
    state["seats"]["A"]["number_cards"] = 0
    assert duel.state()["seats"]["A"]["number_cards"] == 20


def test_8_state_ruleset_is_the_preset_name_whatever_the_variants() -> None:
    duel = Duel.new("official", {"A": "Alice", "B": "Bob"}, ["speed"])
    assert duel.state()["ruleset"] == "official"


# -- malformed records ----------------------------------------------------------------------


def _with(**changes):
    record = copy.deepcopy(WORKED)
    for key, value in changes.items():
        if value is _DROP:
            del record[key]
        else:
            record[key] = value
    return record


_DROP = object()


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ([], "must be a JSON object"),
        ("split-uno-duel", "must be a JSON object"),
        (None, "must be a JSON object"),
        (_with(format="split-uno"), "unknown format"),
        (_with(format=_DROP), "unknown format"),
        (_with(version=2), "unsupported version 2"),
        (_with(version="1"), "unsupported version"),
        (_with(version=True), "unsupported version"),
        (_with(version=1.0), "unsupported version"),
        (_with(version=_DROP), "unsupported version"),
        (_with(ruleset="house"), "unknown ruleset"),
        (_with(ruleset=_DROP), "ruleset is missing"),
        (_with(variants=None), "variants may be left out but not null"),
        (_with(options=None), "options may be left out but not null"),
        (_with(options=[]), "options must be an object"),
        (_with(variants=["team"]), "the team variant needs teams"),
        (_with(seats=_DROP), "seats must be an object"),
        (_with(seats=[]), "seats must be an object"),
        (_with(seats={}), "seats must be an object"),
        (_with(seats={"A": "Alice"}), "needs two seats"),
        (_with(seats={"A": "Alice", "C": "Cy"}), "first letters A, B"),
        (_with(seats={"a": "Alice", "b": "Bob"}), "first letters A, B"),
        (_with(seats={"B": "Bob", "C": "Cy"}), "first letters A, B"),
        (_with(seats={"A": "Alice", "B": ""}), "seat B needs a non-empty name"),
        (_with(seats={"A": None, "B": "Bob"}), "seat A needs a non-empty name"),
        (_with(seats={"A": "a", "B": "b", "C": "c"}), "3 seats but this ruleset allows at most 2"),
        (_with(seats={"A": "Alice", "B": " \t\u3000"}), "seat B needs a non-empty name"),
        (_with(teams=[["A"], ["B"]]), "teams is only read with the team variant"),
        (_with(teams=None), "teams is only read with the team variant"),
        (_with(seats={k: k for k in "ABCDEFG"}), "2 to 6 seats"),
        (_with(events=_DROP), "events must be a list"),
        (_with(events={}), "events must be a list"),
        (_with(events=None), "events must be a list"),
    ],
)
def test_8_a_malformed_record_is_refused_as_a_whole(record, message) -> None:
    with pytest.raises(MalformedRecord, match=message):
        Duel.from_record(record)
    with pytest.raises(MalformedRecord):
        Duel.load(record)


def test_8_variants_and_options_may_be_left_out_and_unknown_top_level_fields_ignored() -> None:
    record = _with(variants=_DROP, options=_DROP, note="played at table 3", id=17)
    assert replay(record) == WORKED_STATE


def test_8_seats_order_is_the_letter_order_whatever_the_key_order() -> None:
    duel = Duel.new("arbiter", {"B": "Bob", "A": "Alice"})
    assert list(duel.state()["seats"]) == ["A", "B"]
    assert duel.seats == {"A": "Alice", "B": "Bob"}


# -- illegal events -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (None, "an event must be an object"),
        ([], "an event must be an object"),
        ("round", "an event must be an object"),
        (7, "an event must be an object"),
        ({}, "unknown event type null"),
        ({"type": "draw"}, "unknown event type 'draw'"),
        ({"type": ["round"]}, "unknown event type a list"),
        ({"type": "round"}, "cards must be an object"),
        ({"type": "round", "cards": [7, 3]}, "cards must be an object"),
        ({"type": "action", "card": "block"}, "seat is missing"),
        ({"type": "action", "seat": 0, "card": "block"}, "not a seat"),
        ({"type": "respond", "seat": "A"}, "choice must be a string"),
    ],
)
def test_8_an_unreadable_event_is_illegal_and_says_what_is_allowed(event, message) -> None:
    duel = Duel.new("arbiter", {"A": "Alice", "B": "Bob"})
    with pytest.raises(IllegalEvent, match=message) as err:
        duel.apply(event)
    assert err.value.index == 1
    assert duel.state()["events"] == 0
    assert isinstance(err.value, EngineError)


def test_8_an_illegal_event_n_leaves_the_state_after_n_minus_1_events() -> None:
    record = _with(events=WORKED["events"][:4] + [{"type": "round", "cards": {"A": 11, "B": 1}}])
    with pytest.raises(IllegalEvent) as err:
        Duel.from_record(record)
    assert err.value.index == 5
    assert err.value.located().startswith("event 5: round: A's card must be a whole number")
    duel, error = Duel.load(record)
    assert error is not None and error.index == 5
    assert duel.state() == state_after(WORKED, 4)
    assert duel.state()["events"] == 4


def test_8_fields_an_event_does_not_use_are_ignored() -> None:
    duel = Duel.new(
        "arbiter", {"A": "Alice", "B": "Bob"}, options={"starting_action_cards": {"A": 1}}
    )
    duel.apply({"type": "round", "cards": {"A": 1, "B": 2}, "note": "slow", "seat": "Z"})
    duel.apply({"type": "action", "seat": "A", "card": "draw_two", "color": "red", "x": [1]})
    assert duel.record()["events"] == [
        {"type": "round", "cards": {"A": 1, "B": 2}},
        {"type": "action", "seat": "A", "card": "draw_two"},
    ]


def test_8_round_targets_with_two_seats_is_not_read() -> None:
    """Section 8: with two seats a round's ``targets`` is not read (and so not kept)."""
    duel = Duel.new("arbiter", {"A": "Alice", "B": "Bob"})
    for targets in ({"A": "A"}, "B", None, {"C": "A"}, {"A": "B", "B": "A"}):
        duel.apply({"type": "round", "cards": {"A": 7, "B": 7}, "targets": targets})
    plain = Duel.new("arbiter", {"A": "Alice", "B": "Bob"})
    for _ in range(5):
        plain.apply({"type": "round", "cards": {"A": 7, "B": 7}})
    assert duel.state() == plain.state()
    assert duel.record() == plain.record()


# -- the API around records -----------------------------------------------------------------


def test_8_record_is_plain_json_and_round_trips() -> None:
    duel = Duel.from_record(WORKED)
    record = duel.record()
    assert record == WORKED
    again = json.loads(json.dumps(record))
    assert Duel.from_record(again).state() == duel.state()
    record["events"][0]["cards"]["A"] = 0
    assert duel.record() == WORKED  # a fresh copy every time


def test_8_duel_new_accepts_none_for_variants_and_options() -> None:
    duel = Duel.new("paper", {"A": "Alice", "B": "Bob"}, None, None)
    assert duel.record()["variants"] == [] and duel.record()["options"] == {}


def test_8_state_after_counts_from_zero_to_the_number_of_events() -> None:
    assert state_after(WORKED, 0)["events"] == 0
    assert state_after(WORKED, 9) == WORKED_STATE
    for n in (-1, 10, "3", 2.0, None):
        with pytest.raises(EngineError, match="from 0 to 9"):
            state_after(WORKED, n)  # type: ignore[arg-type]


def test_8_copy_is_independent() -> None:
    duel = Duel.from_record(_with(events=WORKED["events"][:2]))
    twin = duel.copy()
    twin.apply({"type": "round", "cards": {"A": 5, "B": 5}})
    assert duel.state()["events"] == 2
    assert twin.state()["events"] == 3
    assert len(duel.record()["events"]) == 2


def test_8_finished_property_and_repr() -> None:
    duel = Duel.from_record(WORKED)
    assert duel.finished is True
    assert duel.event_count == 9
    assert "finished" in repr(duel)


# -- legal moves ----------------------------------------------------------------------------


def test_legal_at_the_start_every_round_and_no_action() -> None:
    legal = Duel.new("arbiter", {"A": "Alice", "B": "Bob"}).legal()
    assert legal.status == "playing"
    assert legal.awaiting is None
    assert (legal.can_play_round, legal.round_seats) == (True, ("A", "B"))
    assert legal.actions == {"A": (), "B": ()}
    assert legal.endings == ("forfeit", "time_limit", "adjudicate")
    events = legal.events()
    assert len(events) == 100
    assert {"type": "round", "cards": {"A": 0, "B": 9}} in events
    assert len(legal.events(include_endings=True)) == 100 + 2 + 1 + 2


def test_legal_actions_list_every_card_of_the_preset_for_a_seat_holding_one() -> None:
    duel = Duel.new(
        "arbiter", {"A": "Alice", "B": "Bob"}, options={"starting_action_cards": {"B": 1}}
    )
    legal = duel.legal()
    assert legal.actions["A"] == ()
    assert legal.actions["B"] == (
        "block", "reverse", "color_change", "draw_two", "draw_four", "truth", "dare",
    )  # fmt: skip
    actions = [e for e in legal.events() if e["type"] == "action"]
    assert len(actions) == 6 + 4  # color_change once per colour
    for event in legal.events(include_endings=True):
        duel.copy().apply(event)


def test_legal_while_awaiting_only_the_offered_responds() -> None:
    duel = Duel.from_record(_with(events=WORKED["events"][:3]))
    legal = duel.legal()
    assert legal.status == "awaiting"
    assert legal.awaiting == {
        "decision": "counter",
        "seat": "A",
        "choices": ["draw_two", "draw_four", "pass"],
    }
    assert (legal.can_play_round, legal.round_seats) == (False, ())
    assert legal.events() == [
        {"type": "respond", "seat": "A", "choice": c} for c in ("draw_two", "draw_four", "pass")
    ]
    assert duel.legal_events(include_endings=True)[3:] == [
        {"type": "forfeit", "seat": "A"},
        {"type": "forfeit", "seat": "B"},
        {"type": "time_limit"},
        {"type": "adjudicate", "winner": "A"},
        {"type": "adjudicate", "winner": "B"},
    ]


def test_legal_round_seats_leave_a_blocked_seat_out() -> None:
    duel = Duel.new(
        "arbiter", {"A": "Alice", "B": "Bob"}, options={"starting_action_cards": {"A": 1}}
    )
    duel.apply({"type": "action", "seat": "A", "card": "block"})
    legal = duel.legal()
    assert legal.round_seats == ("A",)
    assert len([e for e in legal.events() if e["type"] == "round"]) == 10


# -- effects in words -----------------------------------------------------------------------


def test_effects_describe_what_happened_in_plain_english() -> None:
    duel = Duel.new("tournament", {"A": "Alice", "B": "Bob"})
    effects = duel.apply({"type": "round", "cards": {"A": 7, "B": 3}})
    assert all(isinstance(e, Effect) for e in effects)
    lines = describe_all(effects, duel.seats)
    assert "Bob draws 2 number cards and 1 action card (Alice's 7)" in lines
    assert lines == duel.describe(effects)
    seven = next(e for e in effects if e.kind == "draw" and e.cause == "seven")
    assert seven.as_dict() == {
        "kind": "draw", "seat": "B", "other": None, "number": 2, "action": 1, "card": None,
        "cause": "seven", "source": "A", "short": False,
    }  # fmt: skip
    assert describe(seven, {"A": "Ann", "B": "Ben"}) == seven.text({"A": "Ann", "B": "Ben"})
    assert seven.text() == "B draws 2 number cards and 1 action card (A's 7)"


def test_effects_every_event_of_the_worked_example_reads_as_lines() -> None:
    duel = Duel.new("tournament", WORKED["seats"])
    texts = [duel.describe(duel.apply(event)) for event in WORKED["events"]]
    assert texts[2] == [
        "Bob plays +2 on Alice",
        "Waiting for Alice: counter with +2 or +4, or pass",
    ]
    assert texts[3] == ["Alice counters with +4", "Bob draws 3 number cards (draw battle)"]
    assert "Bob takes 1 number card from Alice (Bob's 0)" in texts[4]
    assert texts[6][0] == "Alice claims the streak bonus: 1 action card (streak back to 0)"
    assert texts[8] == ["Bob forfeits (did not show up): Alice wins the duel"]


def test_effects_every_kind_is_reachable_and_reads_as_one_line() -> None:
    from games.split_uno.effects import _TEXTS

    def play(preset: str, events: list[dict], **options: object) -> list[Effect]:
        duel = Duel.new(preset, {"A": "Alice", "B": "Bob"}, options=options)
        out: list[Effect] = []
        for event in events:
            out.extend(duel.apply(event))
        return out

    def act(seat: str, card: str, **extra: str) -> dict:
        return {"type": "action", "seat": seat, "card": card, **extra}

    def resp(seat: str, choice: str) -> dict:
        return {"type": "respond", "seat": seat, "choice": choice}

    def rnd(**cards: int) -> dict:
        return {"type": "round", "cards": cards}

    effects = [
        *play("arbiter", [rnd(A=0, B=7), rnd(A=5, B=5), rnd(A=9, B=1), rnd(A=9, B=1),
                          resp("A", "opponents_draw")]),
        *play("arbiter", [act("A", "block"), act("B", "block"), rnd(), act("A", "block"),
                          rnd(A=3)], starting_action_cards={"A": 2, "B": 1}),
        *play("official", [act("A", "reverse"), act("B", "block"), rnd(B=4)],
              starting_action_cards={"A": 1, "B": 1}),
        *play("paper", [act("A", "block"), resp("B", "block"), act("A", "truth"),
                        resp("B", "refuse"), resp("A", "actions"), act("A", "dare"),
                        resp("B", "refuse")], starting_action_cards={"A": 2, "B": 1}),
        *play("arbiter", [act("A", "draw_four"), resp("B", "draw_two"),
                          act("A", "color_change", color="blue"),
                          {"type": "time_limit", "reason": "clock"}],
              starting_action_cards={"A": 2, "B": 1}),
        *play("arbiter", [rnd(A=9, B=1), resp("B", "draw_two")], starting_number_cards=1,
              starting_action_cards={"B": 1}),
    ]  # fmt: skip
    # Section 11.7 and 11.8: a seat leaves while a decision it is part of is pending.
    three = Duel.new("official", {"A": "Alice", "B": "Bob", "C": "Cy"},
                     options={"starting_action_cards": {"A": 1, "B": 1}})  # fmt: skip
    for event in (act("A", "draw_two", target="B"), {"type": "forfeit", "seat": "B"}):
        effects.extend(three.apply(event))
    assert {e.kind for e in effects} == set(_TEXTS)
    for effect in effects:
        line = effect.text({"A": "Alice", "B": "Bob"})
        assert line and "\n" not in line and "None" not in line


@pytest.mark.parametrize(
    ("decision", "words"),
    [
        ("counter", "counter with +2 or +4, or pass"),
        ("block_counter", "counter with BLOCK, or pass"),
        ("truth", "answer Bob's TRUTH, or refuse"),
        ("dare", "complete Bob's DARE, or refuse"),
        (
            "penalty",
            "penalty for Bob's refusal: Alice draws 2 action cards and Bob 2 number "
            "cards, or Bob draws 5 number cards",
        ),
        ("bonus", "bonus: Alice draws 1 action card, or Bob draws 2 number cards"),
        ("challenge", "challenge Bob, at 0 number cards, with +2 or +4, or pass"),
    ],
)
def test_effects_a_decision_says_what_each_choice_does(decision: str, words: str) -> None:
    asked = Effect("await", "A", "B", card=decision)
    assert asked.text({"A": "Alice", "B": "Bob"}) == f"Waiting for Alice: {words}"


def test_effects_the_bonus_asked_in_a_duel_names_both_seats() -> None:
    duel = Duel.new("tournament", {"A": "Alice", "B": "Bob"})
    duel.apply({"type": "round", "cards": {"A": 9, "B": 3}})
    lines = duel.describe(duel.apply({"type": "round", "cards": {"A": 9, "B": 3}}))
    assert lines[-1] == (
        "Waiting for Alice: bonus: Alice draws 1 action card, or Bob draws 2 number cards"
    )
