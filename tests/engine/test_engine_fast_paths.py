"""The checked path's cheaper mechanics (docs/performance.md, "Engine") behave exactly as the
plain ones: events the simulator hands over are still validated and kept only when already
canonical, a failed event restores every value of the table, shared decisions are equal to
fresh ones, and the random stream (which duel a seed gives) is pinned."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.split_uno import CARDS, COLORS, PRESETS, Duel, IllegalEvent, resolve_rules
from games.split_uno import duel as duel_module
from games.split_uno.bots import Bot, RandomBot
from games.split_uno.events import already_canonical, parse_event
from games.split_uno.simulate import Simulator, duel_rng, play_duel
from games.split_uno.state import Pending, pending
from tests.engine.budget import examples

SEATS = {"A": "Alice", "B": "Bob"}


def shape(value: Any) -> Any:
    """A value with its dicts' key order and every type spelled out, to compare exactly."""
    if isinstance(value, dict):
        return (type(value), [(type(k), k, shape(v)) for k, v in value.items()])
    return (type(value), value)


# -- events handed over by the simulator ------------------------------------------------------

_junk = st.sampled_from([None, True, False, -1, 10, 3.0, "7", "", [], {}, "A", "C", "pass"])
_seat = st.one_of(st.sampled_from(["A", "B"]), _junk)
#: Keys of a round's cards: the seats, or anything else a dict can hold.
_key = st.one_of(st.sampled_from(["A", "B"]), st.sampled_from([None, True, 0, "", "C", 3.0]))
_value = st.one_of(st.integers(-2, 11), _junk)


@st.composite
def events(draw: st.DrawFn) -> Any:
    """Events near the canonical forms: right and wrong types, fields, orders and extras."""
    kind = draw(st.sampled_from(["round", "action", "respond", "forfeit", "time_limit", None]))
    fields: list[tuple[Any, Any]] = [("type", kind)]
    if kind == "round" or draw(st.booleans()):
        cards = draw(st.lists(st.tuples(_key, _value), max_size=3))
        fields.append(("cards", dict(cards) if draw(st.integers(0, 9)) else draw(_junk)))
    if kind in ("action", "respond") or draw(st.integers(0, 3)) == 0:
        fields.append(("seat", draw(_seat)))
    if kind == "action" or draw(st.integers(0, 5)) == 0:
        fields.append(("card", draw(st.one_of(st.sampled_from(CARDS), _junk))))
        if draw(st.booleans()):
            fields.append(("color", draw(st.one_of(st.sampled_from(COLORS), _junk))))
    if kind == "respond" or draw(st.integers(0, 5)) == 0:
        fields.append(("choice", draw(st.one_of(st.sampled_from(["pass", "draw_two"]), _junk))))
    if draw(st.integers(0, 9)) == 0:
        fields.append((draw(st.sampled_from(["target", "targets", "extra"])), draw(_seat)))
    if draw(st.integers(0, 4)) == 0:
        fields = draw(st.permutations(fields))
    return dict(fields) if draw(st.integers(0, 30)) else draw(_junk)


@st.composite
def nearly_canonical(draw: st.DrawFn) -> dict[Any, Any]:
    """A canonical round, action card or respond, then perhaps one thing changed about it."""
    kind = draw(st.sampled_from(["round", "action", "color_change", "respond"]))
    fields: list[tuple[Any, Any]] = [("type", kind if kind != "color_change" else "action")]
    if kind == "round":
        cards = [("A", draw(st.integers(0, 9))), ("B", draw(st.integers(0, 9)))]
        change = draw(st.integers(0, 3))
        if change == 1:
            cards.reverse()
        elif change == 2:
            cards[draw(st.integers(0, 1))] = (draw(_key), draw(_value))
        elif change == 3:
            cards.pop(draw(st.integers(0, 1)))
        fields.append(("cards", dict(cards)))
    else:
        fields.append(("seat", draw(st.sampled_from(["A", "B"]))))
        if kind == "action":
            fields.append(("card", draw(st.sampled_from([c for c in CARDS if c != kind]))))
        elif kind == "color_change":
            fields += [("card", kind), ("color", draw(st.sampled_from(COLORS)))]
        else:
            fields.append(("choice", draw(st.sampled_from(["pass", "draw_four", "refuse"]))))
    change = draw(st.integers(0, 4))
    if change == 1:
        fields = draw(st.permutations(fields))
    elif change == 2:
        k = draw(st.integers(0, len(fields) - 1))
        fields[k] = (fields[k][0], draw(_junk))
    elif change == 3:
        fields.append((draw(st.sampled_from(["target", "targets", "color", "extra"])), "B"))
    elif change == 4:
        fields.pop(draw(st.integers(1, len(fields) - 1)))
    return dict(fields)


