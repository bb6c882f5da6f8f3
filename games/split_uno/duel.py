"""A duel is its record (RULES.md section 8): a set-up and the events applied to it, one at a
time and atomically. Incremental application and a full replay run the same code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .actions import play_action
from .decisions import respond, settle
from .effects import Effect, RawEffect, build, describe_all
from .endings import adjudicate, forfeit, time_limit
from .errors import EngineError, IllegalEvent, show
from .events import Event, already_canonical, parse_event
from .legal import Legal, legal_now
from .record import FORMAT, VERSION, header_dict, read_header
from .rounds import play_round
from .rules import Rules
from .state import Setup, Table
from .talk import finished_text


def _round(t: Table, ev: Event, fx: list[RawEffect]) -> None:
    play_round(t, ev, fx)
    settle(t, fx)


def _action(t: Table, ev: Event, fx: list[RawEffect]) -> None:
    play_action(t, ev, fx)
    settle(t, fx)


_APPLY: dict[str, Callable[[Table, Event, list[RawEffect]], None]] = {
    "round": _round,
    "action": _action,
    "respond": respond,
    "forfeit": forfeit,
    "time_limit": time_limit,
    "adjudicate": adjudicate,
}


class Duel:
    """One duel: ``apply`` events, read ``state()``, ``legal()`` and ``record()``."""

    __slots__ = ("_setup", "_table", "_events")

    def __init__(self, setup: Setup) -> None:
        self._setup = setup
        self._table = Table(setup)
        self._events: list[Event] = []

    # -- making duels ----------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        ruleset: str,
        seats: Mapping[str, str],
        variants: Sequence[str] | None = (),
        options: Mapping[str, Any] | None = None,
        teams: Sequence[Sequence[str]] | None = None,
    ) -> Duel:
        """A duel with no events yet. Raises MalformedRecord as ``from_record`` would.
        ``teams`` (section 11.9) goes with the ``team`` variant."""
        record: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "ruleset": ruleset,
            "variants": [] if variants is None else variants,
            "options": {} if options is None else options,
            "seats": seats,
            "events": [],
        }
        if teams is not None:
            record["teams"] = [list(team) for team in teams]
        return cls.from_record(record)

    @classmethod
    def from_record(cls, record: object) -> Duel:
        """Replay a whole record. Raises MalformedRecord for the header, or IllegalEvent
        (with ``index``) for the first event the rules refuse."""
        duel, error = cls.load(record)
        if error is not None:
            raise error
        return duel

    @classmethod
    def load(cls, record: object) -> tuple[Duel, IllegalEvent | None]:
        """Replay a record as far as it is legal: the duel after the last legal event and
        the error that stopped it (None when every event applied). Raises MalformedRecord."""
        setup, events = read_header(record)
        duel = cls(setup)
        for event in events:
            try:
                duel._apply(event)
            except IllegalEvent as error:
                return duel, error
        return duel, None

    def copy(self) -> Duel:
        other = Duel(self._setup)
        other._table = self._table.copy()
        other._events = self._events[:]
        return other

    # -- playing ---------------------------------------------------------------------------

    def apply(self, event: object) -> list[Effect]:
        """Apply one event and return what it did; on EngineError nothing has changed."""
        return build(self._apply(event))

    def _apply(self, event: object, owned: bool = False) -> list[RawEffect]:
        """``apply`` without building Effect objects, for replays.

        With ``owned`` the caller hands the event over and never changes it again (the bot
        simulator, which builds its events in canonical form): an event that already is its
        canonical form, every field checked, is then kept as it is instead of copied.

        The rules change the table in place, after a ``snapshot`` of it (one flat list of its
        values); if the event fails for any reason — refused by the rules, a bug, even an
        interrupt — the table is restored from it: a refused event, or a bug, changes nothing.
        """
        t = self._table
        index = t.events + 1
        if t.finish is not None:
            raise IllegalEvent(finished_text(t), index)
        ev: Event
        try:
            if owned and already_canonical(event, self._setup):
                ev = event  # type: ignore[assignment]
            else:
                ev = parse_event(event, self._setup)
        except IllegalEvent as error:
            error.index = index
            raise
        except Exception as bug:
            raise _internal_error(bug, index) from bug
        fx: list[RawEffect] = []
        saved = t.snapshot()
        try:
            _APPLY[ev["type"]](t, ev, fx)
        except IllegalEvent as error:
            t.restore(saved)
            error.index = index
            raise
        except Exception as bug:
            t.restore(saved)
            raise _internal_error(bug, index) from bug
        except BaseException:
            t.restore(saved)
            raise
        t.events = index
        self._events.append(ev)
        return fx

    # -- reading ---------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The state of section 8, a fresh dict of plain JSON values."""
        return self._table.as_state()

    def record(self) -> dict[str, Any]:
        """The record of every applied event in canonical form, as fresh plain JSON."""
        out = header_dict(self._setup)
        out["events"] = [
            {k: dict(v) if isinstance(v, dict) else v for k, v in ev.items()} for ev in self._events
        ]
        return out

    def legal(self) -> Legal:
        return legal_now(self._table)

    def legal_events(self, include_endings: bool = False) -> list[dict[str, Any]]:
        return legal_now(self._table).events(include_endings)

    def describe(self, effects: Iterable[Effect]) -> list[str]:
        """The effects of one event as lines of plain English, seats by their names."""
        return describe_all(effects, self.seats)

    @property
    def finished(self) -> bool:
        return self._table.finish is not None

    @property
    def rules(self) -> Rules:
        return self._setup.rules

    @property
    def ruleset(self) -> str:
        return self._setup.ruleset

    @property
    def seats(self) -> dict[str, str]:
        """Seat letter -> player name, in seating order."""
        return dict(zip(self._setup.seats, self._setup.names, strict=True))

    @property
    def event_count(self) -> int:
        return self._table.events

    def __repr__(self) -> str:
        t = self._table
        return f"<Duel {self._setup.ruleset} {t.status} after {t.events} events>"


def _internal_error(bug: Exception, index: int) -> IllegalEvent:
    """The promise is that only EngineError escapes, whatever the input."""
    return IllegalEvent(
        f"the engine could not apply this event ({type(bug).__name__}: {show(str(bug))})"
        "; please report it",
        index,
    )


def replay(record: object) -> dict[str, Any]:
    """The state after every event of ``record`` (raises MalformedRecord or IllegalEvent)."""
    return Duel.from_record(record).state()


def state_after(record: object, n: object) -> dict[str, Any]:
    """The state after the first ``n`` events of ``record``."""
    setup, events = read_header(record)
    if type(n) is not int or not 0 <= n <= len(events):
        raise EngineError(f"n must be a whole number from 0 to {len(events)}, not {show(n)}")
    duel = Duel(setup)
    for event in events[:n]:
        duel._apply(event)
    return duel.state()
