"""The engines' words at the edge (issue 29, play/effect_words.py): a stored log line is data,
and in English the edge says exactly what the engine's own ``describe`` says — over random
duels of every preset, two to six seats, teams, truth and dare, and every ending — so that the
two can never drift apart."""

from __future__ import annotations

import json
import random

from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.split_uno import Duel, describe
from games.split_uno.constants import SEAT_LETTERS
from games.split_uno.effects import _TEXTS, Effect
from games.split_uno.simulate import Simulator
from play import effect_words
from play.effect_words import compact, say, split_uno_line

NAMES = ("Ann", "Bo", "Cy", "Di", "Eve", "Fay")
RULESETS = ("paper", "official", "tournament")
ENDINGS = (
    None,
    {"type": "forfeit", "seat": "A", "reason": "no_show"},
    {"type": "forfeit", "seat": "B"},
    {"type": "forfeit", "seat": "A", "reason": "resigned"},
    {"type": "time_limit", "reason": "deadline"},
    {"type": "time_limit"},
    {"type": "adjudicate", "winner": "B", "reason": "a note from the referee"},
    {"type": "adjudicate", "winner": "A"},
)


def _duel(seed: int, seats: int, ruleset: str, truth_dare: bool, ending: dict | None):
    """A random duel's effects, event by event, and its names."""
    names = dict(zip(SEAT_LETTERS[:seats], NAMES, strict=False))
    options = {
        "starting_number_cards": 4,
        "number_pool": 40,
        "truth_dare": truth_dare,
        "max_seats": 6,
    }
    duel = Duel.new(ruleset, names, (), options, None)
    sim = Simulator(
        duel, ["heuristic" if i % 2 else "random" for i in range(seats)], random.Random(seed)
    )
    cap = 40 if ending else 300
    done = sim.run(cap)
    events = list(done.record["events"])
    if ending and not done.duel.finished:
        events = events[: cap - 1] if len(events) >= cap else events
        events.append(ending)
    replayed = Duel.from_record({**done.record, "events": []})
    effects = []
    for event in events:
        if replayed.finished:
            break
        effects.extend(replayed.apply(event))
    return names, effects


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    seats=st.integers(2, 6),
    ruleset=st.sampled_from(RULESETS),
    truth_dare=st.booleans(),
    ending=st.sampled_from(ENDINGS),
)
def test_in_english_the_edge_says_what_the_engine_says(seed, seats, ruleset, truth_dare, ending):
    names, effects = _duel(seed, seats, ruleset, truth_dare, ending)
    with translation.override("en"):
        for effect in effects:
            stored = json.loads(json.dumps(compact(effect)))  # as the database keeps it
            assert split_uno_line(stored, names) == describe(effect, names)
            assert say(stored, names) == effect.text(names)


def _every_effect() -> list[Effect]:
    """Every kind and branch the engine words, including those random duels seldom reach."""
    out = []
    causes = (
        None,
        "seven",
        "draw_two",
        "draw_four",
        "color_change",
        "truth",
        "dare",
        "block",
        "penalty",
        "bonus",
        "challenge",
        "round_won",
        "round_lost",
        "tie",
        "blocked_round",
        "draw_battle",
        "block_battle",
        "one_card_challenge",
        "revealed_discarded",
        "revealed",
        "alone",
        "sits_out",
        "already",
        "shed_all",
        "forfeit",
        "dare_refused",
        "time_limit",
        "adjudicated",
        "something_new",
    )
    cards = (
        None,
        0,
        7,
        "block",
        "reverse",
        "color_change",
        "draw_two",
        "draw_four",
        "truth",
        "dare",
        "answer",
        "complete",
        "refuse",
        "pass",
        "actions",
        "five",
        "action_card",
        "opponents_draw",
        "counter",
        "block_counter",
        "penalty",
        "bonus",
        "challenge",
        "no_show",
        "deadline",
        "resigned",
        "a referee's note",
        "odd_decision",
    )
    for kind in _TEXTS:
        for cause in causes:
            for card in cards:
                for seat, other, source in (("A", "B", "A"), ("B", None, None), (None, None, "B")):
                    for number, action, short in (
                        (0, 0, False),
                        (1, 0, True),
                        (2, 1, False),
                        (0, 3, True),
                        (3, 0, False),
                    ):
                        if kind == "finish" and number == 1:
                            continue  # a double zero is never one side's
                        out.append(
                            Effect(kind, seat, other, number, action, card, cause, source, short)
                        )
    return out


