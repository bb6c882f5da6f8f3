"""The engines' words about a game, in the reader's language (issue 29): the one edge where a
stored log line becomes a sentence.

The engines (``games.split_uno``, ``games.trois``, ``games.cpt113``) say what a move did in
plain English for their command lines; that English stays their source of truth. A game's log
is stored as data instead — each line a plain dict, the effect's kind and its fields, seats by
their letters — and only turned into words here, when a page shows it, by the request's
language. A line stored before (or one no rule below knows) is a plain string and is shown as
it is: every function here accepts both.

A stored line is one of:

- a Split UNO effect: ``{"kind": …, "seat": …, …}``, ``Effect.as_dict()`` without the fields
  left at their defaults (``compact``); said by ``split_uno_line``, which in English says
  exactly what ``games.split_uno.describe`` says (tests/play/test_effect_words.py holds them
  together over random duels);
- an adapter's own line: ``{"say": key, …}`` (the clock's "Time is up.", a dealt table's
  seals), said by ``adapter_line``;
- a Trois or CPT-113 effect: ``{"game": "trois" | "cpt113", "kind": …, …}``, said by
  ``trois_line`` and ``cpt113_line``.

``say(line, names)`` picks the right one; ``names`` maps a seat letter to the name the table
gives it (a Trois or CPT-113 line names seats by their index in the engine's order, so its
``names`` is a sequence). Card names stay as printed on the cards, in English (the glossary).

The reader's own seat (issue 30): every function that says lines takes an optional
``person``, the seat the reader plays (a Split UNO letter; at Trois and CPT-113 the seat's
index, as their lines name seats). A line about that seat is said to the reader in the second
person: as subject ("You draw 2 number cards (Bot C's 7)", "You win the round (streak 1)"), as
object ("Bot B plays +4 on you") or as possessor ("Bot C draws 2 number cards (your 7)"). Each
such line is a msgid of its own (Spanish, French and Malay conjugate "you" their own way),
never "You" put into a third-person sentence. With ``person=None`` (the default) every line is
as before, the person by their name. A page calls::

    localised_view(view, person="A")   # a view of any game: the seat's letter (a Trois or
                                       # CPT-113 view turns it into the seat's index)
    play.selectors.view_of(game_id, viewer, person="A")   # the same, from a stored game
    say(line, names, person="A"); say_all(lines, names, person="A")   # Split UNO lines
    say(line, names, person=0)         # a Trois or CPT-113 line: the seat's index
    localised_event(identity, public, names, language, person="A")  # kept per person too

The caches (``say_all``'s and ``localised_event``'s) are keyed by ``person``: one reader's
"you" is never another's. Lines the reader's seat is not in read exactly as without it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import get_language, gettext_noop, ngettext, pgettext
from django.utils.translation import gettext as _

from games.common.words import takes_an
from games.cpt113.state import LETTERS
from games.split_uno.constants import CARD_LABELS
from games.split_uno.effects import Effect, describe
from play.adapters.split_uno_refereed import DEFAULTS
from play.adapters.split_uno_refereed import compact as compact

Names = Mapping[str, str] | Sequence[str]
#: The reader's own seat, said in the second person: a Split UNO seat letter, a Trois or
#: CPT-113 seat index; None: no seat is the reader's (every line in the third person).
Person = str | int | None


def effect_of(line: Mapping[str, Any]) -> Effect:
    """The ``Effect`` a stored Split UNO line holds (the engine's English: ``describe``)."""
    return Effect(str(line["kind"]), **{k: line.get(k, default) for k, default in DEFAULTS.items()})


def say(line: object, names: Names | None = None, person: Person = None) -> str:
    """One stored log line in the reader's language; a plain string as it is. ``person``: the
    reader's own seat (a Split UNO letter; a Trois or CPT-113 index), said "you"."""
    if isinstance(line, str):
        return line
    if not isinstance(line, Mapping):
        return str(line)
    game = line.get("game")
    if game == "trois":
        return trois_line(line, names or (), _index(person))
    if game == "cpt113":
        return cpt113_line(line, names or (), _index(person))
    letter = person if isinstance(person, str) else None
    if "say" in line:
        return adapter_line(line, names if isinstance(names, Mapping) else {}, letter)
    return split_uno_line(line, names if isinstance(names, Mapping) else {}, letter)


def _index(person: Person) -> int | None:
    """A Trois or CPT-113 seat index (a letter names no seat there: the caller converts it,
    ``localised_view`` does)."""
    return person if isinstance(person, int) and not isinstance(person, bool) else None


def language_key() -> tuple[str | None, str]:
    """The reader's language as the active catalogue says it: get_language() names it, and
    one message said in it tells apart catalogues that share a name (a test's)."""
    return (get_language(), _("%(name)s reveals %(card)s"))


def say_all(
    lines: Iterable[object],
    names: Names | None = None,
    language: Any = None,
    person: Person = None,
) -> list[str]:
    """Every line of one event, in the reader's language (each line said once per language,
    names and person in this process: a console says its whole log on every move).
    ``language``: ``language_key()``, for a caller that says many events at once; ``person``:
    as ``say``."""
    language = language or language_key()
    named = _names_key(names)
    out = []
    for line in lines:
        if type(line) is str:
            out.append(line)
            continue
        key = _line_key(line)
        if key is None or named is None:
            out.append(say(line, names, person))
            continue
        whole = (language, named, person, key)
        text = _SAID.get(whole)
        if text is None:
            text = say(line, names, person)
            if len(_SAID) >= _SAID_MAX:
                _SAID.clear()
            _SAID[whole] = text
        out.append(text)
    return out


def _names_key(names: Names | None) -> tuple[Any, ...] | None:
    if names is None:
        return ()
    try:
        if isinstance(names, Mapping):
            return tuple(names.items())
        return tuple(names)
    except TypeError:
        return None


def _line_key(line: object) -> tuple[Any, ...] | None:
    """A stored line as a key (its lists as tuples), None if it holds anything else."""
    if type(line) is not dict:
        return None
    items = []
    for key, value in line.items():
        kind = type(value)
        if kind is list:
            value = tuple(tuple(v) if type(v) is list else v for v in value)
        elif kind is dict:
            return None
        items.append((key, value))
    return tuple(items)


_SAID: dict[tuple[Any, ...], str] = {}
#: How many lines are kept said; past it the cache starts afresh (a bound, not an LRU: cheap).
_SAID_MAX = 50_000


def localised_public(
    public: Mapping[str, Any], names: Names | None, language: Any = None, person: Person = None
) -> Mapping[str, Any]:
    """A stored event's public part with its log in words (the part itself when it has none);
    ``person``: as ``say``."""
    lines = public.get("log")
    if not lines or all(type(line) is str for line in lines):
        return public
    return {**public, "log": say_all(lines, names, language, person)}


_EVENTS: dict[tuple[Any, ...], Mapping[str, Any]] = {}


def localised_event(
    identity: tuple[Any, ...],
    public: Mapping[str, Any],
    names: Names | None,
    language: Any,
    person: Person = None,
) -> Mapping[str, Any]:
    """``localised_public`` of a stored event, kept by its identity (its primary key and
    when it was stored: a key alone may come back after a rolled-back test): a stored
    event's public part never changes, and a console says its whole log on every move
    (issue 29: one lookup per event instead of one per line). Callers do not change it.
    ``person``: as ``say`` (part of the key: the reader's "you" is not another reader's)."""
    named = _names_key(names)
    if named is None:
        return localised_public(public, names, language, person)
    key = (identity, language, named, person)
    found = _EVENTS.get(key)
    if found is None:
        found = localised_public(public, names, language, person)
        if len(_EVENTS) >= _SAID_MAX:
            _EVENTS.clear()
        _EVENTS[key] = found
    return found


def view_names(view: Mapping[str, Any]) -> Names:
    """The names a view's log lines call the seats by: a refereed game's header, a dealt
    table's names, a matching game's seats in the engine's order."""
    if isinstance(view.get("names"), Mapping):
        return view["names"]
    header = view.get("header")
    if isinstance(header, Mapping) and isinstance(header.get("seats"), Mapping):
        return header["seats"]
    seats = view.get("seats")
    if isinstance(seats, list):
        return [str(s.get("name", "")) for s in seats if isinstance(s, Mapping)]
    return {}


def view_person(view: Mapping[str, Any], person: Person) -> Person:
    """``person`` as the view's log lines name seats: a seat letter stays a letter at Split
    UNO, and becomes the seat's index in the engine's order at a matching game (Trois,
    CPT-113), whose view lists its seats with their letters."""
    seats = view.get("seats")
    if isinstance(person, str) and isinstance(seats, list) and not _by_letter(view):
        for index, seat in enumerate(seats):
            if isinstance(seat, Mapping) and seat.get("seat") == person:
                return index
        return None
    return person


def _by_letter(view: Mapping[str, Any]) -> bool:
    """Whether a view's lines name seats by letter (Split UNO's ``names``, a header's seats)."""
    return isinstance(view_names(view), Mapping)


def localised_view(view: dict[str, Any] | None, person: Person = None) -> dict[str, Any] | None:
    """An adapter's view (``Adapter.view``) with its log in words: what every page reads.
    ``person``: the reader's own seat letter (at every game; or a Trois or CPT-113 index),
    whose lines are said in the second person ("You reveal 7"); None: all in the third."""
    if not view or not isinstance(view.get("log"), list):
        return view
    names = view_names(view)
    person = view_person(view, person)
    language = language_key()
    log = []
    for entry in view["log"]:
        if isinstance(entry, Mapping) and "lines" in entry:
            entry = {**entry, "lines": say_all(entry["lines"], names, language, person)}
        log.append(entry)
    return {**view, "log": log}


# -- Split UNO ----------------------------------------------------------------------------------


def _label(card: object) -> str:
    """A card as printed on it (English, upper case: the glossary), a digit as a digit."""
    return CARD_LABELS.get(card, str(card)) if isinstance(card, str) else str(card)


class _Namer:
    """A seat's name by its letter; ``person`` is the reader's own seat (None: nobody's), whose
    lines are said in the second person."""

    __slots__ = ("names", "person")

    def __init__(self, names: Mapping[str, str], person: str | None = None) -> None:
        self.names = names
        self.person = person

    def __call__(self, seat: object) -> str:
        if seat is None:
            # Translators: a log line's seat when no seat is named.
            return pgettext("no seat", "nobody")
        return str(self.names.get(seat, seat))  # type: ignore[call-overload]

    def me(self, seat: object) -> bool:
        """Whether ``seat`` is the reader's own (a line about it says "you")."""
        return seat is not None and seat == self.person


def _cards(number: int, action: int) -> str:
    numbers = ngettext("%(count)s number card", "%(count)s number cards", number) % {
        "count": number
    }
    actions = ngettext("%(count)s action card", "%(count)s action cards", action) % {
        "count": action
    }
    if number and action:
        # Translators: cards drawn or shed, e.g. "2 number cards and 1 action card".
        return _("%(numbers)s and %(actions)s") % {"numbers": numbers, "actions": actions}
    return numbers if number else actions


def _colour(colour: object) -> str:
    return {
        "red": pgettext("colour", "red"),
        "yellow": pgettext("colour", "yellow"),
        "green": pgettext("colour", "green"),
        "blue": pgettext("colour", "blue"),
    }.get(str(colour), str(colour))


def _your_why(cause: str | None) -> str | None:
    """The bracketed cause of a draw or a shed when its source is the reader ("your 7"); None
    for a cause no seat owns."""
    if cause == "seven":
        # Translators: the cause of a draw: the reader's own revealed 7 ("Bot B draws 2 number
        # cards (your 7)").
        return _("your 7")
    if cause in ("draw_two", "draw_four", "color_change", "truth", "dare", "block"):
        # Translators: the cause of a draw: the reader's own card, named as printed ("your +2").
        return _("your %(card)s") % {"card": CARD_LABELS[cause]}
    if cause == "penalty":
        # Translators: the cause of a draw: the penalty the reader chose.
        return _("your penalty")
    if cause == "bonus":
        # Translators: the cause of a draw: the streak bonus the reader claimed.
        return _("your streak bonus")
    if cause == "challenge":
        # Translators: the cause of a draw: the reader's challenge of a win.
        return _("your challenge")
    return None


def _why(e: Effect, name: _Namer) -> str:
    """The bracketed cause of a draw or a shed."""
    cause = e.cause
    if name.me(e.source):
        yours = _your_why(cause)
        if yours is not None:
            return yours
    owner = name(e.source) if e.source is not None else None
    if cause == "seven":
        if owner is None:
            return "7"
        # Translators: the cause of a draw: a seat's revealed 7 ("Alice's 7").
        return _("%(name)s's 7") % {"name": owner}
    if cause in ("draw_two", "draw_four", "color_change", "truth", "dare", "block"):
        if owner is None:
            return CARD_LABELS[cause]
        # Translators: the cause of a draw: a seat's card, named as printed ("Alice's +2").
        return _("%(name)s's %(card)s") % {"name": owner, "card": CARD_LABELS[cause]}
    if cause == "penalty":
        if owner is None:
            return pgettext("cause of a draw", "penalty")
        return _("%(name)s's penalty") % {"name": owner}
    if cause == "bonus":
        if owner is None:
            return pgettext("cause of a draw", "streak bonus")
        return _("%(name)s's streak bonus") % {"name": owner}
    if cause == "challenge":
        if owner is None:
            return pgettext("cause of a draw", "challenge")
        return _("%(name)s's challenge") % {"name": owner}
    causes = {
        "round_won": pgettext("cause of a shed", "round won"),
        "round_lost": pgettext("cause of a draw", "round lost"),
        "tie": pgettext("cause of a shed", "tie"),
        "blocked_round": pgettext("cause of a draw", "blocked round"),
        "draw_battle": pgettext("cause of a draw", "draw battle"),
        "block_battle": pgettext("cause of a shed", "BLOCK countered"),
        "one_card_challenge": pgettext("cause of a draw", "challenge with a single action card"),
    }
    return causes.get(cause or "", cause or "")


# The second-person lines below: the reader ("you") is the seat named; each is a sentence of
# its own (a language conjugates "you draw" its own way), never "You" put into a third-person
# sentence.


def _draw(e: Effect, name: _Namer) -> str:
    fill = {"name": name(e.seat), "why": _why(e, name)}
    you = name.me(e.seat)
    if e.number or e.action:
        fill["cards"] = _cards(e.number, e.action)
        if e.short:
            if you:
                # Translators: the reader draws cards, fewer than asked.
                return _("You draw %(cards)s (%(why)s; the deck ran short)") % fill
            return _("%(name)s draws %(cards)s (%(why)s; the deck ran short)") % fill
        if you:
            # Translators: the reader draws cards, e.g. "You draw 2 number cards (Bot B's 7)".
            return _("You draw %(cards)s (%(why)s)") % fill
        return _("%(name)s draws %(cards)s (%(why)s)") % fill
    if e.short:
        if you:
            # Translators: the reader should draw, but both decks are empty.
            return _("You draw nothing (%(why)s; the deck is empty)") % fill
        return _("%(name)s draws nothing (%(why)s; the deck is empty)") % fill
    if you:
        # Translators: the reader draws no card.
        return _("You draw nothing (%(why)s)") % fill
    return _("%(name)s draws nothing (%(why)s)") % fill


def _shed(e: Effect, name: _Namer) -> str:
    who = name(e.seat)
    you = name.me(e.seat)
    if e.cause == "revealed_discarded":
        if you:
            # Translators: the reader lost the round and discards the card they revealed.
            return _("You discard the revealed card (round lost)")
        return _("%(name)s discards the revealed card (round lost)") % {"name": who}
    fill = {"name": who, "why": _why(e, name)}
    if not e.number and not e.action:
        if you:
            # Translators: the reader should shed a number card but holds none.
            return _("You have no number card left to shed (%(why)s)") % fill
        return _("%(name)s has no number card left to shed (%(why)s)") % fill
    fill["cards"] = _cards(e.number, e.action)
    if you:
        # Translators: the reader sheds cards, e.g. "You shed 1 number card (round won)".
        return _("You shed %(cards)s (%(why)s)") % fill
    return _("%(name)s sheds %(cards)s (%(why)s)") % fill


def _steal(e: Effect, name: _Namer) -> str:
    fill = {"name": name(e.seat), "other": name(e.other)}
    you, them = name.me(e.seat), name.me(e.other)
    if e.number:
        if you:
            # Translators: the reader's revealed 0 takes a number card from another seat.
            return _("You take 1 number card from %(other)s (your 0)") % fill
        if them:
            # Translators: another seat's revealed 0 takes a number card from the reader.
            return _("%(name)s takes 1 number card from you (%(name)s's 0)") % fill
        return _("%(name)s takes 1 number card from %(other)s (%(name)s's 0)") % fill
    if e.cause == "revealed":
        if you:
            # Translators: the reader's 0 finds the other seat holding only its revealed card.
            return (
                _("Your 0 takes nothing: %(other)s holds no card but the one on the table") % fill
            )
        if them:
            # Translators: another seat's 0 finds the reader holding only their revealed card.
            return _("%(name)s's 0 takes nothing: you hold no card but the one on the table") % fill
        return (
            _("%(name)s's 0 takes nothing: %(other)s holds no card but the one on the table") % fill
        )
    if you:
        # Translators: the reader's 0 finds the other seat holding no number card.
        return _("Your 0 takes nothing: %(other)s holds no number card") % fill
    if them:
        # Translators: another seat's 0 finds the reader holding no number card.
        return _("%(name)s's 0 takes nothing: you hold no number card") % fill
    return _("%(name)s's 0 takes nothing: %(other)s holds no number card") % fill


def _play(e: Effect, name: _Namer) -> str:
    fill = {"name": name(e.seat), "card": _label(e.card)}
    you = name.me(e.seat)
    if e.card == "color_change":
        fill["colour"] = _colour(e.cause)
        if you:
            # Translators: the reader plays COLOR CHANGE (as printed) and names a colour.
            return _("You play %(card)s and name %(colour)s") % fill
        # Translators: "COLOR CHANGE" stays as printed on the card; the colour is translated.
        return _("%(name)s plays %(card)s and names %(colour)s") % fill
    if e.other is not None:
        fill["other"] = name(e.other)
        if you:
            # Translators: the reader plays an action card on another seat ("You play +2 on
            # Bot B").
            return _("You play %(card)s on %(other)s") % fill
        if name.me(e.other):
            # Translators: another seat plays an action card on the reader ("Bot B plays +4 on
            # you").
            return _("%(name)s plays %(card)s on you") % fill
        return _("%(name)s plays %(card)s on %(other)s") % fill
    if you:
        # Translators: the reader plays an action card ("You play REVERSE").
        return _("You play %(card)s") % fill
    return _("%(name)s plays %(card)s") % fill


def _decision(decision: str) -> str:
    """A decision's name, as a lapse says it ("The block counter asked of …")."""
    return {
        "counter": pgettext("decision", "counter"),
        "block_counter": pgettext("decision", "block counter"),
        "truth": pgettext("decision", "truth"),
        "dare": pgettext("decision", "dare"),
        "penalty": pgettext("decision", "penalty"),
        "bonus": pgettext("decision", "bonus"),
        "challenge": pgettext("decision", "challenge"),
    }.get(decision, decision.replace("_", " "))


def _await(e: Effect, name: _Namer) -> str:
    """The decision asked, with what each choice does, in words (RULES.md section 6)."""
    fill = {"name": name(e.seat)}
    you, them = name.me(e.seat), name.me(e.other)
    # No other seat named: with more than two seats a bonus makes every opponent draw.
    if e.other is not None:
        fill["other"] = name(e.other)
    else:
        # Translators: in "Waiting for Ann: answer every opponent's TRUTH, or refuse".
        fill["other"] = pgettext("no seat", "every opponent")
    decision = e.card
    if decision == "counter":
        if you:
            # Translators: the reader is asked whether to counter a draw card.
            return _("Waiting for you: counter with +2 or +4, or pass")
        return _("Waiting for %(name)s: counter with +2 or +4, or pass") % fill
    if decision == "block_counter":
        if you:
            # Translators: the reader is asked whether to counter a BLOCK.
            return _("Waiting for you: counter with BLOCK, or pass")
        return _("Waiting for %(name)s: counter with BLOCK, or pass") % fill
    if decision == "truth":
        if you:
            # Translators: the reader is asked to answer another seat's TRUTH.
            return _("Waiting for you: answer %(other)s's TRUTH, or refuse") % fill
        if them:
            # Translators: another seat is asked to answer the reader's TRUTH.
            return _("Waiting for %(name)s: answer your TRUTH, or refuse") % fill
        return _("Waiting for %(name)s: answer %(other)s's TRUTH, or refuse") % fill
    if decision == "dare":
        if you:
            # Translators: the reader is asked to complete another seat's DARE.
            return _("Waiting for you: complete %(other)s's DARE, or refuse") % fill
        if them:
            # Translators: another seat is asked to complete the reader's DARE.
            return _("Waiting for %(name)s: complete your DARE, or refuse") % fill
        return _("Waiting for %(name)s: complete %(other)s's DARE, or refuse") % fill
    if decision == "penalty":
        if you:
            # Translators: the reader chooses the penalty for another seat's refusal.
            return (
                _(
                    "Waiting for you: penalty for %(other)s's refusal: you draw 2 action cards "
                    "and %(other)s 2 number cards, or %(other)s draws 5 number cards"
                )
                % fill
            )
        if them:
            # Translators: another seat chooses the penalty for the reader's refusal.
            return (
                _(
                    "Waiting for %(name)s: penalty for your refusal: %(name)s draws 2 action "
                    "cards and you 2 number cards, or you draw 5 number cards"
                )
                % fill
            )
        return (
            _(
                "Waiting for %(name)s: penalty for %(other)s's refusal: %(name)s draws 2 action "
                "cards and %(other)s 2 number cards, or %(other)s draws 5 number cards"
            )
            % fill
        )
    if decision == "bonus":
        if e.other is None:
            if you:
                # Translators: the reader chooses their streak bonus (more than two seats).
                return _(
                    "Waiting for you: bonus: you draw 1 action card, or every opponent draws 2 "
                    "number cards"
                )
            return (
                _(
                    "Waiting for %(name)s: bonus: %(name)s draws 1 action card, or every "
                    "opponent draws 2 number cards"
                )
                % fill
            )
        if you:
            # Translators: the reader chooses their streak bonus (one opponent).
            return (
                _(
                    "Waiting for you: bonus: you draw 1 action card, or %(other)s draws 2 "
                    "number cards"
                )
                % fill
            )
        if them:
            # Translators: another seat chooses its streak bonus; the reader is its opponent.
            return (
                _(
                    "Waiting for %(name)s: bonus: %(name)s draws 1 action card, or you draw 2 "
                    "number cards"
                )
                % fill
            )
        return (
            _(
                "Waiting for %(name)s: bonus: %(name)s draws 1 action card, or %(other)s draws 2 "
                "number cards"
            )
            % fill
        )
    if decision == "challenge":
        if you:
            # Translators: the reader may challenge another seat's win.
            return (
                _("Waiting for you: challenge %(other)s, at 0 number cards, with +2 or +4, or pass")
                % fill
            )
        if them:
            # Translators: another seat may challenge the reader's win.
            return (
                _("Waiting for %(name)s: challenge you, at 0 number cards, with +2 or +4, or pass")
                % fill
            )
        return (
            _(
                "Waiting for %(name)s: challenge %(other)s, at 0 number cards, with +2 or +4, "
                "or pass"
            )
            % fill
        )
    # A decision the rules do not name: the engine's own words.
    return describe(e, name.names)


def _respond(e: Effect, name: _Namer) -> str:
    fill = {"name": name(e.seat)}
    you = name.me(e.seat)
    choice = e.card
    if choice == "answer":
        if you:
            # Translators: the reader answers a TRUTH.
            return _("You answer the truth")
        return _("%(name)s answers the truth") % fill
    if choice == "complete":
        if you:
            # Translators: the reader completes a DARE.
            return _("You complete the dare")
        return _("%(name)s completes the dare") % fill
    if choice == "refuse":
        if e.cause == "truth":
            if you:
                # Translators: the reader refuses to answer a TRUTH.
                return _("You refuse the truth")
            return _("%(name)s refuses the truth") % fill
        if e.cause == "dare":
            if you:
                # Translators: the reader refuses a DARE.
                return _("You refuse the dare")
            return _("%(name)s refuses the dare") % fill
        return describe(e, name.names)
    if choice == "pass":
        if e.cause == "challenge":
            if you:
                # Translators: the reader lets another seat's win stand.
                return _("You do not challenge")
            return _("%(name)s does not challenge") % fill
        if you:
            # Translators: the reader does not counter a draw card or a BLOCK.
            return _("You do not counter")
        return _("%(name)s does not counter") % fill
    fill["card"] = _label(choice)
    if e.cause == "challenge":
        fill["other"] = name(e.other)
        if you:
            # Translators: the reader challenges another seat's win with a card as printed.
            return _("You challenge %(other)s's win with %(card)s") % fill
        if name.me(e.other):
            # Translators: another seat challenges the reader's win with a card as printed.
            return _("%(name)s challenges your win with %(card)s") % fill
        return _("%(name)s challenges %(other)s's win with %(card)s") % fill
    if you:
        # Translators: the reader counters with a card as printed ("You counter with +4").
        return _("You counter with %(card)s") % fill
    return _("%(name)s counters with %(card)s") % fill


def _penalty(e: Effect, name: _Namer) -> str:
    fill = {"name": name(e.seat), "other": name(e.other)}
    you, them = name.me(e.seat), name.me(e.other)
    if e.card == "actions":
        if you:
            # Translators: the reader chooses the penalty for another seat's refusal.
            return (
                _("You choose the penalty: you draw 2 action cards and %(other)s 2 number cards")
                % fill
            )
        if them:
            # Translators: another seat chooses the penalty for the reader's refusal.
            return (
                _(
                    "%(name)s chooses the penalty: %(name)s draws 2 action cards and you 2 "
                    "number cards"
                )
                % fill
            )
        return (
            _(
                "%(name)s chooses the penalty: %(name)s draws 2 action cards and %(other)s 2 "
                "number cards"
            )
            % fill
        )
    if you:
        # Translators: the reader chooses the penalty for another seat's refusal.
        return _("You choose the penalty: %(other)s draws 5 number cards") % fill
    if them:
        # Translators: another seat chooses the penalty for the reader's refusal.
        return _("%(name)s chooses the penalty: you draw 5 number cards") % fill
    return _("%(name)s chooses the penalty: %(other)s draws 5 number cards") % fill


def _bonus(e: Effect, name: _Namer) -> str:
    fill = {"name": name(e.seat)}
    you = name.me(e.seat)
    if e.card == "action_card":
        if you:
            # Translators: the reader takes the streak bonus as an action card.
            return _("You claim the streak bonus: 1 action card (streak back to 0)")
        return _("%(name)s claims the streak bonus: 1 action card (streak back to 0)") % fill
    if you:
        # Translators: the reader's streak bonus makes every opponent draw.
        return _(
            "You claim the streak bonus: every opponent draws 2 number cards (streak back to 0)"
        )
    return (
        _(
            "%(name)s claims the streak bonus: every opponent draws 2 number cards (streak back "
            "to 0)"
        )
        % fill
    )


def reason_words(reason: object) -> str:
    """An ending's reason: a key the product set (a no-show, the clock's deadline, a seat's
    resignation) in words, or the referee's own words as they are."""
    return {
        # Translators: why a duel ended: a forfeit by a player who did not turn up.
        "no_show": pgettext("ending reason", "did not show up"),
        # Translators: why a duel ended: its time limit was reached.
        "deadline": pgettext("ending reason", "deadline"),
        # Translators: why a duel ended: the player resigned.
        "resigned": pgettext("ending reason", "resigned"),
        # Translators: why a duel ended: the player's seat clock ran out three times in a row.
        "abandoned": pgettext("ending reason", "abandoned"),
    }.get(str(reason), str(reason))


def _your_reason(reason: object) -> str:
    """``reason_words`` when the reader is the one who left: a language says "you resigned"
    its own way (Spanish "te retiraste", not "se retiró")."""
    return {
        # Translators: why the reader's duel ended: the reader did not turn up.
        "no_show": pgettext("the reader's ending reason", "did not show up"),
        # Translators: why the reader's duel ended: the reader resigned.
        "resigned": pgettext("the reader's ending reason", "resigned"),
        # Translators: why the reader's duel ended: the reader's clock ran out three times.
        "abandoned": pgettext("the reader's ending reason", "abandoned"),
    }.get(str(reason)) or reason_words(reason)


def _finish(e: Effect, name: _Namer) -> str:
    how = e.cause
    fill = {"name": name(e.seat), "other": name(e.other)}
    you, them = name.me(e.seat), name.me(e.other)
    if e.card:
        # The reason is the leaving side's: the reader's own when the reader forfeits.
        fill["reason"] = _your_reason(e.card) if them else reason_words(e.card)
    reason = bool(e.card)
    if how == "shed_all":
        if you:
            # Translators: the reader wins the game by shedding every number card.
            return _("You win the duel with no number cards left")
        return _("%(name)s wins the duel with no number cards left") % fill
    if how == "forfeit":
        if you:
            if reason:
                # Translators: another seat forfeits (why, in brackets): the reader wins.
                return _("%(other)s forfeits (%(reason)s): you win the duel") % fill
            # Translators: another seat forfeits: the reader wins.
            return _("%(other)s forfeits: you win the duel") % fill
        if them:
            if reason:
                # Translators: the reader forfeits (why, in brackets): another seat wins.
                return _("You forfeit (%(reason)s): %(name)s wins the duel") % fill
            # Translators: the reader forfeits: another seat wins.
            return _("You forfeit: %(name)s wins the duel") % fill
        if reason:
            return _("%(other)s forfeits (%(reason)s): %(name)s wins the duel") % fill
        return _("%(other)s forfeits: %(name)s wins the duel") % fill
    if how == "dare_refused":
        if you:
            # Translators: another seat refused the reader's DARE: the reader wins.
            return _("%(other)s refused the dare and forfeits: you win the duel") % fill
        if them:
            # Translators: the reader refused a DARE: another seat wins.
            return _("You refused the dare and forfeit: %(name)s wins the duel") % fill
        return _("%(other)s refused the dare and forfeits: %(name)s wins the duel") % fill
    if how == "time_limit":
        if e.seat is None:
            if reason:
                return _("Time limit (%(reason)s): equal number cards, the duel is drawn") % fill
            return _("Time limit: equal number cards, the duel is drawn") % fill
        if you:
            if reason:
                # Translators: the time is up (why, in brackets) and the reader wins.
                return _("Time limit (%(reason)s): you win with the fewest number cards") % fill
            # Translators: the time is up and the reader wins.
            return _("Time limit: you win with the fewest number cards")
        if reason:
            return _("Time limit (%(reason)s): %(name)s wins with the fewest number cards") % fill
        return _("Time limit: %(name)s wins with the fewest number cards") % fill
    if how == "adjudicated":
        if you:
            if reason:
                # Translators: the referee gives the game to the reader (why, in brackets).
                return _("The referee adjudicates the duel to you (%(reason)s)") % fill
            # Translators: the referee gives the game to the reader.
            return _("The referee adjudicates the duel to you")
        if reason:
            return _("The referee adjudicates the duel to %(name)s (%(reason)s)") % fill
        return _("The referee adjudicates the duel to %(name)s") % fill
    if e.number:
        return ngettext(
            "%(count)s side is at 0 number cards at once: the game is drawn (double zero)",
            "%(count)s sides are at 0 number cards at once: the game is drawn (double zero)",
            e.number,
        ) % {"count": e.number}
    return _("Both seats are at 0 number cards: the duel is drawn (double zero)")


def _win_round(e: Effect, name: _Namer) -> str:
    fill = {"name": name(e.seat), "streak": e.number}
    you = name.me(e.seat)
    if e.cause == "alone":
        if you:
            # Translators: the reader wins the round, the only seat to reveal.
            return _("You win the round alone (streak %(streak)s)") % fill
        return _("%(name)s wins the round alone (streak %(streak)s)") % fill
    if you:
        # Translators: the reader wins the round ("You win the round (streak 2)").
        return _("You win the round (streak %(streak)s)") % fill
    return _("%(name)s wins the round (streak %(streak)s)") % fill


def _lose_round(e: Effect, name: _Namer) -> str:
    if name.me(e.seat):
        # Translators: the reader loses the round.
        return _("You lose the round (streak back to 0)")
    return _("%(name)s loses the round (streak back to 0)") % {"name": name(e.seat)}


def _blocked_out(e: Effect, name: _Namer) -> str:
    you = name.me(e.seat)
    if e.cause == "sits_out":
        if you:
            # Translators: the reader is blocked and sits the round out.
            return _("You are blocked and sit out (streak kept)")
        return _("%(name)s is blocked and sits out (streak kept)") % {"name": name(e.seat)}
    if you:
        # Translators: the reader is blocked and reveals no card this round.
        return _("You are blocked and reveal nothing")
    return _("%(name)s is blocked and reveals nothing") % {"name": name(e.seat)}


def _unblock(e: Effect, name: _Namer) -> str:
    if name.me(e.seat):
        # Translators: the reader's BLOCK is over.
        return _("Your block is lifted")
    return _("%(name)s's block is lifted") % {"name": name(e.seat)}


def _swap(e: Effect, name: _Namer) -> str:
    fill = {"name": name(e.seat), "other": name(e.other)}
    if name.me(e.seat):
        # Translators: the reader and another seat swap hands.
        return _("You and %(other)s swap your whole hands") % fill
    if name.me(e.other):
        # Translators: another seat swaps hands with the reader.
        return _("%(name)s swaps whole hands with you") % fill
    return _("%(name)s and %(other)s swap their whole hands") % fill


def _reverse_discard(e: Effect, name: _Namer) -> str:
    you = name.me(e.seat)
    if e.action:
        if you:
            # Translators: after a REVERSE the reader gives up an action card of the new hand.
            return _("You discard 1 action card from the new hand (REVERSE)")
        return _("%(name)s discards 1 action card from the new hand (REVERSE)") % {
            "name": name(e.seat)
        }
    if you:
        # Translators: after a REVERSE the reader's new hand has no action card to give up.
        return _("Your new hand holds no action card: nothing is discarded")
    return _("%(name)s's new hand holds no action card: nothing is discarded") % {
        "name": name(e.seat)
    }


def _blocked(e: Effect, name: _Namer) -> str:
    you = name.me(e.seat)
    if e.cause == "already":
        if you:
            # Translators: a BLOCK on the reader, who is blocked already.
            return _("You are already blocked: the BLOCK adds nothing")
        return _("%(name)s is already blocked: the BLOCK adds nothing") % {"name": name(e.seat)}
    if you:
        # Translators: a BLOCK on the reader.
        return _("You are blocked for the next number round")
    return _("%(name)s is blocked for the next number round") % {"name": name(e.seat)}


def _block_void(e: Effect, name: _Namer) -> str:
    if name.me(e.seat):
        # Translators: a BLOCK played on the reader has no effect.
        return _("The BLOCK on you does not take effect")
    return _("The BLOCK on %(name)s does not take effect") % {"name": name(e.seat)}


def _one_card_challenge(e: Effect, name: _Namer) -> str:
    fill = {"name": name(e.seat), "other": name(e.other)}
    if name.me(e.seat):
        # Translators: the reader's challenge with a single action card is not allowed.
        return (
            _(
                "You hold a single action card and cannot legally challenge: it stays in hand "
                "and %(other)s's win stands"
            )
            % fill
        )
    if name.me(e.other):
        # Translators: another seat's challenge of the reader's win is not allowed.
        return (
            _(
                "%(name)s holds a single action card and cannot legally challenge: it stays in "
                "hand and your win stands"
            )
            % fill
        )
    return (
        _(
            "%(name)s holds a single action card and cannot legally challenge: it stays in hand "
            "and %(other)s's win stands"
        )
        % fill
    )


def _zero(e: Effect, name: _Namer) -> str:
    if name.me(e.seat):
        # Translators: the reader has shed every number card.
        return _("You are at 0 number cards")
    return _("%(name)s is at 0 number cards") % {"name": name(e.seat)}


def _leave(e: Effect, name: _Namer) -> str:
    you = name.me(e.seat)
    if e.card:
        # The engine says a leaving seat's reason as it is stored (a no-show's key too).
        reason = str(e.card) if e.card == "no_show" else reason_words(e.card)
        if you:
            reason = str(e.card) if e.card == "no_show" else _your_reason(e.card)
            # Translators: the reader's seat leaves the game (why, in brackets).
            return _("You leave the game (%(reason)s)") % {"reason": reason}
        return _("%(name)s leaves the game (%(reason)s)") % {"name": name(e.seat), "reason": reason}
    if you:
        # Translators: the reader's seat leaves the game.
        return _("You leave the game")
    return _("%(name)s leaves the game") % {"name": name(e.seat)}


def _lapse(e: Effect, name: _Namer) -> str:
    fill = {"decision": _decision(str(e.card)), "name": name(e.seat)}
    if name.me(e.seat):
        # Translators: a decision asked of the reader ("The counter asked of you") lapses.
        return _("The %(decision)s asked of you lapses: a seat it concerns has left") % fill
    return _("The %(decision)s asked of %(name)s lapses: a seat it concerns has left") % fill


def _reveal(e: Effect, name: _Namer) -> str:
    fill = {"name": name(e.seat), "card": e.card}
    if name.me(e.seat):
        # Translators: the reader reveals a number card ("You reveal 7").
        return _("You reveal %(card)s") % fill
    return _("%(name)s reveals %(card)s") % fill


_SPLIT_UNO: dict[str, Callable[[Effect, _Namer], str]] = {
    "reveal": _reveal,
    "steal": _steal,
    "draw": _draw,
    "shed": _shed,
    "win_round": _win_round,
    "lose_round": _lose_round,
    "tie": lambda e, n: (
        _("The round is a tie on %(card)s: the tied seats' streaks go back to 0") % {"card": e.card}
    ),
    "blocked_out": _blocked_out,
    "all_blocked": lambda e, n: _("Every seat is blocked: the round is played with no cards"),
    "unblock": _unblock,
    "play": _play,
    "swap": _swap,
    "reverse_discard": _reverse_discard,
    "blocked": _blocked,
    "block_void": _block_void,
    "respond": _respond,
    "penalty": _penalty,
    "bonus": _bonus,
    "one_card_challenge": _one_card_challenge,
    "zero": _zero,
    "await": _await,
    "leave": _leave,
    "lapse": _lapse,
    "finish": _finish,
}


def split_uno_line(
    line: Mapping[str, Any], names: Mapping[str, str], person: str | None = None
) -> str:
    """A stored Split UNO effect in the reader's language, seats by ``names``; ``person``
    (the reader's seat letter) is said in the second person. With no ``person``, in English
    exactly ``games.split_uno.describe``'s words."""
    try:
        effect = effect_of(line)
    except (KeyError, TypeError):
        return str(line)
    words = _SPLIT_UNO.get(effect.kind)
    if words is None:
        try:
            return describe(effect, names)
        except KeyError:
            return str(line)
    return words(effect, _Namer(names, person))


# -- an adapter's own lines -----------------------------------------------------------------------

#: What a bot says with a TRUTH or DARE at a dealt table (``split_uno_dealt.BOT_SAYINGS``'s
#: keys): stored as the key, said in each reader's language.
BOT_SAYINGS: dict[str, str] = {
    # Translators: a truth question a bot asks at an online table (ONLINE.md 2).
    "truth:1": gettext_noop("What is the bravest thing you have ever done?"),
    "truth:2": gettext_noop("Which card do you hope to draw next?"),
    "truth:3": gettext_noop("What was the best moment of your week?"),
    "truth:4": gettext_noop("Whom at this table would you pick as a partner?"),
    "truth:5": gettext_noop("What game do you always lose?"),
    # Translators: a dare a bot sets at an online table (ONLINE.md 2).
    "dare:1": gettext_noop("Sing the first line of a song you like."),
    "dare:2": gettext_noop("Do your best impression of a bot."),
    "dare:3": gettext_noop("Say the alphabet backwards from G to A."),
    "dare:4": gettext_noop("Tell the table a joke."),
    "dare:5": gettext_noop("Speak only in questions until the next round."),
}


def said_words(said: Mapping[str, Any]) -> str:
    """The words of a TRUTH or DARE (a dealt event's ``said``, or its log line): a person's
    own text as typed (plain text: every page escapes it), a bot's in the reader's language."""
    key = said.get("bot")
    if isinstance(key, str) and key in BOT_SAYINGS:
        return _(BOT_SAYINGS[key])
    return str(said.get("text", ""))


def _said(line: Mapping[str, Any], names: Mapping[str, str], person: str | None) -> str:
    """ "Ann asks Bob: “…”" — the words a TRUTH or DARE carries, said to the table."""
    seat, to = line.get("seat"), line.get("to")
    fill = {
        "name": str(names.get(seat, seat)) if isinstance(seat, str) else "",
        "other": str(names.get(to, to)) if isinstance(to, str) else "",
        "text": said_words(line),
    }
    if line.get("card") == "dare":
        if seat == person:
            # Translators: the reader set this dare (%(text)s, as they typed it).
            return _("You dare %(other)s: “%(text)s”") % fill
        if to == person:
            return _("%(name)s dares you: “%(text)s”") % fill
        return _("%(name)s dares %(other)s: “%(text)s”") % fill
    if seat == person:
        # Translators: the reader asked this truth question (%(text)s, as they typed it).
        return _("You ask %(other)s: “%(text)s”") % fill
    if to == person:
        return _("%(name)s asks you: “%(text)s”") % fill
    return _("%(name)s asks %(other)s: “%(text)s”") % fill


def adapter_line(
    line: Mapping[str, Any], names: Mapping[str, str], person: str | None = None
) -> str:
    """A line an adapter adds to the engine's (``{"say": key, …}``); ``person`` (the reader's
    seat letter) is said in the second person."""
    key = line.get("say")
    seat = line.get("seat")
    who = str(names.get(seat, seat)) if isinstance(seat, str) else ""
    you = seat is not None and seat == person
    if key == "time_up":
        return _("Time is up.")
    if key == "deal":
        count = int(line.get("count", 0))
        return ngettext(
            "The dealer deals %(count)s number card to every seat",
            "The dealer deals %(count)s number cards to every seat",
            count,
        ) % {"count": count}
    if key == "sealed":
        if you:
            # Translators: at a dealt table the reader has chosen (sealed) a number card.
            return _("You have sealed a card")
        return _("%(name)s has sealed a card") % {"name": who}
    if key == "shed":
        card = line.get("card")
        if you and takes_an(card):
            # Translators: as "You shed a %(card)s", for the English "an 8".
            return _("You shed an %(card)s") % {"card": card}
        if you:
            # Translators: the reader sheds a number card of their choice ("You shed a 7").
            return _("You shed a %(card)s") % {"card": card}
        if takes_an(card):
            # Translators: as "%(name)s sheds a %(card)s", for the English "an 8".
            return _("%(name)s sheds an %(card)s") % {"name": who, "card": card}
        # Translators: a seat sheds a number card of its choice, e.g. "Ann sheds a 7".
        return _("%(name)s sheds a %(card)s") % {"name": who, "card": card}
    if key == "gives_up":
        if you:
            # Translators: the reader gives up an action card as printed ("You give up BLOCK").
            return _("You give up %(card)s") % {"card": _label(line.get("card"))}
        return _("%(name)s gives up %(card)s") % {"name": who, "card": _label(line.get("card"))}
    if key == "returned":
        return _("Every sealed card goes back to its owner")
    if key == "said":
        return _said(line, names, person)
    if key == "clock":
        if you:
            # Translators: the reader's seat clock ran out and the app moves for them
            # (ONLINE.md 3); the next line says what it played.
            return _("Time is up: the clock plays for you")
        return _("Time is up: the clock plays for %(name)s") % {"name": who}
    if key == "abandoned":
        if you:
            # Translators: the reader's clock ran out three times in a row: that is leaving.
            return _("The clock played for you three times in a row: you abandon your seat")
        return _(
            "The clock played for %(name)s three times in a row: %(name)s abandons the seat"
        ) % {"name": who}
    if key == "both_abandoned":
        # Translators: both players of an online duel let the clock play for them three times
        # in a row: the game stops and the organisers rule on it (ONLINE.md 6).
        return _("Both players abandoned: the game stops and waits for the organisers' ruling")
    if key == "taken_over":
        if you:
            # Translators: a computer player plays the reader's seat from now on.
            return _("A bot takes over your seat")
        # Translators: a computer player plays this person's seat from now on.
        return _("A bot takes over %(name)s's seat") % {"name": who}
    return str(line.get("text", key))


# -- Trois and CPT-113 ----------------------------------------------------------------------------


def _listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: a list as a sentence says it."""
    if not items:
        return pgettext("an empty list", "nothing")
    if len(items) == 1:
        return items[0]
    # Translators: the last two items of a list, "blue 3, red 3 and green 3".
    return _("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}


def _seat(names: Sequence[str], index: object) -> str:
    if isinstance(names, Mapping):
        return str(names.get(index, index))
    if isinstance(index, int) and 0 <= index < len(names):
        return str(names[index])
    return str(index)


def _trois_card(card: object) -> str:
    """A Trois card as the engine labels it ("blue 7", "the +2 wildcard"), translated."""
    card = str(card)
    if card in ("+2", "+4"):
        # Translators: a Trois wildcard; "+2" and "+4" stay as printed.
        return pgettext("Trois card", "the %(card)s wildcard") % {"card": card}
    number = {"number": card[1:]}
    colours = {
        "B": pgettext("Trois card", "blue %(number)s"),
        "G": pgettext("Trois card", "green %(number)s"),
        "Y": pgettext("Trois card", "yellow %(number)s"),
        "P": pgettext("Trois card", "purple %(number)s"),
        "O": pgettext("Trois card", "orange %(number)s"),
        "R": pgettext("Trois card", "red %(number)s"),
        "M": pgettext("Trois card", "magenta %(number)s"),
    }
    return colours[card[0]] % number if card[:1] in colours else card


def _cards_taken(count: int) -> str:
    return ngettext("%(count)s card", "%(count)s cards", count) % {"count": count}


def _listed_seat(names: Sequence[str], index: object, person: int | None) -> str:
    """A seat as an item of a list ("a tie between you and Bo")."""
    if person is not None and index == person:
        # Translators: the reader in a list of seats ("A tie between you and Bo, …").
        return pgettext("in a list of seats", "you")
    return _seat(names, index)


def trois_line(line: Mapping[str, Any], names: Sequence[str], person: int | None = None) -> str:
    """A stored Trois effect in the reader's language, seats by ``names`` (in the engine's
    order), the reader's seat (``person``, its index) in the second person; with no
    ``person``, in English exactly the engine's ``Effect.text`` (or its ``secret``)."""
    kind = line.get("kind")
    fill: dict[str, Any] = {"name": _seat(names, line.get("seat"))}
    you = person is not None and line.get("seat") == person
    if kind == "play":
        cards = [_trois_card(c) for c in line.get("cards", ())]
        fill["cards"] = _listing(cards)
        if len(cards) > 1:
            fill["top"] = cards[-1]
            if you:
                # Translators: the reader plays several Trois cards; the last is on top.
                return _("You play %(cards)s; %(top)s is on top.") % fill
            return _("%(name)s plays %(cards)s; %(top)s is on top.") % fill
        if you:
            # Translators: the reader plays a Trois card ("You play blue 7.").
            return _("You play %(cards)s.") % fill
        return _("%(name)s plays %(cards)s.") % fill
    if kind == "win":
        if you:
            # Translators: the reader wins Trois.
            return _("You have no card left and win.")
        return _("%(name)s has no card left and wins.") % fill
    if kind == "pass":
        if you:
            # Translators: the reader cannot take a card at Trois and passes.
            return _("No card is left to take: you pass.")
        return _("No card is left to take: %(name)s passes.") % fill
    if kind == "take":
        if "cards" in line:
            fill["cards"] = _listing([_trois_card(c) for c in line["cards"]])
            if you:
                # Translators: the reader takes Trois cards, named ("You take blue 3.").
                return _("You take %(cards)s.") % fill
            return _("%(name)s takes %(cards)s.") % fill
        if "more" in line:
            fill["count"] = line["more"]
            if you:
                return (
                    # Translators: the reader takes more Trois cards.
                    ngettext(
                        "You take %(count)s more card.",
                        "You take %(count)s more cards.",
                        int(line["more"]),
                    )
                    % fill
                )
            return (
                ngettext(
                    "%(name)s takes %(count)s more card.",
                    "%(name)s takes %(count)s more cards.",
                    int(line["more"]),
                )
                % fill
            )
        if you:
            # Translators: the reader takes a Trois card.
            return _("You take a card.")
        return _("%(name)s takes a card.") % fill
    if kind == "wildcard":
        fill["card"] = _trois_card(line.get("card"))
        fill["count"] = line.get("extra")
        if you:
            return (
                # Translators: the reader takes a Trois wildcard and must take more cards.
                ngettext(
                    "You take %(card)s: it goes to the wildcard pile and you must take "
                    "%(count)s more card.",
                    "You take %(card)s: it goes to the wildcard pile and you must take "
                    "%(count)s more cards.",
                    int(line.get("extra", 0)),
                )
                % fill
            )
        return (
            ngettext(
                "%(name)s takes %(card)s: it goes to the wildcard pile and %(name)s must take "
                "%(count)s more card.",
                "%(name)s takes %(card)s: it goes to the wildcard pile and %(name)s must take "
                "%(count)s more cards.",
                int(line.get("extra", 0)),
            )
            % fill
        )
    if kind == "short":
        if you:
            # Translators: the reader should take more Trois cards but none is left.
            return _("No card is left to take: you take no more.")
        return _("No card is left to take: %(name)s takes no more.") % fill
    if kind == "wildcard_extra":
        fill["card"] = _trois_card(line.get("card"))
        if you:
            return (
                # Translators: the reader takes a Trois wildcard as an extra card.
                _(
                    "You take %(card)s as an extra card: it goes to the wildcard pile and asks "
                    "for no more cards."
                )
                % fill
            )
        return (
            _(
                "%(name)s takes %(card)s as an extra card: it goes to the wildcard pile and "
                "asks for no more cards."
            )
            % fill
        )
    if kind == "reshuffle":
        count = int(line.get("count", 0))
        return ngettext(
            "The deck is empty: the pile but its top card is shuffled into a new deck of "
            "%(count)s card.",
            "The deck is empty: the pile but its top card is shuffled into a new deck of "
            "%(count)s cards.",
            count,
        ) % {"count": count}
    if kind == "time":
        sizes = list(line.get("cards", ()))
        winners = list(line.get("winners", ()))
        counts = _listing([_held(names, s, n, person) for s, n in enumerate(sizes)])
        if len(winners) == 1 and person is not None and winners[0] == person:
            # Translators: the reader wins Trois when its time is up.
            verdict = _("You win with the fewest cards.")
        elif len(winners) == 1:
            verdict = _("%(name)s wins with the fewest cards.") % {"name": _seat(names, winners[0])}
        else:
            fewest = min(sizes) if sizes else 0
            verdict = ngettext(
                "A tie between %(names)s, with %(count)s card each.",
                "A tie between %(names)s, with %(count)s cards each.",
                fewest,
            ) % {
                "names": _listing([_listed_seat(names, w, person) for w in winners]),
                "count": fewest,
            }
        # Translators: Trois's end at its time limit: the cards each seat holds, then who won.
        return _("Time is up: %(counts)s. %(verdict)s") % {"counts": counts, "verdict": verdict}
    return str(line.get("text", kind))


