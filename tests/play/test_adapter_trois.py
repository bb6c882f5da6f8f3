"""The Trois adapter (issue 27): played step by step it equals its restore from the stored
events, which never asks a bot; refusals change nothing; no seat sees another's cards."""

from __future__ import annotations

import json
import random
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.trois import DECK, WILDCARDS, replay
from games.trois.__main__ import main
from games.trois.cards import label
from play.adapters.base import DEALER, Command, Event, Refused, Viewer
from play.adapters.matching import MAX_EVENTS
from play.adapters.trois import ADAPTER, TIME_LIMIT_SECONDS, WORDS
from practice.trois_table import TroisTable
from tests.play import adapter_checks as checks

SEATS = "ABCD"
PRACTICE = {"names": ["ann", "Bot 1", "Bot 2", "Bot 3"], "bots": dict.fromkeys("BCD", "heuristic")}
#: Two people (A and C) and two bots of either kind.
TWO_PEOPLE = {"bots": {"B": "random", "D": "heuristic"}}
SEEDS = st.binary(min_size=16, max_size=16)


def choose(view: dict, rng: random.Random) -> Command:
    """A legal command of the seat asked, from its view only: a take, or any non-empty part
    of a matching group, in any order, sometimes naming the card to end on top."""
    legal = view["legal"]
    if legal["can_take"]:
        return Command("take", view["seat"])
    group = rng.choice([g for g in (legal["by_colour"], legal["by_number"]) if g])
    cards = rng.sample(group, rng.randint(1, len(group)))
    args: dict = {"cards": cards}
    if rng.random() < 0.3:
        args["top"] = rng.choice(cards)
    return Command("play", view["seat"], args)


def junk(rng: random.Random, seat: str) -> Command:
    """Commands a person (or a script) might send, mostly refused."""
    return rng.choice(
        [
            Command("play", rng.choice([*SEATS, "Z", None]), {"cards": [rng.choice(DECK)]}),
            Command("play", seat, {"cards": rng.sample(DECK, rng.randint(1, 3))}),
            Command("play", seat, {"cards": "B3"}),
            Command("play", seat, {"cards": []}),
            Command("play", seat, {"cards": ["B3"], "top": "G4"}),
            Command("play", seat, {"cards": ["B3"], "top": ["B3"]}),
            Command("play", seat, {"cards": ["Z9", 7]}),
            Command("play", seat, {"cards": ["B3"], "extra": 1}),
            Command("take", seat),
            Command("take", seat, {"cards": ["B3"]}),
            Command("time", seat),
            Command("seal", seat),
            Command("take", None),
        ]
    )


@settings(max_examples=25, deadline=None)
@given(
    seed=SEEDS,
    config=st.sampled_from([PRACTICE, TWO_PEOPLE]),
    steps=st.integers(0, 40),
    call_time=st.booleans(),
    rng=st.randoms(use_true_random=False),
)
def test_played_step_by_step_equals_restored_from_the_events_without_a_bot(
    seed: bytes, config: dict, steps: int, call_time: bool, rng: random.Random
) -> None:
    table = checks.play(ADAPTER, config, SEATS, seed, steps, choose, junk, rng)
    if call_time and not table.state.finished:
        events = ADAPTER.apply(table, Command("time"))
        assert [e.by for e in events] == ["clock"] and ADAPTER.finished(table)
        assert ADAPTER.awaiting(table) == []
    restored = checks.check_restore(ADAPTER, config, SEATS, seed, table)
    checks.check_goes_on_alike(ADAPTER, table, restored, choose)