def test_every_branch_of_every_kind_in_english() -> None:
    names = {"A": "Ann", "B": "Bo"}
    with translation.override("en"):
        for effect in _every_effect():
            stored = json.loads(json.dumps(compact(effect)))
            assert split_uno_line(stored, names) == describe(effect, names), effect


def test_a_line_is_translated_and_a_plain_string_shown_as_it_is() -> None:
    line = compact(Effect("draw", "B", None, 2, 1, None, "seven", "A"))
    names = {"A": "Ann", "B": "Bo"}
    with translation.override("es"):
        spanish = say(line, names)
    assert "Ann" in spanish and "Bo" in spanish
    assert say("Bo draws 2 number cards (Ann's 7)", names) == "Bo draws 2 number cards (Ann's 7)"


def test_a_view_and_a_stored_part_are_put_in_words() -> None:
    line = compact(Effect("reveal", "A", card=7))
    view = {
        "header": {"seats": {"A": "Ann", "B": "Bo"}},
        "log": [{"event": 1, "by": "referee", "lines": [line, "an old line"]}],
    }
    with translation.override("en"):
        shown = effect_words.localised_view(view)
        public = effect_words.localised_public({"event": {}, "log": [line]}, {"A": "Ann"})
    assert shown["log"][0]["lines"] == ["Ann reveals 7", "an old line"]
    assert view["log"][0]["lines"][0] == line  # the adapter's view is not changed
    assert public["log"] == ["Ann reveals 7"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), time_after=st.integers(1, 400))
def test_trois_in_english_says_what_the_engine_says(seed, time_after) -> None:
    from games.trois.bots import BOTS, view_for
    from games.trois.game import Game

    names = ("Ann", "Bo", "Cy", "Di")
    rng = random.Random(seed)
    game = Game(seed, names)
    bots = [BOTS["random"](), BOTS["heuristic"](), BOTS["random"](), BOTS["heuristic"]()]
    effects = []
    while not game.finished:
        if len(game.moves) >= time_after:
            effects.extend(game.apply({"kind": "time"}))
            break
        turn = game.state.turn
        effects.extend(game.apply(bots[turn].choose(view_for(game.state, game.legal()), rng)))
    _check_matching("trois", effects, names)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), groups=st.integers(2, 4))
def test_cpt113_in_english_says_what_the_engine_says(seed, groups) -> None:
    from games.cpt113.bots import BOTS, view_for
    from games.cpt113.game import Game

    names = tuple(f"P{n}" for n in range(2 * groups))
    rng = random.Random(seed)
    game = Game(seed, groups, names)
    bots = [BOTS["random" if n % 2 else "heuristic"]() for n in range(2 * groups)]
    effects = []
    while not game.finished:
        seat = game.state.seat
        effects.extend(game.apply(bots[seat].choose(view_for(game.state, game.legal()), rng)))
    _check_matching("cpt113", effects, names)


def _check_matching(kind: str, effects, names) -> None:
    from play.adapters.matching import log_line

    with translation.override("en"):
        for effect in effects:
            public = json.loads(json.dumps(log_line(kind, effect)))
            assert say(public, names) == effect.text, effect
            if effect.secret is not None:
                own = json.loads(json.dumps(log_line(kind, effect, effect.who)))
                assert say(own, names) == effect.secret, effect


def test_lines_said_once_are_said_again_in_another_language() -> None:
    from play.effect_words import say_all

    lines = [
        compact(Effect("reveal", "A", card=7)),
        {"game": "trois", "kind": "play", "seat": 0, "cards": ["B3", "B4"]},
    ]
    with translation.override("en"):
        english = say_all(lines, {"A": "Ann"})
        assert say_all(lines, {"A": "Ann"}) == english == ["Ann reveals 7", say(lines[1], {})]
        assert say_all(lines[:1], {"A": "Ada"}) == ["Ada reveals 7"]
    with translation.override("fr"):
        assert say_all(lines[:1], {"A": "Ann"}) == ["Ann révèle un 7"]
