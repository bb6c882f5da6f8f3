"""A product's rulings on a dealt game (ONLINE.md 6; play/adapters/split_uno_dealt.py): a
tournament's forfeit (a withdrawal, a no-show) and a referee's adjudication end an online duel
at once, with their reason, in an ordinary record; a resignation carries the reason the config
names. Nothing of a ruling depends on a hidden card."""

from __future__ import annotations

import pytest

from games.split_uno import replay
from play.adapters.base import Command, Refused, Viewer
from play.adapters.split_uno_dealt import (
    ADAPTER,
    ADJUDICATE,
    FORFEIT,
    MAX_REASON,
    conservation_problems,
    read_config,
    record,
)
from play.effect_words import localised_view
from tests.play.test_seat_clock import NAMES, SEED, restored, start

CONFIG = {"ruleset": "tournament", "seat_clock": 30, "names": NAMES}


def sealed_once(config=CONFIG):
    """A two-seat table where A has sealed and B has not: a seal is pending."""
    table = start(config)
    card = ADAPTER.view(table, Viewer("seat", "A"))["hand"]["numbers"][0]
    ADAPTER.apply(table, Command("seal", "A", {"card": card}))
    return table


@pytest.mark.parametrize(
    ("name", "winner", "finish"),
    [(FORFEIT, "A", "forfeit"), (ADJUDICATE, "B", "adjudicated")],
)
def test_a_ruling_ends_the_game_at_once_and_returns_the_seal(name, winner, finish) -> None:
    table = sealed_once()
    ADAPTER.apply(table, Command(name, "B", {"reason": "no_show"}))
    view = ADAPTER.view(table, Viewer("public"))
    assert view["phase"] == "finished"
    assert (view["state"]["winner"], view["state"]["finish"]) == (winner, finish)
    assert view["sealed"] == []  # A's seal went back to A's hand
    assert conservation_problems(table) == []
    rec = record(table)
    ending = rec["events"][-1]
    assert ending["reason"] == "no_show"
    assert replay(rec)["winner"] == winner
    assert restored(table, CONFIG).st.duel.state() == table.st.duel.state()
    # The log says it in words, for anyone.
    said = localised_view(view, None)["log"][-1]["lines"]
    assert said and all(isinstance(line, str) and line for line in said)


@pytest.mark.parametrize("reason", ["", "x" * (MAX_REASON + 1), 7, None])
def test_a_ruling_needs_a_bounded_reason(reason) -> None:
    table = sealed_once()
    with pytest.raises(Refused):
        ADAPTER.apply(table, Command(FORFEIT, "B", {"reason": reason}))
    assert ADAPTER.view(table, Viewer("public"))["phase"] != "finished"


def test_no_ruling_after_the_end() -> None:
    table = sealed_once()
    ADAPTER.apply(table, Command(FORFEIT, "B", {"reason": "withdrawn"}))
    with pytest.raises(Refused):
        ADAPTER.apply(table, Command(ADJUDICATE, "B", {"reason": "late"}))


def test_a_resignation_carries_the_configured_reason() -> None:
    config = {**CONFIG, "resign_reason": "abandoned"}
    table = sealed_once(config)
    ADAPTER.apply(table, Command("resign", "A", {}))
    assert record(table)["events"][-1] == {"type": "forfeit", "seat": "A", "reason": "abandoned"}
    with pytest.raises(Refused):
        read_config({**CONFIG, "resign_reason": "bored"}, ("A", "B"))
    plain = sealed_once()
    ADAPTER.apply(plain, Command("resign", "A", {}))
    assert record(plain)["events"][-1]["reason"] == "resigned"
    assert SEED  # the same deal every run
