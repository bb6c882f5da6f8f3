"""The dealt Split UNO adapter (ONLINE.md) over random play: restore, refusals, conservation,
JSON, and what each viewer may see.

Random play drives every person seat with a legal command (or, now and then, a junk one that
must be refused without changing anything) to a random point; bots answer inside ``apply``.
"""

from __future__ import annotations

import json
import random
import re
import sys
from dataclasses import asdict
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.split_uno import CARDS, COLORS, replay
from play.adapters.base import DEALER, Command, Event, Refused, Viewer
from play.adapters.split_uno_dealt import (
    ADAPTER,
    DealtTable,
    commands,
    conservation_problems,
    record,
)
from play.effect_words import localised_view

#: Tables the properties play at: small hands and pools so that games reach their end (the
#: challenge windows, a dry deck, the last choices) within a few dozen commands.
LAYOUTS: list[tuple[tuple[str, ...], dict[str, Any]]] = [
    (("A", "B"), {"ruleset": "tournament", "bots": ["B"], "options": {"starting_number_cards": 5}}),
    (("A", "B"), {"ruleset": "paper", "options": {"starting_number_cards": 4, "number_pool": 14}}),
    (
        ("A", "B", "C"),
        {"ruleset": "official", "bots": ["B"], "options": {"starting_number_cards": 4}},
    ),
    (
        ("A", "B", "C", "D"),
        {
            "ruleset": "official",
            "variants": ["team"],
            "teams": [["A", "C"], ["B", "D"]],
            "bots": ["C", "D"],
            "bot": "random",
            "options": {"starting_number_cards": 3, "number_pool": 20},
        },
    ),
    # Truth and dare on (ONLINE.md 2): action cards in hand from the deal, so that TRUTH and
    # DARE are played, answered, refused and penalised within a short game.
    (
        ("A", "B"),
        {
            "ruleset": "arbiter",
            "truth_dare": True,
            "bots": ["B"],
            "options": {
                "starting_number_cards": 4,
                "action_pool": 12,
                "starting_action_cards": {"A": 4, "B": 4},
            },
        },
    ),
    (
        ("A", "B", "C"),
        {
            "ruleset": "paper",
            "truth_dare": True,
            "bots": ["C"],
            "options": {
                "starting_number_cards": 4,
                "number_pool": 30,
                "action_pool": 12,
                "starting_action_cards": {"A": 3, "B": 3, "C": 3},
            },
        },
    ),
]
#: What the properties' persons say with a TRUTH or DARE (markup and white space included).
SAID = ["Why?", "  sing   a\nsong ", "<script>alert(1)</script>", "x" * 200]
CARD_ID = re.compile(r'"[na]\d+"')
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)


def snapshot(table: DealtTable) -> str:
    """Everything the table holds, as one string."""
    s = table.st
    return json.dumps(
        {
            "record": s.duel.record(),
            "nval": s.nval,
            "akind": s.akind,
            "hand_n": s.hand_n,
            "hand_a": s.hand_a,
            "decks": [s.deck_n, s.deck_a],
            "discards": [s.disc_n, s.disc_a],
            "seals": {k: list(v) for k, v in s.seals.items()},
            "chooses": s.chooses,
        },
        sort_keys=True,
    )


def as_json(event: Event) -> str:
    return json.dumps(asdict(event), sort_keys=True)


def from_json(text: str) -> Event:
    return Event(**json.loads(text))


def view(table: DealtTable, viewer: Viewer) -> str:
    return json.dumps(ADAPTER.view(table, viewer), sort_keys=True)


def viewers(seats: tuple[str, ...]) -> list[Viewer]:
    return [Viewer("public"), Viewer("owner"), Viewer("referee")] + [
        Viewer("seat", s) for s in seats
    ]


