"""The game log calls the reader "You" (issue 30): with ``person`` (the reader's seat) a line
about that seat is said in the second person — as subject, object or possessor — and every
other line reads exactly as it did; with no ``person`` nothing changes (test_effect_words.py).
"""

from __future__ import annotations

import json
import random

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.split_uno.effects import _TEXTS, Effect
from play import effect_words
from play.adapters.base import Viewer
from play.adapters.split_uno_dealt import ADAPTER
from play.effect_words import compact, localised_event, localised_view, say, say_all
from tests.play.test_adapter_split_uno_dealt import legal_command
from tests.play.test_effect_words import ENDINGS, RULESETS, _duel

NAMES = {"A": "Mira", "B": "Bot B", "C": "Bot C"}


def _you(effect: Effect) -> str:
    with translation.override("en"):
        return say(json.loads(json.dumps(compact(effect))), NAMES, "A")


E = Effect
#: Each Split UNO kind's lines about the reader (seat A): as subject, object and possessor.
SECOND_PERSON: list[tuple[Effect, str]] = [
    (E("reveal", "A", card=7), "You reveal 7"),
    (E("steal", "A", "B", 1), "You take 1 number card from Bot B (your 0)"),
    (E("steal", "B", "A", 1), "Bot B takes 1 number card from you (Bot B's 0)"),
    (
        E("steal", "A", "B", cause="revealed"),
        "Your 0 takes nothing: Bot B holds no card but the one on the table",
    ),
    (
        E("steal", "B", "A", cause="revealed"),
        "Bot B's 0 takes nothing: you hold no card but the one on the table",
    ),
    (E("steal", "A", "B"), "Your 0 takes nothing: Bot B holds no number card"),
    (E("steal", "B", "A"), "Bot B's 0 takes nothing: you hold no number card"),
    (
        E("draw", "A", None, 2, 1, None, "seven", "C"),
        "You draw 2 number cards and 1 action card (Bot C's 7)",
    ),
    (E("draw", "C", None, 2, 0, None, "seven", "A"), "Bot C draws 2 number cards (your 7)"),
    (E("draw", "B", None, 0, 2, None, "draw_four", "A"), "Bot B draws 2 action cards (your +4)"),
    (
        E("draw", "A", None, 1, 0, None, "draw_two", "B", True),
        "You draw 1 number card (Bot B's +2; the deck ran short)",
    ),
    (
        E("draw", "A", None, 0, 0, None, "draw_four", "B", True),
        "You draw nothing (Bot B's +4; the deck is empty)",
    ),
    (E("draw", "A", None, 0, 0, None, "round_lost"), "You draw nothing (round lost)"),
    (E("draw", "B", None, 0, 2, None, "penalty", "A"), "Bot B draws 2 action cards (your penalty)"),
    (
        E("draw", "B", None, 2, 0, None, "bonus", "A"),
        "Bot B draws 2 number cards (your streak bonus)",
    ),
    (
        E("draw", "B", None, 1, 0, None, "challenge", "A"),
        "Bot B draws 1 number card (your challenge)",
    ),
    (E("shed", "A", None, 1, 0, None, "round_won"), "You shed 1 number card (round won)"),
    (E("shed", "A", cause="revealed_discarded"), "You discard the revealed card (round lost)"),
    (
        E("shed", "A", None, 0, 0, None, "color_change", "B"),
        "You have no number card left to shed (Bot B's COLOR CHANGE)",
    ),
    (
        E("shed", "B", None, 1, 0, None, "color_change", "A"),
        "Bot B sheds 1 number card (your COLOR CHANGE)",
    ),
    (E("win_round", "A", number=1), "You win the round (streak 1)"),
    (E("win_round", "A", number=2, cause="alone"), "You win the round alone (streak 2)"),
    (E("lose_round", "A"), "You lose the round (streak back to 0)"),
    (E("blocked_out", "A", cause="sits_out"), "You are blocked and sit out (streak kept)"),
    (E("blocked_out", "A"), "You are blocked and reveal nothing"),
    (E("unblock", "A"), "Your block is lifted"),
    (E("play", "A", card="reverse"), "You play REVERSE"),
    (E("play", "A", "B", card="block"), "You play BLOCK on Bot B"),
    (E("play", "B", "A", card="draw_four"), "Bot B plays +4 on you"),
    (E("play", "A", card="color_change", cause="red"), "You play COLOR CHANGE and name red"),
    (E("swap", "A", "B"), "You and Bot B swap your whole hands"),
    (E("swap", "B", "A"), "Bot B swaps whole hands with you"),
    (E("reverse_discard", "A", action=1), "You discard 1 action card from the new hand (REVERSE)"),
    (E("reverse_discard", "A"), "Your new hand holds no action card: nothing is discarded"),
    (E("blocked", "A"), "You are blocked for the next number round"),
    (E("blocked", "A", cause="already"), "You are already blocked: the BLOCK adds nothing"),
    (E("block_void", "A"), "The BLOCK on you does not take effect"),
    (E("respond", "A", card="answer", cause="truth"), "You answer the truth"),
    (E("respond", "A", card="complete", cause="dare"), "You complete the dare"),
    (E("respond", "A", card="refuse", cause="truth"), "You refuse the truth"),
    (E("respond", "A", card="refuse", cause="dare"), "You refuse the dare"),
    (E("respond", "A", card="pass", cause="counter"), "You do not counter"),
    (E("respond", "A", card="pass", cause="challenge"), "You do not challenge"),
    (E("respond", "A", card="draw_four", cause="counter"), "You counter with +4"),
    (
        E("respond", "A", "B", card="draw_two", cause="challenge"),
        "You challenge Bot B's win with +2",
    ),
    (
        E("respond", "B", "A", card="draw_two", cause="challenge"),
        "Bot B challenges your win with +2",
    ),
    (
        E("penalty", "A", "B", card="actions"),
        "You choose the penalty: you draw 2 action cards and Bot B 2 number cards",
    ),
    (
        E("penalty", "B", "A", card="actions"),
        "Bot B chooses the penalty: Bot B draws 2 action cards and you 2 number cards",
    ),
    (E("penalty", "A", "B", card="five"), "You choose the penalty: Bot B draws 5 number cards"),
    (E("penalty", "B", "A", card="five"), "Bot B chooses the penalty: you draw 5 number cards"),
    (
        E("bonus", "A", card="action_card"),
        "You claim the streak bonus: 1 action card (streak back to 0)",
    ),
    (
        E("bonus", "A", card="opponents_draw"),
        "You claim the streak bonus: every opponent draws 2 number cards (streak back to 0)",
    ),
    (
        E("one_card_challenge", "A", "B"),
        "You hold a single action card and cannot legally challenge: it stays in hand and "
        "Bot B's win stands",
    ),
    (
        E("one_card_challenge", "B", "A"),
        "Bot B holds a single action card and cannot legally challenge: it stays in hand and "
        "your win stands",
    ),
    (E("zero", "A"), "You are at 0 number cards"),
    (E("await", "A", card="counter"), "Waiting for you: counter with +2 or +4, or pass"),
    (E("await", "A", card="block_counter"), "Waiting for you: counter with BLOCK, or pass"),
    (E("await", "A", "B", card="truth"), "Waiting for you: answer Bot B's TRUTH, or refuse"),
    (E("await", "B", "A", card="truth"), "Waiting for Bot B: answer your TRUTH, or refuse"),
    (E("await", "A", "B", card="dare"), "Waiting for you: complete Bot B's DARE, or refuse"),
    (E("await", "B", "A", card="dare"), "Waiting for Bot B: complete your DARE, or refuse"),
    (
        E("await", "A", "B", card="penalty"),
        "Waiting for you: penalty for Bot B's refusal: you draw 2 action cards and Bot B 2 "
        "number cards, or Bot B draws 5 number cards",
    ),
    (
        E("await", "B", "A", card="penalty"),
        "Waiting for Bot B: penalty for your refusal: Bot B draws 2 action cards and you 2 "
        "number cards, or you draw 5 number cards",
    ),
    (
        E("await", "A", card="bonus"),
        "Waiting for you: bonus: you draw 1 action card, or every opponent draws 2 number cards",
    ),
    (
        E("await", "A", "B", card="bonus"),
        "Waiting for you: bonus: you draw 1 action card, or Bot B draws 2 number cards",
    ),
    (
        E("await", "B", "A", card="bonus"),
        "Waiting for Bot B: bonus: Bot B draws 1 action card, or you draw 2 number cards",
    ),
    (
        E("await", "A", "B", card="challenge"),
        "Waiting for you: challenge Bot B, at 0 number cards, with +2 or +4, or pass",
    ),
    (
        E("await", "B", "A", card="challenge"),
        "Waiting for Bot B: challenge you, at 0 number cards, with +2 or +4, or pass",
    ),
    (E("leave", "A", card="resigned"), "You leave the game (resigned)"),
    (E("leave", "A"), "You leave the game"),
    (
        E("lapse", "A", card="block_counter"),
        "The block counter asked of you lapses: a seat it concerns has left",
    ),
    (E("finish", "A", cause="shed_all"), "You win the duel with no number cards left"),
    (E("finish", "A", "B", cause="forfeit"), "Bot B forfeits: you win the duel"),
    (
        E("finish", "A", "B", card="no_show", cause="forfeit"),
        "Bot B forfeits (did not show up): you win the duel",
    ),
    (E("finish", "B", "A", cause="forfeit"), "You forfeit: Bot B wins the duel"),
    (
        E("finish", "B", "A", card="resigned", cause="forfeit"),
        "You forfeit (resigned): Bot B wins the duel",
    ),
    (
        E("finish", "A", "B", cause="dare_refused"),
        "Bot B refused the dare and forfeits: you win the duel",
    ),
    (
        E("finish", "B", "A", cause="dare_refused"),
        "You refused the dare and forfeit: Bot B wins the duel",
    ),
    (E("finish", "A", cause="time_limit"), "Time limit: you win with the fewest number cards"),
    (
        E("finish", "A", card="deadline", cause="time_limit"),
        "Time limit (deadline): you win with the fewest number cards",
    ),
    (E("finish", "A", cause="adjudicated"), "The referee adjudicates the duel to you"),
    (
        E("finish", "A", card="a note", cause="adjudicated"),
        "The referee adjudicates the duel to you (a note)",
    ),
]


