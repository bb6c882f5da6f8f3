"""The card table of Trois and CPT-113 read from a view's log (practice/game_table.py): each
seat's last play, the card on top, the steps since the person's move."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from play.adapters.base import Command, Viewer
from play.adapters.cpt113 import ADAPTER as CPT113
from play.adapters.trois import ADAPTER as TROIS
from play.effect_words import localised_view
from practice.game_services import SEAT_LETTERS, table_of
from practice.game_table import LastPlay, last_plays, news, since_my_move, top_player

TROIS_PRACTICE = {
    "names": ["ann", "Bot 1", "Bot 2", "Bot 3"],
    "bots": dict.fromkeys("BCD", "heuristic"),
}


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


@settings(max_examples=20, deadline=None)
@given(
    seed=st.binary(min_size=16, max_size=16),
    kind=st.sampled_from(["trois", "cpt113-2", "cpt113-4"]),
    steps=st.integers(1, 30),
    rng=st.randoms(use_true_random=False),
)
def test_the_card_marked_on_top_is_the_pile_s_top_at_every_point_of_a_game(seed, kind, steps, rng):
    """Played through the adapters as practice seats them, the person's moves chosen from
    their view: after each, the last play the table marks on top ends with the pile's top card
    (while no seat has laid one, the card turned up at the deal is), and the steps since the
    person's move begin with it."""
    if kind == "trois":
        adapter, config, seats = TROIS, TROIS_PRACTICE, "ABCD"
        choose = trois_choose
    else:
        groups = int(kind[-1])
        config, _ = table_of("cpt113", groups, "ann")
        adapter, seats = CPT113, list(SEAT_LETTERS[: 2 * groups])
        choose = cpt113_choose
    table, _ = adapter.start(config, seats, seed)
    for _ in range(steps):
        view = adapter.view(table, Viewer("seat", "A"))
        plays = last_plays(view["log"], len(view["seats"]))
        on_top = top_player(plays)
        if on_top is not None:
            assert plays[on_top].cards[-1] == view["top"]
        if view["legal"] is None:
            break  # over, or the person's group is out
        adapter.apply(table, choose(view, rng))
        said = localised_view(adapter.view(table, Viewer("seat", "A")), "A")
        # The person's move is told in the second person (a reshuffle of an empty deck, which
        # comes before the draw that needed it, may be told first).
        mine = [e for e in said["log"] if e.get("by") == "A"][-1]["lines"]
        assert any(str(line).startswith("You ") for line in mine)
        assert since_my_move(said["log"])[: len(mine)] == [str(line) for line in mine]


def trois_choose(view: dict, rng) -> Command:
    legal = view["legal"]
    if legal["can_take"]:
        return Command("take", "A")
    group = rng.choice([g for g in (legal["by_colour"], legal["by_number"]) if g])
    return Command("play", "A", {"cards": rng.sample(group, rng.randint(1, len(group)))})


def cpt113_choose(view: dict, rng) -> Command:
    legal = view["legal"]
    if legal["can_draw"]:
        return Command("draw", "A")
    card = rng.choice(legal["playable"])
    return Command("play", "A", {"card": card} | ({"colour": "G"} if card[0] == "W" else {}))
