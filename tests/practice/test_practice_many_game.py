"""practice/game.py and seating.py at 2–6 seats and in teams (RULES.md section 11)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.split_uno import PRESETS
from practice.game import Game, Refused, replay, start
from practice.seating import LAYOUTS, TICKED_VARIANTS, SeatingRefused, choose

#: Every table the page offers: (seats, team layout), "" for every seat on its own.
TABLES = [(n, "") for n in range(2, 7)] + [(n, lay) for n, lays in LAYOUTS.items() for lay in lays]


def legal_move(game: Game, rng: random.Random) -> dict:
    """A move a person could make by tapping the page: only what it offers them."""
    asked = game.awaiting_me()
    if asked:
        return {"kind": "respond", "choice": rng.choice(asked[1])}
    targets = game.targets()
    target = {"target": rng.choice(targets)} if targets else {}
    playable = game.playable_actions()
    if playable and rng.random() < 0.3:
        card = rng.choice(playable)
        if card == "color_change":
            return {"kind": "action", "card": card, "color": "green"}
        return {"kind": "action", "card": card, **target}
    if not game.reveals():
        return {"kind": "blocked_round"}
    return {"kind": "reveal", "value": rng.choice(game.my_numbers())[0], **target}


def hand_matches_counts(game: Game) -> bool:
    me = game.state()["seats"]["A"]
    hands = game.sim.hands
    return (me["number_cards"], me["action_cards"]) == (sum(hands.num[0]), sum(hands.act[0]))


@settings(max_examples=20, deadline=None)
@given(
    table=st.sampled_from(TABLES),
    preset=st.sampled_from(sorted(PRESETS)),
    variants=st.lists(st.sampled_from(TICKED_VARIANTS), unique=True, max_size=2),
    seed=st.integers(0, 2**48),
    style=st.integers(0, 99),
    resign_at=st.integers(0, 400),
)
def test_a_person_playing_legal_moves_at_any_table_ends_it_or_stays_consistent(
    table, preset, variants, seed, style, resign_at
) -> None:
    seats, layout = table
    seating = choose(preset, seats, tuple(variants), layout)
    rng = random.Random(style)
    game = start(preset, seed, "Ada", seating)
    kept: list[dict] = []
    while not game.finished and len(kept) < 300:
        # Every page offers a move: a decision, a card, or a round without a card.
        assert game.awaiting_me() or game.free()
        move = {"kind": "resign"} if len(kept) == resign_at else legal_move(game, rng)
        kept.append(game.play(move))  # a legal move is never refused
        assert hand_matches_counts(game)
        # The person is never a target of their own card and never asked for another seat.
        assert "A" not in game.targets()
    again = replay(preset, seed, "Ada", kept, seating)
    assert again.state() == game.state() and again.log == game.log
    state = game.state()
    assert state["winner"] in (None, *seating.letters)
    if game.finished and seating.teams and state["winner"]:
        # A team game's winner is the winning team's first seat (RULES.md 11.9).
        assert state["winner"] == next(t for t in seating.teams if state["winner"] in t)[0]


@pytest.mark.parametrize(
    ("preset", "seats", "variants", "options"),
    [
        ("tournament", 2, (), {}),
        ("tournament", 3, (), {"max_seats": 3}),
        ("official", 5, (), {}),
        ("paper", 6, (), {"max_seats": 6, "number_pool": 188}),
        ("official", 6, (), {"number_pool": 188}),
        ("official", 6, ("speed",), {}),  # 6 × 15 = 90 fits the pool of 108
    ],
)
def test_the_table_sets_max_seats_and_raises_the_pool_only_where_the_deal_needs_it(
    preset, seats, variants, options
) -> None:
    seating = choose(preset, seats, variants)
    assert seating.options == options
    game = start(preset, 5, "Ada", seating)
    dealt = game.sim.duel.rules.starting_number_cards * seats
    # Raised: seed 001's 68 cards stay in the deck after the deal.
    if "number_pool" in options:
        assert game.sim.duel.rules.number_pool - dealt == 68


def test_teams_are_declared_with_the_team_variant_and_bot_partners() -> None:
    seating = choose("tournament", 4, ("hardcore",), "AC,BD")
    assert seating.variants == ("hardcore", "team")
    assert seating.teams == (("A", "C"), ("B", "D"))
    game = start("tournament", 9, "Ada", seating)
    assert game.targets() == ["B", "D"]  # a team-mate is never a target
    assert game.sim.bots[2] is not None  # the partner is a bot


@pytest.mark.parametrize(
    ("seats", "variants", "layout", "words"),
    [
        (7, (), "", "1 to 5 bot opponents"),
        (1, (), "", "1 to 5 bot opponents"),
        (3, ("team",), "", "Choose variants from"),
        (3, ("joker",), "", "Choose variants from"),
        (3, (), "AC,BD", "Teams need 4 to 6 seats"),
        (4, (), "AB,CD", "At 4 seats choose teams from"),
        (5, (), "AC,BD", "At 5 seats choose teams from"),
    ],
)
def test_a_table_the_rules_do_not_offer_is_refused_in_words(seats, variants, layout, words):
    with pytest.raises(SeatingRefused, match=words):
        choose("official", seats, variants, layout)


def play_until(game: Game, rng: random.Random, wanted, limit: int = 400) -> list[dict]:
    moves = []
    while not game.finished and not wanted(game) and len(moves) < limit:
        moves.append(game.play(legal_move(game, rng)))
    return moves


def test_a_seven_and_an_action_card_name_the_target_the_person_chose() -> None:
    seating = choose("tournament", 4)
    for seed in range(60):
        game = start("tournament", seed, "Ada", seating)
        if game.reveals() and dict(game.my_numbers()).get(7):
            break
    else:
        pytest.fail("no deal gave the person a 7")
    with pytest.raises(Refused, match="Choose whom your 7 targets: B, C, D"):
        game.play({"kind": "reveal", "value": 7})
    with pytest.raises(Refused, match="Choose whom your 7 targets"):
        game.play({"kind": "reveal", "value": 7, "target": "A"})
    kept = game.play({"kind": "reveal", "value": 7, "target": "C"})
    assert kept == {"kind": "reveal", "value": 7, "target": "C"}
    first_round = next(e for e in game.sim.duel.record()["events"] if e["type"] == "round")
    assert first_round["targets"]["A"] == "C"
    round_lines = next(e.lines for e in game.log if "Ada reveals 7" in e.lines)
    assert "Bot C draws 2 number cards and 1 action card (Ada's 7)" in round_lines
    # A card with no target keeps none, whatever the form sent.
    value = next(v for v, _ in game.my_numbers() if v not in (0, 7)) if game.reveals() else None
    if value is not None and game.free():
        assert game.play({"kind": "reveal", "value": value, "target": "B"}) == {
            "kind": "reveal",
            "value": value,
        }

    rng = random.Random(3)
    targeted = {"block", "reverse", "draw_two", "draw_four"}
    for seed in range(40):
        game = start("tournament", seed, "Ada", choose("tournament", 5, (), "AC,BDE"))
        play_until(game, rng, lambda g: targeted & set(g.playable_actions()))
        cards = targeted & set(game.playable_actions())
        if cards:
            break
    else:
        pytest.fail("no game let the person play a targeted action card")
    card = sorted(cards)[0]
    with pytest.raises(Refused, match="Choose whom your"):
        game.play({"kind": "action", "card": card, "target": "C"})  # a team-mate
    kept = game.play({"kind": "action", "card": card, "target": "E"})
    assert kept == {"kind": "action", "card": card, "target": "E"}
    played = [e for e in game.sim.duel.record()["events"] if e.get("seat") == "A"][-1]
    assert (played["card"], played["target"]) == (card, "E")


def test_resigning_at_a_table_of_three_lets_the_bots_play_it_out() -> None:
    game = start("official", 4, "Ada", choose("official", 3))
    game.play({"kind": "resign"})
    state = game.state()
    assert game.finished and state["seats"]["A"]["out"] is True
    assert state["winner"] in ("B", "C", None)
    assert any(e.by_bot for e in game.log)


def test_resigning_in_a_team_game_puts_the_whole_team_out() -> None:
    game = start("official", 4, "Ada", choose("official", 4, (), "AC,BD"))
    game.play({"kind": "resign"})
    state = game.state()
    assert (state["finish"], state["winner"]) == ("forfeit", "B")
    assert state["seats"]["C"]["out"] is True
