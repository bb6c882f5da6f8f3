"""The duel record's header (RULES.md section 8): format, version, preset, seats, events.

Anything wrong here makes the whole record malformed; the events themselves are read one at a
time by ``events.parse_event`` as they are applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .constants import SEAT_LETTERS
from .errors import MalformedRecord, show
from .rules import resolve_rules
from .state import Setup

FORMAT = "split-uno-duel"
VERSION = 1


def read_header(record: object) -> tuple[Setup, list[Any]]:
    """The duel's set-up and its raw events, or MalformedRecord saying what is wrong."""
    if not isinstance(record, Mapping):
        raise MalformedRecord(
            f'a duel record must be a JSON object with "format": "{FORMAT}", not {show(record)}'
        )
    if record.get("format") != FORMAT or not isinstance(record.get("format"), str):
        raise MalformedRecord(
            f'unknown format {show(record.get("format"))}: a duel record has "format": "{FORMAT}"'
        )
    version = record.get("version")
    if type(version) is not int or version != VERSION:
        raise MalformedRecord(
            f"unsupported version {show(version)}: this engine reads version {VERSION}"
        )
    if "ruleset" not in record:
        raise MalformedRecord(
            "ruleset is missing: name a preset (arbiter, tournament, paper, official)"
        )
    for optional in ("variants", "options"):
        if optional in record and record[optional] is None:
            raise MalformedRecord(f"{optional} may be left out but not null")
    variants = record.get("variants", [])
    options = record.get("options", {})
    rules = resolve_rules(record["ruleset"], variants, options)
    seats, names = _seats(record.get("seats"))
    if len(seats) > rules.max_seats:
        raise MalformedRecord(
            f"{len(seats)} seats but this ruleset allows at most {rules.max_seats} (max_seats)"
        )
    for seat, _count in rules.starting_action_cards:
        if seat not in seats:
            raise MalformedRecord(
                f"starting_action_cards names {show(seat)}, which is not a seat "
                f"({', '.join(seats)})"
            )
    deck_n = rules.number_pool - rules.starting_number_cards * len(seats)
    if deck_n < 0:
        raise MalformedRecord(
            f"the number pool of {rules.number_pool} cannot deal {rules.starting_number_cards} "
            f"number cards to each of {len(seats)} seats"
        )
    dealt = sum(count for _seat, count in rules.starting_action_cards)
    if dealt > rules.action_pool:
        raise MalformedRecord(
            f"the action pool of {rules.action_pool} cannot deal {dealt} starting action cards"
        )
    events = record.get("events")
    if not isinstance(events, list | tuple):
        raise MalformedRecord(f"events must be a list of events, not {show(events)}")
    setup = Setup(
        ruleset=record["ruleset"],
        variants=tuple(variants),
        options=_plain_options(options),
        rules=rules,
        seats=seats,
        names=names,
        index={seat: i for i, seat in enumerate(seats)},
    )
    return setup, list(events)


def _seats(value: object) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Seats are exactly A, B, … (the letter order is the seating order) with non-empty names."""
    if not isinstance(value, Mapping) or not value:
        raise MalformedRecord(
            f'seats must be an object such as {{"A": "Alice", "B": "Bob"}}, not {show(value)}'
        )
    count = len(value)
    if count > len(SEAT_LETTERS):
        raise MalformedRecord(f"{count} seats: a duel has 2 to {len(SEAT_LETTERS)} seats")
    expected = SEAT_LETTERS[:count]
    if set(value) != set(expected):
        keys = ", ".join(show(k) for k in value)
        raise MalformedRecord(
            f"seats must be keyed by the first letters A, B, … in order; got {keys}"
        )
    if count < 2:
        raise MalformedRecord("a duel needs two seats, A and B")
    if count > 2:
        raise MalformedRecord(
            f"{count} seats are not supported yet: this engine referees two-seat duels (A, B); "
            "more seats and team play come in a later version"
        )
    names = tuple(value[seat] for seat in expected)
    for seat, name in zip(expected, names, strict=True):
        if not isinstance(name, str) or not name:
            raise MalformedRecord(f"seat {seat} needs a non-empty name, not {show(name)}")
    return expected, names


def _plain_options(options: object) -> dict[str, Any]:
    """The options as plain JSON, detached from the caller's objects."""
    out: dict[str, Any] = {}
    for name, value in (options or {}).items():  # type: ignore[union-attr,attr-defined]
        out[name] = dict(value) if isinstance(value, Mapping) else value
    return out


def header_dict(setup: Setup) -> dict[str, Any]:
    """The record's header fields as plain JSON (a fresh dict)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": setup.ruleset,
        "variants": list(setup.variants),
        "options": _plain_options(setup.options),
        "seats": dict(zip(setup.seats, setup.names, strict=True)),
    }
