"""Issue 4, simulation: concrete hands in step with the engine, the simulator's readings,
determinism, the event cap, records that replay, and the ``simulate`` command line."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.split_uno import CARDS, PRESETS, Duel, EngineError, replay
from games.split_uno.hands import (
    HandsOutOfStep,
    action_composition,
    apportion,
    number_composition,
)
from games.split_uno.simulate import (
    CAP_REASON,
    Simulator,
    duel_rng,
    play_duel,
    simulate,
)
from tests.engine.budget import examples
from tests.engine.strategies import SWITCH_CHOICES

ROOT = Path(__file__).resolve().parents[2]
SEATS = {"A": "Alice", "B": "Bob"}
KIND = {card: k for k, card in enumerate(CARDS)}


# -- helpers ---------------------------------------------------------------------------------


def set_hands(sim: Simulator, cards: dict[str, tuple[list[int], list[str]]]) -> None:
    """Give each seat exactly these cards, trading with the decks so that every card of the
    pools stays somewhere (the counts must already match the engine's)."""
    hands = sim.hands
    for seat, (numbers, actions) in cards.items():
        i = hands.index[seat]
        assert len(numbers) == sum(hands.num[i]) and len(actions) == sum(hands.act[i])
        for value, count in enumerate(hands.num[i]):
            hands.deck_num.extend([value] * count)
        for kind, count in enumerate(hands.act[i]):
            hands.deck_act.extend([kind] * count)
        hands.num[i] = [0] * 10
        hands.act[i] = [0] * len(CARDS)
    for seat, (numbers, actions) in cards.items():
        i = hands.index[seat]
        for value in numbers:
            hands.deck_num.remove(value)
            hands.num[i][value] += 1
        for card in actions:
            hands.deck_act.remove(KIND[card])
            hands.act[i][KIND[card]] += 1


def rigged(
    ruleset: str,
    a: list[int],
    b: list[int],
    a_actions: list[str] = (),
    b_actions: list[str] = (),
    bots: tuple[Any, Any] = ("heuristic", "heuristic"),
    seed: int = 0,
    **options: Any,
) -> Simulator:
    """A simulator whose seats hold exactly these cards (both the same number of them)."""
    assert len(a) == len(b)
    options = {
        "starting_number_cards": len(a),
        "starting_action_cards": {"A": len(a_actions), "B": len(b_actions)},
        **options,
    }
    sim = Simulator(Duel.new(ruleset, SEATS, options=options), bots, random.Random(seed))
    set_hands(sim, {"A": (a, list(a_actions)), "B": (b, list(b_actions))})
    return sim


def conserved(sim: Simulator, spread: Any = "uniform") -> None:
    """Every concrete card of both pools is in exactly one hand, deck or discard pile."""
    rules, hands = sim.rules, sim.hands
    numbers = number_composition(rules.number_pool, spread)
    for value in range(10):
        where = sum(h[value] for h in hands.num) + hands.deck_num.count(value)
        assert where + hands.disc_num[value] == numbers[value], value
    actions = action_composition(rules.action_pool, rules.truth_dare)
    for card, k in KIND.items():
        where = sum(h[k] for h in hands.act) + hands.deck_act.count(k) + hands.disc_act[k]
        assert where == actions.get(card, 0), card


def is_legal(event: dict[str, Any], duel: Duel) -> bool:
    legal = duel.legal()
    if event["type"] == "round":
        return legal.can_play_round and event in legal.events()
    return event in legal.events()


# -- the pools ---------------------------------------------------------------------------------


def test_the_108_card_number_pool_holds_every_value_nearly_equally_often() -> None:
    assert number_composition(108) == [10, 10, 11, 11, 11, 11, 11, 11, 11, 11]
    assert number_composition(108, "uno") == [6, 11, 11, 11, 11, 11, 11, 12, 12, 12]
    assert number_composition(20, [0] * 9 + [1]) == [0] * 9 + [20]


def test_action_decks_are_seed_001s_plus_truth_and_dare_where_the_rules_allow_them() -> None:
    seed_001 = {"block": 8, "reverse": 8, "draw_two": 8, "color_change": 4, "draw_four": 4}
    assert action_composition(32, False) == seed_001
    assert action_composition(37, True) == {**seed_001, "truth": 3, "dare": 2}
    assert action_composition(32, True) == {
        "block": 7,
        "reverse": 7,
        "draw_two": 7,
        "color_change": 3,
        "draw_four": 3,
        "truth": 3,
        "dare": 2,
    }


@given(total=st.integers(0, 500), weights=st.lists(st.integers(0, 9), min_size=1, max_size=10))
def test_apportion_hands_out_the_total_within_one_of_each_share(total, weights) -> None:
    if not any(weights):
        with pytest.raises(ValueError):
            apportion(total, weights)
        return
    counts = apportion(total, weights)
    assert sum(counts) == total
    for count, weight in zip(counts, weights, strict=True):
        share = total * weight / sum(weights)
        assert share - 1 < count < share + 1


def test_a_bad_spread_is_refused() -> None:
    for spread in ("lumpy", [1] * 9, [1] * 9 + [-1], [0] * 10, [1.5] * 10):
        with pytest.raises(ValueError):
            number_composition(108, spread)
    with pytest.raises(ValueError):
        play_duel("tournament", SEATS, spread="lumpy")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_deal_matches_the_engines_counts(preset: str) -> None:
    options = {"starting_action_cards": {"A": 2}}
    duel = Duel.new(preset, SEATS, options=options)
    sim = Simulator(duel, ("random", "random"), random.Random(1))
    assert sim.hands.in_step(duel.state())
    conserved(sim)


# -- the property: hands in step after every event, for every preset ---------------------------


@st.composite
def setups(draw: st.DrawFn, preset: str) -> dict[str, Any]:
    """Random variants and switches, small pools often (so that decks run out), any bots."""
    variants = draw(st.lists(st.sampled_from(["speed", "hardcore"]), max_size=2, unique=True))
    start = draw(st.sampled_from([1, 2, 3, 5, 10, 20]))
    options: dict[str, Any] = {"starting_number_cards": start}
    if draw(st.booleans()):
        options["number_pool"] = 2 * start + draw(st.integers(0, 40))
    if draw(st.booleans()):
        options["action_pool"] = draw(st.integers(0, 12)) + 3
        options["starting_action_cards"] = {"A": draw(st.integers(0, 3))}
    for name, values in SWITCH_CHOICES:
        if draw(st.integers(0, 3)) == 0:
            options[name] = draw(st.sampled_from(values))
    if "speed" in variants:
        options["starting_number_cards"] = min(start, 15)
    return {
        "variants": variants,
        "options": options,
        "bots": draw(st.sampled_from([("random", "random"), ("heuristic", "random"),
                                      ("random", "heuristic"), ("heuristic", "heuristic")])),
        "seed": draw(st.integers(0, 2**32)),
        "spread": draw(st.sampled_from(["uniform", "uno", [1, 0, 0, 0, 0, 0, 0, 3, 0, 1]])),
    }  # fmt: skip


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_4_every_simulated_hand_has_the_engines_count_after_every_event(
    preset: str, data: st.DataObject
) -> None:
    setup = data.draw(setups(preset))
    duel = Duel.new(preset, SEATS, setup["variants"], setup["options"])
    sim = Simulator(duel, setup["bots"], random.Random(setup["seed"]), setup["spread"])
    assert sim.hands.in_step(duel.state())
    while not duel.finished and duel.event_count < 600:
        event = sim.next_event()
        assert event is not None
        assert is_legal(event, duel), event
        sim.apply(event)
        assert sim.hands.in_step(duel.state()), (event, sim.hands.counts(), duel.state())
        conserved(sim, setup["spread"])
    assert duel.finished
    assert replay(duel.record()) == duel.state()


# -- the readings --------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(30))
def test_reading_a_0_steals_a_random_card_but_never_the_revealed_one(seed: int) -> None:
    sim = rigged("tournament", [0, 3], [9, 4], seed=seed)
    sim.apply({"type": "round", "cards": {"A": 0, "B": 9}})
    # A took B's 4 (not the 9 on the table); B won with the 9 and shed it; A lost and drew 1.
    assert sim.hands.number_cards("B") == []
    a = sim.hands.number_cards("A")
    assert len(a) == 4 and 0 in a and 3 in a and 4 in a
    assert sim.hands.disc_num[9] == 1


def test_reading_a_0_takes_uniformly_among_the_other_cards() -> None:
    taken = {2: 0, 5: 0, 8: 0}
    for seed in range(600):
        sim = rigged("tournament", [0, 1, 1, 1], [9, 2, 5, 8], seed=seed)
        sim.apply({"type": "round", "cards": {"A": 0, "B": 9}})
        b = sim.hands.number_cards("B")
        assert 9 not in b  # B shed its revealed 9
        (gone,) = {2, 5, 8} - set(b)
        taken[gone] += 1
    assert all(150 < n < 250 for n in taken.values()), taken


def test_reading_a_0_against_a_blocked_seat_may_take_any_of_its_cards() -> None:
    sim = rigged("tournament", [0, 1], [9, 9], a_actions=["block"])
    sim.apply({"type": "action", "seat": "A", "card": "block"})
    sim.apply({"type": "round", "cards": {"A": 0}})
    # B revealed nothing: its 9 was taken; A won alone and shed its revealed 0.
    assert sim.hands.number_cards("A") == [1, 9]
    assert sim.hands.disc_num[0] == 1 and 9 in sim.hands.number_cards("B")


def test_reading_the_winner_sheds_its_revealed_card_and_the_loser_keeps_its_own() -> None:
    sim = rigged("arbiter", [8, 2], [5, 5])
    sim.apply({"type": "round", "cards": {"A": 8, "B": 5}})
    assert sim.hands.number_cards("A") == [2]
    b = sim.hands.number_cards("B")
    assert len(b) == 3 and b.count(5) >= 2
    assert sim.hands.disc_num == [0] * 8 + [1, 0]


def test_reading_a_paper_loser_discards_its_revealed_card() -> None:
    sim = rigged("paper", [8, 2], [5, 6])
    sim.apply({"type": "round", "cards": {"A": 8, "B": 5}})
    assert sim.hands.number_cards("A") == [2]
    b = sim.hands.number_cards("B")
    assert len(b) == 2 and 6 in b and sim.hands.disc_num[5] == 1


def test_reading_tied_seats_shed_their_revealed_cards() -> None:
    sim = rigged("tournament", [6, 1], [6, 2])
    sim.apply({"type": "round", "cards": {"A": 6, "B": 6}})
    assert sim.hands.disc_num[6] == 2
    assert 1 in sim.hands.number_cards("A") and 2 in sim.hands.number_cards("B")


def test_reading_a_chosen_shed_is_the_seats_own_choice() -> None:
    # The heuristic gives up a 0 first; the random bot any card.
    sim = rigged("tournament", [0, 9, 9], [7, 4, 3], a_actions=["color_change"])
    sim.apply({"type": "action", "seat": "A", "card": "color_change", "color": "red"})
    assert sim.hands.number_cards("A") == [9, 9]
    assert sim.hands.number_cards("B") == [4, 7]  # a 3 before its 7
    assert sim.hands.disc_act[KIND["color_change"]] == 1


def test_reading_reverse_before_discards_the_reverse_then_swaps_hands() -> None:
    sim = rigged("tournament", [1, 2], [8, 9], a_actions=["reverse", "block"])
    sim.apply({"type": "action", "seat": "A", "card": "reverse"})
    assert sim.hands.number_cards("A") == [8, 9] and sim.hands.action_cards("A") == []
    assert sim.hands.number_cards("B") == [1, 2] and sim.hands.action_cards("B") == ["block"]
    assert sim.hands.disc_act[KIND["reverse"]] == 1


def test_reading_reverse_after_sends_the_reverse_with_the_old_hand() -> None:
    sim = rigged("official", [1, 2], [8, 9], a_actions=["reverse"], b_actions=["draw_two", "dare"])
    sim.apply({"type": "action", "seat": "A", "card": "reverse"})
    # The REVERSE went to B with A's old hand; A gave up the card it chose from B's old one.
    assert sim.hands.action_cards("B") == ["reverse"]
    assert sim.hands.action_cards("A") == ["dare"]  # the heuristic keeps a DARE over a +2
    assert sim.hands.disc_act[KIND["draw_two"]] == 1
    assert sim.hands.in_step(sim.duel.state())


def test_reading_counters_and_challenges_spend_the_named_card() -> None:
    sim = rigged("tournament", [3, 4], [5, 6], a_actions=["draw_two"], b_actions=["draw_four"])
    sim.apply({"type": "action", "seat": "A", "card": "draw_two"})
    sim.apply({"type": "respond", "seat": "B", "choice": "draw_four"})
    assert sim.hands.disc_act[KIND["draw_two"]] == sim.hands.disc_act[KIND["draw_four"]] == 1
    assert sim.hands.action_cards("B") == []
    assert sim.hands.in_step(sim.duel.state())


def test_reading_a_lone_card_challenge_keeps_the_card() -> None:
    sim = rigged("tournament", [9], [2], b_actions=["draw_two"])
    sim.apply({"type": "round", "cards": {"A": 9, "B": 2}})
    assert sim.duel.state()["awaiting"]["decision"] == "challenge"
    sim.apply({"type": "respond", "seat": "B", "choice": "draw_two"})
    assert sim.duel.state()["winner"] == "A"
    assert sim.hands.action_cards("B") == ["draw_two"]
    assert sim.hands.in_step(sim.duel.state())


def test_reading_draws_follow_the_engine_until_the_deck_is_empty() -> None:
    # A pool of 6 holds one each of 4–9 (ties favour the higher values).
    sim = rigged("tournament", [4, 5], [6, 7], a_actions=["draw_four"], number_pool=6)
    sim.apply({"type": "action", "seat": "A", "card": "draw_four"})
    assert sim.duel.state()["decks"]["number"] == 0
    assert sim.hands.deck_num == [] and len(sim.hands.number_cards("B")) == 4
    conserved(sim)


def test_a_strict_hand_refuses_an_event_naming_a_card_it_lacks() -> None:
    sim = rigged("tournament", [3, 4], [5, 6], a_actions=["block"])
    with pytest.raises(HandsOutOfStep):
        sim.apply({"type": "action", "seat": "A", "card": "draw_four"})
    sim = rigged("tournament", [3, 4], [5, 6])
    sim.check = True
    with pytest.raises(HandsOutOfStep):
        sim.apply({"type": "round", "cards": {"A": 9, "B": 5}})


def test_an_illegal_event_is_refused_by_the_engine_and_changes_no_hand() -> None:
    sim = rigged("tournament", [3, 4], [5, 6])
    before = sim.hands.counts(), [h[:] for h in sim.hands.num]
    with pytest.raises(EngineError):
        sim.apply({"type": "round", "cards": {"A": 3}})
    assert (sim.hands.counts(), [h[:] for h in sim.hands.num]) == before


# -- whole duels ----------------------------------------------------------------------------------


def test_play_duel_gives_the_record_state_events_and_winner() -> None:
    played = play_duel("tournament", SEATS, ("heuristic", "random"), random.Random(7))
    assert played.record["format"] == "split-uno-duel"
    assert played.record["seats"] == SEATS
    assert played.events == played.record["events"]
    assert played.state == replay(played.record)
    assert played.state["status"] == "finished"
    assert played.winner == played.state["winner"] and played.finish == played.state["finish"]
    assert played.bots == {"A": "heuristic", "B": "random"}
    assert not played.capped and played.rounds == played.state["rounds"]
    # The events can be fed one by one to another duel, as a service that appends them would.
    other = Duel.new("tournament", SEATS)
    for event in played.events:
        other.apply(event)
    assert other.state() == played.state


def test_bots_may_be_named_by_seat_or_given_as_objects() -> None:
    from games.split_uno.bots import HeuristicBot

    by_seat = play_duel("arbiter", SEATS, {"A": "random", "B": HeuristicBot()}, random.Random(3))
    assert by_seat.bots == {"A": "random", "B": "heuristic"}
    with pytest.raises(ValueError):
        play_duel("arbiter", SEATS, ("random", "cheater"))
    with pytest.raises(ValueError):
        play_duel("arbiter", SEATS, ("random",))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_same_seed_plays_the_same_duel(preset: str) -> None:
    first = play_duel(preset, SEATS, ("heuristic", "random"), random.Random(11))
    again = play_duel(preset, SEATS, ("heuristic", "random"), random.Random(11))
    other = play_duel(preset, SEATS, ("heuristic", "random"), random.Random(12))
    assert first.record == again.record
    assert first.record != other.record


def test_the_event_cap_ends_a_duel_by_time_limit_reported_apart() -> None:
    played = play_duel("tournament", SEATS, ("random", "random"), random.Random(1), max_events=10)
    assert len(played.events) == 10 and played.capped
    assert played.events[-1] == {"type": "time_limit", "reason": CAP_REASON}
    assert played.finish == "time_limit"
    summary = simulate("tournament", 3, seed=1, max_events=10)
    assert summary.endings == {"event cap": 3}
    assert "event cap 3" in summary.text()
    with pytest.raises(ValueError):
        play_duel("tournament", SEATS, max_events=0)


def test_simulate_sums_up_wins_by_seat_and_bot_and_swaps_seats() -> None:
    summary = simulate("arbiter", 6, seed=2, bots=("heuristic", "random"), swap=True)
    data = summary.as_dict()
    assert data["duels"] == 6
    assert sum(data["wins_by_seat"].values()) == 6
    assert data["wins_by_bot"]["heuristic"]["duels"] == 6
    assert data["wins_by_bot_and_seat"]["heuristic@A"]["duels"] == 3
    assert data["wins_by_bot_and_seat"]["heuristic@B"]["duels"] == 3
    assert sum(data["endings"].values()) == 6
    assert (
        summary.as_dict()
        == simulate("arbiter", 6, seed=2, bots=("heuristic", "random"), swap=True).as_dict()
    )


def test_duel_k_of_a_run_can_be_played_again_alone(tmp_path) -> None:
    path = tmp_path / "r.jsonl"
    with path.open("w") as out:
        simulate("paper", 4, seed=9, bots=("heuristic", "random"), swap=True, records=out)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 4
    assert [r["seats"]["A"] for r in records] == ["heuristic", "random"] * 2
    again = play_duel("paper", records[3]["seats"], ("random", "heuristic"), duel_rng(9, 3))
    assert again.record == records[3]


# -- a bot playing one side only ------------------------------------------------------------------


def test_a_bot_can_play_one_seat_of_a_duel_under_way_against_a_person() -> None:
    duel = Duel.new("arbiter", SEATS)
    for event in (
        {"type": "round", "cards": {"A": 7, "B": 3}},
        {"type": "round", "cards": {"A": 9, "B": 0}},
    ):
        duel.apply(event)
    rng = random.Random(5)
    sim = Simulator(duel, {"A": "heuristic"}, rng)  # B is a person
    assert sim.hands.in_step(duel.state()) and not sim.hands.strict
    person = random.Random(6)
    while not duel.finished and duel.event_count < 400:
        awaiting = duel.state()["awaiting"]
        if awaiting is not None and awaiting["seat"] == "B":
            event = {"type": "respond", "seat": "B", "choice": person.choice(awaiting["choices"])}
        else:
            move = sim.move_for("A")
            if isinstance(move, dict):
                event = move
            else:
                # The person reveals any card: the model relabels one of B's guessed cards.
                cards = {} if move is None else {"A": move}
                if not duel.state()["seats"]["B"]["blocked"]:
                    cards["B"] = person.randrange(10)
                event = {"type": "round", "cards": cards}
        assert sim.next_event() is None or event["type"] != "round"
        sim.apply(event)
        assert sim.hands.in_step(duel.state())
    assert duel.finished


def test_next_event_waits_for_a_seat_without_a_bot() -> None:
    sim = Simulator(Duel.new("tournament", SEATS), {"A": "random"}, random.Random(1))
    assert sim.next_event() is None  # a round needs B's card
    with pytest.raises(ValueError):
        sim.move_for("B")
    with pytest.raises(ValueError):
        sim.run()


# -- the command line -----------------------------------------------------------------------------


def cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "games.split_uno", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
    )


