"""The card table of a Split UNO practice game (issue 30): the person's seat's view of the
game (the dealt adapter's ``view``, its log already in words) laid out as a card table.

Plain functions over the view's plain data, no database: every seat around the table with its
counts and the cards it showed face-up since the last round began (the number it revealed,
the action cards it played, at whom), the last round's outcome, what happened since the
person's own last move (the bots' answers, the cards the person drew), the person's hand as
cards, and the target the person named last. Everything here is what the person's seat may see:
it reads the view, which holds nothing else (ONLINE.md section 5).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.split_uno.constants import CARD_LABELS

from . import words

#: The person's seat at every practice table.
PERSON = "A"

#: Line kinds the table shows elsewhere (each seat's reveal on its tile, the sealing on the
#: tiles, the decisions asked in their own form), left out of the "since your move" steps.
_SHOWN_ELSEWHERE = frozenset({"reveal", "sealed", "await", "deal", "lose_round", "returned"})
#: A round loser's one-card draw, said once for all (``round_lost``) rather than per seat.
_ROUND_LOST = "round_lost"


@dataclass(frozen=True)
class Shown:
    """A card face-up in front of a seat: a number it revealed or an action card it played,
    and the seat it named (its name; empty when it named none)."""

    kind: str  # "number" or "action"
    card: int | str  # the value, or the action card's kind
    label: str  # as printed: "7", "+4", "BLOCK"
    target: str = ""
    #: The target as a tile has room for it: its seat letter ("You" for the person).
    short: str = ""


@dataclass(frozen=True)
class Tile:
    """One seat at the table as the person sees it."""

    letter: str
    label: str
    mine: bool
    partner: bool
    number_cards: int
    action_cards: int
    streak: int
    blocked: bool
    out: bool
    winner: bool
    sealed: bool
    targetable: bool
    shown: tuple[Shown, ...] = ()
    #: The last round for this seat: "won", "lost", "tie" or "" (it revealed nothing).
    outcome: str = ""


@dataclass(frozen=True)
class Round:
    """The last number round played: its number and what it came to, in words."""

    number: int
    words: str


@dataclass(frozen=True)
class Hand:
    """The person's cards: number values with how many of each, action kinds likewise, each
    action kind with whether it may be played now."""

    numbers: tuple[tuple[int, int], ...]
    actions: tuple[tuple[str, str, int, bool], ...]  # kind, label, count, playable


@dataclass(frozen=True)
class Table:
    tiles: tuple[Tile, ...]
    last_round: Round | None
    steps: tuple[str, ...]
    hand: Hand
    target: str
    teams: tuple[tuple[str, int], ...] = field(default=())


def person_moves(log: Sequence[Mapping[str, Any]], person: str = PERSON) -> list[int]:
    """The positions in ``log`` of the person's own moves (the events of their seat, by its
    letter, not a bot's, another person's or the dealer's)."""
    return [
        i
        for i, e in enumerate(log)
        if e.get("by") == person or str(e.get("by", "")).startswith("user:")
    ]


def since_last_move(
    log: Sequence[Mapping[str, Any]], person: str = PERSON
) -> list[Mapping[str, Any]]:
    """The events from the person's last move on (the move itself included), or the whole log
    before their first."""
    mine = person_moves(log, person)
    return list(log[mine[-1] :]) if mine else list(log)


def last_round_at(log: Sequence[Mapping[str, Any]]) -> int | None:
    """The position of the latest number round in ``log``."""
    for i in range(len(log) - 1, -1, -1):
        if log[i].get("type") == "round":
            return i
    return None


def round_outcomes(entry: Mapping[str, Any]) -> dict[str, str]:
    """Each seat's part in a round (``won``, ``lost`` or ``tie``) from the round's facets."""
    out: dict[str, str] = {}
    for kind, _cause, seat in entry.get("facets", ()):
        if kind == "win_round" and seat:
            out[seat] = "won"
        elif kind == "lose_round" and seat:
            out.setdefault(seat, "lost")
    for seat in entry.get("cards", {}):
        out.setdefault(seat, "tie")
    return out


