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
    teams = _teams(record, "team" in variants, seats)
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
        teams=teams,
        team_of=_team_of(seats, teams),
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
    names = tuple(value[seat] for seat in expected)
    for seat, name in zip(expected, names, strict=True):
        # Section 8: at least one character that is not white space (``str.isspace``).
        if not isinstance(name, str) or not name or name.isspace():
            raise MalformedRecord(
                f"seat {seat} needs a non-empty name with at least one character that is not "
                f"white space, not {show(name)}"
            )
    return expected, names


def _teams(
    record: Mapping[str, Any], team_variant: bool, seats: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    """Section 11.9: ``teams`` is required with the ``team`` variant and forbidden without."""
    if not team_variant:
        if "teams" in record:
            raise MalformedRecord(
                'teams is only read with the team variant: add "team" to variants or leave '
                "teams out"
            )
        return ()
    example = '"teams": [["A", "C"], ["B", "D"]]'
    if "teams" not in record:
        raise MalformedRecord(f"the team variant needs teams, e.g. {example}")
    value = record["teams"]
    if not isinstance(value, list | tuple) or len(value) < 2:
        raise MalformedRecord(
            f"teams must be a list of at least two teams, e.g. {example}; got {show(value)}"
        )
    teams = []
    named: set[str] = set()
    for team in value:
        if not isinstance(team, list | tuple) or not 2 <= len(team) <= 3:
            raise MalformedRecord(
                f"each team is a list of 2 or 3 seat letters, e.g. {example}; got {show(team)}"
            )
        for seat in team:
            if not isinstance(seat, str) or seat not in seats:
                raise MalformedRecord(
                    f"teams names {show(seat)}, which is not a seat ({', '.join(seats)})"
                )
            if seat in named:
                raise MalformedRecord(f"teams names seat {seat} twice")
            named.add(seat)
        teams.append(tuple(team))
    missing = [seat for seat in seats if seat not in named]
    if missing:
        raise MalformedRecord(f"every seat must be in a team: {', '.join(missing)} is in none")
    return tuple(teams)


def _team_of(seats: tuple[str, ...], teams: tuple[tuple[str, ...], ...]) -> tuple[int, ...]:
    """For each seat, the index of its side's first seat: itself without teams."""
    if not teams:
        return tuple(range(len(seats)))
    first = {}
    for team in teams:
        lead = min(seats.index(seat) for seat in team)
        for seat in team:
            first[seat] = lead
    return tuple(first[seat] for seat in seats)


def _plain_options(options: object) -> dict[str, Any]:
    """The options as plain JSON, detached from the caller's objects."""
    out: dict[str, Any] = {}
    for name, value in (options or {}).items():  # type: ignore[union-attr,attr-defined]
        out[name] = dict(value) if isinstance(value, Mapping) else value
    return out


def header_dict(setup: Setup) -> dict[str, Any]:
    """The record's header fields as plain JSON (a fresh dict)."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": setup.ruleset,
        "variants": list(setup.variants),
        "options": _plain_options(setup.options),
        "seats": dict(zip(setup.seats, setup.names, strict=True)),
    }
    if setup.teams:
        out["teams"] = [list(team) for team in setup.teams]
    return out
