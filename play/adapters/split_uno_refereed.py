"""The refereed Split UNO adapter (issue 27): the honour system, ``games.split_uno`` counting.

At a refereed table nothing is dealt and nothing is hidden: the players hold real cards, the
referee enters what they reveal and play, and the engine keeps the counts (RULES.md section 1).
A tournament duel and a casual table both play through this adapter.

- **Config**: the header of a ``split-uno-duel`` record (RULES.md section 8) as the record
  takes it: ``ruleset``, ``variants`` and ``options`` (optional), ``names`` (the record's
  ``seats``: letter -> name) and ``teams`` (with the ``team`` variant only, section 11.9).
  ``seats`` are the letters A, B, … in order (2–6). The seed is accepted and never read.
- **Commands**: the engine's event vocabulary as the record writes it, ``Command.name`` the
  event's ``type`` and ``args`` its other fields — ``round`` (``cards``, ``targets`` at more
  than two seats), ``action`` (``seat``, ``card``, ``target``, ``color``), ``respond``
  (``seat``, ``choice``), ``forfeit`` (``seat``, ``reason``), ``time_limit`` (``reason``),
  ``adjudicate`` (``winner``, ``reason``). The referee (``seat`` None) enters any of them; a
  seat may play its own action card, answer its own decision, or ``resign`` (its forfeit).
  ``time`` (no seat) is the one clock's time limit at the game's own deadline (a tournament
  duel's: ``play.clock.ON_DEADLINE``), reason "deadline". ``parse(form, seats)`` reads the
  consoles' posts into these commands: the one reader of the vocabulary.
- **Events**: the opening (``by`` "referee", ``public["header"]`` the record's header), then
  one per engine event: ``public["event"]`` the event as the record keeps it (canonical) and
  ``public["log"]`` its effects as data, one line each (``log_lines``: the effect's kind and
  fields, seats by letter), put in words only when shown, in the reader's language
  (``play.effect_words``; in English ``games.split_uno.describe``'s words). Nothing is private.
- ``restore`` replays the stored events through the engine (no bot, no random stream): the
  core hands it the active events only (an undone event is marked in the log, never here).
- ``view`` is the same for every viewer: the state of RULES.md section 8, the decision asked
  (with the other seat it concerns), what the referee may enter next and the log (its lines
  as stored: the table core puts them in words, ``play.effect_words.localised_view``).
- ``record(table)`` is the ``split-uno-duel`` record ``python -m duels.engine replay`` reads.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.split_uno import CARDS, COLORS, Duel, Effect, EngineError, IllegalEvent
from games.split_uno.constants import SEAT_LETTERS
from games.split_uno.record import FORMAT, header_dict

from .base import Await, Command, Event, Refused, Viewer, gettext_noop, refused
from .matching import CLOCK, log, sentence

KIND = "split_uno_refereed"
REFEREE = "referee"
#: The engine's event types: the referee's commands.
MOVES = ("round", "action", "respond")
ENDINGS = ("forfeit", "time_limit", "adjudicate")
#: What a seat may command for itself.
SEAT_COMMANDS = ("action", "respond", "resign")
#: The reason of the clock's time limit (a tournament duel's deadline) and of a resignation.
DEADLINE = "deadline"
RESIGNED = "resigned"
#: Bounds of what the consoles post (tables/forms.py, duels/forms.py).
CHOICE_MAX = 20
REASON_MAX = 200

#: Every word this module says to a person (``%(…)s`` filled in where said), marked for play's
#: catalogue: the edge says them in the reader's language (``base.Refused``). ``the_noun`` is
#: the product's word for a game: "the duel" on the tournament console, "the game" at a casual
#: table.
WORDS: dict[str, str] = {
    "not_a_move": gettext_noop("That is not a move."),
    "digit": gettext_noop("A revealed card is a digit from 0 to 9."),
    "pick_cards": gettext_noop("Pick the revealed cards first."),
    "round_target": gettext_noop("Say whom seat %(seat)s's %(card)s targets."),
    "which_seat": gettext_noop("Say which seat plays."),
    "pick_card": gettext_noop("Pick an action card."),
    "colour": gettext_noop("Name the colour of the COLOR CHANGE."),
    "target": gettext_noop("Say whom the card targets."),
    "choice": gettext_noop("Pick a choice."),
    "ending": gettext_noop("Choose how %(the_noun)s ends."),
    "reason": gettext_noop("Give a reason or a note: it goes into the log."),
    "reason_long": gettext_noop("The reason is longer than %(count)s characters."),
    "reason_control": gettext_noop("The reason may not contain control characters."),
    "confirm": gettext_noop("Tick “Yes, end %(the_noun)s now” to confirm."),
    "ending_offered": gettext_noop("Choose how %(the_noun)s ends among those offered."),
    "seats": gettext_noop(
        "A refereed game has 2 to 6 seats lettered A, B, … in order, each with a name."
    ),
    "setup": gettext_noop("The engine refuses this set-up: %(why)s."),
    "unknown": gettext_noop(
        "Unknown command: round, action, respond, forfeit, time_limit, adjudicate, resign or time."
    ),
    "referee_only": gettext_noop("Only the referee enters a round or ends the game."),
    "own_seat": gettext_noop("A seat plays only for itself."),
    "resign": gettext_noop("A seat resigns for itself; the referee enters a forfeit."),
    "replay": gettext_noop("This game cannot be replayed: %(why)s."),
}


def _say(key: str, **fill: Any) -> Refused:
    """The refusal ``WORDS[key]`` says, filled in."""
    return refused(WORDS[key], **fill)


def _the(noun: str) -> str:
    return f"the {noun}"


# -- the one reader of the consoles' posts ------------------------------------------------------

_ASCII_DIGIT = re.compile(r"[0-9]")
#: What a checkbox posts: "on" without a value attribute, the value given otherwise.
_TICKED = frozenset({"on", "1", "true"})


def parse(form: Mapping[str, Any], seats: Sequence[str], *, noun: str = "game") -> Command:
    """The referee's command a console's form posted (``form``: a QueryDict or any mapping of
    field -> text), for a table of ``seats`` (its letters in order); Refused in words for
    what is no move at all. The engine judges the rest (whether the move is legal now).

    A move (``type`` round, action or respond): ``card_<seat>`` 0–9 for each seat that
    reveals (``round_all_blocked`` for a round without cards), ``target_<seat>`` for a 0 or 7
    at more than two seats; ``seat`` with ``card`` (``color``, ``target``), or ``play``
    naming both ("A:block", or "A:red" for a COLOR CHANGE); ``seat`` with ``choice``.
    An ending (``ending`` without ``type``): ``forfeit_<seat>``, ``time_limit`` or
    ``adjudicate_<seat>``, with a ``reason`` and ``confirm`` ticked. The page's ``seq``,
    ``rev`` and ``intent`` are the write path's, not the command's: not read here."""
    letters = [s for s in seats if isinstance(s, str)]
    if "type" not in form and "ending" in form:
        return _ending(form, letters, noun)
    kind = _text(form, "type")
    if kind == "round":
        return _round(form, letters)
    if kind == "action":
        return _action(form, letters)
    if kind == "respond":
        seat = _letter(form, "seat", letters)
        if seat is None:
            raise _say("which_seat")
        choice = _text(form, "choice")
        if not choice or len(choice) > CHOICE_MAX:
            raise _say("choice")
        return Command("respond", None, {"seat": seat, "choice": choice})
    raise _say("not_a_move")


def _text(form: Mapping[str, Any], key: str) -> str:
    value = form.get(key, "")
    return value if isinstance(value, str) else ""


def _letter(form: Mapping[str, Any], key: str, letters: Sequence[str]) -> str | None:
    value = _text(form, key)
    return value if value in letters else None


def _digit(value: object) -> int | None:
    """A revealed card: one ASCII digit (a superscript or another script's digit is no card
    anyone typed: core.numbers says why), or a JSON integer 0–9."""
    if isinstance(value, str):
        return int(value) if _ASCII_DIGIT.fullmatch(value) else None
    if type(value) is int and 0 <= value <= 9:
        return value
    return None


def _round(form: Mapping[str, Any], letters: Sequence[str]) -> Command:
    many = len(letters) > 2
    cards: dict[str, int] = {}
    targets: dict[str, str] = {}
    for letter in letters:
        raw = form.get(f"card_{letter}", "")
        if raw == "" or raw is None:
            continue
        card = _digit(raw)
        if card is None:
            raise _say("digit")
        cards[letter] = card
        if many and card in (0, 7):
            target = _letter(form, f"target_{letter}", letters)
            if target is None:
                raise _say("round_target", seat=letter, card=card)
            targets[letter] = target
    if not cards and "round_all_blocked" not in form:
        raise _say("pick_cards")
    args: dict[str, Any] = {"cards": cards}
    if many:
        args["targets"] = targets
    return Command("round", None, args)


def _action(form: Mapping[str, Any], letters: Sequence[str]) -> Command:
    seat, card, color = _letter(form, "seat", letters), _text(form, "card"), _text(form, "color")
    play = _text(form, "play")
    if play:  # the duel console's buttons: seat and card (or a colour) in one value
        named, _, what = play.partition(":")
        if named not in letters or what not in (*CARDS, *COLORS):
            raise _say("pick_card")
        seat = named
        card, color = ("color_change", what) if what in COLORS else (what, color)
    if seat is None:
        raise _say("which_seat")
    if card not in CARDS:
        raise _say("pick_card")
    args: dict[str, Any] = {"seat": seat, "card": card}
    if card == "color_change":
        if color not in COLORS:
            raise _say("colour")
        args["color"] = color
    elif len(letters) > 2:
        target = _letter(form, "target", letters)
        if target is None:
            raise _say("target")
        args["target"] = target
    return Command("action", None, args)


def clean_reason(text: str) -> str:
    """A reason on one line (core.text.clean_line's reading, kept here since adapters import
    nothing of the project): control characters refused, invisible ones removed, white space
    folded."""
    if any(unicodedata.category(ch) == "Cc" and ch not in "\t\n\r" for ch in text):
        raise _say("reason_control")
    visible = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return " ".join(visible.split())


def parse_ending(form: Mapping[str, Any], seats: Sequence[str], *, noun: str = "game") -> Command:
    """The referee's ending a console's ending form posted, whatever else the post holds (a
    page's end button reads only the ending's fields): ``parse``'s reading of an ending."""
    return _ending(form, [s for s in seats if isinstance(s, str)], noun)


