"""Seat clocks of the dealt Split UNO adapter (issue 31, ONLINE.md 3 and 4): what the clock plays
for a seat whose time ran out, three clock-outs in a row as an abandonment (a forfeit, or a bot
taking the seat), a product's take-over, and all of it rebuilt the same from the events.

The adapter is pure: these tests send its ``on_deadline`` command themselves (the core's clock,
``play.clock``, sends it through the write path: tests/play/test_seat_clock_core.py). A random
property plays seeded games in which seats time out and are taken over at random moments.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.common.words import a_number
from games.split_uno import CARDS, DECISIONS, replay
from play.adapters import split_uno_dealt as dealt
from play.adapters.base import Command, Event, Refused, Viewer
from play.adapters.split_uno_dealt import (
    ADAPTER,
    DealtTable,
    clock_move,
    commands,
    conservation_problems,
    read_config,
    record,
)
from play.effect_words import localised_view
from tests.play.test_adapter_split_uno_dealt import (
    SETTINGS,
    as_json,
    assert_non_interference,
    check_events,
    from_json,
    legal_command,
    snapshot,
)

SEED = bytes(range(16))
NAMES = {"A": "Ada", "B": "Bo", "C": "Cy", "D": "Di"}


def clocked(**config: Any) -> dict[str, Any]:
    """A config with a 30 s seat clock and named seats (the log names them)."""
    return {"ruleset": "tournament", "seat_clock": 30, "names": NAMES} | config


def start(config: dict[str, Any], seats: str = "AB", seed: bytes = SEED) -> DealtTable:
    table, _ = ADAPTER.start(config, tuple(seats), seed)
    return table


def restored(table: DealtTable, config: dict[str, Any]) -> DealtTable:
    """The table rebuilt from its events read back through JSON."""
    stored = [from_json(as_json(e)) for e in table.events]
    return ADAPTER.restore(config, table.seats, table.seed, stored)


def time_out(table: DealtTable, config: dict[str, Any], seat: str) -> list[Event]:
    """The clock's command for ``seat``, applied; the table restores the same after it and
    every card is in its place."""
    command = ADAPTER.on_deadline(table, seat)
    assert command is not None and command.name == "timeout" and command.seat == seat
    events = ADAPTER.apply(table, command)
    assert events[0].by == "clock"
    assert snapshot(restored(table, config)) == snapshot(table)
    assert restored(table, config).st.clock_outs == table.st.clock_outs
    assert conservation_problems(table) == []
    return events


def lines(table: DealtTable, person: str | None, n: int) -> list[str]:
    """The log lines of event ``n`` as ``person`` (None: the public) reads them."""
    viewer = Viewer("public") if person is None else Viewer("seat", person)
    return localised_view(ADAPTER.view(table, viewer), person=person)["log"][n]["lines"]


def asked(table: DealtTable, seat: str) -> str | None:
    return next((a.what for a in ADAPTER.awaiting(table) if a.seat == seat), None)


def reach(
    config: dict[str, Any],
    seats: str,
    want: Callable[[DealtTable], str | None],
    tries: int = 300,
    steps: int = 120,
) -> tuple[DealtTable, str]:
    """The first table of random play (seeds 0, 1, …) at which ``want`` names a seat."""
    persons = [s for s in seats if s not in config.get("bots", ())]
    for k in range(tries):
        rnd = random.Random(k)
        table = start(config, seats, bytes([k % 256, k // 256]) * 8)
        for _ in range(steps):
            if ADAPTER.finished(table):
                break
            seat = want(table)
            if seat is not None:
                return table, seat
            moves = [c for c in [legal_command(table, rnd, persons)] if c and c.name != "resign"]
            if not moves:
                break
            ADAPTER.apply(table, moves[0])
    raise AssertionError("no game reached the situation")


def deciding(decision: str) -> Callable[[DealtTable], str | None]:
    def want(table: DealtTable) -> str | None:
        for seat in table.seats:
            offer = commands(table, seat).get("answer")
            if offer is not None and offer["decision"] == decision:
                return seat
        return None

    return want


# -- the config ------------------------------------------------------------------------------


@pytest.mark.parametrize(("given", "read"), [(None, None), (0, None), (10, 10), (120, 120)])
def test_a_seat_clock_of_10_to_120_seconds_or_none_is_read(given, read) -> None:
    config = {} if given is None else {"seat_clock": given}
    cfg = read_config(config, "AB")
    assert (cfg.seat_clock, cfg.on_abandon) == (read, "forfeit")
    assert read_config({"on_abandon": "bot"}, "AB").on_abandon == "bot"


@pytest.mark.parametrize("given", [9, 121, -30, "30", 30.0, True, [30]])
def test_any_other_seat_clock_is_refused_in_words(given) -> None:
    with pytest.raises(Refused, match="10 to 120 seconds"):
        read_config({"seat_clock": given}, "AB")


def test_an_abandonment_is_a_forfeit_or_a_bot_and_nothing_else() -> None:
    with pytest.raises(Refused, match="forfeit, bot"):
        read_config({"on_abandon": "draw"}, "AB")


def test_a_persons_seat_is_asked_with_the_clock_and_a_bots_without() -> None:
    table = start(clocked(bots=["C"]), "ABC")
    assert [(a.seat, a.what, a.seconds) for a in ADAPTER.awaiting(table)] == [
        ("A", "seal", 30),
        ("B", "seal", 30),
    ]
    shown = ADAPTER.view(table, Viewer("public"))
    assert (shown["seat_clock"], shown["clock_outs"]) == (30, {})
    assert ADAPTER.on_deadline(table, None) is None  # a dealt game has no deadline of its own
    assert ADAPTER.on_deadline(table, "C") is None  # a bot's seat has no clock
    plain = start({"ruleset": "tournament"}, "AB")
    assert [a.seconds for a in ADAPTER.awaiting(plain)] == [None, None]
    assert ADAPTER.on_deadline(plain, "A") is None
    before = snapshot(plain)
    with pytest.raises(Refused, match="No seat clock"):
        ADAPTER.apply(plain, Command("timeout", "A"))
    assert snapshot(plain) == before


# -- each kind of clock-out -------------------------------------------------------------------


def test_a_seal_takes_the_lowest_number_card_and_the_log_says_it_was_the_clock() -> None:
    config = clocked()
    table = start(config)
    lowest = ADAPTER.view(table, Viewer("seat", "A"))["hand"]["numbers"][0]
    assert ADAPTER.on_deadline(table, "A") == Command(
        "timeout", "A", {"command": "seal", "card": lowest}
    )
    assert clock_move(table, "A") == Command("seal", "A", {"card": lowest})
    (sealed,) = time_out(table, config, "A")
    assert sealed.public == {"type": "seal", "seat": "A"}
    assert ADAPTER.view(table, Viewer("seat", "A"))["my_seal"] == {"card": lowest, "target": None}
    n = len(table.events) - 1
    assert lines(table, "B", n) == ["Time is up: the clock plays for Ada", "Ada has sealed a card"]
    assert lines(table, "A", n) == ["Time is up: the clock plays for you", "You have sealed a card"]
    assert ADAPTER.view(table, Viewer("public"))["clock_outs"] == {"A": 1}
    assert ADAPTER.on_deadline(table, "A") is None  # sealed: asked nothing


def test_a_0_or_7_sealed_by_the_clock_targets_the_first_opponent_after_the_seat() -> None:
    config = clocked()

    def lowest_aims(table: DealtTable) -> str | None:
        for seat in "BC":  # B aims at C; C, the last seat, at A
            hand = ADAPTER.view(table, Viewer("seat", seat))["hand"]["numbers"]
            if asked(table, seat) != "seal" or hand[0] not in (0, 7):
                return None
        return "B"

    table, _ = reach(config, "ABC", lowest_aims)
    for seat, target in (("B", "C"), ("C", "A")):
        move = clock_move(table, seat)
        assert move is not None and move.args["target"] == target
        time_out(table, config, seat)
        assert ADAPTER.view(table, Viewer("seat", seat))["my_seal"]["target"] == target


def test_a_counter_and_a_block_counter_are_passed() -> None:
    config = clocked(ruleset="official", options={"starting_action_cards": {"A": 2, "C": 8}})

    def armed(table: DealtTable) -> str | None:
        held = set(ADAPTER.view(table, Viewer("seat", "C"))["hand"]["actions"])
        return "C" if {"draw_two", "block"} <= held else None

    table, _ = reach(config, "ABC", armed, steps=1)
    for card, decision in (("draw_two", "counter"), ("block", "block_counter")):
        ADAPTER.apply(table, Command("play", "C", {"card": card, "target": "A"}))
        assert commands(table, "A")["answer"]["decision"] == decision
        assert ADAPTER.on_deadline(table, "A").args == {"command": "answer", "choice": "pass"}
        (answered, *_) = time_out(table, config, "A")
        assert answered.public["engine"] == {"type": "respond", "seat": "A", "choice": "pass"}
        assert lines(table, "C", table.events.index(answered))[0] == (
            "Time is up: the clock plays for Ada"
        )
    assert table.st.clock_outs == {"A": 2}


def test_a_challenge_is_passed() -> None:
    config = clocked(options={"starting_number_cards": 3, "starting_action_cards": {"A": 3}})
    table, seat = reach(config, "AB", deciding("challenge"))
    assert clock_move(table, seat) == Command("answer", seat, {"choice": "pass"})
    (answered, *_) = time_out(table, config, seat)
    assert answered.public["engine"]["choice"] == "pass"


def test_a_streak_bonus_takes_the_first_choice_in_the_rules_order() -> None:
    config = clocked(options={"starting_number_cards": 6})
    table, seat = reach(config, "AB", deciding("bonus"))
    (answered, *_) = time_out(table, config, seat)
    assert answered.public["engine"]["choice"] == DECISIONS["bonus"][0] == "action_card"


@pytest.mark.parametrize(
    ("decision", "choice"),
    [
        ("counter", "pass"),
        ("block_counter", "pass"),
        ("challenge", "pass"),
        ("truth", "answer"),  # "completed", never "refused"
        ("dare", "complete"),
        ("penalty", "actions"),
        ("bonus", "action_card"),
    ],
)
def test_each_decision_the_clock_answers_as_online_md_3_says(
    decision: str, choice: str, monkeypatch
) -> None:
    """Truth and dare (and so a penalty) are off at dealt tables until a host switches them on:
    the clock's answer to each decision is checked on the offer the seat would have."""
    table = start(clocked())
    offer = {"decision": decision, "choices": list(DECISIONS[decision]), "other": "B"}
    monkeypatch.setattr(dealt, "_commands", lambda st, seat: {"answer": offer})
    assert clock_move(table, "A") == Command("answer", "A", {"choice": choice})