def test_4_cli_simulate_prints_a_summary_and_is_deterministic(tmp_path) -> None:
    args = ["simulate", "--ruleset", "arbiter", "--count", "20", "--seed", "3",
            "--bot", "A:heuristic", "--bot", "B:random"]  # fmt: skip
    first, again = cli(*args), cli(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout
    assert first.stderr == b""  # not a terminal: no progress bar
    text = first.stdout.decode()
    for words in ("duels: 20", "wins by seat: A", "wins by bot: heuristic", "random",
                  "average events:", "average rounds:", "ended by:"):  # fmt: skip
        assert words in text
    data = json.loads(cli(*args, "--json").stdout)
    assert data["duels"] == 20 and data["wins_by_bot"]["heuristic"]["duels"] == 20
    assert simulate("arbiter", 20, seed=3, bots=("heuristic", "random")).as_dict() == data


def test_4_cli_records_replay_to_the_same_final_state(tmp_path) -> None:
    path = tmp_path / "duels.jsonl"
    done = cli("simulate", "--ruleset", "official", "--count", "6", "--seed", "8",
               "--bot", "A:heuristic", "--swap", "--records", str(path))  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = path.read_text().splitlines()
    assert len(lines) == 6
    for k, line in enumerate(lines):
        record = json.loads(line)
        bots = ("heuristic", "random") if k % 2 == 0 else ("random", "heuristic")
        played = play_duel("official", record["seats"], bots, duel_rng(8, k))
        assert record == played.record
        assert replay(record) == played.state
    for line in lines[:2]:
        replayed = cli("replay", "-", stdin=line.encode())
        assert replayed.returncode == 0 and replayed.stderr == b""
        assert json.loads(replayed.stdout) == replay(json.loads(line))


def test_4_cli_progress_bar_only_when_asked_or_on_a_terminal() -> None:
    done = cli("simulate", "--ruleset", "paper", "--count", "3", "--progress")
    assert done.returncode == 0
    assert b"3/3 duels" in done.stderr
    quiet = cli("simulate", "--ruleset", "paper", "--count", "3", "--no-progress")
    assert quiet.returncode == 0 and quiet.stderr == b""


def test_4_cli_simulate_passes_variants_options_and_spread() -> None:
    done = cli("simulate", "--ruleset", "official", "--count", "4", "--variant", "speed",
               "--option", "starting_number_cards=4", "--option", 'blocked_seat="draws"',
               "--spread", "uno", "--max-events", "30", "--check", "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["duels"] == 4


@pytest.mark.parametrize(
    "args",
    [
        ["--bot", "C:random"],
        ["--bot", "A:genius"],
        ["--option", "starting_number_cards"],
        ["--option", "no_such_switch=1"],
        ["--spread", "1,2,x"],
        ["--spread", "1,2"],
        ["--records", "/nonexistent/dir/r.jsonl"],
    ],
)
def test_4_cli_simulate_refuses_bad_arguments_with_one_line(args: list[str]) -> None:
    done = cli("simulate", "--ruleset", "tournament", "--count", "2", *args)
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.startswith(b"error: ") and done.stderr.count(b"\n") == 1


# -- several processes (issue 30) --------------------------------------------------------------


def _noting(seen: list[tuple[int, int]]) -> Any:
    return lambda done, count: seen.append((done, count))


@pytest.mark.parametrize(
    "run",
    [
        {"ruleset": "tournament", "count": 23, "seed": 30},
        {"ruleset": "paper", "count": 12, "seed": "x", "bots": ("heuristic", "random"),
         "swap": True},
        {"ruleset": "official", "count": 9, "seed": 4, "bots": ["random"] * 6, "swap": True,
         "options": {"number_pool": 188}, "variants": ["team"],
         "teams": [["A", "D"], ["B", "E"], ["C", "F"]]},
    ],
    ids=["random", "heuristic swapped", "six seats in teams"],
)  # fmt: skip
def test_30_several_processes_play_exactly_the_duels_of_one(run: dict[str, Any]) -> None:
    """The same seed gives the same summary and the same records, in the same order, whether
    one process plays every duel or three share them; the progress reaches every duel."""
    outputs = []
    for jobs in (1, 3):
        records, seen = io.StringIO(), []
        summary = simulate(**run, records=records, jobs=jobs, progress=_noting(seen))
        outputs.append((summary.as_dict(), summary.text(), records.getvalue()))
        assert seen[-1] == (run["count"], run["count"])
        assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    (one, one_text, one_records), (three, three_text, three_records) = outputs
    assert one == three and one_text == three_text
    assert one_records == three_records
    assert one_records.count("\n") == run["count"]


def test_30_a_bad_run_is_refused_before_any_process_starts() -> None:
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        simulate("paper", 4, jobs=0)
    with pytest.raises(EngineError, match="no_such_switch"):
        simulate("paper", 4, options={"no_such_switch": 1}, jobs=2)
    with pytest.raises(ValueError, match="max_events"):
        simulate("paper", 4, max_events=0, jobs=2)
    with pytest.raises(ValueError):
        simulate("paper", 4, bots=("random", "genius"), jobs=2)


def test_30_cli_jobs_prints_the_same_summary_and_records(tmp_path) -> None:
    outputs = []
    for jobs in ("1", "2"):
        path = tmp_path / f"jobs{jobs}.jsonl"
        done = cli("simulate", "--ruleset", "arbiter", "--count", "16", "--seed", "30", "--swap",
                   "--bot", "A:heuristic", "--records", str(path), "--jobs", jobs)  # fmt: skip
        assert done.returncode == 0, done.stderr
        outputs.append((done.stdout, path.read_bytes()))
    assert outputs[0] == outputs[1]
    refused = cli("simulate", "--ruleset", "arbiter", "--count", "4", "--jobs", "2",
                  "--option", "no_such_switch=1")  # fmt: skip
    assert refused.returncode == 2 and refused.stdout == b""
    assert refused.stderr.startswith(b"error: ") and refused.stderr.count(b"\n") == 1


def test_30_a_caller_with_threads_gets_the_same_duels_from_clean_processes() -> None:
    """With another thread running the workers do not start by forking this process (a lock
    held by that thread would be copied held); they still play the same duels."""
    from games.split_uno.simulate import _start_method

    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert _start_method() != "fork"
        assert simulate("paper", 6, seed=3, jobs=2) == simulate("paper", 6, seed=3)
    finally:
        stop.set()
        other.join()