def legal_command(table: DealtTable, rnd: random.Random, persons: list[str]) -> Command | None:
    """A random command one of the persons may give now (resigning rarely)."""
    offers = [
        (seat, name, spec) for seat in persons for name, spec in commands(table, seat).items()
    ]
    if not offers:
        return None
    moves = [o for o in offers if o[1] != "resign"]
    if not moves or rnd.random() < 0.02:
        moves = offers
    seat, name, spec = rnd.choice(moves)
    args: dict[str, Any] = {}
    if name in ("seal", "choose", "play"):
        args["card"] = rnd.choice(spec["cards"])
        if spec.get("targets"):
            args["target"] = rnd.choice(spec["targets"])
        if name == "play":
            args["color"] = rnd.choice(COLORS)
            if args["card"] in ("truth", "dare"):
                args["text"] = rnd.choice(SAID)
    elif name == "answer":
        args["choice"] = rnd.choice(spec["choices"])
    return Command(name, seat, args)


def junk_command(rnd: random.Random, seats: tuple[str, ...]) -> Command:
    pick = rnd.choice
    name = pick(["seal", "play", "answer", "choose", "resign", "dance"])
    seat = pick([*seats, None, "Z"])
    args = {
        "card": pick([*range(-1, 11), *CARDS, True, None, "7"]),
        "target": pick([*seats, None, "Z"]),
        "choice": pick(["pass", "draw_two", "block", "action_card", "five", "x"]),
        "color": pick([*COLORS, "pink"]),
        "text": pick(["", "   ", "\x00", "x" * 201, None, 5, "ok"]),
        "say": pick(["truth:1", "dare:2", "nope"]),
    }
    return Command(name, seat, args)


def play_randomly(layout: int, seed: bytes, moves: int, choice_seed: int) -> DealtTable:
    """Play a table to a random point, checking after each command that it equals its
    restore and continues as it would have, that refusals change nothing, and conservation
    after every event."""
    seats, config = LAYOUTS[layout]
    persons = [s for s in seats if s not in config.get("bots", ())]
    rnd = random.Random(choice_seed)
    table, opening = ADAPTER.start(config, seats, seed)
    assert opening == table.events
    shadow = ADAPTER.restore(config, seats, seed, [])
    check_events(shadow, table.events)
    for _ in range(moves):
        if ADAPTER.finished(table):
            break
        if rnd.random() < 0.25:
            junk = junk_command(rnd, seats)
            before, count = snapshot(table), len(table.events)
            try:
                new = ADAPTER.apply(table, junk)
            except Refused:
                assert snapshot(table) == before and len(table.events) == count
                continue
        else:
            command = legal_command(table, rnd, persons)
            assert command is not None, "an unfinished game asks a person something"
            # The same command on a table restored from the stored (JSON) events gives the
            # same events: restore, then apply, continues exactly as the live table.
            stored = [from_json(as_json(e)) for e in table.events]
            restored = ADAPTER.restore(config, seats, seed, stored)
            new = ADAPTER.apply(table, command)
            again = ADAPTER.apply(restored, command)
            assert [as_json(e) for e in again] == [as_json(e) for e in new]
        check_events(shadow, new)
        assert snapshot(shadow) == snapshot(table)
        # After a command every seat asked is a person's: the bots have answered.
        assert all(a.seat in persons for a in ADAPTER.awaiting(table))
    return table


def check_events(shadow: DealtTable, new: list[Event]) -> None:
    """Absorb ``new`` into ``shadow`` one at a time through the restore path, checking that
    each event survives JSON unchanged and that every card is where the engine counts it."""
    from play.adapters.split_uno_dealt import _absorb

    for event in new:
        assert from_json(as_json(event)) == event
        bots = shadow.st.bots(shadow.cfg)  # the table's and those taken over so far
        assert event.by in ("dealer", "clock", "table", *shadow.seats, *(f"bot:{s}" for s in bots))
        check_public_part(shadow, event)
        if event.public["type"] == "round":
            # ONLINE.md 1: the card a seat revealed is the one a round sheds, and a 0 never
            # takes the card its victim revealed (it lies on the table).
            dealer = event.private[DEALER]
            for move in dealer["moves"]:
                if move[0] == "shed_n":
                    assert move[2] in dealer["shown"]
                if move[0] == "steal":
                    assert move[3] not in dealer["shown"]
        _absorb(shadow.st, event)
        shadow.events.append(event)
        assert conservation_problems(shadow) == []


