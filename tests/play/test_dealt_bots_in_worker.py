"""A dealt table whose bots think in the worker (issue 30: a searching bot never inside a web
request): a person's command stops where a bot must decide, and the worker's ``bots`` command
makes one bot decision at a time, while the game waits for a bot.

Not the same game as with the bots inline, and need not be: inline, a bot the game does not
wait for (blocked this round) may still play an action card as soon as it likes; in the worker
a bot moves when the game waits for it. The game is checked instead to be a game of the rules
(its stored events restore to the same table), the same again from the same seed and moves,
and to stop for the person exactly when no bot is asked.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from play.adapters.base import Command, Refused
from play.adapters.split_uno_dealt import ADAPTER, BOTS_COMMAND
from tests.play.test_adapter_split_uno_dealt import as_json, from_json, legal_command, snapshot

CONFIGS = [
    ("AB", {"ruleset": "tournament", "bots": ["B"]}),
    ("ABCD", {"ruleset": "official", "bots": ["B", "C", "D"]}),
    (
        "ABCD",
        {
            "ruleset": "tournament",
            "bots": ["B", "C", "D"],
            "teams": [["A", "C"], ["B", "D"]],
            "variants": ["team"],
        },
    ),
]


def bots_done(table) -> int:
    """The worker's commands until no bot is asked (how many it sent)."""
    sent = 0
    while ADAPTER.bots_to_move(table):
        ADAPTER.apply(table, Command(BOTS_COMMAND, None, {}))
        sent += 1
        assert sent < 5000
    return sent


def play(seats, config, seed, moves, choices):
    table, _ = ADAPTER.start(config | {"bots_in_worker": True}, seats, seed)
    bots_done(table)
    rnd = random.Random(choices)
    for _ in range(moves):
        if ADAPTER.finished(table):
            break
        assert not ADAPTER.bots_to_move(table)
        command = legal_command(table, rnd, ["A"])
        assert command is not None, "an unfinished game waits for the person"
        ADAPTER.apply(table, command)
        bots_done(table)
    return table


@settings(max_examples=10, deadline=None)
@given(
    layout=st.integers(0, len(CONFIGS) - 1),
    seed=st.binary(min_size=16, max_size=16),
    moves=st.integers(0, 40),
    choices=st.integers(0, 2**32),
)
def test_bots_in_the_worker_play_a_game_of_the_rules_the_same_each_time(
    layout, seed, moves, choices
):
    seats, config = CONFIGS[layout]
    table = play(seats, config, seed, moves, choices)
    again = play(seats, config, seed, moves, choices)
    assert [as_json(e) for e in again.events] == [as_json(e) for e in table.events]
    stored = [from_json(as_json(e)) for e in table.events]
    config = config | {"bots_in_worker": True}
    assert snapshot(ADAPTER.restore(config, seats, seed, stored)) == snapshot(table)


def test_a_persons_command_stops_where_a_bot_must_decide_and_the_worker_moves_one_at_a_time():
    table, opening = ADAPTER.start(
        {"ruleset": "official", "bots": ["B", "C", "D"], "bots_in_worker": True}, "ABCD", bytes(16)
    )
    # The deal only: the three bots have not sealed yet; the game waits for them.
    assert [e.public["type"] for e in opening] == ["deal"]
    assert ADAPTER.bots_to_move(table) == ["B", "C", "D"]
    one = ADAPTER.apply(table, Command(BOTS_COMMAND, None, {}))
    assert [(e.by, e.public["type"]) for e in one] == [("bot:B", "seal")]
    assert bots_done(table) == 2 and not ADAPTER.bots_to_move(table)
    # Nothing asked of the bots: the worker's command is refused and changes nothing.
    count = len(table.events)
    try:
        ADAPTER.apply(table, Command(BOTS_COMMAND, None, {}))
    except Refused:
        pass
    else:
        raise AssertionError("a needless bots command was applied")
    assert len(table.events) == count


def test_only_a_table_whose_bots_think_in_the_worker_takes_the_workers_command():
    table, _ = ADAPTER.start({"ruleset": "tournament", "bots": ["B"]}, "AB", bytes(16))
    try:
        ADAPTER.apply(table, Command(BOTS_COMMAND, None, {}))
    except Refused:
        return
    raise AssertionError("the worker's command moved an inline table's bots")
