"""RULES.md section 2: presets, switches, their domains, variants and options."""

from __future__ import annotations

import pytest

from games.split_uno import PRESETS, SWITCHES, VARIANTS, Duel, MalformedRecord, resolve_rules

SEATS = {"A": "Alice", "B": "Bob"}

TABLE = {
    "arbiter": dict(
        max_seats=2, starting_number_cards=20, number_pool=108, action_pool=32, truth_dare=True,
        loser_discards_revealed=False, blocked_seat="draws", block_counter=False,
        reverse_discard="before", truth_dare_shed="both", dare_refused="penalty",
        challenge="two_cards", draw_counter=True,
    ),
    "tournament": dict(
        max_seats=2, starting_number_cards=20, number_pool=108, action_pool=32, truth_dare=False,
        loser_discards_revealed=False, blocked_seat="draws", block_counter=False,
        reverse_discard="before", truth_dare_shed="both", dare_refused="penalty",
        challenge="two_cards", draw_counter=True,
    ),
    "paper": dict(
        max_seats=2, starting_number_cards=20, number_pool=108, action_pool=37, truth_dare=True,
        loser_discards_revealed=True, blocked_seat="draws", block_counter=True,
        reverse_discard="before", truth_dare_shed="actor", dare_refused="forfeit",
        challenge="two_cards", draw_counter=True,
    ),
    "official": dict(
        max_seats=6, starting_number_cards=20, number_pool=108, action_pool=32, truth_dare=True,
        loser_discards_revealed=False, blocked_seat="sits_out", block_counter=True,
        reverse_discard="after", truth_dare_shed="actor", dare_refused="forfeit",
        challenge="any_card", draw_counter=True,
    ),
}  # fmt: skip


@pytest.mark.parametrize("preset", sorted(TABLE))
def test_2_presets_are_the_table_of_section_2(preset: str) -> None:
    assert PRESETS[preset] == TABLE[preset]
    rules = resolve_rules(preset)
    for name, value in TABLE[preset].items():
        assert getattr(rules, name) == value


def test_2_every_switch_has_a_domain_and_every_preset_sets_every_switch() -> None:
    for switches in PRESETS.values():
        assert set(switches) == set(SWITCHES)


VALID = {
    "max_seats": [2, 3, 6],
    "starting_number_cards": [1, 15, 20, 54],
    "number_pool": [0, 40, 108, 500],
    "action_pool": [0, 32, 37],
    "truth_dare": [True, False],
    "loser_discards_revealed": [True, False],
    "blocked_seat": ["draws", "sits_out"],
    "block_counter": [True, False],
    "reverse_discard": ["before", "after"],
    "truth_dare_shed": ["both", "actor"],
    "dare_refused": ["penalty", "forfeit"],
    "challenge": ["two_cards", "any_card", "none"],
    "draw_counter": [True, False],
}

INVALID = {
    "max_seats": [1, 7, 0, "2", 2.0, True, None],
    "starting_number_cards": [0, -1, 20.0, "20", False, None],
    "number_pool": [-1, 108.0, "108", True, [108]],
    "action_pool": [-1, 1.5, "32", None],
    "truth_dare": [1, 0, "true", None],
    "loser_discards_revealed": [1, "false", None],
    "blocked_seat": ["DRAWS", "sit_out", 1, None, True],
    "block_counter": [0, "yes", None],
    "reverse_discard": ["Before", "middle", None],
    "truth_dare_shed": ["none", "Both", 2],
    "dare_refused": ["forfeits", "penalties", None],
    "challenge": ["two-cards", "any", "", None, False],
    "draw_counter": [1, "true", None],
}


def test_2_the_tests_cover_every_switch() -> None:
    assert set(VALID) == set(SWITCHES) == set(INVALID)


@pytest.mark.parametrize(("name", "value"), [(n, v) for n, values in VALID.items() for v in values])
def test_2_options_override_one_switch_by_name_within_its_domain(name: str, value: object) -> None:
    rules = resolve_rules("arbiter", options={name: value})
    assert getattr(rules, name) == value
    for other, default in PRESETS["arbiter"].items():
        if other != name:
            assert getattr(rules, other) == default


@pytest.mark.parametrize(
    ("name", "value"), [(n, v) for n, values in INVALID.items() for v in values]
)
def test_2_a_value_outside_its_switch_domain_is_malformed(name: str, value: object) -> None:
    with pytest.raises(MalformedRecord, match=name):
        resolve_rules("arbiter", options={name: value})


def test_2_an_unknown_option_is_malformed() -> None:
    with pytest.raises(MalformedRecord, match="unknown option 'colour'"):
        resolve_rules("arbiter", options={"colour": "red"})


def test_2_an_unknown_preset_is_malformed() -> None:
    with pytest.raises(MalformedRecord, match="unknown ruleset 'house'"):
        resolve_rules("house")
    with pytest.raises(MalformedRecord, match="unknown ruleset"):
        resolve_rules(None)  # type: ignore[arg-type]