def test_a_color_change_sheds_each_seats_lowest_card_by_the_clock() -> None:
    config = clocked(options={"starting_action_cards": {"A": 32}})
    table = start(config)
    ADAPTER.apply(table, Command("play", "A", {"card": "color_change", "color": "blue"}))
    for seat in "BA":
        lowest = ADAPTER.view(table, Viewer("seat", seat))["hand"]["numbers"][0]
        (chose, *_) = time_out(table, config, seat)
        assert chose.public == {"type": "choose", "seat": seat, "what": "shed", "card": lowest}
    n = table.events.index(chose)
    assert lines(table, None, n) == [
        "Time is up: the clock plays for Ada",
        f"Ada sheds {a_number(chose.public['card'])}",
    ]


def test_a_reverse_discard_gives_up_the_first_action_card_in_the_rules_order() -> None:
    config = clocked(ruleset="official", options={"starting_action_cards": {"A": 3, "B": 4}})

    def reverse_in_hand(table: DealtTable) -> str | None:
        return (
            "A"
            if "reverse" in ADAPTER.view(table, Viewer("seat", "A"))["hand"]["actions"]
            else None
        )

    table, _ = reach(config, "AB", reverse_in_hand, steps=1)
    ADAPTER.apply(table, Command("play", "A", {"card": "reverse"}))
    assert commands(table, "A")["choose"]["what"] == "discard"
    held = ADAPTER.view(table, Viewer("seat", "A"))["hand"]["actions"]
    first = next(card for card in CARDS if card in held)
    (chose, *_) = time_out(table, config, "A")
    assert chose.public == {"type": "choose", "seat": "A", "what": "discard", "card": first}


