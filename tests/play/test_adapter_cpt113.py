"""The CPT-113 adapter (issue 27): played step by step it equals its restore from the stored
events, which never asks a bot; refusals change nothing; a group's two seats share its hand
and no seat sees another group's cards."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cpt113 import COLOURS, DECK
from games.cpt113.__main__ import main
from games.cpt113.cards import is_wild, label, sort_key
from play.adapters.base import DEALER, Command, Event, Refused, Viewer
from play.adapters.cpt113 import ADAPTER, WORDS
from play.effect_words import say_all
from practice.cpt113_table import Cpt113Table, seat_names
from tests.play import adapter_checks as checks

LETTERS = "ABCDEFGH"
SEEDS = st.binary(min_size=16, max_size=16)


def setup(groups: int, partner_too: bool = False, kind: str = "heuristic") -> tuple[dict, str]:
    """Practice's table: the person at the first seat (A1), bots everywhere else — or the
    person's partner (A2) a person too."""
    seats = LETTERS[: 2 * groups]
    people = {"A", seats[groups]} if partner_too else {"A"}
    return {"groups": groups, "bots": {s: kind for s in seats if s not in people}}, seats


def choose(view: dict, rng: random.Random) -> Command:
    legal = view["legal"]
    if legal["can_draw"]:
        return Command("draw", view["seat"])
    card = rng.choice(legal["playable"])
    args = {"card": card, "colour": rng.choice(list(COLOURS))} if is_wild(card) else {"card": card}
    return Command("play", view["seat"], args)


def junk(rng: random.Random, seat: str) -> Command:
    return rng.choice(
        [
            Command("play", rng.choice([*LETTERS, None]), {"card": rng.choice(DECK)}),
            Command("play", seat, {"card": rng.choice(DECK)}),
            Command("play", seat, {"card": "W", "colour": "P"}),
            Command("play", seat, {"card": "W", "colour": ["R"]}),
            Command("play", seat, {"card": "W"}),
            Command("play", seat, {"card": 3}),
            Command("play", seat, {"card": "R3" * 50}),
            Command("play", seat, {"card": "R3", "other": 1}),
            Command("draw", seat),
            Command("draw", seat, {"card": "R3"}),
            Command("take", seat),
        ]
    )


@settings(max_examples=25, deadline=None)
@given(
    seed=SEEDS,
    groups=st.integers(2, 4),
    partner_too=st.booleans(),
    kind=st.sampled_from(["heuristic", "random"]),
    steps=st.integers(0, 30),
    rng=st.randoms(use_true_random=False),
)
def test_played_step_by_step_equals_restored_from_the_events_without_a_bot(
    seed: bytes, groups: int, partner_too: bool, kind: str, steps: int, rng: random.Random
) -> None:
    config, seats = setup(groups, partner_too, kind)
    table = checks.play(ADAPTER, config, seats, seed, steps, choose, junk, rng)
    restored = checks.check_restore(ADAPTER, config, seats, seed, table)
    checks.check_goes_on_alike(ADAPTER, table, restored, choose)


@settings(max_examples=20, deadline=None)
@given(
    seed=SEEDS,
    groups=st.integers(2, 4),
    partner_too=st.booleans(),
    steps=st.integers(0, 20),
    rng=st.randoms(use_true_random=False),
)
def test_no_viewer_tells_this_game_from_one_dealt_otherwise(
    seed: bytes, groups: int, partner_too: bool, steps: int, rng: random.Random
) -> None:
    """Non-interference (issue 27): for the public, the referee and each seat, the cards it
    has not seen re-dealt (the other groups' hands, the deck's order) consistently with
    everything it has been told; its view is the same after every event. A CPT-113 game is
    dealt, not refereed: the adapter shows a referee what it shows the public, and is held
    to it here so that a referee's view can never show more."""
    config, seats = setup(groups, partner_too)
    table = checks.play(ADAPTER, config, seats, seed, steps, choose, junk, rng)
    for viewer in checks.every_viewer(seats):
        checks.assert_no_viewer_tells_the_worlds_apart(
            ADAPTER, config, seats, seed, table, viewer, rng
        )
    # Partners read one hand; the public none.
    first, partner = (ADAPTER.view(table, Viewer("seat", s)) for s in (seats[0], seats[groups]))
    assert first["hand"] == partner["hand"] == sorted(first["hand"], key=sort_key)
    assert "hand" not in ADAPTER.view(table, checks.PUBLIC)
    names = [s["name"] for s in ADAPTER.view(table, checks.PUBLIC)["seats"]]
    for event in table.events:
        public = json.dumps(event.public)
        for facts in event.private.values():
            for card in facts.get("drew", ()):
                if not is_wild(card):
                    assert label(card) not in " ".join(say_all(event.public["log"], names))
                    assert f'"{card}"' not in public