def last_target(log: Sequence[Mapping[str, Any]], person: str = PERSON) -> str:
    """The seat the person named last (a 0 or 7 revealed at it, an action card played on it),
    so that the page keeps it chosen; "" before they named any."""
    for entry in reversed(log):
        if entry.get("type") == "round" and person in entry.get("targets", {}):
            return str(entry["targets"][person])
        move = entry.get("move") or {}
        if entry.get("type") == "play" and move.get("seat") == person and move.get("target"):
            return str(move["target"])
    return ""


def table_of(
    view: Mapping[str, Any],
    names: Mapping[str, str],
    labels: Mapping[str, str],
    team_of: Mapping[str, tuple[str, ...]],
    targets: Sequence[str],
    person: str = PERSON,
) -> Table:
    """The card table of ``view`` (the person's seat's, its log in words): ``names`` say the
    seats in the steps, ``labels`` on the tiles ("You", "Bot C (your partner)"), ``team_of``
    each seat's side, ``targets`` the seats the person may name now, ``person`` the seat the
    view is of (A at practice; any seat at an online table)."""
    log = view["log"]
    state = view["state"]
    at = last_round_at(log)
    round_entry = log[at] if at is not None else None
    outcomes = round_outcomes(round_entry) if round_entry else {}
    shown: dict[str, list[Shown]] = {s: [] for s in state["seats"]}
    if round_entry:
        aims = round_entry.get("targets", {})
        for seat, value in round_entry.get("cards", {}).items():
            shown[seat].append(
                Shown("number", value, str(value), *_aim(aims.get(seat), names, person))
            )
    for entry in log[(at + 1) if at is not None else 0 :]:
        move = entry.get("move") or {}
        if entry.get("type") == "play" and move.get("seat") in shown:
            card = str(move.get("card"))
            shown[move["seat"]].append(
                Shown(
                    "action",
                    card,
                    CARD_LABELS.get(card, card),
                    *_aim(move.get("target"), names, person),
                )
            )
    sealed = set(view.get("sealed", ()))
    winner = state.get("winner")
    winners = set(team_of.get(winner, (winner,))) if winner else set()
    mine = set(team_of.get(person, (person,)))
    tiles = tuple(
        Tile(
            letter=letter,
            label=labels[letter],
            mine=letter == person,
            partner=letter in mine and letter != person,
            number_cards=seat["number_cards"],
            action_cards=seat["action_cards"],
            streak=seat["streak"],
            blocked=seat["blocked"],
            out=bool(seat.get("out")),
            winner=letter in winners,
            sealed=letter in sealed and letter != person,
            targetable=letter in targets,
            shown=tuple(shown[letter]),
            outcome=outcomes.get(letter, ""),
        )
        for letter, seat in state["seats"].items()
    )
    last = None
    if round_entry is not None:
        rounds = sum(1 for e in log[: at + 1] if e.get("type") == "round")
        last = Round(rounds, round_words(round_entry, outcomes, names, person))
    chosen = last_target(log, person)
    return Table(
        tiles=tiles,
        last_round=last,
        steps=tuple(steps_since(log, names, person)),
        hand=hand_of(view),
        target=chosen if chosen in targets else (targets[0] if targets else ""),
        teams=team_totals(
            state["seats"],
            team_of,
            {s: words.you() if s == person else n for s, n in names.items()},
            person,
        ),
    )


def _aim(seat: str | None, names: Mapping[str, str], person: str = PERSON) -> tuple[str, str]:
    """A named seat as a face-up card says it: its name in full, and short (its letter)."""
    if not seat:
        return "", ""
    if seat == person:
        return words.you(), words.you()
    return names.get(seat, seat), seat