@pytest.mark.parametrize(
    ("effect", "expected"), SECOND_PERSON, ids=lambda x: getattr(x, "kind", "")
)
def test_a_line_about_the_reader_says_you(effect: Effect, expected: str) -> None:
    assert _you(effect) == expected


def test_every_kind_that_names_a_seat_has_its_second_person_lines() -> None:
    covered = {effect.kind for effect, _ in SECOND_PERSON}
    assert covered == set(_TEXTS) - {"tie", "all_blocked"}  # those two name no seat


def test_a_dealt_tables_own_lines_say_you() -> None:
    lines = {
        "sealed": ({"say": "sealed", "seat": "A"}, "You have sealed a card"),
        "shed": ({"say": "shed", "seat": "A", "card": 7}, "You shed a 7"),
        "gives_up": ({"say": "gives_up", "seat": "A", "card": "block"}, "You give up BLOCK"),
    }
    with translation.override("en"):
        for line, expected in lines.values():
            assert say(line, NAMES, "A") == expected
            assert say({**line, "seat": "B"}, NAMES, "A") == say({**line, "seat": "B"}, NAMES)
            assert "Mira" in say(line, NAMES)


def _involves(line: dict, seat: str) -> bool:
    return seat in (line.get("seat"), line.get("other"), line.get("source"))


