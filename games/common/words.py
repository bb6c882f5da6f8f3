"""Effects: what a move did, as data a page can show and a sentence a person can read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Effect:
    """One consequence of a move: ``kind`` names it for code, ``text`` says it for everyone.

    ``who`` is the seat it happened to (None for the table or the dealer). A card taken from
    the deck is hidden from the others: ``text`` then does not name it, ``secret`` does.

    ``params`` are the facts ``text`` words, as plain JSON (seats and groups by their index,
    cards by their names), and ``secret_params`` what ``secret`` adds to them: what a product
    stores to say the same sentence in another language (the edge's words, never the
    engine's)."""

    kind: str
    text: str
    who: int | None = None
    #: The same sentence naming a hidden card, for ``who`` alone (None: nothing hidden).
    secret: str | None = None
    params: Mapping[str, Any] | None = None
    secret_params: Mapping[str, Any] | None = None

    def seen_by(self, seat: int | None) -> str:
        """The words ``seat`` may read: the secret for its holder, the public text for others."""
        return self.secret if self.secret is not None and seat == self.who else self.text

    def facts_seen_by(self, seat: int | None) -> dict[str, Any]:
        """``params`` as ``seat`` may read them (``seen_by``'s facts), with the kind."""
        facts = {"kind": self.kind, **(self.params or {})}
        if self.secret is not None and seat == self.who and self.secret_params:
            facts.update(self.secret_params)
        return facts

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: a list as a sentence says it."""
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def takes_an(number: object) -> bool:
    """Whether English says "an" before ``number`` read aloud: "an 8", "an 11", "an 18",
    "an 80" to "an 89" (and "an 800", "an 11,000", …); "a 7", "a 10", "a 110" otherwise.
    Anything but a whole number takes "a". English only: other languages' sentences take the
    number as a placeholder and say their own article."""
    if isinstance(number, bool) or not isinstance(number, int | str):
        return False
    digits = str(number)
    if not digits.isdigit():
        return False
    digits = digits.lstrip("0") or "0"
    lead = len(digits) % 3 or 3  # the first group of thousands: the "11" of 11,000
    return digits.startswith("8") or digits[:lead] in ("11", "18")


def a_number(number: object) -> str:
    """``number`` with its English article: "a 7", "an 8", "an 11"."""
    return f"{'an' if takes_an(number) else 'a'} {number}"


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 card``, ``3 cards``."""
    return f"{count} {one if count == 1 else (many or one + 's')}"