@settings(max_examples=15, deadline=None)
@given(
    seed=SEEDS,
    config=st.sampled_from([PRACTICE, TWO_PEOPLE]),
    steps=st.integers(0, 30),
    rng=st.randoms(use_true_random=False),
)
def test_no_viewer_tells_this_game_from_one_dealt_otherwise(
    seed: bytes, config: dict, steps: int, rng: random.Random
) -> None:
    """Non-interference (issue 27): for the public, the referee and each seat, the cards it
    has not seen re-dealt (the other hands, the deck's order, a reshuffle's) consistently
    with everything it has been told; its view is the same after every event. A Trois game
    is dealt, not refereed: the adapter shows a referee what it shows the public, and is held
    to it here so that a referee's view can never show more."""
    table = checks.play(ADAPTER, config, SEATS, seed, steps, choose, junk, rng)
    for viewer in checks.every_viewer(SEATS):
        checks.assert_no_viewer_tells_the_worlds_apart(
            ADAPTER, config, SEATS, seed, table, viewer, rng
        )
    assert "hand" not in ADAPTER.view(table, checks.PUBLIC)
    # What everyone reads of an event never names a card taken from the deck.
    for event in table.events:
        public = json.dumps(event.public)
        for facts in event.private.values():
            for card in facts.get("took", ()):
                assert label(card) not in public and f'"{card}"' not in public


def test_a_view_that_shows_a_hidden_card_is_caught() -> None:
    table = checks.play(ADAPTER, PRACTICE, SEATS, bytes(16), 10, choose, junk, random.Random(0))
    checks.assert_a_leak_is_caught(ADAPTER, PRACTICE, SEATS, table)


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, rng=st.randoms(use_true_random=False))
def test_the_opening_view_is_the_same_whatever_the_others_were_dealt(
    seed: bytes, rng: random.Random
) -> None:
    """Re-deal, in the stored deal itself, everything seat A cannot know (the others' hands
    and the deck): A's view of the restored table is unchanged."""
    config = {"bots": {}}
    table, (deal,) = ADAPTER.start(config, SEATS, seed)
    mine = deal.private["A"]["hand"]
    top = deal.public["deal"]["top"]
    pool = [c for c in DECK if c not in mine and c != top and c not in WILDCARDS]
    rng.shuffle(pool)
    private = {"A": {"hand": mine}}
    for seat in "BCD":  # never a wildcard in a hand at the deal, as A knows
        private[seat] = {"hand": [pool.pop() for _ in mine]}
    deck = pool + list(WILDCARDS)
    rng.shuffle(deck)
    private[DEALER] = {"deck": deck}
    other = ADAPTER.restore(config, SEATS, seed, [Event(DEALER, deal.public, private)])
    assert ADAPTER.view(other, Viewer("seat", "A")) == ADAPTER.view(table, Viewer("seat", "A"))
    assert ADAPTER.view(other, checks.PUBLIC) == ADAPTER.view(table, checks.PUBLIC)
    assert ADAPTER.view(other, Viewer("seat", "B")) != ADAPTER.view(table, Viewer("seat", "B"))


@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, rng=st.randoms(use_true_random=False))
def test_games_finish_and_the_owner_then_sees_everything(seed: bytes, rng: random.Random) -> None:
    table = checks.play(ADAPTER, PRACTICE, SEATS, seed, 400, choose, junk, rng)
    if not table.state.finished:  # the 25 minutes
        ADAPTER.apply(table, Command("time"))
    assert ADAPTER.finished(table) and ADAPTER.awaiting(table) == []
    owner = ADAPTER.view(table, Viewer("owner"))
    assert set(owner["hands"]) == set(SEATS) and "deal" in owner
    assert "hands" not in ADAPTER.view(table, checks.PUBLIC)
    with pytest.raises(Refused, match="This game is over"):
        ADAPTER.apply(table, Command("take", "A"))
    with pytest.raises(Refused, match="This game is over"):
        ADAPTER.apply(table, Command("time"))


def test_a_refusal_speaks_to_the_person_and_changes_nothing() -> None:
    table, _ = ADAPTER.start(PRACTICE, SEATS, bytes(16))
    said = checks.refused_changes_nothing(ADAPTER, table, Command("take", "B"))
    assert said == WORDS["not_your_turn"]
    hand = table.state.hands[0]
    legal = ADAPTER.view(table, Viewer("seat", "A"))["legal"]
    if legal["can_take"]:
        said = checks.refused_changes_nothing(
            ADAPTER, table, Command("play", "A", {"cards": [hand[0]]})
        )
        assert said is not None and "does not match" in said
    else:
        said = checks.refused_changes_nothing(ADAPTER, table, Command("take", "A"))
        assert said is not None and said.startswith("Ann holds a card that matches")
        assert said.endswith("a card is taken from the deck only when none matches.")
    stranger = next(c for c in DECK if c not in hand and c not in WILDCARDS)
    said = checks.refused_changes_nothing(
        ADAPTER, table, Command("play", "A", {"cards": [stranger]})
    )
    assert said == f"Ann does not hold {label(stranger)}."

    assert TIME_LIMIT_SECONDS == 25 * 60


