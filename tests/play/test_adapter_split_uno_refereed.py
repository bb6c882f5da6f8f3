"""The refereed Split UNO adapter (issue 27): played step by step it equals its restore from
the stored events, any prefix of them included (an undo); refusals change nothing; ``parse``
reads what the consoles post today as their own readers do; the record replays in
``python -m duels.engine replay``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import UTC, datetime
from typing import Any

import pytest
from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st

from duels.forms import EndingForm
from games.split_uno import Duel, Simulator
from play.adapters.base import Command, Refused, Viewer
from play.adapters.split_uno_refereed import ADAPTER, WORDS, parse
from play.effect_words import say, say_all
from play.models import GameEvent, HolderKind
from play.registry import adapter_for
from play.selectors import view_of
from play.services import Actor, Holder, apply_command, start_game
from tests.play.adapter_checks import PUBLIC, REFEREE, wire

TWO = {"ruleset": "paper", "names": {"A": "Ann", "B": "Bo"}}
#: Four seats in two teams, few cards so that games reach their end and challenges.
TEAMS = {
    "ruleset": "official",
    "variants": ["team"],
    "options": {"starting_number_cards": 4, "number_pool": 30},
    "names": {"A": "Ann", "B": "Bo", "C": "Cy", "D": "Di"},
    "teams": [["A", "C"], ["B", "D"]],
}
THREE = {
    "ruleset": "tournament",
    "options": {"max_seats": 3, "starting_number_cards": 5, "starting_action_cards": {"C": 2}},
    "names": {"A": "Ann", "B": "Bo", "C": "Cy"},
}
CONFIGS = [TWO, TEAMS, THREE]


def letters(config: dict) -> str:
    return "".join(config["names"])


def views(table: Any) -> str:
    """What every viewer is shown, as bytes would be (the same for all: nothing is hidden)."""
    seen = {
        "public": ADAPTER.view(table, PUBLIC),
        "referee": ADAPTER.view(table, REFEREE),
        "owner": ADAPTER.view(table, Viewer("owner")),
    }
    seen.update({s: ADAPTER.view(table, Viewer("seat", s)) for s in table.duel.seats})
    texts = {k: json.dumps(v, sort_keys=True) for k, v in seen.items()}
    assert len(set(texts.values())) == 1, "every viewer sees the same"
    return texts["public"]


def legal_command(table: Any, rng: random.Random) -> Command:
    """A legal command the engine's bots choose for the table as it stands, as the referee
    enters it, or now and then as the seat it concerns sends it, or an ending."""
    bots = ["random"] * len(table.duel.seats)
    sim = Simulator(Duel.from_record(ADAPTER.record(table)), bots, rng)
    roll = rng.random()
    seats = ADAPTER.view(table, PUBLIC)["next"]["endings"]["forfeit"]  # the seats in play
    if roll < 0.01:
        return Command("forfeit", None, {"seat": rng.choice(seats), "reason": "no show"})
    if roll < 0.015:
        return Command("adjudicate", None, {"winner": rng.choice(seats), "reason": "paper"})
    if roll < 0.02:
        return Command(rng.choice(["time", "time_limit"]), None, {})
    event = sim.next_event()
    assert event is not None
    args = {k: v for k, v in event.items() if k != "type"}
    if event["type"] in ("action", "respond") and rng.random() < 0.3:
        seat = args.pop("seat")
        return Command(event["type"], seat, args)
    return Command(event["type"], None, args)


def junk(table: Any, rng: random.Random) -> Command:
    """Commands a console (or a script) might send, mostly refused."""
    seat = rng.choice([*table.duel.seats, "Z"])
    return rng.choice(
        [
            Command("round", None, {"cards": {"A": 10, "B": 3}}),
            Command("round", None, {"cards": "73"}),
            Command("round", None, {"cards": {"A": 7, "B": 3, "Q": 1}}),
            Command("round", seat, {"cards": {"A": 1, "B": 2}}),
            Command("action", None, {"seat": seat, "card": rng.choice(["block", "joker"])}),
            Command("action", seat, {"seat": "B" if seat == "A" else "A", "card": "block"}),
            Command("action", None, {"seat": "A", "card": "color_change", "color": "pink"}),
            Command("respond", None, {"seat": seat, "choice": rng.choice(["pass", "dance", 7])}),
            Command("respond", seat, {"choice": "pass"}),
            Command("forfeit", None, {"seat": seat, "reason": 5}),
            Command("adjudicate", None, {"winner": None}),
            Command("resign", None, {"seat": "A"}),
            Command("time", seat),
            Command("time", None, {"reason": "late"}),
            Command("seal", seat, {"card": 3}),
            Command("type", None, {}),
        ]
    )


def refused_changes_nothing(table: Any, command: Command) -> bool:
    """Apply ``command``; if refused (in words), nothing anyone sees or stored has changed.
    True if it was taken (a junk command that happens to be legal)."""
    before, events, record = views(table), wire(table.events), ADAPTER.record(table)
    awaiting = ADAPTER.awaiting(table)
    try:
        new = ADAPTER.apply(table, command)
    except Refused as err:
        text = str(err)
        # In words: a sentence (the engine's may open with a quoted word: 'pass' is not…).
        assert (text[:1].isupper() or text[:1] == "'") and text.endswith("."), text
        assert views(table) == before and wire(table.events) == events
        assert ADAPTER.record(table) == record and ADAPTER.awaiting(table) == awaiting
        return False
    assert table.events[-1:] == new
    return True


@settings(max_examples=15, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    steps=st.integers(0, 80),
    rng=st.randoms(use_true_random=False),
)
def test_played_step_by_step_equals_restored_from_any_prefix_of_its_events(
    config: dict, steps: int, rng: random.Random
) -> None:
    seats = letters(config)
    table, opening = ADAPTER.start(config, seats, b"any seed, never read")
    assert [e.by for e in opening] == ["referee"] and not opening[0].private
    assert opening[0].public["header"]["seats"] == config["names"]
    seen = [views(table)]
    for _ in range(steps):
        if ADAPTER.finished(table):
            assert ADAPTER.awaiting(table) == []
            assert ADAPTER.view(table, PUBLIC)["next"] is None
            break
        asked = ADAPTER.awaiting(table)
        view = ADAPTER.view(table, PUBLIC)
        if view["decision"]:
            assert [(a.seat, a.what) for a in asked] == [(view["decision"]["seat"], "decide")]
            assert view["next"]["round"] is None and view["next"]["actions"] == {}
        else:
            assert [a.seat for a in asked] == view["next"]["round"]["seats"]
        assert all(a.seconds is None for a in asked)
        if rng.random() < 0.3 and refused_changes_nothing(table, junk(table, rng)):
            seen.append(views(table))
            continue
        command = legal_command(table, rng)
        (event,) = ADAPTER.apply(table, command)
        expected_by = {"time": "clock"}.get(command.name, command.seat or "referee")
        assert event.by == expected_by and event.public["log"] and not event.private
        seen.append(views(table))
    assert len(seen) == len(table.events)
    # Restored from every prefix of its events, read back through JSON: the table as it was
    # then (what an undo shows), and from all of them the table as it is, going on alike.
    stored = wire(table.events)
    for k in sorted({1, len(stored), rng.randint(1, len(stored))}):
        restored = ADAPTER.restore(config, seats, b"", stored[:k])
        assert views(restored) == seen[k - 1]
    assert ADAPTER.awaiting(restored) == ADAPTER.awaiting(table)
    assert ADAPTER.finished(restored) == ADAPTER.finished(table)
    assert ADAPTER.record(restored) == ADAPTER.record(table)
    if not ADAPTER.finished(table):
        command = legal_command(table, random.Random(0))
        assert wire(ADAPTER.apply(restored, command)) == wire(ADAPTER.apply(table, command))
        assert views(restored) == views(table)
    # The record converts back into the same events (the migration's step), its log kept;
    # a record does not say who entered an event: the referee did.
    logs = [e.public["log"] for e in table.events[1:]]
    again = ADAPTER.events_from_record(ADAPTER.record(table), logs)
    assert again[:2] == (config_as_stored(config), list(seats))
    assert [e.public for e in wire(again[2])] == [e.public for e in wire(table.events)]
    assert {e.by for e in again[2]} == {"referee"}


def config_as_stored(config: dict) -> dict:
    """The config as ``config_of`` reads it back from a record (optional fields filled in)."""
    return {"variants": [], "options": {}, **config}


def test_a_finished_game_is_refused_in_words_and_its_record_replays_in_the_command_line() -> None:
    """One whole team game to its end; the engine's command line reads the adapter's record
    and prints the state every viewer is shown."""
    rng = random.Random(7)
    table, _ = ADAPTER.start(TEAMS, "ABCD", b"")
    while not ADAPTER.finished(table):
        command = legal_command(table, rng)
        if command.name in ("forfeit", "adjudicate", "time", "time_limit"):
            continue  # played to its end by the rules
        ADAPTER.apply(table, command)
    assert len(table.events) > 5
    assert not refused_changes_nothing(table, Command("round", None, {"cards": {"A": 1}}))
    with pytest.raises(Refused, match=r"^The duel is finished"):
        ADAPTER.apply(table, Command("time_limit", None, {}))
    done = subprocess.run(
        [sys.executable, "-m", "duels.engine", "replay", "-"],
        input=json.dumps(ADAPTER.record(table)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ADAPTER.view(table, PUBLIC)["state"]


def test_the_view_names_the_decision_and_what_the_referee_may_enter() -> None:
    table, _ = ADAPTER.start(THREE, "ABC", b"")
    view = ADAPTER.view(table, REFEREE)
    assert view["next"]["round"] == {
        "seats": ["A", "B", "C"],
        "all_blocked": False,
        "targets": {"A": ["B", "C"], "B": ["A", "C"], "C": ["A", "B"]},
    }
    assert list(view["next"]["actions"]) == ["C"] and "truth" not in view["next"]["actions"]["C"]
    ADAPTER.apply(table, Command("action", "C", {"card": "draw_four", "target": "A"}))
    view = ADAPTER.view(table, Viewer("seat", "B"))
    assert view["decision"] is None  # A holds no action card: no counter is asked
    ADAPTER.apply(table, Command("action", None, {"seat": "C", "card": "block", "target": "B"}))
    view = ADAPTER.view(table, PUBLIC)
    assert view["state"]["seats"]["B"]["blocked"]
    assert view["next"]["round"]["seats"] == ["A", "C"]
    assert [(a.seat, a.what) for a in ADAPTER.awaiting(table)] == [
        ("A", "reveal"),
        ("C", "reveal"),
    ]
    assert say(view["log"][-1]["lines"][0], THREE["names"]) == "Cy plays BLOCK on Bo"
    with pytest.raises(ValueError):
        ADAPTER.view(table, Viewer("seat", "D"))
    assert adapter_for("split_uno_refereed") is ADAPTER


def test_a_seat_commands_only_for_itself_and_resigns() -> None:
    table, _ = ADAPTER.start(TWO, "AB", b"")
    for command, words in [
        (Command("round", "A", {"cards": {"A": 1, "B": 2}}), WORDS["referee_only"]),
        (Command("respond", "A", {"seat": "B", "choice": "pass"}), WORDS["own_seat"]),
        (Command("action", "C", {"card": "block"}), WORDS["own_seat"]),
        (Command("resign", None, {"seat": "A"}), WORDS["resign"]),
        (Command("deal", None), WORDS["unknown"]),
        (Command("round", None, ["cards"]), WORDS["unknown"]),  # type: ignore[arg-type]
        (Command("action", ["A"], {"card": "block"}), WORDS["own_seat"]),  # type: ignore[arg-type]
    ]:
        with pytest.raises(Refused) as refused:
            ADAPTER.apply(table, command)
        assert str(refused.value) == words
    (event,) = ADAPTER.apply(table, Command("resign", "B"))
    assert event.by == "B"
    assert event.public["event"] == {"type": "forfeit", "seat": "B", "reason": "resigned"}
    assert say_all(event.public["log"], TWO["names"]) == [
        "Bo forfeits (resigned): Ann wins the duel"
    ]


@pytest.mark.parametrize(
    "config",
    [
        {"names": {"A": "Ann", "B": "Bo"}},  # no ruleset
        {"ruleset": "tournament", "names": {"A": "Ann", "C": "Cy"}},
        {"ruleset": "tournament", "names": {"A": "Ann", "B": "Bo", "C": "Cy"}},  # max_seats 2
        {"ruleset": "official", "variants": ["team"], "names": {"A": "Ann", "B": "Bo"}},
        {"ruleset": "tournament", "names": ["Ann", "Bo"]},
    ],
)
def test_a_set_up_the_engine_refuses_is_refused_in_words(config: dict) -> None:
    with pytest.raises(Refused) as refused:
        ADAPTER.start(config, letters(config) if isinstance(config["names"], dict) else "AB", b"")
    assert str(refused.value)[:1].isupper() and str(refused.value).endswith(".")


# -- parse: the one reader of the consoles' posts ------------------------------------------------

#: Posts of today's tests (tests/duels/test_console_views.py, tests/tables/test_table_views.py,
#: tests/tournaments/test_intent.py), as a browser sends them (text), and their commands.
TODAY = [
    ("AB", {"type": "round", "seq": "0", "rev": "0", "card_A": "7", "card_B": "3"},
     Command("round", None, {"cards": {"A": 7, "B": 3}})),
    ("AB", {"type": "round", "seq": "2", "rev": "2", "card_A": "", "card_B": "5"},
     Command("round", None, {"cards": {"B": 5}})),
    ("AB", {"type": "round", "rev": "1", "round_all_blocked": "1"},
     Command("round", None, {"cards": {}})),
    ("AB", {"seq": "1", "rev": "1", "type": "action", "play": "B:green"},
     Command("action", None, {"seat": "B", "card": "color_change", "color": "green"})),
    ("AB", {"seq": "1", "rev": "1", "type": "action", "play": "A:draw_two"},
     Command("action", None, {"seat": "A", "card": "draw_two"})),
    ("AB", {"seq": "1", "rev": "1", "type": "action", "seat": "B", "card": "color_change",
            "color": "green"},
     Command("action", None, {"seat": "B", "card": "color_change", "color": "green"})),
    ("AB", {"seq": "0", "rev": "0", "type": "action", "seat": "A", "card": "block"},
     Command("action", None, {"seat": "A", "card": "block"})),
    ("ABC", {"type": "round", "card_A": "7", "target_A": "C", "card_B": "1", "card_C": "2",
             "target_C": "A", "rev": "0"},
     Command("round", None, {"cards": {"A": 7, "B": 1, "C": 2}, "targets": {"A": "C"}})),
    ("ABC", {"type": "respond", "seat": "B", "choice": "pass", "rev": "1"},
     Command("respond", None, {"seat": "B", "choice": "pass"})),
    ("ABC", {"type": "action", "seat": "A", "card": "block", "target": "C"},
     Command("action", None, {"seat": "A", "card": "block", "target": "C"})),
    ("ABC", {"ending": "time_limit", "reason": "late", "confirm": "on", "rev": "3"},
     Command("time_limit", None, {"reason": "late"})),
    ("AB", {"seq": "0", "rev": "0", "ending": "forfeit_B", "reason": "no  show",
            "confirm": "on"},
     Command("forfeit", None, {"seat": "B", "reason": "no show"})),
    ("AB", {"ending": "adjudicate_B", "reason": "played on paper", "confirm": "1"},
     Command("adjudicate", None, {"winner": "B", "reason": "played on paper"})),
]  # fmt: skip

#: What today's readers refuse, and the words parse refuses it in.
REFUSED = [
    ("AB", {"seq": "1", "rev": "1", "type": "action", "play": bad}, "pick_card")
    for bad in ("C:block", "B:purple", "B", ":block")
] + [
    ("AB", {"type": "action", "seat": "B", "card": "color_change"}, "colour"),
    ("ABC", {"type": "round", "card_A": "٣", "rev": "1"}, "digit"),
    ("ABC", {"type": "round", "card_A": "²"}, "digit"),
    ("ABC", {"type": "round", "rev": "1"}, "pick_cards"),
    ("ABC", {"type": "round", "card_A": "0", "card_B": "1", "card_C": "2"}, "round_target"),
    ("ABC", {"type": "action", "seat": "Z", "card": "block", "rev": "1"}, "which_seat"),
    ("ABC", {"type": "action", "seat": "A", "card": "block", "rev": "1"}, "target"),
    ("ABC", {"type": "dance", "rev": "1"}, "not_a_move"),
    ("AB", {}, "not_a_move"),
    ("AB", {"type": "respond", "seat": "A", "choice": "x" * 21}, "choice"),
    ("ABC", {"ending": "forfeit_B", "reason": "", "confirm": "on", "rev": "1"}, "reason"),
    ("AB", {"ending": "forfeit_B", "reason": "ill", "seq": "0", "rev": "0"}, "confirm"),
    ("AB", {"ending": "forfeit_C", "reason": "ill", "confirm": "on"}, "ending_offered"),
    ("AB", {"ending": "", "reason": "ill", "confirm": "on"}, "ending"),
    ("AB", {"ending": "time_limit", "reason": "x" * 201, "confirm": "on"}, "reason_long"),
    ("AB", {"ending": "time_limit", "reason": "a\x00b", "confirm": "on"}, "reason_control"),
]


@pytest.mark.parametrize(("seats", "post", "command"), TODAY)
def test_parse_reads_what_the_consoles_post_today(seats: str, post: dict, command: Command):
    assert parse(post, seats) == command
    assert parse(query(post), seats) == command


@pytest.mark.parametrize(("seats", "post", "key"), REFUSED)
def test_parse_refuses_what_is_no_move_in_words(seats: str, post: dict, key: str) -> None:
    with pytest.raises(Refused) as refused:
        parse(post, seats, noun="duel")
    text = str(refused.value)
    assert text.split(" ")[:2] == WORDS[key].split(" ")[:2] and text.endswith(".")
    assert "{" not in text and ("game" not in text or key == "referee_only")


FIELD = st.sampled_from(["", "0", "7", "3", "9", "10", "x", "A", "B", "C", "Z"])
CARD = st.sampled_from(["", "block", "color_change", "draw_two", "truth", "joker"])
POSTS = st.fixed_dictionaries(
    {"type": st.sampled_from(["round", "action", "respond", "dance"])},
    optional={
        "card_A": FIELD,
        "card_B": FIELD,
        "card_C": FIELD,
        "target_A": FIELD,
        "target": FIELD,
        "seat": st.sampled_from(["", "A", "B", "C", "Z"]),
        "card": CARD,
        "color": st.sampled_from(["", "red", "pink"]),
        "choice": st.sampled_from(["", "pass", "draw_four", "x" * 21]),
        "round_all_blocked": st.just("1"),
    },
)
ENDING_POSTS = st.fixed_dictionaries(
    {
        "ending": st.sampled_from(["", "time_limit", "forfeit_A", "adjudicate_C", "forfeit_B"]),
        "reason": st.sampled_from(["", "late", "  no   show ", "x" * 201]),
    },
    optional={"confirm": st.sampled_from(["on", ""])},
)


def query(post: dict) -> QueryDict:
    """``post`` as a view holds it."""
    data = QueryDict(mutable=True)
    data.update(post)
    return data


def _event(command: Command) -> dict:
    return {"type": command.name, **command.args}


@settings(max_examples=150, deadline=None)
@given(
    post=st.one_of(
        POSTS,
        st.fixed_dictionaries(
            {"type": st.just("action"), "play": st.sampled_from(["A:block", "B:red", "C:dare"])}
        ),
        ENDING_POSTS,
    )
)
def test_what_the_duel_consoles_ending_form_takes_parse_takes_alike(post: dict) -> None:
    """The duel console reads every post with parse (the one reader of the vocabulary); its
    ending form is kept for the page's errors only. Whatever that form accepts, parse reads
    as the ending chosen, with the reason folded onto one line."""
    data = {"seq": "0", "rev": "0", **post}
    if "type" in post:
        return
    form = EndingForm(data, names={"A": "Ann", "B": "Bo"})
    if not form.is_valid():
        return
    event = _event(parse(data, "AB", noun="duel"))
    ending, reason = form.cleaned_data["ending"], " ".join(form.cleaned_data["reason"].split())
    if ending == "time_limit":
        assert event == {"type": "time_limit", "reason": reason}
    else:
        kind, _, seat = ending.partition("_")
        key = "seat" if kind == "forfeit" else "winner"
        assert event == {"type": kind, key: seat, "reason": reason}


@pytest.mark.django_db
def test_through_the_core_a_posted_move_is_stored_and_an_undone_one_is_gone_from_the_view():
    """The table core's write path with this adapter: a console's post, parsed, applied and
    stored; the view read back from the database is the adapter's; the core's undo (the last
    event marked undone) gives back the view before it."""
    seats = ["A", "B", "C"]
    holders = {s: Holder(HolderKind.REFEREE) for s in seats}
    game = start_game(kind="split_uno_refereed", config=THREE, seats=seats, holders=holders)
    before = view_of(game.pk, PUBLIC)
    post = {"type": "round", "card_A": "7", "target_A": "C", "card_B": "1", "card_C": "2"}
    outcome = apply_command(
        game_id=game.pk,
        actor=Actor(key="user:1"),
        command=parse(query(post), seats),
        key="form-1",
        seen_revision=0,
        policy=lambda game, actor, command: None,
        viewer=PUBLIC,
    )
    assert outcome.view == view_of(game.pk, PUBLIC) != before
    assert outcome.view["log"][-1]["lines"][0] == "Ann reveals 7"
    assert outcome.view["state"]["seats"]["C"]["number_cards"] == 5 + 2 + 1  # a 7, a loss
    GameEvent.objects.filter(game_id=game.pk, seq=2).update(undone_at=datetime.now(UTC))
    assert view_of(game.pk, PUBLIC) == before