#: The keys each event's public part may have: nothing there is a card's identity, and the
#: only card values are those shown to all (checked below).
PUBLIC_KEYS = {
    "deal": {"type", "number_cards", "action_cards"},
    "seal": {"type", "seat"},
    "choose": {"type", "seat", "what", "card"},
    "round": {"type", "engine", "effects"},
    "play": {"type", "seat", "returned", "engine", "effects", "said"},
    "resign": {"type", "seat", "returned", "engine", "effects"},
    "answer": {"type", "seat", "engine", "effects"},
    "time_limit": {"type", "engine", "effects"},
    "abandon": {"type", "seat", "returned", "engine", "effects"},
    "take_over": {"type", "seat", "returned"},
}


def check_public_part(shadow: DealtTable, event: Event) -> None:
    """An event's public part says nothing the viewers have not been shown: the re-dealt
    worlds of the non-interference test keep public parts as they are, so they are checked
    here against the cards the event shows to everyone."""
    public = event.public
    assert set(public) - {"said"} == PUBLIC_KEYS[public["type"]] - {"said"}
    # A TRUTH or DARE carries the actor's words (ONLINE.md 2), and no other card does.
    saying = public["type"] == "play" and public["engine"]["card"] in ("truth", "dare")
    assert ("said" in public) == saying
    if saying:
        said = public["said"]
        if event.by.startswith("bot:"):
            assert set(said) == {"to", "bot"} and said["bot"].startswith(public["engine"]["card"])
        else:
            assert set(said) == {"to", "text"} and 0 < len(said["text"]) <= 200
            assert said["text"] == " ".join(said["text"].split())
    assert not CARD_ID.search(json.dumps(public))
    if public["type"] == "deal":
        return
    s = shadow.st
    shown = event.private[DEALER]["shown"]
    values = sorted(s.nval[int(c[1:])] for c in shown if c[0] == "n")
    kinds = sorted(s.akind[int(c[1:])] for c in shown if c[0] == "a")
    if public["type"] == "round":
        assert sorted(public["engine"]["cards"].values()) == values and not kinds
    elif public["type"] == "choose":
        assert [public["card"]] == (values or kinds)
    elif public["type"] == "play":
        assert kinds == [public["engine"]["card"]] and not values
    elif public["type"] == "answer":
        choice = public["engine"]["choice"]
        assert kinds == ([choice] if choice in CARDS else []) and not values
    # Counters and challenges name the card they spend; a seal, a resignation, a bonus or a
    # penalty shows none.
    if public["type"] in ("seal", "resign", "time_limit", "abandon", "take_over"):
        assert shown == []


def relabel(events: list[Event], seen: set[str], rnd: random.Random) -> list[Event]:
    """The same game with every card identity outside ``seen`` given another card's value:
    the unseen number cards' values shuffled among themselves, likewise the action cards'.
    Every record naming such a card (the deal, draws, steals, swapped hands, seals) follows."""
    deal = events[0]
    values: dict[str, Any] = {}
    for place in (deal.private[DEALER]["number_deck"], deal.private[DEALER]["action_deck"]):
        values.update(dict(place))
    for seat, facts in deal.private.items():
        if seat != DEALER:
            values.update(dict(facts["numbers"]))
            values.update(dict(facts["actions"]))
    new_values = dict(values)
    for prefix in ("n", "a"):
        hidden = sorted(c for c in values if c[0] == prefix and c not in seen)
        shuffled = [values[c] for c in hidden]
        rnd.shuffle(shuffled)
        new_values.update(zip(hidden, shuffled, strict=True))

    def rewrite(value: Any) -> Any:
        if isinstance(value, list):
            if len(value) == 2 and isinstance(value[0], str) and value[0] in new_values:
                return [value[0], new_values[value[0]]]
            return [rewrite(v) for v in value]
        if isinstance(value, dict):
            return {k: rewrite(v) for k, v in value.items()}
        return value

    return [
        Event(by=e.by, public=e.public, private={k: rewrite(v) for k, v in e.private.items()})
        for e in (from_json(as_json(e)) for e in events)
    ]