def test_2_variant_speed_starts_with_15_cards_and_no_truth_or_dare() -> None:
    rules = resolve_rules("arbiter", ["speed"])
    assert rules.starting_number_cards == 15
    assert rules.truth_dare is False
    duel = Duel.new("arbiter", SEATS, ["speed"])
    assert duel.state()["decks"] == {"number": 108 - 30, "action": 32}
    assert duel.state()["seats"]["A"]["number_cards"] == 15


def test_2_variant_hardcore_has_no_challenge_and_no_draw_counter() -> None:
    rules = resolve_rules("official", ["hardcore"])
    assert rules.challenge == "none"
    assert rules.draw_counter is False
    assert VARIANTS == {
        "speed": {"starting_number_cards": 15, "truth_dare": False},
        "hardcore": {"challenge": "none", "draw_counter": False},
        "team": {},
    }


def test_2_variants_apply_in_order_before_options() -> None:
    assert resolve_rules("paper", ["speed"], {"truth_dare": True}).truth_dare is True
    assert (
        resolve_rules("paper", ["speed"], {"starting_number_cards": 10}).starting_number_cards == 10
    )
    both = resolve_rules("official", ["speed", "hardcore"])
    assert (both.starting_number_cards, both.truth_dare, both.challenge) == (15, False, "none")


def test_2_variant_team_changes_no_switch() -> None:
    """Section 2: ``team`` declares teams (11.9) and sets no switch, max_seats included."""
    assert resolve_rules("official", ["team"]) == resolve_rules("official")
    assert resolve_rules("arbiter", ["team"]).max_seats == 2


@pytest.mark.parametrize("variants", [["turbo"], [1], "speed", {"speed": True}, [None]])
def test_2_an_unknown_variant_or_a_variants_value_that_is_not_a_list_is_malformed(
    variants: object,
) -> None:
    with pytest.raises(MalformedRecord, match="variant"):
        resolve_rules("arbiter", variants)


def test_2_deck_after_the_deal_is_pool_minus_starting_cards_per_seat() -> None:
    duel = Duel.new("arbiter", SEATS, options={"number_pool": 50, "starting_number_cards": 7})
    assert duel.state()["decks"] == {"number": 36, "action": 32}


def test_2_a_negative_number_deck_after_the_deal_is_malformed() -> None:
    with pytest.raises(MalformedRecord, match="number pool of 39 cannot deal 20"):
        Duel.new("arbiter", SEATS, options={"number_pool": 39})
    Duel.new("arbiter", SEATS, options={"number_pool": 40})  # exactly empty is fine


def test_2_starting_action_cards_are_dealt_from_the_action_deck() -> None:
    duel = Duel.new("tournament", SEATS, options={"starting_action_cards": {"A": 1, "B": 2}})
    state = duel.state()
    assert state["decks"] == {"number": 68, "action": 29}
    assert state["seats"]["A"]["action_cards"] == 1
    assert state["seats"]["B"]["action_cards"] == 2


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"A": -1}, "non-negative"),
        ({"A": 1.0}, "non-negative"),
        ({"A": True}, "non-negative"),
        ({"C": 1}, "not a seat"),
        ([1, 0], "object"),
        ({"A": 20, "B": 13}, "action pool of 32 cannot deal 33"),
    ],
)
def test_2_bad_starting_action_cards_are_malformed(value: object, message: str) -> None:
    with pytest.raises(MalformedRecord, match=message):
        Duel.new("arbiter", SEATS, options={"starting_action_cards": value})


def test_2_pools_are_plain_counts_independent_of_truth_dare() -> None:
    duel = Duel.new("paper", SEATS, options={"truth_dare": False})
    assert duel.state()["decks"]["action"] == 37


@pytest.mark.parametrize("max_seats", [2, 3, 4, 5, 6])
def test_2_max_seats_two_to_six_allows_a_two_seat_duel(max_seats: int) -> None:
    duel = Duel.new("official", SEATS, options={"max_seats": max_seats})
    assert duel.rules.max_seats == max_seats


def test_2_official_allows_up_to_six_seats_and_other_presets_two() -> None:
    three = {"A": "Ann", "B": "Bo", "C": "Cy"}
    assert Duel.new("official", three).state()["decks"]["number"] == 108 - 60
    with pytest.raises(MalformedRecord, match="3 seats but this ruleset allows at most 2"):
        Duel.new("tournament", three)
    assert len(Duel.new("tournament", three, options={"max_seats": 3}).seats) == 3


def test_2_rules_as_dict_is_plain_json() -> None:
    rules = resolve_rules("arbiter", options={"starting_action_cards": {"B": 1}})
    as_dict = rules.as_dict()
    assert as_dict["starting_action_cards"] == {"B": 1}
    assert as_dict["challenge"] == "two_cards"
