"""Property tests over long random duels for every preset and random option overrides.

After every event, legal or not: conservation (RULES.md section 1), no negative count, a refused
event changes nothing, the state is plain JSON; at the end, incremental application equals a
full replay of the record at every prefix checked.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note_path
from hypothesis import strategies as st

from games.split_uno import (
    CARDS,
    COLORS,
    DECISIONS,
    EVENT_TYPES,
    FINISHES,
    PRESETS,
    SWITCHES,
    Duel,
    EngineError,
    replay,
    resolve_rules,
    state_after,
)
from tests.engine.budget import examples
from tests.engine.strategies import teams_of

SEATS = {"A": "Alice", "B": "Bob"}
CHOICE_WORDS = sorted({c for choices in DECISIONS.values() for c in choices})

COUNT_RANGES = {"max_seats": (2, 6), "starting_number_cards": (1, 25)}


def switch_values(name: str) -> st.SearchStrategy[Any]:
    domain = SWITCHES[name]
    if domain == "bool":
        return st.booleans()
    if name == "starting_number_cards":
        # Short hands reach 0, and so the challenges, within a random duel's length.
        return st.integers(1, 4) | st.integers(*COUNT_RANGES[name])
    if name in COUNT_RANGES:
        return st.integers(*COUNT_RANGES[name])
    if name in ("number_pool", "action_pool"):
        return st.just(None)  # chosen below, once the dealt cards are known
    return st.sampled_from(domain)  # type: ignore[arg-type]


@st.composite
def setups(draw: st.DrawFn, preset: str) -> tuple[str, list[str], dict[str, Any]]:
    """A preset, variants in some order, and overrides of random switches; the pools are kept
    big enough to deal, and small often enough that the decks run out."""
    variants = draw(st.lists(st.sampled_from(["speed", "hardcore"]), max_size=2))
    names = draw(st.lists(st.sampled_from(sorted(SWITCHES)), unique=True, max_size=6))
    if draw(st.booleans()) and "starting_number_cards" not in names:
        names.append("starting_number_cards")
    options: dict[str, Any] = {}
    for name in names:
        value = draw(switch_values(name))
        if value is not None:
            options[name] = value
    if draw(st.integers(0, 2)):
        options["starting_action_cards"] = {
            seat: draw(st.integers(0, 3)) for seat in draw(st.sets(st.sampled_from("AB")))
        }
    dealt = resolve_rules(preset, variants, options)
    if "number_pool" in names:
        options["number_pool"] = 2 * dealt.starting_number_cards + draw(st.integers(0, 30))
    if "action_pool" in names:
        given_out = sum(options.get("starting_action_cards", {}).values())
        options["action_pool"] = given_out + draw(st.integers(0, 12))
    return preset, variants, options


JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.floats(allow_nan=True)
    | st.text(max_size=4)
    | st.sampled_from([*EVENT_TYPES, *CARDS, *CHOICE_WORDS, "A", "B", "C"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def near_miss(types: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Events built from the right words, often wrong: some legal, most refused."""
    return st.fixed_dictionaries(
        {"type": st.sampled_from(types)},
        optional={
            "cards": st.dictionaries(
                st.sampled_from(["A", "B", "C"]),
                st.integers(-1, 10) | st.sampled_from([7.0, "3", True, None]),
                max_size=3,
            ),
            "seat": st.sampled_from(["A", "B", "C", None, 0]),
            "card": st.sampled_from([*CARDS, "skip", None]),
            "choice": st.sampled_from([*CHOICE_WORDS, "maybe", None]),
            "color": st.sampled_from([*COLORS, "pink", None]),
            "winner": st.sampled_from(["A", "B", "C", None]),
            "target": st.sampled_from(["A", "B", "C", None]),
            "targets": st.dictionaries(st.sampled_from("ABC"), st.sampled_from("ABC"), max_size=2),
            "reason": st.text(max_size=3) | st.none(),
        },
    )


NEAR_MISS = near_miss(["round", "action", "respond", "skip"])
ENDING_MISS = near_miss(["forfeit", "time_limit", "adjudicate"])


def legal_move(data: st.DataObject, duel: Duel) -> dict[str, Any]:
    """A legal event, with action cards and 0s and 7s more likely than uniform picks give;
    with more than two seats every target is drawn from the legal ones (section 11)."""
    legal = duel.legal()
    many = len(legal.seats) > 2
    if legal.awaiting is not None:
        choice = data.draw(st.sampled_from(legal.awaiting["choices"]))
        return {"type": "respond", "seat": legal.awaiting["seat"], "choice": choice}
    holders = [seat for seat, cards in legal.actions.items() if cards]
    if holders and data.draw(st.integers(0, 4)) == 0:
        seat = data.draw(st.sampled_from(holders))
        card = data.draw(st.sampled_from(legal.actions[seat]))
        event = {"type": "action", "seat": seat, "card": card}
        if card == "color_change":
            event["color"] = data.draw(st.sampled_from(COLORS))
        if many and (card != "color_change" or data.draw(st.booleans())):
            event["target"] = data.draw(st.sampled_from(legal.targets[seat]))
        return event
    card = st.integers(0, 9) | st.sampled_from([0, 7, 9])
    cards = {seat: data.draw(card) for seat in legal.round_seats}
    event = {"type": "round", "cards": cards}
    if many:
        event["targets"] = {
            seat: data.draw(st.sampled_from(legal.targets[seat]))
            for seat, value in cards.items()
            if value in (0, 7)
        }
    return event


