"""CPT-113's rules as plain functions: the deal, what is legal, and each move applied.

``apply`` checks a move against the state, then works on a copy: a refused move raises
IllegalMove and changes nothing. Every choice the seed leaves open is in docs/games-cpt113.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.common.errors import IllegalMove
from games.common.words import Effect, a_number, listing, plural

from .cards import (
    COLOURS,
    DECK,
    KNOWN,
    WILD_FOUR,
    action_of,
    colour_of,
    is_number,
    is_wild,
    label,
    points,
)
from .state import DROP_OUT, HAND_SIZE, MAX_GROUPS, MIN_GROUPS, State, default_names, group_name

KINDS = ("play", "draw")


@dataclass(frozen=True)
class Legal:
    """What the seat on turn may do: play one of ``playable`` (a wild names a colour too), or
    ``can_draw`` when nothing can be played."""

    seat: int | None
    playable: tuple[str, ...]
    can_draw: bool


def new_game(seed: int, groups: int, names: tuple[str, ...] | None = None) -> State:
    """Five cards to each group, one at a time, then the first number card turned up starts
    the discard pile; action cards turned up before it go to the bottom of the draw pile."""
    if type(groups) is not int or not MIN_GROUPS <= groups <= MAX_GROUPS:
        raise IllegalMove(f"a game has {MIN_GROUPS} to {MAX_GROUPS} groups of two")
    deck = list(DECK)
    random.Random(f"cpt113:{seed}:deal").shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(groups)]
    for _ in range(HAND_SIZE):
        for hand in hands:
            hand.append(deck.pop())
    start = deck.pop()
    while not is_number(start):
        deck.insert(0, start)
        start = deck.pop()
    colour = colour_of(start)
    assert colour is not None
    return State(
        seed=seed,
        groups=groups,
        names=names or default_names(groups),
        hands=hands,
        deck=deck,
        discard=[start],
        colour=colour,
        number=int(start[1]),
        set_aside=[[] for _ in range(groups)],
    )


def can_play(state: State, card: str) -> bool:
    """A wild any time; else the colour in play, the last number card's number, or the same
    action as the top card."""
    if is_wild(card):
        return True
    if colour_of(card) == state.colour:
        return True
    if is_number(card):
        return int(card[1]) == state.number
    return action_of(card) == action_of(state.top)


def legal(state: State) -> Legal:
    if state.finished:
        return Legal(None, (), False)
    hand = state.hands[state.group]
    playable = tuple(dict.fromkeys(c for c in hand if can_play(state, c)))
    return Legal(state.seat, playable, not playable)


def apply(state: State, move: object) -> tuple[State, list[Effect]]:
    """The state after ``move`` and what it did; IllegalMove (nothing changed) if refused."""
    if not isinstance(move, Mapping):
        raise IllegalMove('a move is an object such as {"kind": "play", "card": "R3"}')
    kind = move.get("kind")
    if kind not in KINDS:
        raise IllegalMove(f"unknown move: a move's kind is one of {listing(list(KINDS))}")
    if state.finished:
        raise IllegalMove("the game is over: no move can be made")
    if kind == "draw":
        if set(move) != {"kind"}:
            raise IllegalMove('a draw is just {"kind": "draw"}')
        now = legal(state)
        if not now.can_draw:
            raise IllegalMove(
                f"{state.names[state.seat]} can play {listing([label(c) for c in now.playable])}"
                ": cards are drawn only when none can be played"
            )
        new = state.copy()
        effects = _draw_until_playable(new)
    else:
        card, colour = _checked_play(state, move)
        new = state.copy()
        effects = _play(new, card, colour)
    if not new.finished:
        effects += _check_ends(new)
    new.moves += 1
    return new, effects


def _checked_play(state: State, move: Mapping[str, Any]) -> tuple[str, str | None]:
    card = move.get("card")
    name = state.names[state.seat]
    if not isinstance(card, str) or card not in KNOWN:
        raise IllegalMove('name a card of the deck, such as "R3", "BS" (blue skip), "W" or "W4"')
    if card not in state.hands[state.group]:
        raise IllegalMove(f"{group_name(state.group, capital=True)} does not hold {label(card)}")
    if not can_play(state, card):
        raise IllegalMove(
            f"{label(card)} cannot go on {label(state.top)}: play "
            f"{COLOURS[state.colour]}, {a_number(state.number)}, or a wild"
        )
    colour = move.get("colour")
    if is_wild(card):
        if (
            set(move) != {"kind", "card", "colour"}
            or not isinstance(colour, str)
            or colour not in COLOURS
        ):
            raise IllegalMove(
                f"{name} must name the colour for {label(card)}: one of {listing(list(COLOURS))}"
            )
        return card, str(colour)
    if set(move) != {"kind", "card"}:
        raise IllegalMove('a play is {"kind": "play", "card": ...}; only a wild names a colour')
    return card, None


def next_seat(state: State, seat: int) -> int:
    """The next seat in the direction of play whose group is still in."""
    total = 2 * state.groups
    step = seat
    for _ in range(total):
        step = (step + state.direction) % total
        if step % state.groups not in state.out:
            return step
    return seat


def _play(state: State, card: str, colour: str | None) -> list[Effect]:
    seat, group = state.seat, state.group
    name = state.names[seat]
    state.hands[group].remove(card)
    state.discard.append(card)
    action = action_of(card)
    if colour is not None:
        state.colour = colour
    else:
        state.colour = colour_of(card) or state.colour
    if action is None:
        state.number = int(card[1])
    text = f"{name} plays {label(card)}"
    params: dict[str, Any] = {"seat": seat, "card": card}
    if colour is not None:
        text += f" and names {COLOURS[colour]}"
        params["colour"] = colour
    if not state.hands[group]:
        state.winners = (group,)
        state.ending = "emptied"
        return [
            Effect("play", text + ".", group, params=params),
            Effect(
                "win",
                f"{group_name(group, capital=True)} has no card left and wins.",
                group,
                params={"group": group},
            ),
        ]
    after = next_seat(state, seat)
    effects: list[Effect] = []
    if action == "S":
        text += f": {state.names[after]} misses the turn"
        params["misses"] = after
        after = next_seat(state, after)
    elif action == "R":
        state.direction = -state.direction
        way = "clockwise" if state.direction == 1 else "anticlockwise"
        text += f": play now goes {way}"
        params["direction"] = way
        after = next_seat(state, seat)
    elif action in ("D", WILD_FOUR):
        count = 4 if action == WILD_FOUR else 2
        victim = after % state.groups
        text += f": {state.names[after]} misses the turn"
        params["misses"] = after
        effects = _draw(state, victim, count, state.names[after], after)
        after = next_seat(state, after)
    state.seat = after
    return [Effect("play", text + ".", group, params=params), *effects]


def _draw(state: State, group: int, count: int, name: str, seat: int) -> list[Effect]:
    """``group`` takes ``count`` cards, stopping when it reaches 11 or the pile is empty."""
    taken: list[str] = []
    hand = state.hands[group]
    while len(taken) < count and state.deck and len(hand) < DROP_OUT:
        taken.append(state.deck.pop())
        hand.append(taken[-1])
    text = f"{name} draws {plural(len(taken), 'card')} for {group_name(group)}"
    return [
        Effect(
            "draw",
            text + ".",
            group,
            f"{text}: {listing([label(c) for c in taken])}." if taken else None,
            {"seat": seat, "group": group, "count": len(taken)},
            {"cards": list(taken)} if taken else None,
        )
    ]


def _draw_until_playable(state: State) -> list[Effect]:
    """Cards one at a time until one can be played (the same seat then plays), the group
    reaches 11, or the pile is empty."""
    group, hand = state.group, state.hands[state.group]
    name = state.names[state.seat]
    taken: list[str] = []
    while state.deck and len(hand) < DROP_OUT:
        taken.append(state.deck.pop())
        hand.append(taken[-1])
        if can_play(state, taken[-1]):
            break
    text = (
        f"{name} has no card to play and draws {plural(len(taken), 'card')} for {group_name(group)}"
    )
    secret = f"{text}: {listing([label(c) for c in taken])}"
    playable = bool(taken and can_play(state, taken[-1]) and len(hand) < DROP_OUT and state.deck)
    if playable:
        secret += f" — {label(taken[-1])} can be played"
    params = {"seat": state.seat, "group": group, "count": len(taken), "stuck": True}
    hidden = {"cards": list(taken), "playable": playable}
    return [Effect("draw", text + ".", group, secret + ".", params, hidden)]


def _check_ends(state: State) -> list[Effect]:
    """After a move: groups at 11 drop out, then one group left wins, then an empty draw pile
    ends the game on card points. A group that has dropped out never wins."""
    effects: list[Effect] = []
    for group in state.playing():
        if len(state.hands[group]) >= DROP_OUT:
            state.out.append(group)
            state.set_aside[group] = state.hands[group]
            state.hands[group] = []
            effects.append(
                Effect(
                    "drop_out",
                    f"{group_name(group, capital=True)} holds {DROP_OUT} cards and drops out.",
                    group,
                    params={"group": group, "count": DROP_OUT},
                )
            )
    left = state.playing()
    if len(left) == 1:
        state.winners = (left[0],)
        state.ending = "last_group"
        effects.append(
            Effect(
                "win",
                f"{group_name(left[0], capital=True)} is the only group left and wins.",
                left[0],
                params={"group": left[0], "last": True},
            )
        )
    elif not state.deck:
        effects.append(_score(state, left))
    elif effects and state.seat % state.groups in state.out:
        state.seat = next_seat(state, state.seat)
    return effects


def _score(state: State, left: list[int]) -> Effect:
    """The draw pile is empty: a group scores the points in the other groups' hands (as at
    unorules.com), so the highest score is the fewest points held; equal ones tie."""
    held = {g: sum(points(c) for c in state.hands[g]) for g in left}
    total = sum(held.values())
    best = min(held.values())
    state.winners = tuple(g for g in left if held[g] == best)
    state.ending = "pile_empty"
    counts = listing([f"{group_name(g)} holds {plural(held[g], 'point')}" for g in left])
    if len(state.winners) == 1:
        verdict = (
            f"{group_name(state.winners[0], capital=True)} wins with the highest score, "
            f"{total - best} (the points in the other groups' hands)."
        )
    else:
        verdict = (
            f"A tie between {listing([group_name(g) for g in state.winners])}, "
            f"with a score of {total - best} each."
        )
    params = {
        "points": [[g, held[g]] for g in left],
        "winners": list(state.winners),
        "score": total - best,
    }
    return Effect("score", f"The draw pile is empty: {counts}. {verdict}", params=params)
