"""Truth and dare at a dealt table (issue 31, ONLINE.md 2 and 3; RULES.md 5): the actor's words
go with the card, bounded, public; the target answers; bots and the clock answer "completed"."""

from __future__ import annotations

import json
from typing import Any

import pytest

from play.adapters.base import Command, Refused, Viewer
from play.adapters.split_uno_dealt import (
    ADAPTER,
    BOT_SAYINGS,
    TIMEOUT,
    DealtTable,
    commands,
    conservation_problems,
)
from play.effect_words import BOT_SAYINGS as SAID_WORDS
from play.effect_words import localised_view, say

NAMES = {"A": "Ann", "B": "Bob", "C": "Cy"}


def holding(config: dict[str, Any], cards: set[str], seats: tuple[str, ...] = ("A", "B")):
    """A table just dealt (seeds tried in turn) at which A may play every card of ``cards``."""
    config = {"names": NAMES, "truth_dare": True, **config}
    for k in range(400):
        table, _ = ADAPTER.start(config, seats, k.to_bytes(2, "big") * 8)
        offer = commands(table, "A").get("play", {}).get("cards", ())
        if cards <= set(offer):
            return table
    raise AssertionError("no seed deals A those cards")


def arbiter(**more: Any) -> dict[str, Any]:
    options = {"starting_number_cards": 6, "starting_action_cards": {"A": 6, "B": 6}}
    return {"ruleset": "arbiter", "options": options, **more}


def choose_all(table: DealtTable) -> None:
    """Every seat asked to shed chooses its lowest card (the sheds a TRUTH or DARE makes)."""
    for seat in table.seats:
        while "choose" in commands(table, seat):
            card = commands(table, seat)["choose"]["cards"][0]
            ADAPTER.apply(table, Command("choose", seat, {"card": card}))


def public_lines(table: DealtTable, person: str | None = None) -> list[str]:
    viewer = Viewer("public") if person is None else Viewer("seat", person)
    view = localised_view(ADAPTER.view(table, viewer), person)
    assert view is not None
    return [line for entry in view["log"] for line in entry["lines"]]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (None, "missing"),
        ("", "empty"),
        ("  \n\t ", "only white space"),
        ("x" * 201, "too long"),
        ("bad\x00byte", "a control character"),
        (7, "not text"),
    ],
)
def test_a_truth_without_fitting_words_is_refused_in_words_and_nothing_changes(
    text: Any, why: str
) -> None:
    table = holding(arbiter(), {"truth"})
    before = (len(table.events), json.dumps(ADAPTER.view(table, Viewer("public"))))
    args = {"card": "truth"} if text is None else {"card": "truth", "text": text}
    with pytest.raises(Refused, match="1 to 200 characters") as refused:
        ADAPTER.apply(table, Command("play", "A", args))
    assert refused.value.words and refused.value.fill == {"most": 200}, why
    assert (len(table.events), json.dumps(ADAPTER.view(table, Viewer("public")))) == before


def test_a_dare_carries_the_actors_words_to_everyone_and_the_target_answers() -> None:
    table = holding(arbiter(), {"dare"})
    words = "  Sing   a song\n<script>alert(1)</script> "
    ADAPTER.apply(table, Command("play", "A", {"card": "dare", "text": words}))
    kept = "Sing a song <script>alert(1)</script>"
    play = next(e for e in table.events if e.public["type"] == "play")
    assert play.public["said"] == {"to": "B", "text": kept}
    choose_all(table)  # arbiter: both shed 1 at once (RULES.md 5)
    asked = commands(table, "B")["answer"]
    assert asked["decision"] == "dare" and asked["choices"] == ["complete", "refuse"]
    assert asked["said"] == {"seat": "A", "card": "dare", "to": "B", "text": kept}
    for viewer in (Viewer("public"), Viewer("seat", "A"), Viewer("seat", "B")):
        assert ADAPTER.view(table, viewer)["said"]["text"] == kept
    assert f"Ann dares Bob: “{kept}”" in public_lines(table)
    assert f"Ann dares you: “{kept}”" in public_lines(table, "B")
    assert f"You dare Bob: “{kept}”" in public_lines(table, "A")
    # Refused under arbiter: the actor chooses the penalty (RULES.md 5).
    ADAPTER.apply(table, Command("answer", "B", {"choice": "refuse"}))
    assert commands(table, "A")["answer"]["decision"] == "penalty"
    assert ADAPTER.view(table, Viewer("public"))["said"] is None
    assert "Bob refuses the dare" in public_lines(table)
    ADAPTER.apply(table, Command("answer", "A", {"choice": "five"}))
    assert conservation_problems(table) == []
    # The words stay in the log, and a restored table reads the same.
    config = {"names": NAMES, "truth_dare": True, **arbiter()}
    restored = ADAPTER.restore(config, table.seats, table.seed, table.events)
    assert ADAPTER.view(restored, Viewer("public")) == ADAPTER.view(table, Viewer("public"))


