"""Trois's rules as plain functions: the deal, what is legal, and each move applied.

``apply`` checks a move against the state, then works on a copy: a refused move raises
IllegalMove and changes nothing. Every choice the seed leaves open is in docs/games-trois.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.common.errors import IllegalMove
from games.common.words import Effect, listing, plural

from .cards import DECK, WILDCARDS, colour_of, is_wild, label, number_of
from .state import HAND_SIZE, NAMES, SEATS, State

KINDS = ("play", "take", "time")


@dataclass(frozen=True)
class Legal:
    """What the seat on turn may do. A play is any non-empty set of ``by_colour`` cards, or
    of ``by_number`` cards, in any order (the last one ends on top); ``can_take`` only when
    nothing matches. ``time`` (the dealer's) is legal whenever the game is on."""

    who: int | None
    by_colour: tuple[str, ...]
    by_number: tuple[str, ...]
    can_take: bool

    @property
    def playable(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.by_colour + self.by_number))


def new_game(seed: int, names: tuple[str, ...] = NAMES) -> State:
    """The deal: eight cards each, never a wildcard, then a numbered card opens the pile."""
    deck = list(DECK)
    random.Random(f"trois:{seed}:deal").shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    for _ in range(HAND_SIZE):
        for hand in hands:
            hand.append(_take_numbered(deck))
    pile = [_take_numbered(deck)]
    return State(seed=seed, names=tuple(names), hands=hands, deck=deck, pile=pile)


def _take_numbered(deck: list[str]) -> str:
    """The topmost card that is not a wildcard; the wildcards it passes stay where they are
    (seed: "No wildcards can be given at the start of the game")."""
    for index in range(len(deck) - 1, -1, -1):
        if not is_wild(deck[index]):
            return deck.pop(index)
    raise AssertionError("the deck always holds more numbered cards than the deal needs")


def legal(state: State) -> Legal:
    if state.finished:
        return Legal(None, (), (), False)
    hand = state.hands[state.turn]
    top = state.top
    by_colour = tuple(c for c in hand if colour_of(c) == colour_of(top))
    by_number = tuple(c for c in hand if number_of(c) == number_of(top))
    return Legal(state.turn, by_colour, by_number, not by_colour and not by_number)


def apply(state: State, move: object) -> tuple[State, list[Effect]]:
    """The state after ``move`` and what it did; IllegalMove (nothing changed) if refused."""
    kind = _kind(move)
    if state.finished:
        raise IllegalMove("the game is over: no move can be made")
    assert isinstance(move, Mapping)
    if kind == "time":
        if set(move) != {"kind"}:
            raise IllegalMove('a time move is just {"kind": "time"}')
        new = state.copy()
        effects = _time_up(new)
    elif kind == "take":
        if set(move) != {"kind"}:
            raise IllegalMove('a take is just {"kind": "take"}')
        now = legal(state)
        if not now.can_take:
            raise IllegalMove(
                f"{state.names[state.turn]} holds a card that matches "
                f"{label(state.top)} ({listing([label(c) for c in now.playable])}): "
                "a card is taken from the deck only when none matches"
            )
        new = state.copy()
        effects = _take(new)
        new.turn = (new.turn + 1) % SEATS
    else:
        cards = _checked_cards(state, move)
        new = state.copy()
        effects = _play(new, cards)
    new.moves += 1
    return new, effects


def _kind(move: object) -> str:
    if not isinstance(move, Mapping):
        raise IllegalMove('a move is an object such as {"kind": "play", "cards": ["B3"]}')
    kind = move.get("kind")
    if kind not in KINDS:
        raise IllegalMove(f"unknown move: a move's kind is one of {listing(list(KINDS))}")
    return str(kind)


def _checked_cards(state: State, move: Mapping[str, Any]) -> list[str]:
    """The cards of a play, once every rule about them holds."""
    if set(move) != {"kind", "cards"}:
        raise IllegalMove(
            'a play is {"kind": "play", "cards": [...]}, the cards in the order '
            "they are laid (the last one ends on top)"
        )
    cards = move["cards"]
    name = state.names[state.turn]
    hand = state.hands[state.turn]
    if not isinstance(cards, list) or not cards:
        raise IllegalMove("a play lays at least one card: name the cards as a list")
    if len(cards) > len(hand):
        raise IllegalMove(f"{name} holds only {plural(len(hand), 'card')}")
    if not all(isinstance(c, str) for c in cards):
        raise IllegalMove('name each card as text, such as "B3"')
    for card in cards:
        if card not in DECK:
            raise IllegalMove(
                f"there is no card {card[:8]!r} in Trois: cards are a colour "
                "letter (B G Y P O R M) and a number 0–9"
            )
        if card not in hand:
            raise IllegalMove(f"{name} does not hold {label(card)}")
    if len(set(cards)) != len(cards):
        raise IllegalMove("each card can be laid only once")
    top = state.top
    same_colour = all(colour_of(c) == colour_of(top) for c in cards)
    same_number = all(number_of(c) == number_of(top) for c in cards)
    if not (same_colour or same_number):
        if len(cards) == 1:
            raise IllegalMove(
                f"{label(cards[0])} does not match {label(top)}: "
                "play a card of its colour or its number"
            )
        raise IllegalMove(
            f"the cards of a combination must all have the colour of {label(top)} "
            "or all have its number"
        )
    return list(cards)


