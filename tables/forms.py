"""Reading what the table pages post: a new table, and the revision a console's form was drawn
at. A move or an ending is read by the refereed adapter's `parse`
(`play.adapters.split_uno_refereed`), the one reader of the consoles' moves. These functions
only refuse what is no table at all, with words, and bound every value (numbers through
`core.numbers.read_int`, names through `core.text.clean_line` in the service)."""

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext

from core.errors import ServiceError
from core.numbers import read_int
from games.split_uno import PRESETS, VARIANTS

from . import services

LETTERS = "ABCDEF"


class NotAMove(ServiceError):
    def __init__(self, message: str) -> None:
        super().__init__(message, code="refused")


def revision(post: QueryDict) -> int | None:
    return read_int(post.get("rev", ""))


def new_table(post: QueryDict) -> dict[str, Any]:
    """The arguments of `services.open_table` from the opening form (bounded). The form has
    six rows of a name (and a team); the filled rows, in order, are the seats A, B, …"""
    ruleset = post.get("ruleset", "")
    if ruleset not in PRESETS:
        raise NotAMove(gettext("Choose one of the rulesets offered."))
    variants = [v for v in VARIANTS if post.get(f"variant_{v}") == "on"]
    rows = [
        (post.get(f"name_{i}", "")[: services.NAME_MAX * 4], post.get(f"team_{i}", ""))
        for i in range(1, services.MAX_SEATS + 1)
    ]
    filled = [(name, team) for name, team in rows if name.strip()]
    if not services.MIN_SEATS <= len(filled) <= services.MAX_SEATS:
        raise NotAMove(
            gettext("Name %(min)s to %(max)s seats (empty rows are left out).")
            % {"min": services.MIN_SEATS, "max": services.MAX_SEATS}
        )
    number_cards = None
    if post.get("number_cards", ""):
        number_cards = read_int(
            post.get("number_cards"), lo=1, hi=services.MAX_STARTING_NUMBER_CARDS
        )
        if number_cards is None:
            raise NotAMove(
                gettext("Number cards each: a whole number from 1 to %(max)s.")
                % {"max": services.MAX_STARTING_NUMBER_CARDS}
            )
    action_cards = read_int(
        post.get("action_cards", "") or "0", lo=0, hi=services.MAX_STARTING_ACTION_CARDS
    )
    if action_cards is None:
        raise NotAMove(
            gettext("Action cards each: a whole number from 0 to %(max)s.")
            % {"max": services.MAX_STARTING_ACTION_CARDS}
        )
    teams = None
    if "team" not in variants and any(team for _, team in filled):
        # Teams chosen are the team variant (they were silently ignored without its box ticked,
        # issue 30); the console's meta line names the variant.
        variants = [v for v in VARIANTS if v in variants or v == "team"]
    if "team" in variants:
        by_team: dict[int, list[str]] = {}
        for i, (_, raw) in enumerate(filled):
            team = read_int(raw, lo=1, hi=3)
            if team is None:
                raise NotAMove(
                    gettext("Put seat %(letter)s in team 1, 2 or 3.") % {"letter": LETTERS[i]}
                )
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