def round_words(
    entry: Mapping[str, Any],
    outcomes: Mapping[str, str],
    names: Mapping[str, str],
    person: str = PERSON,
) -> str:
    """What the round came to: who won it and with which card, or the tie."""
    cards = entry.get("cards", {})
    won = [s for s, o in outcomes.items() if o == "won"]
    if won == [person]:
        return words.you_won_round(cards.get(person))
    if won:
        said = [words.you() if s == person else names.get(s, s) for s in won]
        return words.round_won(said, cards.get(won[0]))
    if cards:
        return words.round_tied(sorted(set(cards.values()))[-1])
    return words.round_empty()


def steps_since(
    log: Sequence[Mapping[str, Any]], names: Mapping[str, str], person: str = PERSON
) -> list[str]:
    """What happened since the person's last move, one line each, in order: the round's
    winner and its consequences, the bots' action cards and their answers, the cards the
    person drew or lost. The reveals and seals are on the tiles, and the round losers'
    one-card draws are said once for all."""
    out: list[str] = []
    for entry in since_last_move(log, person):
        lost: list[str] = []  # seat letters
        facets = entry.get("facets") or [[None, None, None]] * len(entry["lines"])
        for line, (kind, cause, seat) in zip(entry["lines"], facets, strict=False):
            if kind in _SHOWN_ELSEWHERE:
                continue
            if kind == "draw" and cause == _ROUND_LOST and seat:
                lost.append(seat)
                continue
            out.append(line)
        if lost:
            others = [names.get(s, s) for s in lost if s != person]
            out.append(words.round_losers_drew(others, you=person in lost))
        out.extend(mine_lines(entry.get("mine") or {}, names))
    return out


def _card_label(card: int | str) -> str:
    return str(card) if isinstance(card, int) else CARD_LABELS.get(card, card)


def mine_lines(mine: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """What only the person sees of an event (the dealt view's ``mine``), in words: the cards
    they drew, took or lost, their hand after a swap."""
    lines = []
    if mine.get("drew"):
        lines.append(words.mine_drew(", ".join(_card_label(c) for c in mine["drew"])))
    lines += [words.mine_took(_card_label(c), names[s]) for s, c in mine.get("stole", ())]
    lines += [words.mine_lost(_card_label(c), names[s]) for s, c in mine.get("lost", ())]
    if mine.get("hand"):
        hand = [*mine["hand"]["numbers"], *mine["hand"]["actions"]]
        lines.append(words.mine_hand(", ".join(_card_label(c) for c in hand)))
    return lines


def hand_of(view: Mapping[str, Any]) -> Hand:
    """The person's hand, sorted: number values low to high, action kinds in the deck's
    order, each with whether the rules let it be played now."""
    hand = view.get("hand") or {}
    playable = set((view.get("commands") or {}).get("play", {}).get("cards", ()))
    numbers = Counter(hand.get("numbers", ()))
    actions = Counter(hand.get("actions", ()))
    order = list(CARD_LABELS)
    return Hand(
        numbers=tuple(sorted(numbers.items())),
        actions=tuple(
            (kind, CARD_LABELS.get(kind, kind), count, kind in playable)
            for kind, count in sorted(
                actions.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99
            )
        ),
    )


def team_totals(
    seats: Mapping[str, Mapping[str, Any]],
    team_of: Mapping[str, tuple[str, ...]],
    labels: Mapping[str, str],
    person: str = PERSON,
) -> tuple[tuple[str, int], ...]:
    """Each team's number cards together (RULES.md 11.9: a team wins when all its seats are
    at 0), the person's team first; empty without teams."""
    teams: list[tuple[str, ...]] = []
    for letter in seats:
        team = team_of.get(letter, (letter,))
        if len(team) > 1 and team not in teams:
            teams.append(team)
    return tuple(
        (" + ".join(labels[s] for s in team), sum(seats[s]["number_cards"] for s in team))
        for team in sorted(teams, key=lambda t: person not in t)
    )
