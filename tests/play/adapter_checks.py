"""Checks every dealt adapter of the matching games (Trois, CPT-113) must pass: shared by
test_adapter_trois.py and test_adapter_cpt113.py."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import asdict
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from play.adapters.base import DEALER, Command, Event, Refused, Viewer
from play.effect_words import localised_view

PUBLIC = Viewer("public")
OWNER = Viewer("owner")
REFEREE = Viewer("referee")


def wire(events: Sequence[Event]) -> list[Event]:
    """The events as the core stores them and reads them back: through JSON."""
    return [Event(**json.loads(json.dumps(asdict(e), ensure_ascii=False))) for e in events]


def views(adapter: Any, table: Any) -> dict[str, Any]:
    """What every viewer is shown, as bytes would be: JSON text."""
    seats = table.seating.seats
    out = {s: adapter.view(table, Viewer("seat", s)) for s in seats}
    out.update(public=adapter.view(table, PUBLIC), owner=adapter.view(table, OWNER))
    out["referee"] = adapter.view(table, REFEREE)
    return {k: json.dumps(v, sort_keys=True) for k, v in out.items()}


def no_bots(*bot_classes: type) -> ExitStack:
    """Every bot refuses to be asked: a restore that asks one fails."""
    stack = ExitStack()
    for cls in bot_classes:
        stack.enter_context(
            mock.patch.object(cls, "choose", side_effect=AssertionError("a bot was asked"))
        )
    return stack


def refused_changes_nothing(adapter: Any, table: Any, command: Command) -> str | None:
    """Apply ``command``; if refused, nothing a viewer sees and nothing stored has changed."""
    before_views, before_events = views(adapter, table), wire(table.events)
    before_state = copy.deepcopy(table.state)
    try:
        adapter.apply(table, command)
    except Refused as err:
        assert str(err) and str(err)[0].isupper() and str(err).endswith("."), err
        assert views(adapter, table) == before_views
        assert wire(table.events) == before_events
        assert table.state == before_state
        return str(err)
    return None


def play(
    adapter: Any,
    config: dict[str, Any],
    seats: str,
    seed: bytes,
    steps: int,
    choose: Callable[[dict[str, Any], random.Random], Command],
    junk: Callable[[random.Random, str], Command],
    rng: random.Random,
) -> Any:
    """A game to a random point: at each step, sometimes a junk command first (refused with
    nothing changed, or taken if it happens to be legal), then a legal command of the seat
    asked, chosen from its view."""
    table, events = adapter.start(config, seats, seed)
    assert events == table.events and events[0].by == DEALER
    for _ in range(steps):
        if adapter.finished(table):
            break
        (asked,) = adapter.awaiting(table)
        assert asked.seconds is None and asked.seat not in config.get("bots", {})
        view = adapter.view(table, Viewer("seat", asked.seat))
        assert view["turn"] == asked.seat and view["legal"]
        count = len(table.events)
        if rng.random() < 0.3:
            refused_changes_nothing(adapter, table, junk(rng, asked.seat))
            if len(table.events) > count:
                continue  # the junk happened to be a legal move
        new = adapter.apply(table, choose(view, rng))
        assert new and table.events[count:] == new
        assert new[0].by == asked.seat
        assert all(e.by.startswith("bot:") for e in new[1:])
    return table


def check_restore(adapter: Any, config: dict[str, Any], seats: str, seed: bytes, table: Any) -> Any:
    """Restoring from the stored events (through JSON, every bot refusing to be asked) is
    the table played step by step, for every viewer."""
    with no_bots(*adapter.engine.bots.BOTS.values()):
        restored = adapter.restore(config, seats, seed, wire(table.events))
        assert restored.state == table.state
        assert views(adapter, restored) == views(adapter, table)
        assert adapter.awaiting(restored) == adapter.awaiting(table)
        assert adapter.finished(restored) == adapter.finished(table)
    return restored


def check_goes_on_alike(
    adapter: Any,
    table: Any,
    restored: Any,
    choose: Callable[[dict[str, Any], random.Random], Command],
) -> None:
    """The restored table goes on exactly as the live one: the same bots' answers."""
    if adapter.finished(table):
        return
    (asked,) = adapter.awaiting(table)
    command = choose(adapter.view(table, Viewer("seat", asked.seat)), random.Random(0))
    assert adapter.apply(restored, command) == adapter.apply(table, command)
    assert views(adapter, restored) == views(adapter, table)