def _ending(form: Mapping[str, Any], letters: Sequence[str], noun: str) -> Command:
    ending = _text(form, "ending")
    reason = clean_reason(_text(form, "reason")[: REASON_MAX * 2])
    if not ending:
        raise _say("ending", the_noun=_the(noun))
    if not reason:
        raise _say("reason")
    if len(reason) > REASON_MAX:
        raise _say("reason_long", count=REASON_MAX)
    if _text(form, "confirm").lower() not in _TICKED:
        raise _say("confirm", the_noun=_the(noun))
    if ending == "time_limit":
        return Command("time_limit", None, {"reason": reason})
    kind, _, seat = ending.partition("_")
    if kind not in ("forfeit", "adjudicate") or seat not in letters:
        raise _say("ending_offered", the_noun=_the(noun))
    if kind == "forfeit":
        return Command("forfeit", None, {"seat": seat, "reason": reason})
    return Command("adjudicate", None, {"winner": seat, "reason": reason})


# -- the table ----------------------------------------------------------------------------------


@dataclass(eq=False)
class RefereedTable:
    """A table between two commands: the engine's duel after ``events`` (the opening first).
    Opaque to the core: only the adapter reads it."""

    duel: Duel
    events: list[Event] = field(default_factory=list)


def header(config: Mapping[str, Any], seats: Sequence[str]) -> dict[str, Any]:
    """The record's header ``config`` and ``seats`` describe, checked by the engine (Refused
    in words)."""
    try:
        duel = Duel.from_record(_raw_header(config, seats))
    except EngineError as err:
        raise _say("setup", why=str(err).rstrip(".")) from None
    return header_dict(duel._setup)