def _held(names: Sequence[str], seat: int, count: int, person: int | None) -> str:
    """How many cards a seat holds when Trois's time is up ("Bo 3 cards", "you 3 cards")."""
    if person is not None and seat == person:
        # Translators: how many cards the reader holds when Trois's time is up ("Time is up:
        # you 3 cards, Bo 2 cards …").
        return pgettext("cards held", "you %(cards)s") % {"cards": _cards_taken(count)}
    # Translators: how many cards a seat holds when Trois's time is up.
    return pgettext("cards held", "%(name)s %(cards)s") % {
        "name": _seat(names, seat),
        "cards": _cards_taken(count),
    }


def _cpt113_card(card: object) -> str:
    """A CPT-113 card as the engine labels it ("red 3", "blue skip", "wild draw four")."""
    card = str(card)
    if card == "W":
        return pgettext("CPT-113 card", "wild")
    if card == "W4":
        return pgettext("CPT-113 card", "wild draw four")
    colour, face = card[:1], card[1:]
    if face.isdigit():
        numbers = {
            "R": pgettext("CPT-113 card", "red %(number)s"),
            "Y": pgettext("CPT-113 card", "yellow %(number)s"),
            "G": pgettext("CPT-113 card", "green %(number)s"),
            "B": pgettext("CPT-113 card", "blue %(number)s"),
        }
        return numbers[colour] % {"number": face} if colour in numbers else card
    actions = {
        "RS": pgettext("CPT-113 card", "red skip"),
        "RR": pgettext("CPT-113 card", "red reverse"),
        "RD": pgettext("CPT-113 card", "red draw two"),
        "YS": pgettext("CPT-113 card", "yellow skip"),
        "YR": pgettext("CPT-113 card", "yellow reverse"),
        "YD": pgettext("CPT-113 card", "yellow draw two"),
        "GS": pgettext("CPT-113 card", "green skip"),
        "GR": pgettext("CPT-113 card", "green reverse"),
        "GD": pgettext("CPT-113 card", "green draw two"),
        "BS": pgettext("CPT-113 card", "blue skip"),
        "BR": pgettext("CPT-113 card", "blue reverse"),
        "BD": pgettext("CPT-113 card", "blue draw two"),
    }
    return actions.get(card, card)


