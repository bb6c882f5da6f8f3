"""The card table of a practice game of Trois or CPT-113 (issue 30): the person's seat's view
of the game laid out as the Split UNO table is (cardtable/table_view.py) — each seat with its
count and its last play face-up, what happened since the person's own move, the log below.

Plain functions over the view's plain data, no database. A view's log comes twice: as stored
(``facts``: each line a dict naming its kind, its seat by index and its cards) and in words
(``said``: the same entries, each line a sentence in the reader's language, the person's in the
second person). The faces on the tiles are read from the facts, the steps from the words; both
are the person's seat's view, which holds nothing else (ONLINE.md section 5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: The person's seat at every practice table.
PERSON = "A"
#: Log line kinds that lay cards on the pile (both games call it "play").
PLAY = "play"
#: Log line kinds by which a seat takes from the deck instead (Trois's take and its
#: wildcards; CPT-113's draw when stuck).
TAKES = frozenset({"take", "wildcard", "pass", "draw"})


@dataclass(frozen=True)
class LastPlay:
    """A seat's latest play: the cards it laid (the last one ends on top; empty: it has laid
    none yet), the colour a wild named (a CPT-113 colour letter, or ""), the play's event
    number, and whether it took from the deck since (its latest move was a take)."""

    cards: tuple[str, ...] = ()
    named: str = ""
    event: int = -1
    took: bool = False


def last_plays(facts: Sequence[Mapping[str, Any]], seats: int) -> list[LastPlay]:
    """Each seat's latest move (by its index in the engine's order), from the log as stored."""
    plays = [LastPlay() for _ in range(seats)]
    for entry in facts:
        number = int(entry.get("event", -1))
        for line in entry.get("lines", ()):
            if not isinstance(line, Mapping):
                continue
            seat = line.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < seats:
                continue
            kind = line.get("kind")
            if kind == PLAY:
                cards = line.get("cards") or [line.get("card")]
                plays[seat] = LastPlay(
                    tuple(str(c) for c in cards if c),
                    str(line.get("colour") or ""),
                    number,
                )
            elif kind in TAKES and (kind != "draw" or line.get("stuck")):
                # A draw two's victim draws too ("draw", not stuck): that is not its move.
                # The play's own event stays: it dates the cards, not the take.
                kept = plays[seat]
                plays[seat] = LastPlay(kept.cards, kept.named, kept.event, took=True)
    return plays


def top_player(plays: Sequence[LastPlay]) -> int | None:
    """The seat whose last play is on top of the pile (the latest play), or None before any."""
    played = [(p.event, s) for s, p in enumerate(plays) if p.cards]
    return max(played)[1] if played else None


def since_my_move(said: Sequence[Mapping[str, Any]], person: str = PERSON) -> list[str]:
    """What happened since the person's last move, one line each, in order (the move itself
    included: the cards they took are named only there); the whole log before their first."""
    mine = [i for i, e in enumerate(said) if e.get("by") == person]
    start = mine[-1] if mine else 0
    return [str(line) for entry in said[start:] for line in entry.get("lines", ())]


def news(result: str | None, steps: Sequence[str]) -> str:
    """The line a screen reader hears after a move: the result, else the latest steps."""
    return result or " ".join(steps[-3:])