@settings(max_examples=examples(2000), deadline=None)
@given(event=st.one_of(nearly_canonical(), events()))
def test_an_event_is_taken_as_it_is_only_when_parse_event_would_return_it_unchanged(
    event: Any,
) -> None:
    setup = Duel.new("arbiter", SEATS)._setup
    if already_canonical(event, setup):
        assert shape(parse_event(event, setup)) == shape(event)


def test_the_simulators_own_events_are_recognised_as_canonical() -> None:
    """The cheaper reading is the one the simulator's events actually take."""
    for preset in PRESETS:
        played = play_duel(preset, SEATS, ("random", "heuristic"), duel_rng(7, 0))
        setup = played.duel._setup
        for event in played.duel._events:
            every_seat = event["type"] != "round" or len(event["cards"]) == len(SEATS)
            if event["type"] in ("round", "action", "respond") and every_seat:
                assert already_canonical(event, setup), event


class Careless(Bot):
    """Reveals whatever it is given, legal or not."""

    name = "careless"

    def __init__(self, value: Any) -> None:
        self.value = value

    def free(self, sim: Simulator, i: int) -> Any:
        return self.value

    def shed(self, sim: Simulator, i: int) -> int:
        return sim.hands.random_card(i)


@pytest.mark.parametrize("value", [10, -1, 99])
def test_a_bots_bad_move_is_refused_with_the_same_words_and_changes_nothing(value: int) -> None:
    message = f"A's card must be a whole number from 0 to 9 (a JSON integer), not {value}"
    sim = Simulator(Duel.new("tournament", SEATS), (Careless(value), RandomBot()), random.Random(3))
    before = sim.duel.state(), sim.hands.counts(), [h[:] for h in sim.hands.num]
    with pytest.raises(IllegalEvent) as refused:
        sim.run()
    assert message in str(refused.value) and refused.value.index == 1
    assert (sim.duel.state(), sim.hands.counts(), [h[:] for h in sim.hands.num]) == before
    with pytest.raises(IllegalEvent) as plain:
        Duel.new("tournament", SEATS).apply({"type": "round", "cards": {"A": value, "B": 3}})
    assert str(plain.value) == str(refused.value)


def test_step_and_run_play_the_same_duel() -> None:
    """``step`` hands its events over as any caller would (copied); ``run`` hands them over."""
    for preset in PRESETS:
        stepped = Simulator(Duel.new(preset, SEATS), ("heuristic", "random"), duel_rng(5, 1))
        while stepped.step() is not None:
            pass
        ran = play_duel(preset, SEATS, ("heuristic", "random"), duel_rng(5, 1))
        assert stepped.duel.record() == ran.record
        assert stepped.duel.state() == ran.state


# -- atomicity -------------------------------------------------------------------------------


def _vandal(error: BaseException) -> Any:
    """A rule that changes every value of the table, rebinds its lists and more, then fails."""

    def rule(t: Any, ev: Any, fx: list[Any]) -> None:
        t.num[0] = -99
        t.act = [7, 7]
        t.streak[1] = 5
        t.blocked[0] = True
        t.deck_n = t.deck_a = t.disc_n = t.disc_a = -1
        t.pending = Pending("bonus", 1)
        t.winner, t.finish, t.rounds, t.events = 0, "forfeit", 999, 999
        # Values of the right types: the compiled engine refuses others at the assignment.
        t.seats, t.order, t.rules = ("X",), (), resolve_rules("official")
        fx.append(("draw", "A"))
        raise error

    return rule