# -- three clock-outs in a row -----------------------------------------------------------------


def run_out(table: DealtTable, config: dict[str, Any], seat: str, times: int) -> list[Event]:
    """``seat`` lets its clock run out ``times`` times; the other persons seal their lowest
    card (their own moves) when the round waits for them. The events of the last one."""
    events: list[Event] = []
    for _ in range(times):
        for _ in range(10):
            if asked(table, seat):
                break
            other = next(a.seat for a in ADAPTER.awaiting(table))
            ADAPTER.apply(table, clock_move(table, other))  # the other's own move
        events = time_out(table, config, seat)
    return events


def test_three_clock_outs_in_a_row_forfeit_the_seat_and_the_record_replays() -> None:
    config = clocked(bots=["B"])
    table = start(config)
    run_out(table, config, "A", 2)
    assert not ADAPTER.finished(table) and table.st.clock_outs == {"A": 2}
    events = run_out(table, config, "A", 1)
    assert ADAPTER.finished(table)
    (gone,) = [e for e in events if e.public["type"] == "abandon"]
    assert gone.by == "clock"
    assert gone.public["engine"] == {"type": "forfeit", "seat": "A", "reason": "abandoned"}
    state = ADAPTER.view(table, Viewer("public"))["state"]
    assert (state["winner"], state["finish"]) == ("B", "forfeit")
    n = table.events.index(gone)
    assert lines(table, None, n) == [
        "The clock played for Ada three times in a row: Ada abandons the seat",
        "Ada forfeits (abandoned): Bo wins the duel",
    ]
    assert lines(table, "A", n)[0] == (
        "The clock played for you three times in a row: you abandon your seat"
    )
    assert snapshot(restored(table, config)) == snapshot(table)
    # RULES.md 8: the record is an ordinary duel's, and the command line replays it.
    text = json.dumps(record(table))
    assert replay(json.loads(text)) == table.st.duel.state()
    done = subprocess.run(
        [sys.executable, "-m", "duels.engine", "replay", "-"],
        input=text.encode(),
        capture_output=True,
        check=True,
    )
    assert json.loads(done.stdout)["winner"] == "B"