def _check(lines: list, person_name: str, seat: str, names: dict) -> None:
    """Lines about ``seat`` never name it; every other line reads as without a person."""
    with translation.override("en"):
        for line in lines:
            mine, theirs = say(line, names, seat), say(line, names)
            if _involves(line, seat):
                assert person_name not in mine, (line, mine)
            else:
                assert mine == theirs, line


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    seats=st.integers(2, 6),
    ruleset=st.sampled_from(RULESETS),
    truth_dare=st.booleans(),
    ending=st.sampled_from(ENDINGS),
)
def test_over_random_duels_only_the_readers_lines_change(seed, seats, ruleset, truth_dare, ending):
    names, effects = _duel(seed, seats, ruleset, truth_dare, ending)
    names = {**names, "A": "Mira"}
    lines = [json.loads(json.dumps(compact(e))) for e in effects]
    _check(lines, "Mira", "A", names)


#: Dealt tables the person (seat A) plays against bots, as practice seats them.
DEALT = [
    {"ruleset": "tournament", "bots": ["B"], "options": {"starting_number_cards": 4}},
    {"ruleset": "official", "bots": ["B", "C"], "options": {"starting_number_cards": 4}},
    {
        "ruleset": "official",
        "variants": ["team"],
        "teams": [["A", "C"], ["B", "D"]],
        "bots": ["B", "C", "D"],
        "options": {"starting_number_cards": 3, "number_pool": 20},
    },
    {"ruleset": "paper", "bots": ["B", "C", "D", "E"], "options": {"starting_number_cards": 3}},
]


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(layout=st.integers(0, len(DEALT) - 1), seed=st.binary(min_size=16, max_size=16))
def test_over_random_dealt_games_the_reader_is_you(layout: int, seed: bytes) -> None:
    config = dict(DEALT[layout])
    seats = ("A", *config["bots"])
    config["names"] = {"A": "Mira", **{s: f"Bot {s}" for s in config["bots"]}}
    rnd = random.Random(seed)
    table, _ = ADAPTER.start(config, seats, seed)
    for _ in range(60):
        if ADAPTER.finished(table):
            break
        command = legal_command(table, rnd, ["A"])
        assert command is not None
        ADAPTER.apply(table, command)
    view = ADAPTER.view(table, Viewer("seat", "A"))
    with translation.override("en"):
        mine = localised_view(view, person="A")
        theirs = localised_view(view)
    assert mine is not None and theirs is not None
    for entry, said, before in zip(view["log"], mine["log"], theirs["log"], strict=True):
        for line, text, old in zip(entry["lines"], said["lines"], before["lines"], strict=True):
            if _involves(line, "A"):
                assert "Mira" not in text, (line, text)
            else:
                assert text == old, line
    assert any("Mira" in text for e in theirs["log"] for text in e["lines"])


