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

from django.utils.translation import gettext, ngettext

from cardtable.words import you
from games.split_uno import PRESETS, VARIANTS, resolve_rules

from . import words

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
    """ "You + Bot C against Bot B + Bot D" for "AC,BD" (three teams: "… against … against …")."""
    names = [
        " + ".join(you() if s == "A" else words.bot_label(s, 6) for s in team)
        for team in layout.split(",")
    ]
    if len(names) == 3:
        # Translators: three teams at a practice table, each "You + Bot D" or "Bot B + Bot E".
        return gettext("%(first)s against %(second)s against %(third)s") % dict(
            zip(("first", "second", "third"), names, strict=True)
        )
    if len(names) == 2:
        # Translators: two teams at a practice table: "You + Bot C against Bot B + Bot D".
        return gettext("%(first)s against %(second)s") % {"first": names[0], "second": names[1]}
    return " / ".join(names)


def layout_teams(layout: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(team) for team in layout.split(","))


def choose(ruleset: str, seats: int, variants: tuple[str, ...] = (), layout: str = "") -> Seating:
    """The table for ``seats`` seats under ``ruleset`` with ``variants`` ticked and the team
    ``layout`` (one of LAYOUTS, or "" for every seat on its own). Raises SeatingRefused."""
    if ruleset not in PRESETS:
        raise SeatingRefused(
            gettext("Choose one of the rule sets: %(rulesets)s.")
            % {"rulesets": ", ".join(words.ruleset_label(p) for p in PRESETS)}
        )
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise SeatingRefused(gettext("Choose from 1 to 5 bot opponents."))
    chosen = []
    for variant in variants:
        if variant not in TICKED_VARIANTS:
            raise SeatingRefused(
                gettext("Choose variants from: %(variants)s.")
                % {"variants": ", ".join(words.variant_label(v) for v in TICKED_VARIANTS)}
            )
        if variant not in chosen:
            chosen.append(variant)
    teams: tuple[tuple[str, ...], ...] = ()
    if layout:
        if seats not in LAYOUTS:
            raise SeatingRefused(gettext("Teams need 4 to 6 seats: choose 3 to 5 bot opponents."))
        if layout not in LAYOUTS[seats]:
            raise SeatingRefused(
                gettext("At %(seats)s seats choose teams from: %(layouts)s.")
                % {"seats": seats, "layouts": "; ".join(layout_label(x) for x in LAYOUTS[seats])}
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
        parts = [gettext("you against the bot")]
    else:
        parts = [words.seats_words(seating.seats)]
        if seating.teams:
            layout = layout_label(",".join("".join(t) for t in seating.teams))
            parts.append(gettext("teams %(layout)s") % {"layout": layout})
        else:
            bots = seating.seats - 1
            parts.append(
                ngettext("you against %(n)s bot", "you against %(n)s bots", bots) % {"n": bots}
            )
    parts.extend(words.variant_label(v) for v in seating.variants if v != "team")
    return ", ".join(parts)