def test_three_clock_outs_hand_the_seat_to_a_bot_where_the_table_says_so() -> None:
    config = clocked(bots=["C"], on_abandon="bot")
    table = start(config, "ABC")
    events = run_out(table, config, "A", 3)
    (taken,) = [e for e in events if e.public["type"] == "take_over"]
    assert (taken.by, taken.public["seat"]) == ("clock", "A")
    n = table.events.index(taken)
    assert lines(table, "B", n)[:2] == [
        "The clock played for Ada three times in a row: Ada abandons the seat",
        "A bot takes over Ada's seat",
    ]
    assert lines(table, "A", n)[1] == "A bot takes over your seat"
    assert ADAPTER.view(table, Viewer("public"))["bots"] == ["A", "C"]
    assert ADAPTER.taken_over(events, config) == {"A": "heuristic"}
    assert all(a.seat == "B" and a.seconds == 30 for a in ADAPTER.awaiting(table))
    with pytest.raises(Refused, match="A bot plays that seat"):
        ADAPTER.apply(table, Command("seal", "A", {"card": 1}))
    assert snapshot(restored(table, config)) == snapshot(table)
    # The game goes on with Bo alone against the bots, to its end.
    rnd = random.Random(7)
    for _ in range(400):
        if ADAPTER.finished(table):
            break
        ADAPTER.apply(table, legal_command(table, rnd, ["B"]))
    assert ADAPTER.finished(table)
    assert replay(json.loads(json.dumps(record(table)))) == table.st.duel.state()


def test_an_own_move_resets_the_count() -> None:
    config = clocked(bots=["B"])
    table = start(config)
    run_out(table, config, "A", 2)
    own = ADAPTER.apply(table, clock_move(table, "A"))  # the same card, sealed by Ada herself
    assert own[0].by == "A" and table.st.clock_outs == {}
    assert ADAPTER.view(table, Viewer("public"))["clock_outs"] == {}
    run_out(table, config, "A", 2)
    assert not ADAPTER.finished(table) and table.st.clock_outs == {"A": 2}
    assert restored(table, config).st.clock_outs == {"A": 2}


# -- both abandon (ONLINE.md 6) ----------------------------------------------------------------


def both_away(table: DealtTable, config: dict[str, Any], stop: Callable[[], bool]) -> None:
    """Nobody moves: the clock plays for every seat asked, in seat order, until ``stop``."""
    for _ in range(60):
        if stop() or ADAPTER.finished(table):
            return
        seat = ADAPTER.awaiting(table)[0].seat
        time_out(table, config, seat)
    raise AssertionError("the clocks never stopped the game")