def test_a_view_that_shows_a_hidden_card_is_caught() -> None:
    config, seats = setup(2)
    table = checks.play(ADAPTER, config, seats, bytes(16), 10, choose, junk, random.Random(0))
    checks.assert_a_leak_is_caught(ADAPTER, config, seats, table)


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, groups=st.integers(2, 4), rng=st.randoms(use_true_random=False))
def test_the_opening_view_is_the_same_whatever_the_other_groups_were_dealt(
    seed: bytes, groups: int, rng: random.Random
) -> None:
    """Re-deal, in the stored deal, everything group A cannot know (the other groups' hands
    and the deck): the views of A's two seats are unchanged."""
    config = {"groups": groups}
    seats = LETTERS[: 2 * groups]
    table, (deal,) = ADAPTER.start(config, seats, seed)
    mine = list(deal.private["A"]["hand"])
    top = deal.public["deal"]["top"]
    pool = list(DECK)
    for card in [*mine, top]:
        pool.remove(card)
    rng.shuffle(pool)
    private: dict = {}
    for g in range(groups):
        hand = mine if g == 0 else [pool.pop() for _ in mine]
        for seat in table.readers(g):
            private[seat] = {"hand": hand}
    private[DEALER] = {"deck": pool}
    other = ADAPTER.restore(config, seats, seed, [Event(DEALER, deal.public, private)])
    for seat in ("A", seats[groups]):
        viewer = Viewer("seat", seat)
        assert ADAPTER.view(other, viewer) == ADAPTER.view(table, viewer)
    assert ADAPTER.view(other, checks.PUBLIC) == ADAPTER.view(table, checks.PUBLIC)


@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, groups=st.integers(2, 4), rng=st.randoms(use_true_random=False))
def test_games_finish_and_the_owner_then_sees_everything(
    seed: bytes, groups: int, rng: random.Random
) -> None:
    config, seats = setup(groups)
    table = checks.play(ADAPTER, config, seats, seed, 1000, choose, junk, rng)
    assert ADAPTER.finished(table) and ADAPTER.awaiting(table) == []
    owner = ADAPTER.view(table, Viewer("owner"))
    assert len(owner["hands"]) == groups and "deal" in owner
    shown = [c for hand in owner["hands"].values() for c in hand]
    assert len(shown) + owner["deck"] + owner["discard"] == len(DECK), "every card is shown"
    assert "hands" not in ADAPTER.view(table, checks.PUBLIC)
    with pytest.raises(Refused, match="This game is over"):
        ADAPTER.apply(table, Command("draw", "A"))
    checks.check_restore(ADAPTER, config, seats, seed, table)


def test_a_refusal_speaks_to_the_person_and_changes_nothing() -> None:
    config, seats = setup(2)
    table, _ = ADAPTER.start(config, seats, bytes(16))
    assert (
        checks.refused_changes_nothing(ADAPTER, table, Command("draw", "B"))
        == WORDS["not_your_turn"]
    )
    said = checks.refused_changes_nothing(
        ADAPTER, table, Command("play", "A", {"card": "W", "colour": "P"})
    )
    assert said == WORDS["colour"]
    assert checks.refused_changes_nothing(ADAPTER, table, Command("take", "A")) == WORDS["unknown"]
    stranger = next(c for c in DECK if c not in table.state.hands[0])
    said = checks.refused_changes_nothing(ADAPTER, table, Command("play", "A", {"card": stranger}))
    assert said == f"Group A does not hold {label(stranger)}."
    with pytest.raises(Refused, match="Choose 2, 3 or 4 groups"):
        ADAPTER.start({"groups": 5}, LETTERS, bytes(16))


def test_a_stored_game_that_does_not_hold_together_is_refused_in_words() -> None:
    config, seats = setup(2)
    table, _ = ADAPTER.start(config, seats, bytes(16))
    events = checks.wire(table.events)
    with pytest.raises(Refused, match="cannot be replayed: its deal is missing"):
        ADAPTER.restore(config, seats, bytes(16), events[1:])
    wrong = Event("bot:B", {"move": {"kind": "draw"}, "log": []})
    with pytest.raises(Refused, match="cannot be replayed: event 1"):
        ADAPTER.restore(config, seats, bytes(16), [events[0], wrong])


def test_the_record_replays_in_the_games_own_command_line(tmp_path, capsys) -> None:
    config, seats = setup(3, partner_too=True)
    table = checks.play(
        ADAPTER, config, seats, bytes(range(16)), 1000, choose, junk, random.Random(1)
    )
    assert table.state.finished
    checks.check_record_replays(ADAPTER, table, main, tmp_path, capsys)


@pytest.mark.parametrize("groups", [2, 4])
def test_a_practice_game_stored_the_old_way_becomes_events_that_restore_it(groups: int) -> None:
    """The data migration's step (``checks.check_migrated``), from a game practice played."""
    old = Cpt113Table(777, groups, "ann")
    rng = random.Random(groups)
    while not old.finished:
        legal = old.game.legal()
        card = rng.choice(legal.playable) if legal.playable else None
        old.play(
            {"kind": "draw"}
            if card is None
            else {"kind": "play", "card": card, **({"colour": "G"} if is_wild(card) else {})}
        )
    config = {"groups": groups, "names": list(seat_names("ann", groups))}
    config["bots"] = {s: "heuristic" for s in LETTERS[1 : 2 * groups]}
    seats = LETTERS[: 2 * groups]
    checks.check_migrated(ADAPTER, config, seats, old)