def check_migrated(adapter: Any, config: dict[str, Any], seats: str, old: Any) -> None:
    """The data migration's step: practice replays a stored game (``old``, practice's table)
    with today's code, and its engine record becomes events; restored without a bot, it is
    the same game, and the person reads the log the practice page showed."""
    events = adapter.events_from_record(config, seats, old.game.record())
    with no_bots(*adapter.engine.bots.BOTS.values()):
        table = adapter.restore(config, seats, bytes(16), wire(events))
    assert {**table.state.as_dict(), "seed": 0} == {**old.state.as_dict(), "seed": 0}
    seen = localised_view(adapter.view(table, Viewer("seat", seats[0])))["log"]
    assert [line for e in seen for line in e["lines"]] == [
        line for e in old.log for line in e.lines
    ]


def check_record_replays(
    adapter: Any, table: Any, main: Callable[[list[str]], int], tmp_path: Path, capsys: Any
) -> None:
    """The game's record, in a file, replays in the engine's own command line (``main``) to
    the table's state."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(adapter.record(table)))
    assert main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == table.state.as_dict()


def every_viewer(seats: str) -> list[Viewer]:
    """The public, the referee and each seat: every viewer a game hides something from."""
    return [PUBLIC, REFEREE, *(Viewer("seat", s) for s in seats)]


def cards_in(deck: frozenset[str], value: Any) -> set[str]:
    """The cards of ``deck`` named (as ids) anywhere in ``value``."""
    if isinstance(value, str):
        return {value} & deck
    if isinstance(value, list | tuple):
        return set().union(*(cards_in(deck, v) for v in value))
    if isinstance(value, Mapping):
        return set().union(*(cards_in(deck, v) for v in value.values()))
    return set()


def stepped(
    adapter: Any, config: dict[str, Any], seats: str, seed: bytes, events: Sequence[Event]
) -> Iterator[Any]:
    """The table dealt by ``events[0]`` (the dealer's stream from ``seed``), then after each
    move of ``events[1:]`` made again through the engine as it was made live: the cards a
    seat takes or draws and a reshuffle come from this deal and this stream, and the new
    event is the table's last. Refused when a move is refused here."""
    table = adapter.restore(config, seats, seed, events[:1])
    yield table
    for old in events[1:]:
        table.state, new = adapter._applied(table, table.state, dict(old.public["move"]), old.by)
        table.events.append(new)
        yield table


def other_world(
    adapter: Any,
    config: dict[str, Any],
    seats: str,
    seed: bytes,
    events: Sequence[Event],
    viewer: Viewer,
    rng: random.Random,
    proposals: int,
) -> tuple[bytes, list[Event]]:
    """A world ``viewer`` cannot tell from this one by what it has been told, and its seed:
    from this one, ``proposals`` times, two cards it has not seen (in no event's public part,
    in none of its seat's private facts) exchanged between the hands it does not read and
    the deck, or a new dealer's stream (a reshuffle's order), kept if the whole game then
    replays with every event's public part, and the seat's private facts, unchanged."""
    deck = frozenset(adapter.engine.cards.DECK)
    mine = viewer.seat if viewer.kind == "seat" else None
    shown: set[str] = set()
    for event in events:
        shown |= cards_in(deck, event.public) | cards_in(deck, event.private.get(mine or "", {}))
    hidden = sorted(deck - shown)
    hidden_set = set(hidden)
    count = len(events[0].public["deal"]["hand_sizes"])
    readers = {k: seats.index(k) % count for k in events[0].private if k != DEALER}
    # The deal as places: each hand (read from its first reader's letter), then the deck.
    places = [list(events[0].private[seats[h]]["hand"]) for h in range(count)]
    places.append(list(events[0].private[DEALER]["deck"]))
    world_seed, world = seed, list(events)
    for attempt in range(proposals):
        candidate, candidate_seed = [list(place) for place in places], world_seed
        if attempt == 0:  # every hidden card re-dealt at once, often refused by a take
            spots = [(p, i) for p, place in enumerate(places) for i, c in enumerate(place)]
            spots = [(p, i) for p, i in spots if places[p][i] in hidden_set]
            cards = [places[p][i] for p, i in spots]
            rng.shuffle(cards)
            for (p, i), card in zip(spots, cards, strict=True):
                candidate[p][i] = card
        elif rng.random() < 0.2 or len(hidden) < 2:
            candidate_seed = rng.randbytes(len(seed))
        else:
            # Mostly a card of a hand with one elsewhere: the hands are what a viewer would
            # most like to know, and what a take or a draw most often pins down.
            where = {c: (p, i) for p, place in enumerate(places) for i, c in enumerate(place)}
            held = [c for c in hidden if where[c][0] < count]
            one = rng.choice(held if held and rng.random() < 0.7 else hidden)
            two = rng.choice([c for c in hidden if where[c][0] != where[one][0]] or [one])
            (p1, i1), (p2, i2) = where[one], where[two]
            candidate[p1][i1], candidate[p2][i2] = two, one
        private = {k: {"hand": candidate[h]} for k, h in readers.items()}
        deal = Event(DEALER, events[0].public, {**private, DEALER: {"deck": candidate[-1]}})
        if again := _told_the_same(adapter, config, seats, candidate_seed, deal, events, mine):
            places, world_seed, world = candidate, candidate_seed, again
    return world_seed, world


def _told_the_same(
    adapter: Any,
    config: dict[str, Any],
    seats: str,
    seed: bytes,
    deal: Event,
    events: Sequence[Event],
    seat: str | None,
) -> list[Event] | None:
    """The events of the game dealt by ``deal`` with the moves of ``events`` made again, if
    every move is taken and tells everyone (and ``seat``) what it told them in ``events``."""
    table = None
    try:
        for table in stepped(adapter, config, seats, seed, [deal, *events[1:]]):
            new, old = table.events[-1], events[len(table.events) - 1]
            if new.public != old.public or new.private.get(seat) != old.private.get(seat):
                return None
    except Refused:
        return None
    return table.events if table is not None else None


def assert_no_viewer_tells_the_worlds_apart(
    adapter: Any,
    config: dict[str, Any],
    seats: str,
    seed: bytes,
    table: Any,
    viewer: Viewer,
    rng: random.Random,
    proposals: int = 12,
) -> bool:
    """``viewer``'s view (as JSON text) is the same in this world and in ``other_world``
    after the deal and after every event — a seat's until the end, when it sees the whole
    deal — and so is its view of each world restored from its stored events. Whether the
    other world differs from this one."""
    world_seed, world = other_world(
        adapter, config, seats, seed, table.events, viewer, rng, proposals
    )
    shown = []
    for game_seed, events in ((seed, table.events), (world_seed, world)):
        views = []
        for at in stepped(adapter, config, seats, game_seed, events):
            if viewer.kind == "seat" and adapter.finished(at):
                break
            views.append(json.dumps(adapter.view(at, viewer), sort_keys=True))
        assert at.events == list(events), "made again, the moves are the same events"
        restored = adapter.restore(config, seats, game_seed, wire(events))
        hides = viewer.kind != "seat" or not adapter.finished(restored)
        shown.append((views, adapter.view(restored, viewer) if hides else None))
    for k, (mine, theirs) in enumerate(zip(shown[0][0], shown[1][0], strict=True)):
        assert mine == theirs, f"{viewer} tells the worlds apart after event {k}"
    assert shown[0][1] == shown[1][1]
    return world != list(table.events)


def assert_a_leak_is_caught(adapter: Any, config: dict[str, Any], seats: str, table: Any) -> None:
    """The property above can fail: a view that shows everyone the deck's order is caught,
    for the public and for a seat."""
    facts = type(adapter)._table_facts

    def leaking(self: Any, table: Any) -> dict[str, Any]:
        return {**facts(self, table), "deck_order": list(table.state.deck)}

    with mock.patch.object(type(adapter), "_table_facts", leaking):
        for viewer in (PUBLIC, Viewer("seat", seats[0])):
            rng = random.Random(0)
            with pytest.raises(AssertionError, match="tells the worlds apart"):
                assert_no_viewer_tells_the_worlds_apart(
                    adapter, config, seats, table.seed, table, viewer, rng
                )
