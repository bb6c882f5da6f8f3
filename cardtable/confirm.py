"""The card table's answers that ask once before they count: a decision that ends the game
against the person's side (issue 30), confirmed on the card table itself."""

from __future__ import annotations

from typing import Any

from games.split_uno import resolve_rules
from play.adapters.base import Command


class NeedsConfirmation(Exception):
    """A move that ends the game against the person, posted without its confirmation: nothing
    was played. ``why`` says which (``ending``)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def ending(binding: Any, view: dict[str, Any], command: Command, seat: str) -> str | None:
    """Whether answering ``command`` ends the game against the person, and how — the choices
    that ask once before they count (issue 30; resigning has its own form):

    - ``"forfeit"``: refusing a DARE where refusing forfeits (RULES.md section 5);
    - ``"hopeless"``: a challenge with a single action card under ``two_cards`` (section 6:
      the challenger draws 1 and the seat at 0 wins at once, later opponents not asked);
    - ``"concede"``: no challenge at two seats (the other seat wins at once).

    All of it follows from public counts and the rules, never from the hidden hand."""
    asked = view.get("commands", {}).get("answer")
    if not asked or command.name != "answer":
        return None
    decision, choice = asked["decision"], command.args.get("choice")
    rules = resolve_rules(binding.ruleset, list(binding.variants), dict(binding.options))
    if decision == "dare" and choice == "refuse" and rules.dare_refused == "forfeit":
        return "forfeit"
    if decision == "challenge" and choice in ("draw_two", "draw_four"):
        mine = view["state"]["seats"][seat]["action_cards"]
        if rules.challenge == "two_cards" and mine == 1:
            return "hopeless"
    if decision == "challenge" and choice == "pass" and binding.seating.seats == 2:
        return "concede"
    return None
