"""Checks every dealt adapter of the matching games (Trois, CPT-113) must pass: shared by
test_adapter_trois.py and test_adapter_cpt113.py."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import asdict
from typing import Any
from unittest import mock

from play.adapters.base import DEALER, Command, Event, Refused, Viewer

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


def check_restore(
    adapter: Any,
    config: dict[str, Any],
    seats: str,
    seed: bytes,
    table: Any,
    bot_classes: Sequence[type],
) -> Any:
    """Restoring from the stored events (through JSON, every bot refusing to be asked) is
    the table played step by step, for every viewer."""
    with no_bots(*bot_classes):
        restored = adapter.restore(config, seats, seed, wire(table.events))
        assert restored.state == table.state
        assert views(adapter, restored) == views(adapter, table)
        assert adapter.awaiting(restored) == adapter.awaiting(table)
        assert adapter.finished(restored) == adapter.finished(table)
    return restored


def redealt(
    table: Any,
    seat: str | None,
    hands: Callable[[Any], list[list[str]]],
    readers: Callable[[Any, int], Sequence[str]],
    rng: random.Random,
) -> Any:
    """Another world ``seat`` cannot tell from this one: every hand it does not hold and the
    deck re-dealt at random (same sizes), and every private fact of the others garbled."""
    other = copy.deepcopy(table)
    held = hands(other.state)
    mine = [g for g in range(len(held)) if seat in readers(other, g)]
    pool = [c for g, h in enumerate(held) if g not in mine for c in h] + other.state.deck
    rng.shuffle(pool)
    for g, hand in enumerate(held):
        if g not in mine:
            hand[:] = [pool.pop() for _ in hand]
    other.state.deck[:] = pool
    garbled = []
    for event in other.events:
        private = {
            k: (v if k == seat else {"log": ["?"], "hand": ["?"], "deck": ["?"]})
            for k, v in event.private.items()
        }
        garbled.append(Event(event.by, event.public, private))
    other.events = garbled
    return other
