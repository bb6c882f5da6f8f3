"""Practice duels stored the old way, turned into events of the dealt Split UNO adapter (issue
27, practice's data migration 0007). Used by that migration only.

An old practice duel is its seed and the person's moves, and one random stream gave the deal,
every draw, every steal, the person's random sheds and every bot choice;
``practice.game.traced_replay`` plays it again and watches it (``OldDuel``: this module imports
nothing of practice, the layers say so). The dealt adapter deals its own way — card
identities, sealed bids, the owner of a hand choosing which card goes — so the converter takes
the old duel replayed once with today's code, its concrete hands watched, and writes the dealt
events that give the same game:

- the deal: the old hands as dealt, each card given an identity, the rest of the pool as the
  decks;
- each engine event in order: a round as the seals of the seats it involves (the bots' first,
  the person's last, which reveals it), an action card played, an answer, a resignation; the
  cards each draw takes are laid on top of the deck first, and a 0's steal takes the card of
  the value the old duel took (the dealer's pick, steered here — nobody saw it);
- each card the old duel shed by choice (a COLOR CHANGE's, a BLOCK battle's, the person's once
  picked at random) as the ``choose`` of its owner, the card being the one the old hands lost;
- then the bots of today seal (or act) for the next round, as the adapter does after a command.

After every event the hands, decks and piles are compared with the old duel's, and at the end
the table restored from the events alone must be the old duel's: anything else raises
``NotConvertible`` (the migration then keeps the duel the old way: docs/practice.md). A rule set
with truth and dare (the dealt adapter switches them off, so its decks differ) cannot match.
"""

from __future__ import annotations

import contextlib
import sys
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from math import floor
from typing import Any

from games.split_uno import CARDS
from games.split_uno.hands import KIND as KIND_INDEX

from . import split_uno_dealt as dealt
from .base import DEALER, Event


class NotConvertible(Exception):
    """The old duel could not be reproduced with dealt events (nothing is stored)."""


@dataclass(frozen=True)
class OldDuel:
    """An old practice duel as practice/game.py's ``traced_replay`` watched it: the hands as
    dealt (``snapshot``), one entry per engine event (the event, whether a bot made it, the
    hands before and after it and the random numbers the hands drew during it), the hands at
    the end and the engine's state."""

    dealt: Mapping[str, Any]
    trace: Sequence[Mapping[str, Any]]
    final: Mapping[str, Any]
    state: Mapping[str, Any]


def snapshot(hands: Any) -> dict[str, Any]:
    """The concrete hands, decks (in their order) of a Simulator's ``Hands``."""
    return {
        "num": [row[:] for row in hands.num],
        "act": [row[:] for row in hands.act],
        "deck_num": list(hands.deck_num),
        "deck_act": list(hands.deck_act),
    }


def events_from_practice(
    config: Mapping[str, Any], seats: Sequence[str], seed: bytes, old: OldDuel
) -> list[Event]:
    """The dealt events of the old practice duel ``old``, for a game of ``config``/``seats``
    whose seed is ``seed``. Raises NotConvertible."""
    try:
        return _convert(old, config, seats, seed)
    except NotConvertible:
        raise
    except Exception as err:  # noqa: BLE001 — whatever breaks, the duel is kept the old way
        raise NotConvertible(f"{type(err).__name__}: {err}") from err


def _mirror(entry: Mapping[str, Any], fx: Sequence[Sequence[Any]], seats: Sequence[str]) -> dict:
    """What the old hands drew and stole in one event, in order (practice's Hands.update,
    followed with the random numbers it drew)."""
    before = entry["before"]
    num = [row[:] for row in before["num"]]
    deck_num = list(before["deck_num"])
    deck_act = list(before["deck_act"])
    numbers = iter(entry["numbers"])
    index = {seat: i for i, seat in enumerate(seats)}
    event = entry["event"]
    cards = event.get("cards") if event["type"] == "round" else None
    drawn_n: list[int] = []
    drawn_a: list[int] = []
    stolen: list[int] = []

    def take(deck: list[int]) -> int:
        j = floor(next(numbers) * len(deck))
        card = deck[j]
        deck[j] = deck[-1]
        deck.pop()
        return card

    def random_card(i: int, but: int = -1) -> int:
        counts = num[i]
        size = sum(counts) - (1 if but >= 0 else 0)
        n = floor(next(numbers) * size)
        if but >= 0 and n >= sum(counts[:but]):
            n += 1
        for value, count in enumerate(counts):
            if n < count:
                return value
            n -= count
        raise NotConvertible("a steal from a hand too small")

    for e in fx:
        kind = e[0]
        if kind == "draw":
            for _ in range(e[3]):
                value = take(deck_num)
                num[index[e[1]]][value] += 1
                drawn_n.append(value)
            for _ in range(e[4]):
                drawn_a.append(take(deck_act))
        elif kind == "shed" and e[3]:
            i = index[e[1]]
            if cards is not None and e[6] in dealt._REVEALED_SHEDS:
                num[i][cards[e[1]]] -= 1
            elif i == 0:  # the person's shed was picked at random (a bot's by its heuristic)
                num[i][random_card(i)] -= 1
        elif kind == "steal" and e[3]:
            thief, victim = index[e[1]], index[e[2]]
            shown = cards.get(e[2], -1) if cards is not None else -1
            value = random_card(victim, shown)
            num[victim][value] -= 1
            num[thief][value] += 1
            stolen.append(value)
        elif kind == "swap":
            i, j = index[e[1]], index[e[2]]
            num[i], num[j] = num[j], num[i]
    return {"numbers": drawn_n, "actions": [CARDS[k] for k in drawn_a], "stolen": stolen}