def _cpt113_colour(colour: object) -> str:
    return {
        "R": pgettext("colour", "red"),
        "Y": pgettext("colour", "yellow"),
        "G": pgettext("colour", "green"),
        "B": pgettext("colour", "blue"),
    }.get(str(colour), str(colour))


def _cpt113_play(
    line: Mapping[str, Any],
    names: Sequence[str],
    fill: dict[str, Any],
    you: bool,
    person: int | None,
) -> str:
    """A CPT-113 card played, the reader (``you``: the player; ``person``: the reader's index,
    perhaps the seat that misses its turn) in the second person."""
    fill["card"] = _cpt113_card(line.get("card"))
    if "colour" in line:
        fill["colour"] = _cpt113_colour(line["colour"])
    if "misses" in line:
        fill["other"] = _seat(names, line["misses"])
        missed = person is not None and line["misses"] == person
        if "colour" in line:
            if you:
                # Translators: the reader plays a CPT-113 wild card: another seat misses a turn.
                return _("You play %(card)s and name %(colour)s: %(other)s misses the turn.") % fill
            if missed:
                # Translators: another seat plays a CPT-113 wild card: the reader misses a turn.
                return _("%(name)s plays %(card)s and names %(colour)s: you miss the turn.") % fill
            return (
                _("%(name)s plays %(card)s and names %(colour)s: %(other)s misses the turn.") % fill
            )
        if you:
            # Translators: the reader plays a CPT-113 card: another seat misses a turn.
            return _("You play %(card)s: %(other)s misses the turn.") % fill
        if missed:
            # Translators: another seat plays a CPT-113 card: the reader misses a turn.
            return _("%(name)s plays %(card)s: you miss the turn.") % fill
        return _("%(name)s plays %(card)s: %(other)s misses the turn.") % fill
    if line.get("direction") == "clockwise":
        if you:
            # Translators: the reader plays a CPT-113 reverse.
            return _("You play %(card)s: play now goes clockwise.") % fill
        return _("%(name)s plays %(card)s: play now goes clockwise.") % fill
    if line.get("direction") == "anticlockwise":
        if you:
            # Translators: the reader plays a CPT-113 reverse.
            return _("You play %(card)s: play now goes anticlockwise.") % fill
        return _("%(name)s plays %(card)s: play now goes anticlockwise.") % fill
    if "colour" in line:
        if you:
            # Translators: the reader plays a CPT-113 wild card and names a colour.
            return _("You play %(card)s and name %(colour)s.") % fill
        return _("%(name)s plays %(card)s and names %(colour)s.") % fill
    if you:
        # Translators: the reader plays a CPT-113 card ("You play red 3.").
        return _("You play %(card)s.") % fill
    return _("%(name)s plays %(card)s.") % fill


