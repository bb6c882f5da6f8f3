"""What every adapter of the table core offers, in plain values (issue 27).

An adapter is a pure object over one engine (``games.split_uno``, ``games.trois``,
``games.cpt113``): no Django, no database, no clock of its own (a command that needs the time
carries it). The core stores what an adapter returns and never looks inside it:

- ``start`` deals a new game from a seed (bytes, at least 128 bits for a dealt game) and
  returns the table and its opening events (the deal);
- ``restore`` rebuilds the table from the stored events alone — it never calls a bot nor draws
  from a random stream, so a stored game never depends on the bots' code (the card-table issue
  changes them) — and ``apply`` then continues from it exactly as from a live table;
- ``apply`` applies one command of a seat (or of the referee) and every answer of the bots until
  a person is asked, or refuses it (``Refused``, in words for the person) with nothing changed;
- ``view`` is the only way out of a table: what ``viewer`` may see, as JSON-able data. Every page,
  fragment, JSON answer and (later) push message is drawn from it, so that what a viewer may not
  see cannot reach them (ONLINE.md section 5: the non-interference property);
- ``awaiting`` says who is asked what, with each seat's clock where the game has one.

Events are stored one row per event: ``public`` is what every viewer may read once the event
happened; ``private`` maps a seat letter (or ``DEALER``) to facts only that seat may read (the
card it drew, the card it sealed). ``restore`` reads both; ``view`` decides what shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol

#: The key of ``Event.private`` for what no seat may read: the dealer's (a deck's order).
DEALER = "dealer"

ViewerKind = Literal["seat", "referee", "public", "owner"]


def hides(adapter: object) -> bool:
    """Whether ``adapter``'s games keep anything hidden (a seed that matters, private parts):
    True unless the adapter says ``hidden = False``."""
    return bool(getattr(adapter, "hidden", True))


class Refused(ValueError):
    """A command the table does not take, in words for the person; nothing has changed.

    ``str()`` is the English. ``words`` and ``fill`` are the sentence's template (named
    placeholders, ``%(name)s``) and what fills it, and ``engine`` marks an engine's own
    refusal (English only): what the edge reads to say it in the reader's language
    (``play.effect_words.refusal``; adapters import no Django)."""

    def __init__(
        self,
        text: str = "",
        *,
        words: str | None = None,
        fill: Mapping[str, Any] | None = None,
        engine: bool = False,
    ) -> None:
        super().__init__(text)
        self.words = words
        self.fill = dict(fill or {})
        self.engine = engine


def refused(words: str, **fill: Any) -> Refused:
    """A refusal in the words of the template ``words`` filled with ``fill``."""
    return Refused(words % fill if fill else words, words=words, fill=fill)


def gettext_noop(text: str) -> str:
    """Marks ``text`` as a sentence of play's catalogue (makemessages reads the name); the
    edge translates it when it is said (``play.effect_words.refusal``)."""
    return text


@dataclass(frozen=True)
class Viewer:
    """Who looks: a seat (``seat`` is its letter), the referee of a refereed game, the public,
    or the owner of a game after its end (who may see the whole deal: ONLINE.md section 5)."""

    kind: ViewerKind
    seat: str | None = None


@dataclass(frozen=True)
class Command:
    """What a seat (``seat``: its letter) or the referee (``seat`` None) asks: ``name`` is the
    adapter's verb ("seal", "play", "answer", "choose", "resign", "round"…), ``args`` its
    plain arguments as parsed from a form or JSON (never trusted: the adapter checks them)."""

    name: str
    seat: str | None = None
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Event:
    """One applied event: ``by`` says who caused it ("A" a seat, "bot:B", "referee", "dealer",
    "clock"); ``public`` and ``private`` as the module says. JSON-able throughout."""

    by: str
    public: Mapping[str, Any]
    private: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class Await:
    """A seat asked to act: ``what`` ("seal", "decide", "choose", "turn"…) and the seconds its
    clock allows (None: no seat clock)."""

    seat: str
    what: str
    seconds: int | None = None


class Adapter(Protocol):
    """One engine as the core plays it. ``kind`` names it in the database ("split_uno_dealt",
    "split_uno_refereed", "trois", "cpt113"). An adapter whose games hide nothing (refereed
    play: every card is the referee's word) may say so with ``hidden = False``: the core then
    does not read a seed or private parts it would never use (see ``hides``)."""

    kind: ClassVar[str]

    def start(
        self, config: Mapping[str, Any], seats: Sequence[str], seed: bytes
    ) -> tuple[Any, list[Event]]: ...

    def restore(
        self,
        config: Mapping[str, Any],
        seats: Sequence[str],
        seed: bytes,
        events: Sequence[Event],
    ) -> Any: ...

    def apply(self, table: Any, command: Command) -> list[Event]: ...

    def view(self, table: Any, viewer: Viewer) -> dict[str, Any]: ...

    def awaiting(self, table: Any) -> list[Await]: ...

    def finished(self, table: Any) -> bool: ...
