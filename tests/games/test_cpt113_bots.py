"""Bots play whole CPT-113 games to the end; the command line replays and simulates."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.cpt113 import play_game
from games.cpt113.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("groups", [2, 3, 4])
@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_bot_games_end_without_an_error(groups: int, bot: str) -> None:
    summary = simulate(60, seed=500, groups=groups, bots=[bot] * (2 * groups))
    assert sum(summary["wins"].values()) + summary["ties"] == 60
    assert set(summary["endings"]) <= {"emptied", "last_group", "pile_empty"}


def test_the_same_seed_plays_the_same_game() -> None:
    assert play_game(5, 3).record() == play_game(5, 3).record()


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.cpt113", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_replay_prints_the_state_and_stops_at_an_illegal_move() -> None:
    record = play_game(9, 2).record()
    done = run("replay", "-", stdin=json.dumps(record))
    assert done.returncode == 0 and json.loads(done.stdout)["finished"] is True
    record["moves"].insert(0, {"kind": "play", "card": "Z"})
    done = run("replay", "-", stdin=json.dumps(record))
    assert done.returncode == 2 and done.stderr.startswith("error: move 1: name a card")
    done = run("replay", "-", stdin=json.dumps({**record, "groups": 9}))
    assert done.returncode == 2 and "malformed record: groups must be 2 to 4" in done.stderr


def test_simulate_prints_a_summary() -> None:
    done = run("simulate", "--count", "20", "--groups", "3", "--bot", "random")
    summary = json.loads(done.stdout)
    assert summary["games"] == 20 and summary["bots"] == ["random"] + ["heuristic"] * 5