def seen_by(events: list[Event], seat: str | None) -> set[str]:
    """The card identities ``seat`` (None: the public) has seen: those in its private facts and
    those shown to everyone (revealed, played, shed, given up)."""
    seen: set[str] = set()

    def collect(value: Any) -> None:
        if isinstance(value, str) and CARD_ID.fullmatch(f'"{value}"'):
            seen.add(value)
        elif isinstance(value, list):
            for v in value:
                collect(v)
        elif isinstance(value, dict):
            for v in value.values():
                collect(v)

    for event in events:
        if seat is not None:
            collect(event.private.get(seat, {}))
        seen.update(event.private.get(DEALER, {}).get("shown", ()))
    return seen


def assert_non_interference(
    table: DealtTable,
    config: dict[str, Any],
    viewer: Viewer,
    rnd: random.Random,
) -> None:
    """Re-deal everything ``viewer`` cannot know, consistently with what it has seen, and
    compare its view of both worlds after every event (a seat's until the end, when it may
    see the whole deal; the public's throughout)."""
    seats, seed = table.seats, table.seed
    from play.adapters.split_uno_dealt import _absorb

    other = relabel(table.events, seen_by(table.events, viewer.seat), rnd)
    mine = ADAPTER.restore(config, seats, seed, [])
    theirs = ADAPTER.restore(config, seats, seed, [])
    for k, (event, twin) in enumerate(zip(table.events, other, strict=True), start=1):
        for world, added in ((mine, event), (theirs, twin)):
            _absorb(world.st, added)
            world.events.append(added)
        if viewer.kind == "seat" and ADAPTER.finished(mine):
            break
        assert view(mine, viewer) == view(theirs, viewer), f"after event {k}"
    # The restore of both worlds agrees too, for the public and the referee.
    hiding = Viewer("public") if viewer.kind == "seat" else viewer
    assert view(ADAPTER.restore(config, seats, seed, other), hiding) == view(
        ADAPTER.restore(config, seats, seed, table.events), hiding
    )


@SETTINGS
@given(
    layout=st.integers(0, len(LAYOUTS) - 1),
    seed=st.binary(min_size=16, max_size=16),
    moves=st.integers(0, 60),
    choice_seed=st.integers(0, 2**32),
)
def test_random_play_restores_refuses_conserves_and_hides(
    layout: int, seed: bytes, moves: int, choice_seed: int
) -> None:
    """Non-interference (issue 27) for the public, the referee and each seat: every card it
    has not seen re-dealt (``relabel``), its view is the same after every event. A dealt
    game has no referee (no one enters its moves): the adapter shows a referee what it
    shows the public, and is held to it here so that a referee's view can never show more."""
    table = play_randomly(layout, seed, moves, choice_seed)
    seats, config = LAYOUTS[layout]
    rnd = random.Random(choice_seed)
    for viewer in [Viewer("public"), Viewer("referee"), *(Viewer("seat", s) for s in seats)]:
        assert_non_interference(table, config, viewer, rnd)
    for bot in config.get("bots", ()):
        assert_bot_decides_from_its_view(table, config, bot, rnd)
    # The engine's record of the game replays on its own to the same counts.
    assert replay(json.loads(json.dumps(record(table)))) == table.st.duel.state()
    for viewer in viewers(seats):
        text = view(table, viewer)
        assert not CARD_ID.search(text), "no view names a card's identity"
        shown = json.loads(text)
        if viewer.kind != "seat":
            assert "hand" not in shown and "commands" not in shown
        if viewer.kind in ("public", "referee") or not ADAPTER.finished(table):
            assert "hands" not in shown and "decks_left" not in shown
            assert all("private" not in entry for entry in shown["log"])


