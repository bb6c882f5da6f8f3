"""Which table a practice duel is played at: how many seats, teams, variants and options.

The person always holds seat A; the bots hold B, C, … (RULES.md 11.1: seats are lettered from
A without a gap). Everything here is checked before a duel is stored, and the engine checks it
again when the duel is set up (``Duel.new`` raises MalformedRecord, which the game words).

The deck (RULES.md 11.1): the engine never scales the pool and a deal larger than the pool is
malformed. Where the chosen table deals more than the preset's pool holds (six seats of 20
cards need 120 of 108), the record's ``options`` raise ``number_pool`` so that seed 001's 68
cards stay in the deck after the deal (``68 + cards × seats``); the page says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.split_uno import PRESETS, VARIANTS, resolve_rules

#: Seat letters in seating order (RULES.md 11.1: A–F at most).
LETTERS = "ABCDEF"
MIN_SEATS, MAX_SEATS = 2, 6
#: The variants a person ticks; ``team`` follows from choosing teams.
TICKED_VARIANTS = tuple(v for v in VARIANTS if v != "team")
#: Cards left in the number deck after the deal when the pool has to be raised (seed 001).
DECK_AFTER_DEAL = 68

#: The team layouts offered at each size (RULES.md 11.9: teams of 2 or 3, 4–6 seats), the
#: person's team first. Seats alternate round the table, as ``simulate --teams AC,BD`` does.
LAYOUTS: dict[int, tuple[str, ...]] = {
    4: ("AC,BD",),
    5: ("AC,BDE", "ACE,BD"),
    6: ("ACE,BDF", "AD,BE,CF"),
}


class SeatingRefused(ValueError):
    """A table the rules (or this page) do not offer, in words for the person."""


@dataclass(frozen=True)
class Seating:
    """A chosen table: what ``Duel.new`` is given besides the names."""

    seats: int = 2
    variants: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    teams: tuple[tuple[str, ...], ...] = ()

    @property
    def letters(self) -> str:
        return LETTERS[: self.seats]

    def team_of(self, seat: str) -> tuple[str, ...]:
        """The seats on ``seat``'s side: its team, or the seat alone."""
        return next((team for team in self.teams if seat in team), (seat,))

    @property
    def pool_raised(self) -> bool:
        return "number_pool" in self.options


def layout_label(layout: str) -> str:
    """ "You + Bot C against Bot B + Bot D" for "AC,BD"."""
    names = [
        " + ".join("You" if s == "A" else f"Bot {s}" for s in team) for team in layout.split(",")
    ]
    return " against ".join(names)


def layout_teams(layout: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(team) for team in layout.split(","))


def choose(ruleset: str, seats: int, variants: tuple[str, ...] = (), layout: str = "") -> Seating:
    """The table for ``seats`` seats under ``ruleset`` with ``variants`` ticked and the team
    ``layout`` (one of LAYOUTS, or "" for every seat on its own). Raises SeatingRefused."""
    if ruleset not in PRESETS:
        raise SeatingRefused(f"Choose one of the rule sets: {', '.join(PRESETS)}.")
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise SeatingRefused("Choose from 1 to 5 bot opponents.")
    chosen = []
    for variant in variants:
        if variant not in TICKED_VARIANTS:
            raise SeatingRefused(f"Choose variants from: {', '.join(TICKED_VARIANTS)}.")
        if variant not in chosen:
            chosen.append(variant)
    teams: tuple[tuple[str, ...], ...] = ()
    if layout:
        if seats not in LAYOUTS:
            raise SeatingRefused("Teams need 4 to 6 seats: choose 3 to 5 bot opponents.")
        if layout not in LAYOUTS[seats]:
            raise SeatingRefused(
                f"At {seats} seats choose teams from: "
                + "; ".join(layout_label(x) for x in LAYOUTS[seats])
                + "."
            )
        teams = layout_teams(layout)
        chosen.append("team")
    options: dict[str, Any] = {}
    if seats > 2:
        # RULES.md 11.1: max_seats is 2 but for ``official``; options may raise it on any preset.
        if PRESETS[ruleset]["max_seats"] < seats:  # type: ignore[operator]
            options["max_seats"] = seats
        rules = resolve_rules(ruleset, chosen, options)
        dealt = rules.starting_number_cards * seats
        if dealt > rules.number_pool:
            options["number_pool"] = DECK_AFTER_DEAL + dealt
    return Seating(seats=seats, variants=tuple(chosen), options=options, teams=teams)


def stored(seats: int, variants: list[str], options: dict[str, Any], teams: list) -> Seating:
    """The Seating of a stored duel (its fields as the model keeps them)."""
    return Seating(
        seats=seats,
        variants=tuple(variants),
        options=dict(options),
        teams=tuple(tuple(team) for team in teams),
    )


def table_words(seating: Seating) -> str:
    """The table in a few words: "you against the bot", "5 seats, teams …, speed"."""
    if seating.seats == 2:
        parts = ["you against the bot"]
    else:
        parts = [f"{seating.seats} seats"]
        if seating.teams:
            parts.append("teams " + layout_label(",".join("".join(t) for t in seating.teams)))
        else:
            parts.append(f"you against {seating.seats - 1} bots")
    parts.extend(v for v in seating.variants if v != "team")
    return ", ".join(parts)
