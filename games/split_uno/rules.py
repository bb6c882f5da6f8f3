"""Presets, variants and options: the switches of RULES.md section 2 as data.

One rule implementation reads these switches; nothing else in the engine knows a preset by
name. ``resolve_rules`` applies a preset, then the variants in order, then ``options``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from .errors import MalformedRecord, show


@dataclass(frozen=True, slots=True)
class Rules:
    """Every switch of section 2, plus the action cards dealt before play (section 8)."""

    max_seats: int
    starting_number_cards: int
    number_pool: int
    action_pool: int
    truth_dare: bool
    loser_discards_revealed: bool
    blocked_seat: str
    block_counter: bool
    reverse_discard: str
    truth_dare_shed: str
    dare_refused: str
    challenge: str
    draw_counter: bool
    #: ``options.starting_action_cards`` as sorted (seat, count) pairs; not a switch.
    starting_action_cards: tuple[tuple[str, int], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The switches as plain JSON (``starting_action_cards`` as an object)."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["starting_action_cards"] = dict(self.starting_action_cards)
        return out


#: Domain of each switch (section 2, "Switch values"): "bool", (low, high) for counts with
#: ``None`` meaning unbounded, or the tuple of allowed words.
SWITCHES: dict[str, object] = {
    "max_seats": (2, 6),
    "starting_number_cards": (1, None),
    "number_pool": (0, None),
    "action_pool": (0, None),
    "truth_dare": "bool",
    "loser_discards_revealed": "bool",
    "blocked_seat": ("draws", "sits_out"),
    "block_counter": "bool",
    "reverse_discard": ("before", "after"),
    "truth_dare_shed": ("both", "actor"),
    "dare_refused": ("penalty", "forfeit"),
    "challenge": ("two_cards", "any_card", "none"),
    "draw_counter": "bool",
}

_ARBITER: dict[str, object] = {
    "max_seats": 2,
    "starting_number_cards": 20,
    "number_pool": 108,
    "action_pool": 32,
    "truth_dare": True,
    "loser_discards_revealed": False,
    "blocked_seat": "draws",
    "block_counter": False,
    "reverse_discard": "before",
    "truth_dare_shed": "both",
    "dare_refused": "penalty",
    "challenge": "two_cards",
    "draw_counter": True,
}

#: The four presets of the table in section 2.
PRESETS: dict[str, dict[str, object]] = {
    "arbiter": dict(_ARBITER),
    "tournament": {**_ARBITER, "truth_dare": False},
    "paper": {
        **_ARBITER,
        "action_pool": 37,
        "loser_discards_revealed": True,
        "block_counter": True,
        "truth_dare_shed": "actor",
        "dare_refused": "forfeit",
    },
    "official": {
        **_ARBITER,
        "max_seats": 6,
        "blocked_seat": "sits_out",
        "block_counter": True,
        "reverse_discard": "after",
        "truth_dare_shed": "actor",
        "dare_refused": "forfeit",
        "challenge": "any_card",
    },
}

#: Variants (seed 001) as overlays applied in the record's order before ``options``.
VARIANTS: dict[str, dict[str, object]] = {
    "speed": {"starting_number_cards": 15, "truth_dare": False},
    "hardcore": {"challenge": "none", "draw_counter": False},
    # Teams change no switch: the record's ``teams`` says who plays together (section 11.9).
    "team": {},
}


def check_switch(name: str, value: object) -> None:
    """Raise MalformedRecord unless ``value`` lies in the domain of switch ``name``."""
    domain = SWITCHES[name]
    if domain == "bool":
        if type(value) is not bool:
            raise MalformedRecord(f"option {name} must be true or false, not {show(value)}")
    elif isinstance(domain, tuple) and len(domain) == 2 and isinstance(domain[0], int):
        low, high = domain
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        if type(value) is not int or value < low or (high is not None and value > high):
            raise MalformedRecord(f"option {name} must be an integer {bounds}, not {show(value)}")
    elif type(value) is not str or value not in domain:  # type: ignore[operator]
        allowed = ", ".join(f'"{w}"' for w in domain)  # type: ignore[union-attr,attr-defined]
        raise MalformedRecord(f"option {name} must be one of {allowed}, not {show(value)}")


def resolve_rules(
    ruleset: object,
    variants: object = (),
    options: object = None,
) -> Rules:
    """The switches of ``ruleset`` with ``variants`` and then ``options`` applied (section 2).

    Raises MalformedRecord for an unknown preset, variant or option, or a value outside its
    switch's domain. ``starting_action_cards`` is checked for shape here and against the seats
    when a duel is set up.
    """
    if type(ruleset) is not str or ruleset not in PRESETS:
        raise MalformedRecord(
            f"unknown ruleset {show(ruleset)}: choose one of {', '.join(PRESETS)}"
        )
    switches = dict(PRESETS[ruleset])
    if not isinstance(variants, list | tuple):
        raise MalformedRecord(
            f"variants must be a list of variant names ({', '.join(VARIANTS)}), "
            f"not {show(variants)}"
        )
    for variant in variants:
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise MalformedRecord(
                f"unknown variant {show(variant)}: choose from {', '.join(VARIANTS)}"
            )
        switches.update(VARIANTS[variant])
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise MalformedRecord(f"options must be an object of switch names, not {show(options)}")
    starting: tuple[tuple[str, int], ...] = ()
    for name, value in options.items():
        if name == "starting_action_cards":
            starting = _starting_action_cards(value)
        elif isinstance(name, str) and name in SWITCHES:
            check_switch(name, value)
            switches[name] = value
        else:
            raise MalformedRecord(
                f"unknown option {show(name)}: options may set {', '.join(SWITCHES)} "
                "or starting_action_cards"
            )
    return Rules(**switches, starting_action_cards=starting)  # type: ignore[arg-type]


def _starting_action_cards(value: object) -> tuple[tuple[str, int], ...]:
    if not isinstance(value, Mapping):
        raise MalformedRecord(
            "option starting_action_cards must be an object of seat to a non-negative integer, "
            f"not {show(value)}"
        )
    pairs = []
    for seat, count in value.items():
        if type(count) is not int or count < 0:
            raise MalformedRecord(
                f"starting_action_cards for seat {show(seat)} must be a non-negative integer, "
                f"not {show(count)}"
            )
        if not isinstance(seat, str):
            raise MalformedRecord(f"starting_action_cards names an unknown seat {show(seat)}")
        pairs.append((seat, count))
    return tuple(sorted(pairs))