def _raw_header(config: Mapping[str, Any], seats: Sequence[str]) -> dict[str, Any]:
    """The record's header as ``config`` says it, its seats checked; the engine checks the
    rest when it reads the record."""
    letters = tuple(seats)
    names = config.get("names")
    if (
        not 2 <= len(letters) <= len(SEAT_LETTERS)
        or letters != SEAT_LETTERS[: len(letters)]
        or not isinstance(names, Mapping)
        or tuple(names) != letters
    ):
        raise _say("seats")
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": 1,
        "ruleset": config.get("ruleset"),
        "seats": dict(names),
        "events": [],
    }
    for optional in ("variants", "options", "teams"):
        if optional in config:
            record[optional] = config[optional]
    return record


def config_of(record: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The config and seats of a ``split-uno-duel`` record's header (a tournament duel's or a
    casual table's ``record_of``): the inverse of ``record``'s header."""
    config: dict[str, Any] = {
        "ruleset": record.get("ruleset"),
        "variants": list(record.get("variants", [])),
        "options": dict(record.get("options", {})),
        "names": dict(record.get("seats") or {}),
    }
    if "teams" in record:
        config["teams"] = [list(team) for team in record["teams"]]
    return config, list(config["names"])


class RefereedAdapter:
    kind: ClassVar[str] = KIND
    #: Nothing is hidden at a refereed table: no seed, no private part (base.hides).
    hidden: ClassVar[bool] = False

    def start(
        self, config: Mapping[str, Any], seats: Sequence[str], seed: bytes
    ) -> tuple[RefereedTable, list[Event]]:
        head = header(config, seats)
        duel = Duel.from_record({**head, "events": []})
        opening = Event(REFEREE, {"header": head, "log": []})
        return RefereedTable(duel, [opening]), [opening]

    def restore(
        self,
        config: Mapping[str, Any],
        seats: Sequence[str],
        seed: bytes,
        events: Sequence[Event],
    ) -> RefereedTable:
        head = _raw_header(config, seats)
        if not events or "header" not in events[0].public:
            raise _say("replay", why="its opening is missing")
        record = {**head, "events": [_stored(e, n) for n, e in enumerate(events[1:], start=1)]}
        # One reading of the record checks its set-up and replays its events (the console's
        # every move restores): a set-up refused is said as `header` says it.
        try:
            duel = Duel.from_record(record)
        except IllegalEvent as err:
            raise _say("replay", why=err.located().rstrip(".")) from None
        except EngineError as err:
            raise _say("setup", why=str(err).rstrip(".")) from None
        return RefereedTable(duel, list(events))

    def apply(self, table: RefereedTable, command: Command) -> list[Event]:
        event, by = _event_of(table.duel, command)
        try:
            effects = table.duel.apply(event)
        except EngineError as err:
            raise Refused(sentence(str(err)), engine=True) from None
        # The event as the record keeps it (canonical), copied: the last one only, not the
        # whole record on every move.
        applied = {
            k: dict(v) if isinstance(v, dict) else v for k, v in table.duel._events[-1].items()
        }
        lines: list[Any] = log_lines(effects)
        if by == CLOCK:  # the clock's time limit says why the duel ended now
            lines = [{"say": "time_up"}, *lines]
        new = Event(by, {"event": applied, "log": lines})
        table.events.append(new)
        return [new]

    def view(self, table: RefereedTable, viewer: Viewer) -> dict[str, Any]:
        duel = table.duel
        if viewer.kind == "seat" and viewer.seat not in duel.seats:
            raise ValueError(f"no seat {viewer.seat!r} at this table")
        # The header as the config says it now (a product may correct a name), not as opened.
        head = header_dict(duel._setup)
        return {
            "game": KIND,
            "events": len(table.events),
            "header": {k: v for k, v in head.items() if k not in ("format", "version")},
            "state": duel.state(),
            "decision": _decision(duel),
            "next": _next(duel),
            "finished": duel.finished,
            "log": log(table.events, viewer, everything=False),
        }

    def awaiting(self, table: RefereedTable) -> list[Await]:
        duel = table.duel
        if duel.finished:
            return []
        legal = duel.legal()
        if legal.awaiting is not None:
            return [Await(legal.awaiting["seat"], "decide")]
        return [Await(seat, "reveal") for seat in legal.round_seats]

    def finished(self, table: RefereedTable) -> bool:
        return table.duel.finished

    def record(self, table: RefereedTable) -> dict[str, Any]:
        """The game's ``split-uno-duel`` record (RULES.md section 8), which
        ``python -m duels.engine replay`` reads: the active events in canonical form."""
        return table.duel.record()

    def events_from_record(
        self, record: Mapping[str, Any], logs: Sequence[Sequence[str]] | None = None
    ) -> tuple[dict[str, Any], list[str], list[Event]]:
        """The config, seats and events of a game stored as a record (a tournament duel's or
        a casual table's active events), for the data migration: each event applied in turn,
        its log lines the stored ones (``logs``, one list per event: a product's own words
        kept) or else the engine's. Refused if the record does not replay."""
        config, seats = config_of(record)
        table, events = self.start(config, seats, b"")
        stored = record.get("events")
        if not isinstance(stored, list) or (logs is not None and len(logs) != len(stored)):
            raise _say("replay", why="its events are not a list, one log per event")
        for n, raw in enumerate(stored, start=1):
            if not isinstance(raw, Mapping):
                raise _say("replay", why=f"event {n} is not an event")
            args = {k: v for k, v in raw.items() if k != "type"}
            try:
                (event,) = self.apply(table, Command(str(raw.get("type")), None, args))
            except Refused as err:
                raise _say("replay", why=f"event {n}: {err}".rstrip(".")) from None
            if logs is not None:
                event = Event(event.by, {**event.public, "log": list(logs[n - 1])})
                table.events[-1] = event
            events.append(event)
        return config, seats, events


def log_lines(effects: Sequence[Effect]) -> list[dict[str, Any]]:
    """An event's effects as its stored log: each the effect's kind and the fields it sets
    (``Effect.as_dict()`` without its defaults), seats by their letters."""
    return [compact(effect) for effect in effects]


#: ``Effect``'s fields and their defaults, which a stored line leaves out.
DEFAULTS: dict[str, Any] = {
    "seat": None,
    "other": None,
    "number": 0,
    "action": 0,
    "card": None,
    "cause": None,
    "source": None,
    "short": False,
}


def compact(effect: Effect) -> dict[str, Any]:
    """One effect as a stored log line (``play.effect_words.effect_of`` reads it back)."""
    line: dict[str, Any] = {"kind": effect.kind}
    for key, default in DEFAULTS.items():
        value = getattr(effect, key)
        if value != default or type(value) is not type(default):
            line[key] = value
    return line


def _stored(event: Event, number: int) -> Any:
    stored = event.public.get("event")
    if not isinstance(stored, Mapping):
        raise _say("replay", why=f"event {number} holds no move")
    return dict(stored)


def _event_of(duel: Duel, command: Command) -> tuple[dict[str, Any], str]:
    """The engine event a command asks for, and who caused it (its ``by``)."""
    name, seat, args = command.name, command.seat, command.args
    # A command is never trusted (base.Command): its parts are checked before they are read.
    if not isinstance(name, str) or not isinstance(args, Mapping):
        raise _say("unknown")
    if seat is not None and (not isinstance(seat, str) or seat not in duel.seats):
        raise _say("own_seat")
    args = {k: v for k, v in args.items() if k != "type"}
    if name == "time" and seat is None and not args:
        return {"type": "time_limit", "reason": DEADLINE}, CLOCK
    if name not in (*MOVES, *ENDINGS, "resign"):
        raise _say("unknown")
    if seat is None:
        if name == "resign":
            raise _say("resign")
        return {"type": name, **args}, REFEREE
    if name not in SEAT_COMMANDS:
        raise _say("referee_only")
    if args.setdefault("seat", seat) != seat:
        raise _say("own_seat")
    if name == "resign":
        return {"type": "forfeit", "seat": seat, "reason": args.get("reason", RESIGNED)}, seat
    return {"type": name, **args}, seat


def _decision(duel: Duel) -> dict[str, Any] | None:
    """The decision asked, with the other seat it concerns (the player of the card answered,
    the refuser a penalty falls on, the potential winner a challenge is about; None for a
    bonus) and the card that raised it: what a console words it from."""
    t = duel._table
    p = t.pending
    if p is None:
        return None
    seats = t.setup.seats
    return {
        "decision": p.decision,
        "seat": seats[p.seat],
        "choices": list(p.choices),
        "other": seats[p.other] if p.other >= 0 else None,
        "card": p.card or None,
    }


def _next(duel: Duel) -> dict[str, Any] | None:
    """What the referee may enter now (None after the end): the round (who reveals; whom a
    0 or 7 may target at more than two seats), each seat's action cards (with their
    targets), the decision's answers, and the endings."""
    if duel.finished:
        return None
    legal = duel.legal()
    many = len(legal.seats) > 2
    targets = {s: list(t) for s, t in legal.targets.items()} if many else {}
    round_ = None
    if legal.awaiting is None and legal.can_play_round:
        seats = list(legal.round_seats)
        round_ = {
            "seats": seats,
            "all_blocked": not seats,
            "targets": {s: targets[s] for s in seats} if many else {},
        }
    playing = list(legal.in_play or legal.seats)
    return {
        "round": round_,
        "actions": {s: list(cards) for s, cards in legal.actions.items() if cards},
        "targets": targets,
        "colors": list(COLORS),
        "respond": (
            {"seat": legal.awaiting["seat"], "choices": list(legal.awaiting["choices"])}
            if legal.awaiting is not None
            else None
        ),
        "endings": {"forfeit": playing, "time_limit": True, "adjudicate": playing},
    }


ADAPTER = RefereedAdapter()
