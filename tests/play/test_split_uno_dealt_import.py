"""play/adapters/split_uno_dealt_import.py: an old practice duel (a seed and the person's moves)
written as the dealt adapter's events gives the same game, restored from the events alone, and
plays on (practice's data migration 0007)."""

import random
import secrets

import pytest

from play.adapters.base import Command, Viewer
from play.adapters.split_uno_dealt import ADAPTER
from play.adapters.split_uno_dealt_import import NotConvertible, events_from_practice
from practice.game import Game, traced_replay
from practice.seating import choose
from practice.services import config_of

TABLES = [(2, ""), (3, ""), (4, "AC,BD"), (5, "ACE,BD"), (6, "")]


def old_duel(ruleset: str, seats: int, layout: str, seed: int, count: int):
    """An old duel: a person playing random legal moves (reveals, action cards, answers)."""
    seating = choose(ruleset, seats, (), layout)
    rng = random.Random(seed)
    game = Game(ruleset, seed, "ada", seating)
    moves = []
    while len(moves) < count and not game.finished:
        asked = game.awaiting_me()
        if asked:
            move = {"kind": "respond", "choice": rng.choice(asked[1])}
        elif game.playable_actions() and rng.random() < 0.3:
            card = rng.choice(game.playable_actions())
            move = {"kind": "action", "card": card, "color": "red"}
            if game.needs_target(card):
                move["target"] = rng.choice(game.targets())
        elif game.reveals():
            value = rng.choice(game.my_numbers())[0]
            move = {"kind": "reveal", "value": value}
            if seats > 2 and value in (0, 7):
                move["target"] = rng.choice(game.targets())
        else:
            move = {"kind": "blocked_round"}
        moves.append(game.play(move))
    return seating, game, traced_replay(ruleset, seed, "ada", moves, seating)


@pytest.mark.parametrize(("seats", "layout"), TABLES)
def test_an_old_duel_becomes_dealt_events_that_restore_it_and_play_on(seats, layout):
    seating, game, old = old_duel("tournament", seats, layout, seed=seats, count=25)
    config = config_of("tournament", "ada", seating)
    letters = list(seating.letters)
    seed = secrets.token_bytes(16)
    events = events_from_practice(config, letters, seed, old)
    table = ADAPTER.restore(config, letters, seed, events)
    view = ADAPTER.view(table, Viewer("seat", "A"))
    assert view["state"]["seats"] == game.state()["seats"]
    assert view["hand"]["numbers"] == [v for v, n in game.my_numbers() for _ in range(n)]
    if not game.finished:
        # The bots of today have sealed or acted; the person is asked, and plays on.
        assert view["commands"], view["phase"]
        ADAPTER.apply(table, Command("resign", "A"))
        after = ADAPTER.view(table, Viewer("seat", "A"))["state"]
        assert after["status"] == "finished" or after["seats"]["A"]["out"]


def test_an_old_duel_with_truth_and_dare_cards_is_not_convertible():
    seating, _, old = old_duel("official", 2, "", seed=1, count=3)
    config = config_of("official", "ada", seating)
    with pytest.raises(NotConvertible, match="TRUTH or DARE"):
        events_from_practice(config, ["A", "B"], secrets.token_bytes(16), old)