def _snapshot_of(duel: Duel) -> Any:
    t = duel._table
    return (duel.state(), duel.record(), repr(duel), t.seats, t.order, t.rules, t.setup)


@pytest.mark.parametrize(
    "error",
    [ZeroDivisionError("boom"), IllegalEvent("refused late"), KeyboardInterrupt()],
    ids=["bug", "late refusal", "interrupt"],
)
def test_a_failed_event_leaves_every_value_of_the_table_as_it_was(
    error: BaseException, monkeypatch: pytest.MonkeyPatch
) -> None:
    played = play_duel("paper", SEATS, ("random", "random"), duel_rng(11, 2), max_events=30)
    record = played.record
    duel = Duel.from_record({**record, "events": record["events"][:-1]})
    before = _snapshot_of(duel)
    monkeypatch.setitem(duel_module._APPLY, record["events"][-1]["type"], _vandal(error))
    with pytest.raises((IllegalEvent, KeyboardInterrupt)) as failed:
        duel.apply(record["events"][-1])
    if isinstance(error, KeyboardInterrupt):
        assert failed.type is KeyboardInterrupt
    else:
        assert failed.value.index == len(record["events"])
    monkeypatch.undo()
    assert _snapshot_of(duel) == before
    # The duel goes on exactly as if nothing had happened.
    duel.apply(record["events"][-1])
    assert duel.record() == record and duel.state() == played.state


def test_snapshot_and_restore_round_trip_after_any_number_of_events() -> None:
    for preset in PRESETS:
        played = play_duel(preset, SEATS, ("heuristic", "random"), duel_rng(13, 0))
        duel = Duel.new(preset, SEATS)
        for event in played.events:
            t = duel._table
            saved, state = t.snapshot(), duel.state()
            t.num[0] += 5
            t.pending = None
            t.restore(saved)
            assert duel.state() == state and t.snapshot() == saved
            duel.apply(event)


def test_decisions_are_shared_and_equal_to_fresh_ones() -> None:
    assert pending("bonus", 1) is pending("bonus", 1)
    assert pending("counter", 0, 1, "draw_two") == Pending("counter", 0, 1, "draw_two")
    assert pending("bonus", 0).choices == ("action_card", "opponents_draw")


# -- the random stream -------------------------------------------------------------------------

#: sha256 (first 16 hex digits) of the records of duels 0–3 of seed 2026 for each preset, as
#: this engine plays them. A change here means a seed gives other duels: the strength tables of
#: docs/rules.md must then be measured again.
PINNED = {
    "arbiter:random": "2574dfc32adf664d",
    "arbiter:heuristic": "4e75ce8d2de36946",
    "official:random": "c63bc5f0c090feb1",
    # Issue 30: the heuristic bot keeps a REVERSE under "after" unless the target is about
    # to win (719d77371a123f26 before; with HeuristicBot(reverse_stop=999) it still is).
    "official:heuristic": "c54a91c992eb25d1",
    "paper:random": "360da54a4dfe5179",
    "paper:heuristic": "fd69dd2ebe377dd3",
    "tournament:random": "e6dd4c733b65318c",
    "tournament:heuristic": "656030e94136fe3e",
}


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("bots", [("random", "random"), ("heuristic", "random")])
def test_a_seed_still_gives_the_same_duels(preset: str, bots: tuple[str, str]) -> None:
    digest = hashlib.sha256()
    for k in range(4):
        record = play_duel(preset, SEATS, bots, duel_rng(2026, k)).record
        digest.update(json.dumps(record, separators=(",", ":")).encode())
    assert digest.hexdigest()[:16] == PINNED[f"{preset}:{bots[0]}"]
