"""The card table of Trois and CPT-113 read from a view's log (practice/game_table.py): each
seat's last play, the card on top, the steps since the person's move."""

from __future__ import annotations

from practice.game_table import LastPlay, last_plays, news, since_my_move, top_player


def entry(event: int, by: str, *lines: dict) -> dict:
    return {"event": event, "by": by, "lines": list(lines)}


TROIS_LOG = [
    entry(1, "A", {"game": "trois", "kind": "play", "seat": 0, "cards": ["G4"]}),
    entry(2, "bot:B", {"game": "trois", "kind": "play", "seat": 1, "cards": ["G3", "G9"]}),
    entry(
        3,
        "bot:C",
        {"game": "trois", "kind": "wildcard", "seat": 2, "card": "+2"},
        {"game": "trois", "kind": "take", "seat": 2, "more": 2},
    ),
    entry(4, "bot:D", {"game": "trois", "kind": "play", "seat": 3, "cards": ["B9"]}),
    entry(5, "A", {"game": "trois", "kind": "take", "seat": 0}),
]


def test_each_seat_shows_the_cards_of_its_last_play_and_whether_it_took_since():
    plays = last_plays(TROIS_LOG, 4)
    assert plays[0] == LastPlay(("G4",), "", 1, took=True)
    assert plays[1] == LastPlay(("G3", "G9"), "", 2)
    assert plays[2] == LastPlay((), "", -1, took=True)  # it has laid nothing yet
    assert plays[3].cards == ("B9",)


def test_the_card_on_top_is_the_latest_play_whatever_was_taken_after_it():
    # The person took after bot D's B9: B9 stays on top, laid by D.
    assert top_player(last_plays(TROIS_LOG, 4)) == 3
    assert top_player(last_plays([], 4)) is None


def test_a_draw_two_s_victim_draws_without_it_being_its_move():
    log = [
        entry(1, "A", {"game": "cpt113", "kind": "play", "seat": 0, "card": "W4", "colour": "G"}),
        entry(
            2,
            "bot:B",
            {"game": "cpt113", "kind": "draw", "seat": 1, "group": 1, "count": 4},
            {"game": "cpt113", "kind": "draw", "seat": 2, "group": 0, "count": 1, "stuck": True},
        ),
    ]
    plays = last_plays(log, 4)
    assert plays[0] == LastPlay(("W4",), "G", 1)
    assert not plays[1].took  # made to draw by the wild draw four: not a move of its own
    assert plays[2].took  # drew because it had nothing to play


def test_steps_start_at_the_person_s_last_move_and_news_says_the_result_first():
    said = [
        {"event": 1, "by": "A", "lines": ["You play green 4."]},
        {"event": 2, "by": "bot:B", "lines": ["Bot 1 plays green 3 and green 9."]},
        {"event": 3, "by": "A", "lines": ["You take a card."]},
        {"event": 4, "by": "bot:B", "lines": ["Bot 1 plays green 1.", "Bot 1 wins."]},
    ]
    assert since_my_move(said) == ["You take a card.", "Bot 1 plays green 1.", "Bot 1 wins."]
    assert since_my_move(said[1:2]) == ["Bot 1 plays green 3 and green 9."]
    assert news(None, since_my_move(said)) == "You take a card. Bot 1 plays green 1. Bot 1 wins."
    assert news("Bot 1 wins.", ["anything"]) == "Bot 1 wins."