def _cpt113_your_draw(line: Mapping[str, Any], fill: dict[str, Any]) -> str:
    """The reader draws CPT-113 cards for their group (the cards named only to its group)."""
    count = int(line.get("count", 0))
    fill["count"] = count
    if "cards" in line:
        fill["cards"] = _listing([_cpt113_card(c) for c in line["cards"]])
    if line.get("stuck"):
        if "cards" not in line:
            return (
                # Translators: the reader cannot play and draws for their CPT-113 group.
                ngettext(
                    "You have no card to play and draw %(count)s card for group %(group)s.",
                    "You have no card to play and draw %(count)s cards for group %(group)s.",
                    count,
                )
                % fill
            )
        if line.get("playable"):
            fill["last"] = _cpt113_card(line["cards"][-1])
            return (
                # Translators: the reader cannot play, draws, and the last card drawn plays.
                ngettext(
                    "You have no card to play and draw %(count)s card for group %(group)s: "
                    "%(cards)s — %(last)s can be played.",
                    "You have no card to play and draw %(count)s cards for group %(group)s: "
                    "%(cards)s — %(last)s can be played.",
                    count,
                )
                % fill
            )
        return (
            # Translators: the reader cannot play and draws these cards for their group.
            ngettext(
                "You have no card to play and draw %(count)s card for group %(group)s: %(cards)s.",
                "You have no card to play and draw %(count)s cards for group %(group)s: %(cards)s.",
                count,
            )
            % fill
        )
    if "cards" in line:
        return (
            # Translators: the reader draws these cards for their CPT-113 group.
            ngettext(
                "You draw %(count)s card for group %(group)s: %(cards)s.",
                "You draw %(count)s cards for group %(group)s: %(cards)s.",
                count,
            )
            % fill
        )
    return (
        # Translators: the reader draws cards for their CPT-113 group.
        ngettext(
            "You draw %(count)s card for group %(group)s.",
            "You draw %(count)s cards for group %(group)s.",
            count,
        )
        % fill
    )