def test_a_dare_refused_forfeits_under_paper() -> None:
    options = {"starting_number_cards": 6, "starting_action_cards": {"A": 6, "B": 6}}
    table = holding({"ruleset": "paper", "options": options}, {"dare"})
    ADAPTER.apply(table, Command("play", "A", {"card": "dare", "text": "Hop on one foot"}))
    choose_all(table)
    ADAPTER.apply(table, Command("answer", "B", {"choice": "refuse"}))
    state = table.st.duel.state()
    assert (state["finish"], state["winner"]) == ("dare_refused", "A")


def test_a_truth_answered_completed_changes_no_count() -> None:
    table = holding(arbiter(), {"truth"})
    ADAPTER.apply(table, Command("play", "A", {"card": "truth", "text": "Your best card?"}))
    choose_all(table)
    counts = table.st.duel.state()["seats"]
    ADAPTER.apply(table, Command("answer", "B", {"choice": "answer"}))
    assert table.st.duel.state()["seats"] == counts or table.st.duel.finished
    assert "Bob answers the truth" in public_lines(table)


def test_the_clock_answers_a_truth_completed() -> None:
    table = holding(arbiter(seat_clock=30), {"truth"})
    ADAPTER.apply(table, Command("play", "A", {"card": "truth", "text": "Who wins?"}))
    choose_all(table)
    assert commands(table, "B")["answer"]["decision"] == "truth"
    events = ADAPTER.apply(table, Command(TIMEOUT, "B", {}))
    assert events[0].by == "clock" and events[0].public["engine"]["choice"] == "answer"
    assert "Time is up: the clock plays for Bob" in public_lines(table)


def test_a_bot_answers_completed_and_sets_its_own_words() -> None:
    # A is asked nothing after resigning: the bots play the game to its end, TRUTH and DARE
    # included (seeds tried until they do).
    seen_said = seen_answer = False
    options = {"starting_number_cards": 5, "starting_action_cards": {"A": 4, "B": 6, "C": 6}}
    config = {"ruleset": "arbiter", "truth_dare": True, "bots": ["B", "C"], "options": options}
    for k in range(60):
        table, _ = ADAPTER.start(config, ("A", "B", "C"), k.to_bytes(2, "big") * 8)
        ADAPTER.apply(table, Command("resign", "A", {}))
        for event in table.events:
            public = event.public
            if public["type"] == "play" and "said" in public:
                assert event.by.startswith("bot:")
                key = public["said"]["bot"]
                assert key in BOT_SAYINGS[public["engine"]["card"]] and key in SAID_WORDS
                seen_said = True
            engine = public.get("engine") or {}
            if engine.get("type") == "respond" and engine.get("choice") in (
                "answer",
                "complete",
                "refuse",
            ):
                assert engine["choice"] != "refuse"
                seen_answer = True
        if seen_said and seen_answer:
            break
    assert seen_said and seen_answer


def test_a_bots_words_are_said_in_the_readers_language() -> None:
    line = {"say": "said", "seat": "B", "card": "truth", "to": "A", "bot": "truth:2"}
    assert say(line, NAMES, "A") == "Bob asks you: “Which card do you hope to draw next?”"