def test_a_stored_game_that_does_not_hold_together_is_refused_in_words() -> None:
    table, _ = ADAPTER.start(PRACTICE, SEATS, bytes(16))
    ADAPTER.apply(table, Command("time"))
    events = checks.wire(table.events)
    with pytest.raises(Refused, match="cannot be replayed: its deal is missing"):
        ADAPTER.restore(PRACTICE, SEATS, bytes(16), events[1:])
    wrong = Event("bot:B", {"move": {"kind": "take"}, "log": []})
    with pytest.raises(Refused, match="cannot be replayed: event 1"):
        ADAPTER.restore(PRACTICE, SEATS, bytes(16), [events[0], wrong])
    with pytest.raises(ValueError, match="at least 16"):
        ADAPTER.start(PRACTICE, SEATS, bytes(15))


def test_a_reshuffled_deck_is_recorded_and_restored_without_shuffling_again() -> None:
    """The deck runs out in about one game in seven: the first of a few seeds where it does.
    The take that empties it records the new deck under the dealer's key; restoring lays it
    under the deck, so the engine never shuffles (a changed shuffle could not move it)."""
    for n in range(60):
        seed, rng = bytes([n]) * 16, random.Random(n)
        table, _ = ADAPTER.start(PRACTICE, SEATS, seed)
        while not table.state.finished and not table.state.reshuffles:
            view = ADAPTER.view(table, Viewer("seat", "A"))
            ADAPTER.apply(table, choose(view, rng))
        if table.state.reshuffles:
            break
    else:
        pytest.fail("no game of sixty ran out of cards")
    (event,) = [e for e in table.events if DEALER in e.private and e.by != DEALER]
    assert len(event.private[DEALER]["reshuffled"]) >= len(table.state.deck)
    assert DEALER not in json.dumps(event.public)
    with mock.patch("games.trois.rules.random.Random", side_effect=AssertionError("shuffled")):
        checks.check_restore(ADAPTER, PRACTICE, SEATS, seed, table)
    game, error = replay(json.loads(json.dumps(ADAPTER.record(table))))
    assert error is None and game.state == table.state


def test_the_record_replays_in_the_games_own_command_line(tmp_path, capsys) -> None:
    table = checks.play(
        ADAPTER, PRACTICE, SEATS, bytes(range(16)), 400, choose, junk, random.Random(1)
    )
    if not table.state.finished:
        ADAPTER.apply(table, Command("time"))
    checks.check_record_replays(ADAPTER, table, main, tmp_path, capsys)


def test_a_practice_game_stored_the_old_way_becomes_events_that_restore_it() -> None:
    """The data migration's step (``checks.check_migrated``), from a game practice played."""
    old = TroisTable(12345, "ann")
    rng = random.Random(3)
    while not old.finished and len(old.log) < 60:
        legal = old.game.legal()
        old.play(
            {"kind": "take"}
            if legal.can_take
            else {"kind": "play", "cards": [rng.choice(legal.playable)]}
        )
    if not old.finished:
        old.play({"kind": "time"})
    checks.check_migrated(ADAPTER, PRACTICE, SEATS, old)
    broken = {**old.game.record(), "moves": [{"kind": "take"}, {"kind": "play", "cards": ["Z9"]}]}
    with pytest.raises(Refused, match="cannot be replayed: move"):
        ADAPTER.events_from_record(PRACTICE, SEATS, broken)


def test_a_game_gone_on_too_long_takes_only_the_dealers_time() -> None:
    table, _ = ADAPTER.start(PRACTICE, SEATS, bytes(16))
    table.events += [table.events[0]] * MAX_EVENTS  # as if five thousand moves were stored
    said = checks.refused_changes_nothing(ADAPTER, table, Command("take", "A"))
    assert said == WORDS["too_long"]
    ADAPTER.apply(table, Command("time"))
    assert ADAPTER.finished(table)