def bot_move(table: DealtTable, seat: str) -> Any:
    """What the bot of ``seat`` would do now, asked as ``apply`` asks it."""
    from play.adapters.split_uno_dealt import _answer_choices, _bot_sim, _phase

    st = table.st
    sim, i = _bot_sim(table, st, seat, len(table.events))
    bot = sim.bots[i]
    assert bot is not None
    phase = _phase(st)
    if phase == "choosing":
        return [bot.shed(sim, i), bot.discard_action(sim, i) if st.hand_a[seat] else None]
    if phase == "deciding":
        decision = st.duel._table.pending.decision  # type: ignore[union-attr]
        return bot.respond(sim, i, decision, _answer_choices(st, seat, decision))
    if phase == "sealing":
        return [bot.free(sim, i), bot.target(sim, i, "seven") if len(table.seats) > 2 else None]
    return None


def assert_bot_decides_from_its_view(
    table: DealtTable, config: dict[str, Any], seat: str, rnd: random.Random
) -> None:
    """A bot given the same view decides the same, whatever the cards it has not seen."""
    other = relabel(table.events, seen_by(table.events, seat), rnd)
    theirs = ADAPTER.restore(config, table.seats, table.seed, other)
    if table.st.hand_n[seat] and not ADAPTER.finished(table):
        assert bot_move(theirs, seat) == bot_move(table, seat)


# -- single behaviours ---------------------------------------------------------------------------

SEED = bytes(range(16))


def test_a_short_seed_is_refused() -> None:
    with pytest.raises(ValueError, match="16 bytes"):
        ADAPTER.start({}, ("A", "B"), b"too short")


def test_truth_and_dare_are_off_unless_switched_on_where_the_rules_have_them() -> None:
    table, _ = ADAPTER.start({"ruleset": "arbiter"}, ("A", "B"), SEED)
    dealt = [kind for _, kind in table.events[0].private[DEALER]["action_deck"]]
    assert len(dealt) == 32 and not {"truth", "dare"} & set(dealt)
    table, _ = ADAPTER.start({"ruleset": "arbiter", "truth_dare": True}, ("A", "B"), SEED)
    dealt = [kind for _, kind in table.events[0].private[DEALER]["action_deck"]]
    assert len(dealt) == 32 and {"truth", "dare"} <= set(dealt)
    for config in (
        {"ruleset": "tournament", "truth_dare": True},
        {"ruleset": "arbiter", "variants": ["speed"], "truth_dare": True},
    ):
        with pytest.raises(Refused, match="These rules have no TRUTH or DARE cards"):
            ADAPTER.start(config, ("A", "B"), SEED)
    with pytest.raises(Refused, match="switched on by the table's setting"):
        ADAPTER.start({"ruleset": "arbiter", "options": {"truth_dare": True}}, ("A", "B"), SEED)


def test_the_deal_records_the_decks_and_each_hand_for_its_seat_only() -> None:
    table, events = ADAPTER.start({"bots": ["B"]}, ("A", "B"), SEED)
    deal = events[0]
    assert deal.by == "dealer" and deal.public["type"] == "deal"
    assert len(deal.private[DEALER]["number_deck"]) == 108 - 40
    assert [len(deal.private[s]["numbers"]) for s in "AB"] == [20, 20]
    seat_a = ADAPTER.view(table, Viewer("seat", "A"))
    assert seat_a["hand"]["numbers"] == sorted(v for _, v in deal.private["A"]["numbers"])
    assert "hand" not in ADAPTER.view(table, Viewer("public"))
    # The same seed deals the same cards; the bot has sealed at once.
    again, _ = ADAPTER.start({"bots": ["B"]}, ("A", "B"), SEED)
    assert snapshot(again) == snapshot(table)
    assert [e.by for e in events[1:]] == ["bot:B"] and seat_a["sealed"] == ["B"]
    assert seat_a["awaiting"] == [{"seat": "A", "what": "seal", "seconds": None}]


