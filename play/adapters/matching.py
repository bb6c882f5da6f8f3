"""What the adapters of the two matching games of the seeds (Trois, CPT-113) share.

Both engines (``games.trois``, ``games.cpt113``) deal from an integer seed and are otherwise
deterministic functions of their state; their bots choose from a ``random.Random``. The
adapters keep the table core's promise on top of them (issue 27):

- the deal is dealt once, from the dealer's own stream (``dealer_seed``), and recorded in the
  opening event (each hand under its seats' letters, the deck under ``DEALER``), so that
  ``restore`` sets it out again instead of dealing;
- every move — the person's and each bot's — is an event of its own, the move in ``public``
  with the log lines everyone reads, and what only one seat may read (the cards it drew, the
  lines naming them) under that seat's letter; ``restore`` re-applies the moves and never
  asks a bot;
- each bot decision draws from a stream of its own, derived from the seed, the seat and the
  event's number (``bot_random``): no stream is shared, so that one bot's choices never
  move another's, and a restored table continues exactly as the live one would.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .base import DEALER, Event, Refused, Viewer

#: A dealt game's seed is at least 128 bits (issue 27).
MIN_SEED_BYTES = 16
#: A guard on one game's events, the Trois engine's own bound on a record's moves (25
#: minutes of Trois at a move in 3 s make about 2,000 events; CPT-113's 40 cards end sooner).
MAX_EVENTS = 5000
BOT_PREFIX = "bot:"
CLOCK = "clock"


def check_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes) or len(seed) < MIN_SEED_BYTES:
        raise ValueError(f"a dealt game's seed is bytes, at least {MIN_SEED_BYTES} of them")


def _stream(seed: bytes, *parts: str) -> int:
    digest = hashlib.sha256(seed + b"\x00" + "\x00".join(parts).encode()).digest()
    return int.from_bytes(digest, "big")


def dealer_seed(seed: bytes, game: str) -> int:
    """The engine's integer seed for the dealer (the deal, Trois's reshuffles): 63 bits, so
    that a record of the game reads in the engine's own command line too."""
    return _stream(seed, game, DEALER) >> (256 - 63)


def bot_random(seed: bytes, game: str, seat: str, event: int) -> random.Random:
    """The stream a bot at ``seat`` decides the ``event``-th event from: its own, fresh for
    every decision, so that a restored table asks it exactly what the live one would."""
    return random.Random(_stream(seed, game, BOT_PREFIX + seat, str(event)))


def sentence(text: str) -> str:
    """An engine's refusal as the practice pages say it: a capital and a full stop."""
    return text[:1].upper() + text[1:].rstrip(".") + "."


@dataclass(frozen=True)
class Seating:
    """The seats in the engine's order (their letters), each one's name, and the bots
    (seat letter -> the engine's bot name); every other seat is a person's."""

    seats: tuple[str, ...]
    names: tuple[str, ...]
    bots: Mapping[str, str]

    def index(self, seat: str | None) -> int | None:
        return self.seats.index(seat) if seat in self.seats else None

    def by(self, index: int) -> str:
        """An event's ``by`` for a move of the seat at ``index``."""
        seat = self.seats[index]
        return BOT_PREFIX + seat if seat in self.bots else seat


def seating(
    config: Mapping[str, Any],
    seats: Sequence[str],
    count: int,
    default_names: Sequence[str],
    bot_names: Sequence[str],
) -> Seating:
    """The seating a game's ``config`` ("names", "bots") and ``seats`` describe, checked."""
    letters = tuple(seats)
    if (
        len(letters) != count
        or len(set(letters)) != count
        or not all(isinstance(s, str) and s and s != DEALER for s in letters)
    ):
        raise Refused(f"This game has {count} seats, each with its own letter.")
    names = tuple(config.get("names") or default_names)
    if len(names) != count or not all(isinstance(n, str) and n for n in names):
        raise Refused(f"This game has {count} seats, each with a name.")
    bots = dict(config.get("bots") or {})
    if not set(bots) <= set(letters) or not set(bots.values()) <= set(bot_names):
        raise Refused(f"A bot sits at one of the seats and is one of: {', '.join(bot_names)}.")
    return Seating(letters, names, bots)


def seat_of(event: Event) -> str | None:
    """The seat whose move ``event`` is (None for the dealer's and the clock's)."""
    by = event.by
    if by in (DEALER, CLOCK):
        return None
    return by[len(BOT_PREFIX) :] if by.startswith(BOT_PREFIX) else by


def log(events: Sequence[Event], viewer: Viewer, everything: bool) -> list[dict[str, Any]]:
    """The log as ``viewer`` may read it: each event's public lines, or a seat's own lines
    where it has some (naming the cards it drew); ``everything`` (the owner after the end)
    reads every line naming its cards."""
    entries: list[dict[str, Any]] = []
    for number, event in enumerate(events):
        lines = list(event.public.get("log", ()))
        if not lines:
            continue
        if everything:
            for facts in event.private.values():
                own = facts.get("log")
                if own:
                    lines = [
                        o if o != p else line
                        for o, p, line in zip(own, event.public["log"], lines, strict=True)
                    ]
        elif viewer.kind == "seat":
            own = event.private.get(viewer.seat or "", {}).get("log")
            if own:
                lines = list(own)
        entries.append({"event": number, "by": event.by, "lines": lines})
    return entries


def private_lines(
    effects: Sequence[Any], holders: Mapping[int, Sequence[str]]
) -> dict[str, dict[str, Any]]:
    """Each holder's lines where an effect names a card only it may read: ``holders`` maps an
    effect's ``who`` (a seat of Trois, a group of CPT-113) to the seat letters reading it."""
    private: dict[str, dict[str, Any]] = {}
    for who, letters in holders.items():
        if any(e.secret is not None and e.who == who for e in effects):
            lines = [e.seen_by(who) for e in effects]
            for letter in letters:
                private[letter] = {"log": lines}
    return private