def _play(state: State, cards: list[str]) -> list[Effect]:
    seat = state.turn
    name = state.names[seat]
    hand = state.hands[seat]
    for card in cards:
        hand.remove(card)
        state.pile.append(card)
    laid = listing([label(c) for c in cards])
    text = f"{name} plays {laid}" + (f"; {label(cards[-1])} is on top" if len(cards) > 1 else "")
    effects = [Effect("play", text + ".", seat, params={"seat": seat, "cards": list(cards)})]
    if not hand:
        state.winners = (seat,)
        state.ending = "emptied"
        effects.append(
            Effect("win", f"{name} has no card left and wins.", seat, params={"seat": seat})
        )
    else:
        state.turn = (seat + 1) % SEATS
    return effects


def _take(state: State) -> list[Effect]:
    """The seat on turn takes a card; a wildcard goes to the wildcard pile and makes it take
    two or four more, and wildcards among those are discarded without taking more."""
    seat = state.turn
    name = state.names[seat]
    effects: list[Effect] = []
    card = _draw(state, effects)
    if card is None:
        effects.append(
            Effect("pass", f"No card is left to take: {name} passes.", seat, params={"seat": seat})
        )
        return effects
    if not is_wild(card):
        state.hands[seat].append(card)
        effects.append(
            Effect(
                "take",
                f"{name} takes a card.",
                seat,
                f"{name} takes {label(card)}.",
                {"seat": seat},
                {"cards": [card]},
            )
        )
        return effects
    state.wild_pile.append(card)
    extra = WILDCARDS[card]
    effects.append(
        Effect(
            "wildcard",
            f"{name} takes {label(card)}: it goes to the wildcard pile "
            f"and {name} must take {extra} more cards.",
            seat,
            params={"seat": seat, "card": card, "extra": extra},
        )
    )
    kept: list[str] = []
    for _ in range(extra):
        more = _draw(state, effects)
        if more is None:
            effects.append(
                Effect(
                    "short",
                    f"No card is left to take: {name} takes no more.",
                    seat,
                    params={"seat": seat},
                )
            )
            break
        if is_wild(more):
            state.wild_pile.append(more)
            effects.append(
                Effect(
                    "wildcard_extra",
                    f"{name} takes {label(more)} as an extra card:"
                    " it goes to the wildcard pile and asks for no more cards.",
                    seat,
                    params={"seat": seat, "card": more},
                )
            )
        else:
            state.hands[seat].append(more)
            kept.append(more)
    if kept:
        effects.append(
            Effect(
                "take",
                f"{name} takes {plural(len(kept), 'more card')}.",
                seat,
                f"{name} takes {listing([label(c) for c in kept])}.",
                {"seat": seat, "more": len(kept)},
                {"cards": list(kept)},
            )
        )
    return effects


def _draw(state: State, effects: list[Effect]) -> str | None:
    """The deck's top card; an empty deck is first refilled from the pile but its top card,
    shuffled. None when both are spent."""
    if not state.deck:
        under = state.pile[:-1]
        if not under:
            return None
        state.pile = state.pile[-1:]
        state.reshuffles += 1
        random.Random(f"trois:{state.seed}:reshuffle:{state.reshuffles}").shuffle(under)
        state.deck = under
        effects.append(
            Effect(
                "reshuffle",
                "The deck is empty: the pile but its top card is "
                f"shuffled into a new deck of {plural(len(under), 'card')}.",
                params={"count": len(under)},
            )
        )
    return state.deck.pop()


def _time_up(state: State) -> list[Effect]:
    """The time limit: the fewest cards wins; several with the fewest tie."""
    sizes = [len(h) for h in state.hands]
    fewest = min(sizes)
    state.winners = tuple(s for s in range(SEATS) if sizes[s] == fewest)
    state.ending = "time"
    counts = listing([f"{state.names[s]} {plural(sizes[s], 'card')}" for s in range(SEATS)])
    if len(state.winners) == 1:
        verdict = f"{state.names[state.winners[0]]} wins with the fewest cards."
    else:
        tied = listing([state.names[s] for s in state.winners])
        verdict = f"A tie between {tied}, with {plural(fewest, 'card')} each."
    params = {"cards": sizes, "winners": list(state.winners)}
    return [Effect("time", f"Time is up: {counts}. {verdict}", params=params)]