def test_a_seal_shows_only_that_a_seat_has_sealed_until_the_round_reveals_it() -> None:
    table, _ = ADAPTER.start({}, ("A", "B"), SEED)
    value = ADAPTER.view(table, Viewer("seat", "A"))["hand"]["numbers"][0]
    (sealed,) = ADAPTER.apply(table, Command("seal", "A", {"card": value}))
    assert sealed.public == {"type": "seal", "seat": "A"}
    seen_by_b = ADAPTER.view(table, Viewer("seat", "B"))
    assert seen_by_b["sealed"] == ["A"]
    assert localised_view(seen_by_b)["log"][-1]["lines"] == ["A has sealed a card"]
    assert ADAPTER.view(table, Viewer("seat", "A"))["my_seal"] == {"card": value, "target": None}
    with pytest.raises(Refused, match="sealed"):
        ADAPTER.apply(table, Command("seal", "A", {"card": value}))
    other = ADAPTER.view(table, Viewer("seat", "B"))["hand"]["numbers"][-1]
    events = ADAPTER.apply(table, Command("seal", "B", {"card": other}))
    assert [e.public["type"] for e in events] == ["seal", "round"]
    assert events[-1].by == "dealer" and events[-1].public["engine"]["cards"] == {
        "A": value,
        "B": other,
    }


def test_an_action_card_returns_every_seal() -> None:
    config = {"options": {"starting_action_cards": {"A": 3}}}
    table, _ = ADAPTER.start(config, ("A", "B"), SEED)
    b_card = ADAPTER.view(table, Viewer("seat", "B"))["hand"]["numbers"][0]
    ADAPTER.apply(table, Command("seal", "B", {"card": b_card}))
    card = ADAPTER.view(table, Viewer("seat", "A"))["hand"]["actions"][0]
    events = ADAPTER.apply(table, Command("play", "A", {"card": card, "color": "red"}))
    assert events[0].public["returned"] == ["B"]
    assert ADAPTER.view(table, Viewer("public"))["sealed"] == []


def test_a_card_not_held_is_refused_and_changes_nothing() -> None:
    table, _ = ADAPTER.start({"bots": ["B"]}, ("A", "B"), SEED)
    held = set(ADAPTER.view(table, Viewer("seat", "A"))["hand"]["numbers"])
    missing = next(v for v in range(10) if v not in held) if len(held) < 10 else None
    before = snapshot(table)
    for command in [
        Command("seal", "B", {"card": 1}),  # a bot's seat
        Command("play", "A", {"card": "block"}),  # no action card in hand
        Command("answer", "A", {"choice": "pass"}),  # nothing asked
        Command("seal", "A", {"card": missing}),
        Command("seal", None, {"card": 1}),
    ]:
        with pytest.raises(Refused):
            ADAPTER.apply(table, command)
    assert snapshot(table) == before


def test_a_color_change_asks_each_seat_which_card_it_sheds() -> None:
    config = {"options": {"starting_action_cards": {"A": 32}}}
    table, _ = ADAPTER.start(config, ("A", "B"), SEED)
    events = ADAPTER.apply(table, Command("play", "A", {"card": "color_change", "color": "blue"}))
    assert [a.what for a in ADAPTER.awaiting(table)] == ["choose", "choose"]
    offer = commands(table, "B")["choose"]
    assert offer["what"] == "shed" and "play" not in commands(table, "A")
    with pytest.raises(Refused):
        ADAPTER.apply(table, Command("resign", "A"))
    hand = ADAPTER.view(table, Viewer("seat", "B"))["hand"]["numbers"]
    events = ADAPTER.apply(table, Command("choose", "B", {"card": hand[-1]}))
    assert events[0].public == {"type": "choose", "seat": "B", "what": "shed", "card": hand[-1]}
    after = ADAPTER.view(table, Viewer("seat", "B"))["hand"]["numbers"]
    assert len(after) == len(hand) - 1 and after.count(hand[-1]) == hand.count(hand[-1]) - 1
    assert ADAPTER.view(table, Viewer("public"))["discard_pile"]["numbers"][hand[-1]] == 1


