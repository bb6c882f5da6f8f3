"""Bots play whole Trois games to the end; the command line replays and simulates."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.trois import play_game
from games.trois.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "bots", [("heuristic",) * 4, ("random",) * 4, ("heuristic", "random", "random", "random")]
)
def test_a_hundred_bot_games_end_without_an_error(bots: tuple[str, ...]) -> None:
    summary = simulate(100, seed=1000, bots=bots)
    assert sum(summary["wins"].values()) + summary["ties"] == 100
    assert set(summary["endings"]) <= {"emptied", "time"}


def test_the_same_seed_plays_the_same_game() -> None:
    assert play_game(5).record() == play_game(5).record()


def test_the_time_stand_in_ends_a_game_by_the_fewest_cards() -> None:
    game = play_game(3, time_after=6)
    assert game.state.ending == "time" and len(game.moves) == 7


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.trois", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_replay_prints_the_state_and_stops_at_an_illegal_move() -> None:
    record = play_game(9).record()
    done = run("replay", "-", stdin=json.dumps(record))
    assert done.returncode == 0 and json.loads(done.stdout)["finished"] is True
    record["moves"].insert(1, {"kind": "play", "cards": ["Z1"]})
    done = run("replay", "-", stdin=json.dumps(record))
    assert done.returncode == 2 and done.stderr.startswith("error: move 2: there is no card")
    assert json.loads(done.stdout)["moves"] == 1
    done = run("replay", "-", stdin='{"format": "x"}')
    assert done.returncode == 2 and "malformed record: unknown format" in done.stderr


def test_simulate_prints_a_summary() -> None:
    done = run("simulate", "--count", "20", "--bot", "random")
    summary = json.loads(done.stdout)
    assert summary["games"] == 20 and summary["bots"] == ["random"] + ["heuristic"] * 3
