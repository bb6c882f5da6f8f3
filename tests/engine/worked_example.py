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
