"""Reading one event (RULES.md section 8): its shape, not yet whether the rules allow it now.

``parse_event`` turns any value into the event's canonical form — a plain JSON dict holding only
the fields the engine reads, in a fixed order — or raises IllegalEvent saying what is wrong and
what would be accepted. The canonical form is what the duel's record keeps.

``already_canonical`` lets a caller that built an event itself (the bot simulator) and hands it
over skip that copy: it says whether a dict already is its own canonical form, every field
checked as ``parse_event`` checks it. Anything it does not recognise goes to ``parse_event``,
which alone words the refusals.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .constants import CARDS, COLORS, EVENT_TYPES
from .errors import IllegalEvent, show
from .state import Setup

Event = dict[str, Any]


def parse_event(raw: object, setup: Setup) -> Event:
    """The canonical form of ``raw``, or IllegalEvent for an unreadable event."""
    if not isinstance(raw, dict):
        raise IllegalEvent(
            f"an event must be an object with a type ({', '.join(EVENT_TYPES)}), not {show(raw)}"
        )
    kind = raw.get("type")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise IllegalEvent(
            f"unknown event type {show(kind)}: the types are {', '.join(EVENT_TYPES)}"
        )
    return parser(raw, setup)


def _seat(raw: dict[Any, Any], field: str, setup: Setup, what: str) -> str:
    if field not in raw:
        raise IllegalEvent(f"{what}: {field} is missing; name a seat ({_seats(setup)})")
    value = raw[field]
    if not isinstance(value, str) or value not in setup.index:
        raise IllegalEvent(
            f"{what}: {field} {show(value)} is not a seat of this duel; name one of {_seats(setup)}"
        )
    return value


def _seats(setup: Setup) -> str:
    return ", ".join(setup.seats)


def _reason(raw: dict[Any, Any], out: Event, what: str) -> Event:
    if "reason" in raw:
        reason = raw["reason"]
        if not isinstance(reason, str):
            raise IllegalEvent(f"{what}: reason must be a string if given, not {show(reason)}")
        out["reason"] = reason
    return out


def _check_target(raw: dict[Any, Any], actor: str, setup: Setup, what: str) -> str | None:
    """A ``target`` with two seats must name the actor's opponent (section 8); with more it
    must name a seat that is not the actor nor a team-mate (section 11.4: whether that seat is
    still in play, and whether the card needs a target, is judged when it is played)."""
    if "target" not in raw:
        return None
    target = raw["target"]
    if len(setup.seats) > 2:
        return _opponent_of(target, actor, setup, f"{what}: target")
    opponent = setup.seats[1 - setup.index[actor]]
    if not isinstance(target, str) or target != opponent:
        raise IllegalEvent(
            f"{what}: target {show(target)} must be {actor}'s opponent {opponent} "
            "(with two seats the target may also be left out)"
        )
    return target


def _opponent_of(target: object, seat: str, setup: Setup, what: str) -> str:
    """``target`` names a seat of another side than ``seat`` (more than two seats)."""
    if not isinstance(target, str) or target not in setup.index:
        raise IllegalEvent(
            f"{what} {show(target)} is not a seat of this duel; name one of {_seats(setup)}"
        )
    if target == seat:
        raise IllegalEvent(f"{what} {target}: a seat cannot target itself; name an opponent")
    team_of = setup.team_of
    if team_of and team_of[setup.index[target]] == team_of[setup.index[seat]]:
        raise IllegalEvent(
            f"{what} {target} is {seat}'s team-mate: a team-mate is never a target; "
            "name an opponent"
        )
    return target


def _round(raw: dict[Any, Any], setup: Setup) -> Event:
    cards = raw.get("cards")
    if not isinstance(cards, dict):
        raise IllegalEvent(
            "round: cards must be an object giving each seat that is not blocked one card 0–9, "
            f'e.g. {{"A": 7, "B": 3}}; got {show(cards)}'
        )
    out_cards = {}
    for seat in setup.seats:
        if seat in cards:
            value = cards[seat]
            if type(value) is not int or not 0 <= value <= 9:
                raise IllegalEvent(
                    f"round: {seat}'s card must be a whole number from 0 to 9 "
                    f"(a JSON integer), not {show(value)}"
                )
            out_cards[seat] = value
    if len(out_cards) != len(cards):
        stray = next(s for s in cards if not isinstance(s, str) or s not in setup.index)
        raise IllegalEvent(
            f"round: cards names {show(stray)}, which is not a seat of this duel ({_seats(setup)})"
        )
    out: Event = {"type": "round", "cards": out_cards}
    # With two seats every 0 and 7 targets the opponent and ``targets`` is not read (section 8).
    # With more, the canonical form holds ``targets`` only when it names one.
    if len(setup.seats) > 2:
        targets = _round_targets(raw.get("targets", {}), out_cards, setup)
        if targets:
            out["targets"] = targets
    return out


def _round_targets(targets: object, cards: dict[str, int], setup: Setup) -> dict[str, str]:
    """Section 11.3: seat -> opponent for each seat that revealed a 0 or a 7, and only those.
    (Whether the target is still in play is judged when the round is played.)"""
    if not isinstance(targets, dict):
        raise IllegalEvent(
            "round: targets must be an object naming a target for each seat that reveals a 0 "
            f'or a 7, e.g. {{"A": "C"}}; not {show(targets)}'
        )
    out = {}
    for seat in setup.seats:
        if seat in targets:
            if cards.get(seat) not in (0, 7):
                raise IllegalEvent(
                    f"round: targets names {seat}, which reveals no 0 or 7: only the seats "
                    "that reveal a 0 or a 7 name a target"
                )
            out[seat] = _opponent_of(targets[seat], seat, setup, f"round: {seat}'s target")
    if len(out) != len(targets):
        stray = next(s for s in targets if not isinstance(s, str) or s not in setup.index)
        raise IllegalEvent(
            f"round: targets names {show(stray)}, which is not a seat ({_seats(setup)})"
        )
    for seat, value in cards.items():
        if value in (0, 7) and seat not in out:
            raise IllegalEvent(
                f"round: {seat} reveals a {value} and must name its target in targets, "
                f'e.g. "targets": {{"{seat}": "…"}}'
            )
    return out


def _action(raw: dict[Any, Any], setup: Setup) -> Event:
    seat = _seat(raw, "seat", setup, "action")
    card = raw.get("card")
    if not isinstance(card, str) or card not in CARDS:
        raise IllegalEvent(
            f"action: card {show(card)} is not an action card; the cards are {', '.join(CARDS)}"
        )
    out: Event = {"type": "action", "seat": seat, "card": card}
    target = _check_target(raw, seat, setup, "action")
    if target is not None:
        out["target"] = target
    if card == "color_change":
        color = raw.get("color")
        if not isinstance(color, str) or color not in COLORS:
            raise IllegalEvent(
                f"action: color_change must name a color ({', '.join(COLORS)}), not {show(color)}"
            )
        out["color"] = color
    return out


def _respond(raw: dict[Any, Any], setup: Setup) -> Event:
    seat = _seat(raw, "seat", setup, "respond")
    choice = raw.get("choice")
    if not isinstance(choice, str):
        raise IllegalEvent(f"respond: choice must be a string such as pass, not {show(choice)}")
    return {"type": "respond", "seat": seat, "choice": choice}


def _forfeit(raw: dict[Any, Any], setup: Setup) -> Event:
    seat = _seat(raw, "seat", setup, "forfeit (the seat that concedes)")
    return _reason(raw, {"type": "forfeit", "seat": seat}, "forfeit")


def _time_limit(raw: dict[Any, Any], setup: Setup) -> Event:
    return _reason(raw, {"type": "time_limit"}, "time_limit")


def _adjudicate(raw: dict[Any, Any], setup: Setup) -> Event:
    winner = _seat(raw, "winner", setup, "adjudicate")
    return _reason(raw, {"type": "adjudicate", "winner": winner}, "adjudicate")


def already_canonical(raw: object, setup: Setup) -> bool:
    """Whether ``parse_event(raw, setup)`` would return a dict equal to ``raw`` itself, with
    its keys in the same order (a round's cards too). False means only "not sure": such an
    event is read by ``parse_event`` as any other.

    Only the events bots play most are recognised: rounds in which every seat reveals (cards
    keyed by the duel's own seat strings), action cards without ``target``, and responds.
    """
    if type(raw) is not dict:
        return False
    kind = raw.get("type")
    if type(kind) is not str:
        return False
    if kind == "round":
        return _round_as_is(raw, setup)
    if kind == "respond":
        return _respond_as_is(raw, setup)
    if kind == "action":
        return _action_as_is(raw, setup)
    return False


# The canonical keys, in the order parse_event writes them (``_keys_are`` checks the names,
# their number and their order in one pass).
_ACTION_KEYS: Final = ("type", "seat", "card")
_COLOR_KEYS: Final = ("type", "seat", "card", "color")
_RESPOND_KEYS: Final = ("type", "seat", "choice")


def _round_as_is(raw: dict[Any, Any], setup: Setup) -> bool:
    cards = raw.get("cards")
    seats = setup.seats
    if type(cards) is not dict or len(raw) != 2 or len(cards) != len(seats):
        return False
    # Every seat reveals a whole number 0–9, in seat order. The keys must be the very seat
    # strings of the set-up (as the simulator uses them): that makes them exactly the
    # canonical keys, and is cheaper to check than their type and order apart.
    k = 0
    for seat, value in cards.items():
        if seat is not seats[k] or type(value) is not int or not 0 <= value <= 9:
            return False
        k += 1  # noqa: SIM113 - a counter: enumerate costs several times more here
    if k > 2 and (0 in cards.values() or 7 in cards.values()):
        return False  # more than two seats: a 0 or a 7 needs its targets (section 11.3)
    # "type" and "cards" are both there (two keys); "type" must come first.
    for key in raw:
        return type(key) is str and key == "type"
    return False


def _keys_are(raw: dict[Any, Any], keys: tuple[str, ...]) -> bool:
    """Whether ``raw``'s keys are exactly ``keys``, in that order (``tuple(raw) == keys``
    without building the tuple: compiled, about half the cost)."""
    if len(raw) != len(keys):
        return False
    k = 0
    for key in raw:
        if type(key) is not str or key != keys[k]:
            return False
        k += 1  # noqa: SIM113 - a counter: enumerate costs several times more here
    return True


def _action_as_is(raw: dict[Any, Any], setup: Setup) -> bool:
    seat, card = raw.get("seat"), raw.get("card")
    if type(seat) is not str or seat not in setup.index or type(card) is not str:
        return False
    if card == "color_change":
        color = raw.get("color")
        return type(color) is str and color in COLORS and _keys_are(raw, _COLOR_KEYS)
    return card in CARDS and _keys_are(raw, _ACTION_KEYS)


def _respond_as_is(raw: dict[Any, Any], setup: Setup) -> bool:
    seat = raw.get("seat")
    return (
        type(seat) is str
        and seat in setup.index
        and type(raw.get("choice")) is str
        and _keys_are(raw, _RESPOND_KEYS)
    )


_PARSERS: dict[str, Callable[[dict[Any, Any], Setup], Event]] = {
    "round": _round,
    "action": _action,
    "respond": _respond,
    "forfeit": _forfeit,
    "time_limit": _time_limit,
    "adjudicate": _adjudicate,
}