def test_both_abandoning_stops_the_game_for_the_products_ruling() -> None:
    config = clocked(both_abandon="stop")
    table = start(config)
    both_away(table, config, lambda: ADAPTER.view(table, Viewer("public"))["phase"] == "stopped")
    shown = ADAPTER.view(table, Viewer("public"))
    assert shown["phase"] == "stopped" and not ADAPTER.finished(table)
    assert shown["state"]["winner"] is None and shown["awaiting"] == []
    assert ADAPTER.awaiting(table) == [] and ADAPTER.on_deadline(table, "A") is None
    assert commands(table, "A") == {} == commands(table, "B")
    stop = table.events[-1]
    assert (stop.by, stop.public["type"], stop.public["seats"]) == ("clock", "stop", ["A", "B"])
    assert lines(table, None, len(table.events) - 1)[0] == (
        "Both players abandoned: the game stops and waits for the organisers' ruling"
    )
    assert snapshot(restored(table, config)) == snapshot(table)
    assert conservation_problems(table) == []
    for command in (Command("resign", "A"), Command("seal", "B", {"card": 1})):
        with pytest.raises(Refused):
            ADAPTER.apply(table, command)
    # The ruling: an adjudication (or a forfeit) ends it, and the record replays.
    ADAPTER.apply(table, Command("adjudicate", "B", {"reason": "both abandoned"}))
    state = ADAPTER.view(table, Viewer("public"))["state"]
    assert (state["winner"], state["finish"]) == ("B", "adjudicated")
    assert replay(json.loads(json.dumps(record(table)))) == table.st.duel.state()


def test_a_forfeit_ends_a_stopped_game_too() -> None:
    config = clocked(both_abandon="stop")
    table = start(config)
    both_away(table, config, lambda: table.st.stopped)
    ADAPTER.apply(table, Command("forfeit", "A", {"reason": "abandoned"}))
    state = ADAPTER.view(table, Viewer("public"))["state"]
    assert (state["winner"], state["finish"]) == ("B", "forfeit")


def test_the_first_abandonment_waits_while_the_other_may_abandon_too_and_their_move_decides() -> (
    None
):
    config = clocked(both_abandon="stop")
    table = start(config)
    waiting = lambda: max(table.st.clock_outs.values(), default=0) >= 3  # noqa: E731
    both_away(table, config, waiting)
    assert not ADAPTER.finished(table) and not table.st.stopped
    gone = next(s for s, n in table.st.clock_outs.items() if n >= 3)
    other = "B" if gone == "A" else "A"
    assert table.st.clock_outs[other] == 2 and asked(table, other)
    ADAPTER.apply(table, clock_move(table, other))  # the other plays the move themself
    state = ADAPTER.view(table, Viewer("public"))["state"]
    assert ADAPTER.finished(table) and (state["winner"], state["finish"]) == (other, "forfeit")
    assert snapshot(restored(table, config)) == snapshot(table)


def test_without_the_setting_the_first_to_abandon_forfeits_as_before() -> None:
    config = clocked()
    table = start(config)
    both_away(table, config, lambda: False)
    state = ADAPTER.view(table, Viewer("public"))["state"]
    assert state["finish"] == "forfeit" and not table.st.stopped


def test_both_abandon_is_forfeit_or_stop_and_nothing_else() -> None:
    assert read_config({}, "AB").both_abandon == "forfeit"
    assert read_config({"both_abandon": "stop"}, "AB").both_abandon == "stop"
    with pytest.raises(Refused, match="forfeit, stop"):
        read_config({"both_abandon": "draw"}, "AB")


# -- a product's take-over -------------------------------------------------------------------


def test_a_take_over_returns_every_seal_and_a_bot_plays_the_seat() -> None:
    config = clocked(bots=["C"])
    table = start(config, "ABC")
    ADAPTER.apply(table, clock_move(table, "B"))  # Bo seals; Cy (a bot) sealed at once
    assert ADAPTER.view(table, Viewer("public"))["sealed"] == ["B", "C"]
    events = ADAPTER.apply(table, Command("take_over", "A"))
    assert events[0].by == "table"
    assert events[0].public == {"type": "take_over", "seat": "A", "returned": ["B", "C"]}
    assert lines(table, "B", len(table.events) - len(events)) == [
        "A bot takes over Ada's seat",
        "Every sealed card goes back to its owner",
    ]
    # The bots sealed again at once (Ada's seat among them); Bo seals again, on a new clock.
    assert {e.by for e in events[1:]} == {"bot:A", "bot:C"}
    assert [(a.seat, a.what, a.seconds) for a in ADAPTER.awaiting(table)] == [("B", "seal", 30)]
    assert ADAPTER.persons_in_play(table) == ["B"]
    with pytest.raises(Refused, match="A bot plays that seat"):
        ADAPTER.apply(table, Command("take_over", "A"))
    assert snapshot(restored(table, config)) == snapshot(table)


