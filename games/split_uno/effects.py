"""What an event did, as data a page can show, and its text in plain English.

Effects are cheap slotted objects built on the hot path; their words are only built when
``describe`` (or ``Effect.text``) is called.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from .constants import CARD_LABELS, DECISIONS, REASON_LABELS


@dataclass(slots=True)
class Effect:
    """One consequence of an event.

    ``kind`` says what happened to ``seat`` (and ``other``); ``number`` and ``action`` are card
    counts; ``card`` a revealed value, an action card, a choice, a decision or a reason;
    ``cause`` and ``source`` say why (``cause="seven", source="A"`` reads "Alice's 7");
    ``short`` marks a draw the deck could not serve in full.
    """

    kind: str
    seat: str | None = None
    other: str | None = None
    number: int = 0
    action: int = 0
    card: Any = None
    cause: str | None = None
    source: str | None = None
    short: bool = False

    def text(self, names: Mapping[str, str] | None = None) -> str:
        """This effect in plain English, seats named by ``names`` (seat letter -> name)."""
        return describe(self, names)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


#: Rules record effects as plain tuples in the field order of ``Effect`` (trailing fields may
#: be left out); ``Duel.apply`` turns them into ``Effect`` objects, a replay never does.
RawEffect = tuple[Any, ...]


def build(raw: list[RawEffect]) -> list[Effect]:
    """The ``Effect`` objects of raw effect tuples."""
    return [Effect(*r) for r in raw]


def describe(effect: Effect, names: Mapping[str, str] | None = None) -> str:
    """``effect`` in plain English: "Bob draws 2 number cards and 1 action card (Alice's 7)"."""
    namer = _Namer(names or {})
    return _TEXTS[effect.kind](effect, namer)


def describe_all(effects: Iterable[Effect], names: Mapping[str, str] | None = None) -> list[str]:
    """One line per effect, in the order they happened."""
    return [describe(e, names) for e in effects]


class _Namer:
    __slots__ = ("names",)

    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = names

    def __call__(self, seat: str | None) -> str:
        if seat is None:
            return "nobody"
        return str(self.names.get(seat, seat))


def _cards(number: int, action: int) -> str:
    parts = []
    if number:
        parts.append(f"{number} number card" + ("s" if number != 1 else ""))
    if action:
        parts.append(f"{action} action card" + ("s" if action != 1 else ""))
    return " and ".join(parts)


def _label(card: object) -> str:
    return CARD_LABELS.get(card, str(card)) if isinstance(card, str) else str(card)


def _why(e: Effect, name: _Namer) -> str:
    """The bracketed cause of a draw or a shed."""
    owner = f"{name(e.source)}'s " if e.source is not None else ""
    cause = e.cause
    if cause == "seven":
        return f"{owner}7"
    if cause in ("draw_two", "draw_four", "color_change", "truth", "dare", "block"):
        return f"{owner}{CARD_LABELS[cause]}"
    if cause in ("penalty", "bonus", "challenge"):
        word = {"penalty": "penalty", "bonus": "streak bonus", "challenge": "challenge"}[cause]
        return f"{owner}{word}"
    return {
        "round_won": "round won",
        "round_lost": "round lost",
        "tie": "tie",
        "blocked_round": "blocked round",
        "draw_battle": "draw battle",
        "block_battle": "BLOCK countered",
        "one_card_challenge": "challenge with a single action card",
    }.get(cause or "", cause or "")


def _draw(e: Effect, name: _Namer) -> str:
    what = _cards(e.number, e.action) or "nothing"
    tail = ""
    if e.short:
        tail = "; the deck ran short" if e.number or e.action else "; the deck is empty"
    return f"{name(e.seat)} draws {what} ({_why(e, name)}{tail})"


def _shed(e: Effect, name: _Namer) -> str:
    if e.cause == "revealed_discarded":
        return f"{name(e.seat)} discards the revealed card (round lost)"
    if not e.number and not e.action:
        return f"{name(e.seat)} has no number card left to shed ({_why(e, name)})"
    return f"{name(e.seat)} sheds {_cards(e.number, e.action)} ({_why(e, name)})"


def _steal(e: Effect, name: _Namer) -> str:
    if e.number:
        return f"{name(e.seat)} takes 1 number card from {name(e.other)} ({name(e.seat)}'s 0)"
    if e.cause == "revealed":
        return (
            f"{name(e.seat)}'s 0 takes nothing: {name(e.other)} holds no card but the one "
            "on the table"
        )
    return f"{name(e.seat)}'s 0 takes nothing: {name(e.other)} holds no number card"


def _play(e: Effect, name: _Namer) -> str:
    text = f"{name(e.seat)} plays {_label(e.card)}"
    if e.card == "color_change":
        return f"{text} and names {e.cause}"
    if e.other is not None:
        text += f" on {name(e.other)}"
    return text


def _await(e: Effect, name: _Namer) -> str:
    """The decision asked, with what each choice does, in words (section 6)."""
    me = name(e.seat)
    # No other seat named: with more than two seats a bonus makes every opponent draw.
    other = name(e.other) if e.other is not None else "every opponent"
    decision = e.card
    if decision == "counter":
        text = "counter with +2 or +4, or pass"
    elif decision == "block_counter":
        text = "counter with BLOCK, or pass"
    elif decision == "truth":
        text = f"answer {other}'s TRUTH, or refuse"
    elif decision == "dare":
        text = f"complete {other}'s DARE, or refuse"
    elif decision == "penalty":
        text = (
            f"penalty for {other}'s refusal: {me} draws 2 action cards and {other} 2 "
            f"number cards, or {other} draws 5 number cards"
        )
    elif decision == "bonus":
        text = f"bonus: {me} draws 1 action card, or {other} draws 2 number cards"
    elif decision == "challenge":
        text = f"challenge {other}, at 0 number cards, with +2 or +4, or pass"
    else:
        choices = ", ".join(_label(c) for c in DECISIONS.get(str(decision), ()))
        text = f"{str(decision).replace('_', ' ')} ({choices})"
    return f"Waiting for {me}: {text}"


def _respond(e: Effect, name: _Namer) -> str:
    who = name(e.seat)
    choice = e.card
    texts = {
        "answer": f"{who} answers the truth",
        "complete": f"{who} completes the dare",
        "refuse": f"{who} refuses the {e.cause}",
        "pass": f"{who} does not {'challenge' if e.cause == 'challenge' else 'counter'}",
    }
    if choice in texts:
        return texts[choice]
    if e.cause == "challenge":
        return f"{who} challenges {name(e.other)}'s win with {_label(choice)}"
    return f"{who} counters with {_label(choice)}"


def _penalty(e: Effect, name: _Namer) -> str:
    if e.card == "actions":
        return (
            f"{name(e.seat)} chooses the penalty: {name(e.seat)} draws 2 action cards and "
            f"{name(e.other)} 2 number cards"
        )
    return f"{name(e.seat)} chooses the penalty: {name(e.other)} draws 5 number cards"


def _bonus(e: Effect, name: _Namer) -> str:
    what = "1 action card" if e.card == "action_card" else "every opponent draws 2 number cards"
    return f"{name(e.seat)} claims the streak bonus: {what} (streak back to 0)"


def _finish(e: Effect, name: _Namer) -> str:
    winner = name(e.seat)
    how = e.cause
    reason = f" ({REASON_LABELS.get(str(e.card), e.card)})" if e.card else ""
    if how == "shed_all":
        return f"{winner} wins the duel with no number cards left"
    if how == "forfeit":
        return f"{name(e.other)} forfeits{reason}: {winner} wins the duel"
    if how == "dare_refused":
        return f"{name(e.other)} refused the dare and forfeits: {winner} wins the duel"
    if how == "time_limit":
        if e.seat is None:
            return f"Time limit{reason}: equal number cards, the duel is drawn"
        return f"Time limit{reason}: {winner} wins with the fewest number cards"
    if how == "adjudicated":
        return f"The referee adjudicates the duel to {winner}{reason}"
    if e.number:
        return f"{e.number} sides are at 0 number cards at once: the game is drawn (double zero)"
    return "Both seats are at 0 number cards: the duel is drawn (double zero)"


_TEXTS: dict[str, Callable[[Effect, _Namer], str]] = {
    "reveal": lambda e, n: f"{n(e.seat)} reveals {e.card}",
    "steal": _steal,
    "draw": _draw,
    "shed": _shed,
    "win_round": lambda e, n: (
        f"{n(e.seat)} wins the round{' alone' if e.cause == 'alone' else ''} (streak {e.number})"
    ),
    "lose_round": lambda e, n: f"{n(e.seat)} loses the round (streak back to 0)",
    "tie": lambda e, n: f"The round is a tie on {e.card}: the tied seats' streaks go back to 0",
    "blocked_out": lambda e, n: (
        f"{n(e.seat)} is blocked and sits out (streak kept)"
        if e.cause == "sits_out"
        else f"{n(e.seat)} is blocked and reveals nothing"
    ),
    "all_blocked": lambda e, n: "Every seat is blocked: the round is played with no cards",
    "unblock": lambda e, n: f"{n(e.seat)}'s block is lifted",
    "play": _play,
    "swap": lambda e, n: f"{n(e.seat)} and {n(e.other)} swap their whole hands",
    "reverse_discard": lambda e, n: (
        f"{n(e.seat)} discards 1 action card from the new hand (REVERSE)"
        if e.action
        else f"{n(e.seat)}'s new hand holds no action card: nothing is discarded"
    ),
    "blocked": lambda e, n: (
        f"{n(e.seat)} is already blocked: the BLOCK adds nothing"
        if e.cause == "already"
        else f"{n(e.seat)} is blocked for the next number round"
    ),
    "block_void": lambda e, n: f"The BLOCK on {n(e.seat)} does not take effect",
    "respond": _respond,
    "penalty": _penalty,
    "bonus": _bonus,
    "one_card_challenge": lambda e, n: (
        f"{n(e.seat)} holds a single action card and cannot legally challenge: it stays in "
        f"hand and {n(e.other)}'s win stands"
    ),
    "zero": lambda e, n: f"{n(e.seat)} is at 0 number cards",
    "await": _await,
    "leave": lambda e, n: f"{n(e.seat)} leaves the game{f' ({e.card})' if e.card else ''}",
    "lapse": lambda e, n: (
        f"The {str(e.card).replace('_', ' ')} asked of {n(e.seat)} lapses: a seat it "
        "concerns has left"
    ),
    "finish": _finish,
}
