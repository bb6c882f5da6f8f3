"""The worked example of RULES.md section 8, shared by the record and command-line tests."""

# Also ../shared/examples/duel-worked-example.json and its .state.json.
WORKED = {
    "format": "split-uno-duel", "version": 1, "ruleset": "tournament",
    "variants": [], "options": {}, "seats": {"A": "Alice", "B": "Bob"},
    "events": [
        {"type": "round", "cards": {"A": 7, "B": 3}},
        {"type": "round", "cards": {"A": 2, "B": 7}},
        {"type": "action", "seat": "B", "card": "draw_two"},
        {"type": "respond", "seat": "A", "choice": "draw_four"},
        {"type": "round", "cards": {"A": 9, "B": 0}},
        {"type": "round", "cards": {"A": 8, "B": 5}},
        {"type": "respond", "seat": "A", "choice": "action_card"},
        {"type": "action", "seat": "A", "card": "color_change", "color": "red"},
        {"type": "forfeit", "seat": "B", "reason": "no_show"},
    ],
}  # fmt: skip

WORKED_STATE = {
    "ruleset": "tournament", "status": "finished", "events": 9, "rounds": 4,
    "decks": {"number": 57, "action": 29}, "discards": {"number": 6, "action": 3},
    "seats": {
        "A": {"name": "Alice", "number_cards": 18, "action_cards": 0, "streak": 0,
              "blocked": False},
        "B": {"name": "Bob", "number_cards": 27, "action_cards": 0, "streak": 0,
              "blocked": False},
    },
    "awaiting": None, "winner": "A", "finish": "forfeit",
}  # fmt: skip

# The team game of RULES.md section 11.12: ../shared/examples/team-worked-example.json.
TEAM_WORKED = {
    "format": "split-uno-duel", "version": 1, "ruleset": "official", "variants": ["team"],
    "options": {"starting_number_cards": 3, "number_pool": 30,
                "starting_action_cards": {"B": 1, "C": 1}},
    "seats": {"A": "Ann", "B": "Bo", "C": "Cy", "D": "Di"}, "teams": [["A", "C"], ["B", "D"]],
    "events": [
        {"type": "round", "cards": {"A": 7, "B": 0, "C": 9, "D": 2},
         "targets": {"A": "B", "B": "C"}},
        {"type": "action", "seat": "B", "card": "draw_two", "target": "C"},
        {"type": "respond", "seat": "C", "choice": "draw_four"},
        {"type": "round", "cards": {"A": 8, "B": 8, "C": 3, "D": 1}},
        {"type": "action", "seat": "B", "card": "block", "target": "A"},
        {"type": "round", "cards": {"B": 4, "C": 9, "D": 4}},
        {"type": "forfeit", "seat": "D"},
    ],
}  # fmt: skip


def _seat(name: str, number: int, streak: int, out: bool) -> dict:
    return {"name": name, "number_cards": number, "action_cards": 0, "streak": streak,
            "blocked": False, "out": out}  # fmt: skip


TEAM_WORKED_STATE = {
    "ruleset": "official", "status": "finished", "events": 7, "rounds": 3,
    "decks": {"number": 4, "action": 29}, "discards": {"number": 4, "action": 3},
    "seats": {"A": _seat("Ann", 4, 0, False), "B": _seat("Bo", 11, 0, True),
              "C": _seat("Cy", 1, 1, False), "D": _seat("Di", 6, 0, True)},
    "awaiting": None, "winner": "A", "finish": "forfeit",
}  # fmt: skip