# -- the dealt events ------------------------------------------------------------------------


def _deal(cfg: dealt.DealtConfig, seats: Sequence[str], dealt_hands: Mapping[str, Any]) -> Event:
    duel = dealt._new_duel(cfg, seats)
    rules = duel.rules
    private: dict[str, dict[str, Any]] = {}
    n = a = 0
    for i, seat in enumerate(seats):
        numbers = []
        for value, count in enumerate(dealt_hands["num"][i]):
            for _ in range(count):
                numbers.append([dealt._nid(n), value])
                n += 1
        actions = []
        for k, count in enumerate(dealt_hands["act"][i]):
            for _ in range(count):
                actions.append([dealt._aid(a), CARDS[k]])
                a += 1
        private[seat] = {"numbers": numbers, "actions": actions}
    deck_n = []
    for value in sorted(dealt_hands["deck_num"]):
        deck_n.append([dealt._nid(n), value])
        n += 1
    deck_a = []
    for k in sorted(dealt_hands["deck_act"]):
        deck_a.append([dealt._aid(a), CARDS[k]])
        a += 1
    private[DEALER] = {"number_deck": deck_n, "action_deck": deck_a}
    public = {
        "type": "deal",
        "number_cards": rules.starting_number_cards,
        "action_cards": dict(rules.starting_action_cards),
    }
    return Event(by="dealer", public=public, private=private)


def _on_top(deck: list[int], values: Sequence[Any], of: Sequence[Any]) -> None:
    """Lays cards of ``values`` (in order) on top of ``deck`` (``of``: each card's value)."""
    rest = deck[:]
    top = []
    for value in values:
        card = next((c for c in rest if of[c] == value), None)
        if card is None:
            raise NotConvertible(f"no {value} left in the deck")
        rest.remove(card)
        top.append(card)
    deck[:] = top + rest


@contextlib.contextmanager
def _steals(values: list[int]) -> Iterator[None]:
    """The dealer's pick of a 0's card, steered to the value the old duel took: the adapter
    picks ``candidates[int(random() * len(candidates))]`` (its ``engine``), so the stream given
    points at the first candidate of that value."""
    queue = list(values)

    class Steered:
        def random(self) -> float:
            frame = sys._getframe(1)
            candidates, scratch = frame.f_locals["candidates"], frame.f_locals["scratch"]
            if not queue:
                raise NotConvertible("a steal the old duel did not make")
            wanted = queue.pop(0)
            at = next((k for k, c in enumerate(candidates) if scratch.nval[c] == wanted), None)
            if at is None:
                raise NotConvertible(f"no {wanted} to steal")
            return (at + 0.5) / len(candidates)

    real = dealt._stream

    def stream(seed: bytes, label: str) -> Any:
        return Steered() if label.startswith("dealer:") else real(seed, label)

    dealt._stream = stream  # type: ignore[assignment]
    try:
        yield
    finally:
        dealt._stream = real  # type: ignore[assignment]


def _hands_of(st: Any, seat: str) -> tuple[Counter, Counter]:
    return Counter(st.nval[c] for c in st.hand_n[seat]), Counter(
        st.akind[c] for c in st.hand_a[seat]
    )


def _old_hands(snap: Mapping[str, Any], i: int) -> tuple[Counter, Counter]:
    numbers = Counter({v: n for v, n in enumerate(snap["num"][i]) if n})
    actions = Counter({CARDS[k]: n for k, n in enumerate(snap["act"][i]) if n})
    return numbers, actions