def _trois_lines(seed: int) -> list[dict]:
    from games.trois.bots import BOTS, view_for
    from games.trois.game import Game
    from play.adapters.matching import log_line

    game = Game(seed, ("Mira", "Bo", "Cy", "Di"))
    rng = random.Random(seed)
    bots = [BOTS["random"](), BOTS["heuristic"](), BOTS["random"](), BOTS["heuristic"]()]
    lines = []
    while not game.finished:
        if len(game.moves) >= 120:
            effects = game.apply({"kind": "time"})
        else:
            turn = game.state.turn
            effects = game.apply(bots[turn].choose(view_for(game.state, game.legal()), rng))
        for effect in effects:
            lines.append(json.loads(json.dumps(log_line("trois", effect))))
            if effect.secret is not None:
                lines.append(json.loads(json.dumps(log_line("trois", effect, effect.who))))
    return lines


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_trois_says_you_to_seat_0(seed: int) -> None:
    names = ("Mira", "Bo", "Cy", "Di")
    with translation.override("en"):
        for line in _trois_lines(seed):
            mine, theirs = say(line, names, 0), say(line, names)
            # Trois's end at its time says every seat's count, the reader's among them.
            if line.get("seat") == 0 or line.get("kind") == "time":
                assert "Mira" not in mine and mine != theirs, (line, mine)
            else:
                assert mine == theirs, line


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), groups=st.integers(2, 4))
def test_cpt113_says_you_to_seat_0(seed: int, groups: int) -> None:
    from games.cpt113.bots import BOTS, view_for
    from games.cpt113.game import Game
    from play.adapters.matching import log_line

    names = ("Mira", *(f"P{n}" for n in range(1, 2 * groups)))
    rng = random.Random(seed)
    game = Game(seed, groups, names)
    bots = [BOTS["random" if n % 2 else "heuristic"]() for n in range(2 * groups)]
    with translation.override("en"):
        while not game.finished:
            seat = game.state.seat
            for effect in game.apply(bots[seat].choose(view_for(game.state, game.legal()), rng)):
                line = json.loads(json.dumps(log_line("cpt113", effect)))
                mine, theirs = say(line, names, 0), say(line, names)
                if line.get("seat") == 0 or line.get("misses") == 0:
                    assert "Mira" not in mine and mine != theirs, (line, mine)
                else:
                    assert mine == theirs, line


def test_a_matching_games_view_takes_the_seats_letter() -> None:
    view = {
        "seats": [{"seat": "A", "name": "Mira"}, {"seat": "B", "name": "Bo"}],
        "log": [{"event": 0, "by": "A", "lines": [{"game": "trois", "kind": "win", "seat": 0}]}],
    }
    with translation.override("en"):
        assert localised_view(view, person="A")["log"][0]["lines"] == [
            "You have no card left and win."
        ]
        assert localised_view(view, person="B")["log"][0]["lines"] == [
            "Mira has no card left and wins."
        ]
        assert localised_view(view)["log"][0]["lines"] == ["Mira has no card left and wins."]


def test_the_caches_keep_one_readers_you_from_another() -> None:
    lines = [compact(Effect("reveal", "A", card=7))]
    public = {"log": lines}
    names = {"A": "Mira"}
    with translation.override("en"):
        assert say_all(lines, names, person="A") == ["You reveal 7"]
        assert say_all(lines, names) == ["Mira reveals 7"]
        assert say_all(lines, names, person="B") == ["Mira reveals 7"]
        key, language = (1, "a moment"), effect_words.language_key()
        assert localised_event(key, public, names, language, "A")["log"] == ["You reveal 7"]
        assert localised_event(key, public, names, language)["log"] == ["Mira reveals 7"]


@pytest.mark.parametrize(
    ("language", "effect", "expected"),
    [
        ("es", E("reveal", "A", card=7), "Revelas un 7"),
        ("fr", E("reveal", "A", card=7), "Vous révélez un 7"),
        ("ms", E("reveal", "A", card=7), "Anda mendedahkan 7"),
        ("es", E("play", "B", "A", card="draw_four"), "Bot B juega +4 contra ti"),
        ("fr", E("play", "B", "A", card="draw_four"), "Bot B joue +4 sur vous"),
        ("ms", E("play", "B", "A", card="draw_four"), "Bot B memainkan +4 ke atas anda"),
        (
            "es",
            E("draw", "C", None, 2, 0, None, "seven", "A"),
            "Bot C roba 2 cartas numéricas (tu 7)",
        ),
    ],
)
def test_the_reader_is_you_in_every_language(language: str, effect: Effect, expected: str) -> None:
    line = compact(effect)
    with translation.override(language):
        assert say(line, NAMES, "A") == expected
