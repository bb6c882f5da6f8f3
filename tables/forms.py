"""Reading what the table pages post: the shape of a move or of a new table. The engine
decides whether a move is legal; these functions only refuse what is not a move at all, with
words, and bound every value (numbers through `core.numbers.read_int`, names through
`core.text.clean_line` in the service)."""

from typing import Any

from django.http import QueryDict

from core.errors import ServiceError
from core.numbers import read_int
from core.text import clean_line
from games.split_uno import CARDS, COLORS, PRESETS, VARIANTS

from . import services

LETTERS = "ABCDEF"
CHOICE_MAX = 20
REASON_MAX = 200


class NotAMove(ServiceError):
    def __init__(self, message: str) -> None:
        super().__init__(message, code="refused")


def revision(post: QueryDict) -> int | None:
    return read_int(post.get("rev", ""))


def _seat(post: QueryDict, key: str, letters: list[str]) -> str | None:
    value = post.get(key, "")
    return value if value in letters else None


def move_event(post: QueryDict, letters: list[str]) -> dict[str, Any]:
    """A round, an action card or a decision, as an engine event (RULES.md 8 and 11)."""
    kind = post.get("type", "")
    many = len(letters) > 2
    if kind == "round":
        cards: dict[str, int] = {}
        targets: dict[str, str] = {}
        for letter in letters:
            raw = post.get(f"card_{letter}", "")
            if raw == "":
                continue
            card = read_int(raw, lo=0, hi=9)
            if card is None:
                raise NotAMove("A revealed card is a digit from 0 to 9.")
            cards[letter] = card
            if many and card in (0, 7):
                target = _seat(post, f"target_{letter}", letters)
                if target is None:
                    raise NotAMove(f"Say whom seat {letter}'s {card} targets.")
                targets[letter] = target
        if not cards and "round_all_blocked" not in post:
            raise NotAMove("Pick the revealed cards first.")
        event: dict[str, Any] = {"type": "round", "cards": cards}
        if many:
            event["targets"] = targets
        return event
    seat = _seat(post, "seat", letters)
    if kind not in ("action", "respond"):
        raise NotAMove("That is not a move.")
    if seat is None:
        raise NotAMove("Say which seat plays.")
    if kind == "respond":
        choice = post.get("choice", "")
        if not choice or len(choice) > CHOICE_MAX:
            raise NotAMove("Pick a choice.")
        return {"type": "respond", "seat": seat, "choice": choice}
    card = post.get("card", "")
    if card not in CARDS:
        raise NotAMove("Pick an action card.")
    event = {"type": "action", "seat": seat, "card": card}
    if card == "color_change":
        color = post.get("color", "")
        if color not in COLORS:
            raise NotAMove("Name the colour of the COLOR CHANGE.")
        event["color"] = color
    elif many:
        target = _seat(post, "target", letters)
        if target is None:
            raise NotAMove("Say whom the card targets.")
        event["target"] = target
    return event


def ending_event(post: QueryDict, letters: list[str]) -> dict[str, Any]:
    """A forfeit, a time limit or an adjudication: confirmed, with a reason for the log."""
    ending = post.get("ending", "")
    reason = clean_line(post.get("reason", "")[: REASON_MAX * 2], what="The reason")
    if not ending:
        raise NotAMove("Choose how the game ends.")
    if not reason:
        raise NotAMove("Give a reason or a note: it goes into the log.")
    if len(reason) > REASON_MAX:
        raise NotAMove(f"The reason is longer than {REASON_MAX} characters.")
    if post.get("confirm") != "on":
        raise NotAMove("Tick “Yes, end the game now” to confirm.")
    if ending == "time_limit":
        return {"type": "time_limit", "reason": reason}
    kind, _, seat = ending.partition("_")
    if kind not in ("forfeit", "adjudicate") or seat not in letters:
        raise NotAMove("Choose how the game ends among those offered.")
    if kind == "forfeit":
        return {"type": "forfeit", "seat": seat, "reason": reason}
    return {"type": "adjudicate", "winner": seat, "reason": reason}


def new_table(post: QueryDict) -> dict[str, Any]:
    """The arguments of `services.open_table` from the opening form (bounded). The form has
    six rows of a name (and a team); the filled rows, in order, are the seats A, B, …"""
    ruleset = post.get("ruleset", "")
    if ruleset not in PRESETS:
        raise NotAMove("Choose one of the rulesets offered.")
    variants = [v for v in VARIANTS if post.get(f"variant_{v}") == "on"]
    rows = [
        (post.get(f"name_{i}", "")[: services.NAME_MAX * 4], post.get(f"team_{i}", ""))
        for i in range(1, services.MAX_SEATS + 1)
    ]
    filled = [(name, team) for name, team in rows if name.strip()]
    if not services.MIN_SEATS <= len(filled) <= services.MAX_SEATS:
        raise NotAMove(
            f"Name {services.MIN_SEATS} to {services.MAX_SEATS} seats (empty rows are left out)."
        )
    number_cards = None
    if post.get("number_cards", ""):
        number_cards = read_int(
            post.get("number_cards"), lo=1, hi=services.MAX_STARTING_NUMBER_CARDS
        )
        if number_cards is None:
            raise NotAMove(
                f"Number cards each: a whole number from 1 to {services.MAX_STARTING_NUMBER_CARDS}."
            )
    action_cards = read_int(
        post.get("action_cards", "") or "0", lo=0, hi=services.MAX_STARTING_ACTION_CARDS
    )
    if action_cards is None:
        raise NotAMove(
            f"Action cards each: a whole number from 0 to {services.MAX_STARTING_ACTION_CARDS}."
        )
    teams = None
    if "team" in variants:
        by_team: dict[int, list[str]] = {}
        for i, (_, raw) in enumerate(filled):
            team = read_int(raw, lo=1, hi=3)
            if team is None:
                raise NotAMove(f"Put seat {LETTERS[i]} in team 1, 2 or 3.")
            by_team.setdefault(team, []).append(LETTERS[i])
        teams = [by_team[k] for k in sorted(by_team)]
    return {
        "ruleset": ruleset,
        "names": [name for name, _ in filled],
        "variants": variants,
        "teams": teams,
        "number_cards": number_cards,
        "action_cards": action_cards,
    }