def test_when_no_person_is_left_the_bots_wait_for_the_product_to_end_the_table() -> None:
    config = clocked(bots=["B"])
    table = start(config)
    events = ADAPTER.apply(table, Command("take_over", "A"))
    assert [e.public["type"] for e in events] == ["take_over"]
    assert ADAPTER.persons_in_play(table) == [] and not ADAPTER.finished(table)
    assert all(a.seconds is None for a in ADAPTER.awaiting(table))
    assert ADAPTER.on_deadline(table, "A") is None
    worker = start(config | {"bots_in_worker": True})
    ADAPTER.apply(worker, Command("take_over", "A"))
    assert ADAPTER.bots_to_move(worker) == []


# -- random play with clock-outs and take-overs ------------------------------------------------

LAYOUTS: list[tuple[str, dict[str, Any]]] = [
    ("AB", clocked(bots=["B"], options={"starting_number_cards": 5})),
    ("AB", clocked(ruleset="paper", options={"starting_number_cards": 4, "number_pool": 14})),
    (
        "ABC",
        clocked(
            ruleset="official",
            bots=["C"],
            on_abandon="bot",
            options={"starting_number_cards": 4, "starting_action_cards": {"A": 2, "B": 2}},
        ),
    ),
    (
        "ABCD",
        clocked(
            ruleset="official",
            variants=["team"],
            teams=[["A", "C"], ["B", "D"]],
            bots=["D"],
            bot="random",
            on_abandon="bot",
            options={"starting_number_cards": 3, "number_pool": 20},
        ),
    ),
]


def step(table: DealtTable, rnd: random.Random, persons: Sequence[str]) -> Command | None:
    """A random moment's command: a seat's own move, its clock running out, or now and then
    a product's take-over."""
    persons = [s for s in persons if s in ADAPTER.persons_in_play(table)]
    timed = [a.seat for a in ADAPTER.awaiting(table) if a.seconds]
    roll = rnd.random()
    if persons and roll < 0.03:
        return Command("take_over", rnd.choice(persons))
    if timed and roll < 0.5:
        return ADAPTER.on_deadline(table, rnd.choice(timed))
    return legal_command(table, rnd, persons)


@SETTINGS
@given(
    layout=st.integers(0, len(LAYOUTS) - 1),
    seed=st.binary(min_size=16, max_size=16),
    moves=st.integers(0, 50),
    choice_seed=st.integers(0, 2**32),
)
def test_seats_timing_out_at_random_moments_conserve_the_cards_and_the_game_ends(
    layout: int, seed: bytes, moves: int, choice_seed: int
) -> None:
    """Conservation after every event, the restore equal to the live table after every
    command, the record replaying, non-interference for the public and each seat; and once
    every person lets the clock play, the game ends (or, every person gone to a bot, waits
    for its product to end it)."""
    seats, config = LAYOUTS[layout]
    rnd = random.Random(choice_seed)
    table = start(config, seats, seed)
    shadow = ADAPTER.restore(config, seats, seed, [])
    check_events(shadow, table.events)
    persons = [s for s in seats if s not in config.get("bots", ())]
    for k in range(moves + 400):
        if ADAPTER.finished(table) or not ADAPTER.persons_in_play(table):
            break
        if k < moves:
            command = step(table, rnd, persons)
        else:  # then nobody moves: the clocks play until the game ends
            timed = [a.seat for a in ADAPTER.awaiting(table) if a.seconds]
            command = ADAPTER.on_deadline(table, timed[0]) if timed else None
        assert command is not None, "a game going on asks a person with a clock"
        check_events(shadow, ADAPTER.apply(table, command))
        again = restored(table, config)
        assert (snapshot(again), again.st.clock_outs) == (snapshot(table), table.st.clock_outs)
    else:
        raise AssertionError("the clocks did not end the game")
    if not ADAPTER.finished(table):
        assert ADAPTER.persons_in_play(table) == [] and table.st.taken
        assert ADAPTER.bots_to_move(table) == [] or config.get("bots_in_worker")
    assert replay(json.loads(json.dumps(record(table)))) == table.st.duel.state()
    for viewer in [Viewer("public"), *(Viewer("seat", s) for s in seats)]:
        assert_non_interference(table, config, viewer, rnd)
