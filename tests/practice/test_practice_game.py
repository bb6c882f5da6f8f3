"""practice/game.py: a duel against the bot, played again from its seed and the moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.split_uno import PRESETS
from practice.game import Game, Refused, replay, start


def some_move(game: Game, rng: random.Random) -> dict:
    """A legal move of a person who plays at random."""
    asked = game.awaiting_me()
    if asked:
        return {"kind": "respond", "choice": rng.choice(asked[1])}
    if game.blocked():
        return {"kind": "blocked_round"}
    playable = game.playable_actions()
    if playable and rng.random() < 0.3:
        card = rng.choice(playable)
        return (
            {"kind": "action", "card": card, "color": "blue"}
            if card == "color_change"
            else {"kind": "action", "card": card}
        )
    return {"kind": "reveal", "value": rng.choice(game.my_numbers())[0]}


def counts(game: Game) -> dict:
    state = game.state()
    return {seat: (s["number_cards"], s["action_cards"]) for seat, s in state["seats"].items()}


@settings(max_examples=12, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**48), style=st.integers(0, 99)
)
def test_a_whole_duel_replays_from_its_seed_and_moves(preset: str, seed: int, style: int) -> None:
    rng = random.Random(style)
    game = start(preset, seed, "Ada")
    moves: list[dict] = []
    while not game.finished:
        assert len(moves) < 600, "a practice duel should end"
        move = some_move(game, rng)
        game.play(move)
        moves.append(move)
        # The person's concrete cards always match the engine's counts.
        assert counts(game)["A"] == (sum(game.sim.hands.num[0]), sum(game.sim.hands.act[0]))
    again = replay(preset, seed, "Ada", moves)
    assert again.state() == game.state()
    assert again.log == game.log
    assert game.state()["winner"] in ("A", "B", None)


def test_the_bot_answers_and_acts_on_its_own_and_the_log_says_who_moved() -> None:
    rng = random.Random(4)
    game = start("tournament", 11, "Ada")
    while not game.finished:
        game.play(some_move(game, rng))
    assert any(e.by_bot for e in game.log) and any(not e.by_bot for e in game.log)
    assert all("Bot" in " ".join(e.lines) or "Ada" in " ".join(e.lines) for e in game.log)


def refused_changes_nothing(game: Game, move: dict, words: str) -> None:
    before = (
        game.state(),
        list(game.log),
        [h[:] for h in game.sim.hands.num],
        game.sim.rng.getstate(),
    )
    with pytest.raises(Refused, match=words):
        game.play(move)
    assert (
        game.state(),
        list(game.log),
        [h[:] for h in game.sim.hands.num],
        game.sim.rng.getstate(),
    ) == before


def test_a_person_reveals_only_what_they_hold_and_refusals_change_nothing() -> None:
    # A deal of 20 cards that lacks some value (most deals hold every value).
    seed = next(s for s in range(200) if 0 in start("tournament", s, "Ada").sim.hands.num[0])
    game = start("tournament", seed, "Ada")
    missing = game.sim.hands.num[0].index(0)
    refused_changes_nothing(game, {"kind": "reveal", "value": missing}, f"You hold no {missing}")
    refused_changes_nothing(game, {"kind": "reveal", "value": "7"}, "from 0 to 9")
    refused_changes_nothing(game, {"kind": "reveal", "value": 10}, "from 0 to 9")
    refused_changes_nothing(game, {"kind": "action", "card": "draw_four"}, "cannot play \\+4")
    refused_changes_nothing(game, {"kind": "action", "card": "joker"}, "not an action card")
    refused_changes_nothing(game, {"kind": "respond", "choice": "pass"}, "Nothing is asked")
    refused_changes_nothing(game, {"kind": "blocked_round"}, "not blocked")
    refused_changes_nothing(game, {"kind": "cheat"}, "Unknown move")
    # The next legal move plays exactly as in a duel that never saw the refusals.
    value = game.my_numbers()[0][0]
    game.play({"kind": "reveal", "value": value})
    assert replay("tournament", seed, "Ada", [{"kind": "reveal", "value": value}]).log == game.log


def test_a_decision_is_answered_only_with_a_choice_the_hand_allows() -> None:
    rng = random.Random(8)
    for seed in range(40):
        game = start("tournament", seed, "Ada")
        while not game.finished and game.awaiting_me() is None:
            game.play(some_move(game, rng))
        if game.finished:
            continue
        decision, choices = game.awaiting_me()
        refused_changes_nothing(game, {"kind": "respond", "choice": "nonsense"}, "Choose one of")
        refused_changes_nothing(
            game, {"kind": "reveal", "value": game.my_numbers()[0][0]}, "Answer the question first"
        )
        game.play({"kind": "respond", "choice": choices[0]})
        return
    pytest.fail("no duel asked the person a decision")


def test_resigning_ends_the_duel_for_the_bot_and_nothing_more_is_taken() -> None:
    game = start("paper", 1, "Ada")
    game.play({"kind": "resign"})
    assert game.finished and game.state()["winner"] == "B"
    assert game.state()["finish"] == "forfeit"
    with pytest.raises(Refused, match="over"):
        game.play({"kind": "reveal", "value": game.my_numbers()[0][0]})


def test_an_unknown_rule_set_is_refused_in_words() -> None:
    with pytest.raises(Refused, match="Choose one of the rule sets"):
        start("poker", 1, "Ada")