def _group(index: object) -> str:
    return LETTERS[index] if isinstance(index, int) and 0 <= index < len(LETTERS) else str(index)


def cpt113_line(line: Mapping[str, Any], names: Sequence[str], person: int | None = None) -> str:
    """A stored CPT-113 effect in the reader's language, seats by ``names`` (in the engine's
    order), groups by their letters, the reader's seat (``person``, its index) in the second
    person; with no ``person``, in English exactly the engine's ``Effect.text`` (or its
    ``secret``)."""
    kind = line.get("kind")
    fill: dict[str, Any] = {
        "name": _seat(names, line.get("seat")),
        "group": _group(line.get("group")),
    }
    you = person is not None and line.get("seat") == person
    if kind == "play":
        return _cpt113_play(line, names, fill, you, person)
    if kind == "draw" and you:
        return _cpt113_your_draw(line, fill)
    if kind == "win":
        if line.get("last"):
            return _("Group %(group)s is the only group left and wins.") % fill
        return _("Group %(group)s has no card left and wins.") % fill
    if kind == "drop_out":
        fill["count"] = line.get("count")
        return _("Group %(group)s holds %(count)s cards and drops out.") % fill
    if kind == "draw":
        count = int(line.get("count", 0))
        fill["count"] = count
        if "cards" in line:
            fill["cards"] = _listing([_cpt113_card(c) for c in line["cards"]])
        if line.get("stuck"):
            if "cards" not in line:
                return (
                    ngettext(
                        "%(name)s has no card to play and draws %(count)s card for group "
                        "%(group)s.",
                        "%(name)s has no card to play and draws %(count)s cards for group "
                        "%(group)s.",
                        count,
                    )
                    % fill
                )
            if line.get("playable"):
                fill["last"] = _cpt113_card(line["cards"][-1])
                return (
                    ngettext(
                        "%(name)s has no card to play and draws %(count)s card for group "
                        "%(group)s: %(cards)s — %(last)s can be played.",
                        "%(name)s has no card to play and draws %(count)s cards for group "
                        "%(group)s: %(cards)s — %(last)s can be played.",
                        count,
                    )
                    % fill
                )
            return (
                ngettext(
                    "%(name)s has no card to play and draws %(count)s card for group %(group)s: "
                    "%(cards)s.",
                    "%(name)s has no card to play and draws %(count)s cards for group %(group)s: "
                    "%(cards)s.",
                    count,
                )
                % fill
            )
        if "cards" in line:
            return (
                ngettext(
                    "%(name)s draws %(count)s card for group %(group)s: %(cards)s.",
                    "%(name)s draws %(count)s cards for group %(group)s: %(cards)s.",
                    count,
                )
                % fill
            )
        return (
            ngettext(
                "%(name)s draws %(count)s card for group %(group)s.",
                "%(name)s draws %(count)s cards for group %(group)s.",
                count,
            )
            % fill
        )
    if kind == "score":
        points = [(g, int(p)) for g, p in line.get("points", ())]
        winners = list(line.get("winners", ()))
        score = line.get("score")
        counts = _listing(
            [
                ngettext(
                    "group %(group)s holds %(count)s point",
                    "group %(group)s holds %(count)s points",
                    p,
                )
                % {"group": _group(g), "count": p}
                for g, p in points
            ]
        )
        if len(winners) == 1:
            verdict = _(
                "Group %(group)s wins with the highest score, %(score)s (the points in the "
                "other groups' hands)."
            ) % {"group": _group(winners[0]), "score": score}
        else:
            groups = _listing(
                [pgettext("CPT-113", "group %(group)s") % {"group": _group(w)} for w in winners]
            )
            verdict = _("A tie between %(groups)s, with a score of %(score)s each.") % {
                "groups": groups,
                "score": score,
            }
        # Translators: CPT-113's end when the draw pile is empty: each group's points, then
        # who won.
        return _("The draw pile is empty: %(counts)s. %(verdict)s") % {
            "counts": counts,
            "verdict": verdict,
        }
    return str(line.get("text", kind))


# -- refusals -------------------------------------------------------------------------------------


def refusal(err: BaseException) -> str:
    """An adapter's refusal (``play.adapters.base.Refused``) in the reader's language: its
    template translated and filled in, an engine's own refusal (English) inside a translated
    sentence, anything else as it is."""
    words = getattr(err, "words", None)
    if words:
        fill = dict(getattr(err, "fill", {}) or {})
        if "the_noun" in fill:
            fill["the_noun"] = {
                "the duel": pgettext("with its article", "the duel"),
                "the game": pgettext("with its article", "the game"),
            }.get(str(fill["the_noun"]), fill["the_noun"])
        return _(words) % fill if fill else _(words)
    if getattr(err, "engine", False):
        # Translators: the rules engine's refusal of a move, which stays in English; in
        # English the sentence is that refusal alone.
        return pgettext("an engine's refusal, in English", "%(refusal)s") % {"refusal": str(err)}
    return str(err)