def check_invariants(
    duel: Duel, pools: tuple[int, int], teams: list[list[str]] | None = None
) -> None:
    state = duel.state()
    assert json.loads(json.dumps(state)) == state
    seats = state["seats"].values()
    for kind, key, pool in (
        ("number", "number_cards", pools[0]),
        ("action", "action_cards", pools[1]),
    ):
        held = [s[key] for s in seats]
        assert state["decks"][kind] + sum(held) + state["discards"][kind] == pool
        assert min(held) >= 0 and state["decks"][kind] >= 0 and state["discards"][kind] >= 0
    status, awaiting = state["status"], state["awaiting"]
    assert all(s["streak"] in (0, 1, 2) for s in seats)
    playing = [s for s in seats if not s.get("out")]
    if status == "playing":
        assert awaiting is None and state["winner"] is None and state["finish"] is None
        assert all(s["streak"] <= 1 for s in playing)
        if teams:
            # Section 11.9: a seat may be at 0 while its team holds cards.
            for team in teams:
                held = [state["seats"][seat] for seat in team]
                assert held[0].get("out") or sum(s["number_cards"] for s in held) >= 1
        else:
            assert all(s["number_cards"] >= 1 for s in playing)
    elif status == "awaiting":
        assert awaiting["choices"] == list(DECISIONS[awaiting["decision"]])
        asked = state["seats"][awaiting["seat"]]
        assert not asked.get("out")
        if awaiting["decision"] in ("counter", "block_counter", "challenge"):
            assert asked["action_cards"] >= 1
        if awaiting["decision"] == "bonus":
            assert asked["streak"] == 2
    else:
        assert awaiting is None
        assert state["finish"] in FINISHES
        assert state["winner"] is None or not state["seats"][state["winner"]].get("out")
        if teams and state["winner"] is not None:
            assert any(state["winner"] == min(team) for team in teams)
    assert duel.legal().status == status