def test_after_the_end_every_seat_sees_the_whole_deal_and_the_public_does_not() -> None:
    table, _ = ADAPTER.start({"bots": ["B"]}, ("A", "B"), SEED)
    hidden = ADAPTER.view(table, Viewer("seat", "A"))
    assert "hands" not in hidden and all("private" not in e for e in hidden["log"])
    ADAPTER.apply(table, Command("resign", "A"))
    assert ADAPTER.finished(table) and ADAPTER.awaiting(table) == []
    assert ADAPTER.view(table, Viewer("seat", "A"))["state"]["winner"] == "B"
    for viewer in (Viewer("seat", "A"), Viewer("owner")):
        shown = ADAPTER.view(table, viewer)
        assert len(shown["hands"]["B"]["numbers"]) == 20
        assert sorted(shown["log"][0]["private"]["B"]["numbers"]) == sorted(
            v for _, v in table.events[0].private["B"]["numbers"]
        )
    public = ADAPTER.view(table, Viewer("public"))
    assert "hands" not in public and all("private" not in e for e in public["log"])
    with pytest.raises(Refused):
        ADAPTER.apply(table, Command("seal", "A", {"card": 1}))


def test_when_the_last_person_resigns_the_bots_play_the_game_to_its_end() -> None:
    config = {"ruleset": "official", "bots": ["B", "C"], "options": {"starting_number_cards": 3}}
    table, _ = ADAPTER.start(config, ("A", "B", "C"), SEED)
    events = ADAPTER.apply(table, Command("resign", "A"))
    assert ADAPTER.finished(table)
    assert {e.by for e in events[1:]} <= {"dealer", "bot:B", "bot:C"}
    state = ADAPTER.view(table, Viewer("public"))["state"]
    assert state["finish"] in ("shed_all", "double_zero", "time_limit")
    assert state["winner"] in ("B", "C", None)
    restored = ADAPTER.restore(config, ("A", "B", "C"), SEED, table.events)
    assert snapshot(restored) == snapshot(table)


def test_the_adapter_imports_only_the_standard_library_and_the_engine() -> None:
    from tests.purity import ROOT, absolute_imports, run_without_django

    path = ROOT / "play" / "adapters" / "split_uno_dealt.py"
    for _, name, top in absolute_imports([path]):
        assert (
            top in sys.stdlib_module_names
            or top == "__future__"
            or name.startswith("games.split_uno")
        ), name
    done = run_without_django(
        "import sys\n"
        "from play.adapters.split_uno_dealt import ADAPTER\n"
        "ADAPTER.start({'bots': ['B']}, 'AB', bytes(16))"
    )
    assert done.returncode == 0, done.stderr.decode()


def test_a_decision_names_the_seat_and_the_card_it_is_about() -> None:
    # At three seats a counter is asked of the target: its page words it from the seat that
    # played the card and the card itself ("Ada may counter Cy's +2"), as the engine has them.
    config = {"ruleset": "tournament", "options": {"starting_action_cards": {"A": 2, "C": 4}}}
    table, _ = ADAPTER.start(config, ("A", "B", "C"), bytes(16))
    assert "draw_two" in commands(table, "C")["play"]["cards"]
    ADAPTER.apply(table, Command("play", "C", {"card": "draw_two", "target": "A"}))
    asked = commands(table, "A")["answer"]
    assert (asked["decision"], asked["other"], asked["card"]) == ("counter", "C", "draw_two")
