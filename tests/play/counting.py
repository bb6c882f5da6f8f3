"""A tiny pure adapter for the table core's tests: two seats take turns adding 1 to 3 to a
total, first to reach the target wins. Each seat is dealt a secret card (1 to 3) it may play
once instead of a number: the per-seat private fact. A seat named in ``config["bots"]`` is
played by a bot whose choice comes from its own random stream, so restoring a game must read
its stored answers, never ask it again. ``config["seconds"]`` gives each turn a clock."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from play.adapters.base import DEALER, Await, Command, Event, Refused, Viewer

KIND = "counting"


@dataclass
class Table:
    config: Mapping[str, Any]
    seats: list[str]
    seed: bytes
    total: int = 0
    turn: str = ""
    cards: dict[str, int] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    winner: str | None = None
    moves: int = 0  # the bots' streams are drawn per move


class Counting:
    kind: ClassVar[str] = KIND

    def target(self, table: Table) -> int:
        return int(table.config.get("target", 10))

    def start(
        self, config: Mapping[str, Any], seats: Sequence[str], seed: bytes
    ) -> tuple[Table, list[Event]]:
        dealer = random.Random(hashlib.sha256(b"dealer" + seed).digest())
        cards = {seat: dealer.randint(1, 3) for seat in seats}
        first = dealer.choice(list(seats))
        deal = Event(
            by="dealer",
            public={"type": "deal", "first": first},
            private={
                **{s: {"card": c} for s, c in cards.items()},
                DEALER: {"cut": dealer.random()},
            },
        )
        table = self.restore(config, seats, seed, [deal])
        return table, [deal, *self._bots(table)]

    def restore(
        self,
        config: Mapping[str, Any],
        seats: Sequence[str],
        seed: bytes,
        events: Sequence[Event],
    ) -> Table:
        table = Table(config=config, seats=list(seats), seed=seed)
        for event in events:
            if event.public["type"] == "deal":
                table.turn = event.public["first"]
                table.cards = {s: event.private[s]["card"] for s in seats}
            else:
                self._add(table, event.public["seat"], event.public["n"], event.public["card"])
        return table

    def apply(self, table: Table, command: Command) -> list[Event]:
        seat = command.seat
        if table.winner is not None:
            raise Refused("The game is over.")
        if seat != table.turn:
            raise Refused("It is not your turn.")
        if command.name == "card":
            if seat in table.used:
                raise Refused("You played your card already.")
            n, card = table.cards[seat], True
        elif command.name == "add":
            n, card = command.args.get("n"), False
            if n not in (1, 2, 3):
                raise Refused("Add 1, 2 or 3.")
        else:
            raise Refused("Unknown command.")
        self._add(table, seat, n, card)
        move = Event(by=seat, public={"type": "add", "seat": seat, "n": n, "card": card})
        return [move, *self._bots(table)]

    def _add(self, table: Table, seat: str, n: int, card: bool) -> None:
        table.total += n
        table.moves += 1
        if card:
            table.used.add(seat)
        if table.total >= self.target(table):
            table.winner = seat
        else:
            table.turn = table.seats[(table.seats.index(seat) + 1) % len(table.seats)]

    def _bots(self, table: Table) -> list[Event]:
        events = []
        while table.winner is None and table.turn in table.config.get("bots", ()):
            seat = table.turn
            stream = random.Random(
                hashlib.sha256(b"bot" + seat.encode() + table.seed).digest() + bytes([table.moves])
            )
            n = stream.randint(1, 3)
            self._add(table, seat, n, False)
            events.append(
                Event(by=f"bot:{seat}", public={"type": "add", "seat": seat, "n": n, "card": False})
            )
        return events

    def view(self, table: Table, viewer: Viewer) -> dict[str, Any]:
        view: dict[str, Any] = {
            "total": table.total,
            "turn": table.turn,
            "winner": table.winner,
            "used": sorted(table.used),
        }
        if viewer.kind == "seat" and viewer.seat in table.cards:
            view["card"] = table.cards[viewer.seat]
        if viewer.kind == "owner" and table.winner is not None:
            view["cards"] = dict(table.cards)
        return view

    def awaiting(self, table: Table) -> list[Await]:
        if table.winner is not None:
            return []
        return [Await(seat=table.turn, what="turn", seconds=table.config.get("seconds"))]

    def finished(self, table: Table) -> bool:
        return table.winner is not None


ADAPTER = Counting()