def play_random_duel(
    data: st.DataObject,
    preset: str,
    made: tuple[str, list[str], dict[str, Any], dict[str, str], Any] | None = None,
) -> None:
    if made is None:
        preset, variants, options = data.draw(setups(preset))
        seats, teams = SEATS, None
    else:
        preset, variants, options, seats, teams = made
    duel = Duel.new(preset, seats, variants, options, teams=teams)
    near_miss_events = NEAR_MISS if made is None else MANY_NEAR_MISS
    rules = duel.rules
    pools = (rules.number_pool, rules.action_pool)
    states = [duel.state()]
    check_invariants(duel, pools, teams)
    seen: set[str] = set()
    for _ in range(data.draw(st.integers(1, 150))):
        roll = data.draw(st.integers(0, 59))
        if roll < 44 and not duel.finished:
            effects = duel.apply(legal_move(data, duel))  # must never be refused
            assert all(isinstance(line, str) for line in duel.describe(effects))
        elif roll == 44 and made is not None and not duel.finished:
            # A side leaves (section 11.7), whatever is pending: play goes on, or it ends.
            seat = data.draw(st.sampled_from(duel.legal().in_play))
            duel.describe(duel.apply({"type": "forfeit", "seat": seat}))
            seen.add("forfeit")
        else:
            # Endings are rare, so that duels run long enough to empty the decks.
            event = data.draw(
                ENDING_MISS if roll == 59 else near_miss_events if roll < 56 else JUNK
            )
            before_state, before_record = duel.state(), duel.record()
            try:
                duel.describe(duel.apply(event))
            except EngineError as error:
                assert duel.state() == before_state
                assert duel.record() == before_record
                assert str(error) and "\n" not in str(error)
                assert getattr(error, "index", None) == before_state["events"] + 1
                continue
        check_invariants(duel, pools, teams)
        states.append(duel.state())
        awaiting = states[-1]["awaiting"]
        if awaiting:
            seen.add(awaiting["decision"])
        if states[-1]["decks"]["number"] == 0:
            seen.add("empty number deck")
    # Which paths the duel went through (pytest --hypothesis-show-statistics).
    for what in sorted(seen):
        note_path(what)
    note_path(f"finish: {states[-1]['finish']}")
    record = json.loads(json.dumps(duel.record()))
    assert len(record["events"]) == duel.state()["events"] == len(states) - 1
    assert replay(record) == duel.state()
    for n in {0, len(states) // 2, len(states) - 1, data.draw(st.integers(0, len(states) - 1))}:
        assert state_after(record, n) == states[n]


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_1_8_random_duels_conserve_cards_refuse_cleanly_and_replay_identically(
    preset: str, data: st.DataObject
) -> None:
    play_random_duel(data, preset)


@st.composite
def many_setups(
    draw: st.DrawFn,
) -> tuple[str, list[str], dict[str, Any], dict[str, str], list[list[str]] | None]:
    """Three to six seats, teams or not, on any preset with random overrides (section 11)."""
    n = draw(st.integers(3, 6))
    letters = "ABCDEF"[:n]
    preset = draw(st.sampled_from(sorted(PRESETS)))
    variants = draw(st.lists(st.sampled_from(["speed", "hardcore"]), max_size=2))
    names = draw(st.lists(st.sampled_from(sorted(SWITCHES)), unique=True, max_size=6))
    options: dict[str, Any] = {}
    for name in names:
        value = draw(switch_values(name))
        if value is not None and name != "max_seats":
            options[name] = value
    options["max_seats"] = draw(st.integers(n, 6))
    if draw(st.booleans()):
        options["starting_number_cards"] = draw(st.integers(1, 4))
    if draw(st.integers(0, 2)):
        options["starting_action_cards"] = {
            seat: draw(st.integers(0, 3)) for seat in draw(st.sets(st.sampled_from(letters)))
        }
    dealt = resolve_rules(preset, variants, options)
    options["number_pool"] = n * dealt.starting_number_cards + draw(st.integers(0, 30))
    given_out = sum(options.get("starting_action_cards", {}).values())
    options["action_pool"] = given_out + draw(st.integers(0, 12))
    teams = None
    if n >= 4 and draw(st.booleans()):
        teams = draw(teams_of(letters))
        variants = [*variants, "team"]
    seats = {seat: f"Player {seat}" for seat in letters}
    return preset, variants, options, seats, teams


MANY_NEAR_MISS = st.fixed_dictionaries(
    {"type": st.sampled_from(["round", "action", "respond", "forfeit", "adjudicate"])},
    optional={
        "cards": st.dictionaries(st.sampled_from("ABCDEFG"), st.integers(-1, 10), max_size=6),
        "targets": st.dictionaries(st.sampled_from("ABCDEFG"), st.sampled_from("ABCDEFG"))
        | st.none()
        | st.just([]),
        "seat": st.sampled_from([*"ABCDEFG", None]),
        "card": st.sampled_from([*CARDS, None]),
        "target": st.sampled_from([*"ABCDEFG", None]),
        "choice": st.sampled_from([*CHOICE_WORDS, None]),
        "color": st.sampled_from(COLORS),
        "winner": st.sampled_from([*"ABCDEFG", None]),
    },
)


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_11_random_games_of_three_to_six_seats_and_teams_keep_every_invariant(
    data: st.DataObject,
) -> None:
    made = data.draw(many_setups())
    note_path(f"{len(made[3])} seats" + (" in teams" if made[4] else ""))
    play_random_duel(data, made[0], made)


@settings(max_examples=examples(150), deadline=None)
@given(record=JUNK | st.builds(dict, st.just({}))
       | st.fixed_dictionaries({}, optional={
           "format": st.just("split-uno-duel") | JUNK,
           "version": st.just(1) | JUNK,
           "ruleset": st.sampled_from(sorted(PRESETS)) | JUNK,
           "variants": st.lists(st.sampled_from(["speed", "hardcore", "team"])) | JUNK,
           "options": st.dictionaries(st.sampled_from(sorted(SWITCHES)), JUNK, max_size=2) | JUNK,
           "seats": st.just(SEATS) | JUNK,
           "events": st.lists(NEAR_MISS | JUNK, max_size=6) | JUNK,
       }))  # fmt: skip
def test_8_any_json_value_as_a_record_is_read_or_refused_with_an_engine_error(record) -> None:
    try:
        duel = Duel.from_record(record)
    except EngineError as error:
        assert str(error) and "\n" not in str(error)
        return
    assert duel.state()["events"] == len(record["events"])


@settings(max_examples=examples(200), deadline=None)
@given(event=JUNK | NEAR_MISS | ENDING_MISS)
def test_8_any_json_value_as_an_event_is_applied_or_refused_with_an_engine_error(event) -> None:
    for duel in (
        Duel.new("arbiter", SEATS, options={"starting_action_cards": {"A": 1, "B": 1}}),
        Duel.new("official", SEATS, options={"starting_action_cards": {"A": 1}}),
    ):
        before = duel.state()
        try:
            duel.apply(event)
        except EngineError:
            assert duel.state() == before