def _convert(
    old: OldDuel, config: Mapping[str, Any], seats: Sequence[str], seed: bytes
) -> list[Event]:
    adapter = dealt.ADAPTER
    seats = tuple(seats)
    bots = set(config.get("bots", ()))
    # Every seat driven here as the old duel moved it: no bot of today is asked until the end.
    driven = dealt.read_config({**config, "bots": []}, seats)
    deal = _deal(driven, seats, old.dealt)
    pool = [card[1] for part in deal.private.values() for cards in part.values() for card in cards]
    if "truth" in pool or "dare" in pool:
        # The dealt adapter switches truth and dare off: a game dealt with them is no dealt game.
        raise NotConvertible("the decks hold TRUTH or DARE cards")
    st = dealt._State(dealt._new_duel(driven, seats))
    dealt._absorb_deal(st, deal)
    table = dealt.DealtTable(driven, seats, seed, st, [deal])

    def by(seat: str) -> str:
        return f"bot:{seat}" if seat in bots else seat

    for entry in old.trace:
        event = entry["event"]
        step = dealt._Step(table)
        scratch = step.st.duel.copy()
        fx = scratch._apply(event)
        drawn = _mirror(entry, fx, seats)
        _on_top(step.st.deck_n, drawn["numbers"], step.st.nval)
        _on_top(step.st.deck_a, drawn["actions"], step.st.akind)
        kind = event["type"]
        with _steals(drawn["stolen"]):
            if kind == "round":
                cards = event.get("cards", {})
                targets = event.get("targets", {})
                legal = step.st.duel.legal()
                if set(legal.round_seats) != set(cards):
                    raise NotConvertible("a round of other seats than the old one")
                order = sorted(cards, key=lambda s: (s == "A", seats.index(s)))
                if not order:
                    adapter._maybe_round(step)
                for seat in order:
                    args: dict[str, Any] = {"card": cards[seat]}
                    if seat in targets:
                        args["target"] = targets[seat]
                    adapter._seal(step, seat, args, by(seat))
            elif kind == "action":
                args = {k: event[k] for k in ("card", "color", "target") if k in event}
                adapter._play(step, event["seat"], args, by(event["seat"]))
            elif kind == "respond":
                adapter._answer(step, event["seat"], {"choice": event["choice"]}, by(event["seat"]))
            elif kind == "forfeit":
                adapter._resign(step, event["seat"], {}, by(event["seat"]))
            elif kind == "time_limit":
                engine = {"type": "time_limit", "reason": event.get("reason")}
                step.engine("dealer", {"type": "time_limit"}, engine, adapter._returned(step.st))
            else:
                raise NotConvertible(f"an old event of type {kind!r}")
        # The cards given up by choice: what each hand still holds beyond the old one.
        while step.st.chooses:
            seat, what = step.st.chooses[0][0], step.st.chooses[0][1]
            i = seats.index(seat)
            numbers, actions = _hands_of(step.st, seat)
            old_numbers, old_actions = _old_hands(entry["after"], i)
            extra = (numbers - old_numbers) if what == "shed" else (actions - old_actions)
            if not extra:
                raise NotConvertible("a card chosen that the old duel did not give up")
            card = min(extra) if what == "shed" else min(extra, key=KIND_INDEX.__getitem__)
            adapter._choose(step, seat, {"card": card}, by(seat))
        table.st = step.st
        table.events.extend(step.events)
        for i, seat in enumerate(seats):
            if _hands_of(table.st, seat) != _old_hands(entry["after"], i):
                raise NotConvertible(f"seat {seat}'s hand differs after {kind}")
        if (len(table.st.deck_n), len(table.st.deck_a)) != (
            len(entry["after"]["deck_num"]),
            len(entry["after"]["deck_act"]),
        ):
            raise NotConvertible(f"the decks differ after {kind}")

    events = list(table.events)
    restored = adapter.restore(config, seats, seed, events)
    if restored.st.duel.state() != old.state:
        raise NotConvertible("the restored table is not the old duel's")
    for i, seat in enumerate(seats):
        if _hands_of(restored.st, seat) != _old_hands(old.final, i):
            raise NotConvertible(f"seat {seat}'s restored hand differs")
    if problems := dealt.conservation_problems(restored):
        raise NotConvertible("; ".join(problems))
    if not adapter.finished(restored):
        # Today's bots seal (or act) for the next round, as after any command.
        step = dealt._Step(restored)
        adapter._answers(step)
        events.extend(step.events)
    return events
