"""Seeded draws: the shuffles behind the random split and every tie-break draw.

TOURNAMENT.md "Group phase: 15 rounds, two fluid groups" (random split with a stored seed) and
"Tie-breaks for the top four" points 1 and 4 (a master seed stored when the tie-breaks are
planned; each knockout's seed derived from it and the sorted ids of its members; a stored seeded
draw orders a level pair for seat A in minimal mode).

The shuffle is defined by SHA-256 rather than by ``random.shuffle``, so that anyone holding the
published seed can check a draw with any language, and so that a Python upgrade can never change
a draw that is recomputed for display. The stored order stays authoritative all the same.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable

Seed = str | int

#: Purposes mixed into a derived seed, so that a knockout and a seat draw over the same players
#: never share a seed.
KNOCKOUT = "knockout"
SEAT = "seat"


def new_seed() -> str:
    """A fresh random seed (16 hex digits). The one function of the package that is not pure."""
    return secrets.token_hex(8)


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def _ids(members: Iterable[int]) -> tuple[int, ...]:
    ids = tuple(members)
    if len(set(ids)) != len(ids):
        raise ValueError(f"a draw names a player twice: {sorted(ids)}")
    return ids


def derive_seed(master_seed: Seed, purpose: str, members: Iterable[int]) -> str:
    """The seed of one draw: SHA-256 of ``"<master>|<purpose>|<sorted ids, comma-separated>"``.

    Its first 16 hex digits are the seed (TOURNAMENT.md "Tie-breaks" point 1).
    """
    ids = ",".join(str(i) for i in sorted(_ids(members)))
    return hashlib.sha256(f"{master_seed}|{purpose}|{ids}".encode()).hexdigest()[:16]


def seeded_order(members: Iterable[int], seed: Seed) -> tuple[int, ...]:
    """The members ordered by SHA-256 of ``"<seed>:<id>"`` (ties, never seen, by id)."""
    ids = _ids(members)
    return tuple(sorted(ids, key=lambda i: (_digest(f"{seed}:{i}"), i)))
