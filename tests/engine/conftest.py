"""Shared helpers for the engine tests: a duel factory and event builders (no Django)."""

from __future__ import annotations

from typing import Any

import pytest

from games.split_uno import Duel

SEATS = {"A": "Alice", "B": "Bob"}


class Ev:
    """Event builders, so that tests read like a referee's log."""

    @staticmethod
    def round(**cards: int) -> dict[str, Any]:
        return {"type": "round", "cards": cards}

    @staticmethod
    def act(seat: str, card: str, **extra: Any) -> dict[str, Any]:
        return {"type": "action", "seat": seat, "card": card, **extra}

    @staticmethod
    def resp(seat: str, choice: str) -> dict[str, Any]:
        return {"type": "respond", "seat": seat, "choice": choice}


class Maker:
    """``make(ruleset, *events, variants=..., **options)`` builds a two-seat duel."""

    def __call__(
        self, ruleset: str = "arbiter", *events: Any, variants: tuple[str, ...] = (), **options: Any
    ) -> Duel:
        duel = Duel.new(ruleset, SEATS, variants, options)
        for event in events:
            duel.apply(event)
        return duel

    @staticmethod
    def seat(duel: Duel, seat: str) -> dict[str, Any]:
        return duel.state()["seats"][seat]

    @staticmethod
    def hands(duel: Duel) -> tuple[tuple[int, int], tuple[int, int]]:
        """((A number, A action), (B number, B action))."""
        seats = duel.state()["seats"]
        return tuple((seats[s]["number_cards"], seats[s]["action_cards"]) for s in "AB")  # type: ignore[return-value]


@pytest.fixture
def make() -> Maker:
    return Maker()


@pytest.fixture
def E() -> type[Ev]:  # noqa: N802 - reads like the event log it builds
    return Ev
