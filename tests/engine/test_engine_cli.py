"""RULES.md section 8, the command line: ``python -m duels.engine replay FILE|-``, as RULES.md
names it (an alias, ``duels/engine/``), and the engine's own ``python -m games.split_uno``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.worked_example import WORKED

ROOT = Path(__file__).resolve().parents[2]

RECORD = WORKED
#: The command as RULES.md names it; the engine's own is ``games.split_uno``.
COMMAND = "duels.engine"


def run(
    *args: str, stdin: bytes | None = None, module: str = COMMAND
) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def write(tmp_path: Path, record: object) -> str:
    path = tmp_path / "record.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    return str(path)


def test_8_cli_replay_prints_the_state_as_json_and_exits_0(tmp_path) -> None:
    from games.split_uno import replay

    done = run("replay", write(tmp_path, RECORD))
    assert done.returncode == 0
    assert done.stderr == b""
    assert json.loads(done.stdout) == replay(RECORD)
    assert json.loads(done.stdout)["finish"] == "forfeit"


def test_8_cli_replay_reads_standard_input_for_dash() -> None:
    done = run("replay", "-", stdin=json.dumps(RECORD).encode())
    assert done.returncode == 0
    assert json.loads(done.stdout)["events"] == 9


@pytest.mark.skipif(
    not (ROOT.parent / "shared" / "examples").exists(),
    reason="shared examples not beside the clone",
)
def test_8_cli_contract_worked_example_file() -> None:
    examples = ROOT.parent / "shared" / "examples"
    done = run("replay", str(examples / "duel-worked-example.json"))
    assert done.returncode == 0
    assert json.loads(done.stdout) == json.loads(
        (examples / "duel-worked-example.state.json").read_text()
    )


def test_8_cli_an_illegal_event_prints_the_state_before_it_and_one_error_line(tmp_path) -> None:
    record = {**RECORD, "events": RECORD["events"][:4] + [{"type": "round", "cards": {"A": 1}}]}
    done = run("replay", write(tmp_path, record))
    assert done.returncode == 2
    state = json.loads(done.stdout)
    assert state["events"] == 4
    assert state["status"] == "playing"
    err = done.stderr.decode()
    assert err.endswith("\n") and err.count("\n") == 1
    assert err.startswith("error: event 5: a round needs exactly one card 0–9 from each seat")


def test_8_cli_an_event_after_the_end_is_illegal(tmp_path) -> None:
    record = {**RECORD, "events": RECORD["events"] + [{"type": "time_limit"}]}
    done = run("replay", write(tmp_path, record))
    assert done.returncode == 2
    assert json.loads(done.stdout)["events"] == 9
    assert done.stderr.decode().startswith("error: event 10: the duel is finished")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not JSON"),
        ("", "not JSON"),
        ('{"format": NaN}', "not JSON"),
        (b"\xff\xfe\x00garbage", "not JSON"),
        ("[" * 100000, "not JSON"),
        (json.dumps({**RECORD, "format": "uno"}), "unknown format"),
        (json.dumps({**RECORD, "ruleset": "house"}), "unknown ruleset"),
        (json.dumps({**RECORD, "seats": {"A": "Alice"}}), "two seats"),
        (json.dumps({**RECORD, "seats": {"A": "x", "B": "y", "C": "z"}}), "at most 2 (max_seats)"),
        (json.dumps({**RECORD, "options": {"truth_dare": "yes"}}), "truth_dare"),
        (json.dumps([RECORD]), "must be a JSON object"),
    ],
)
def test_8_cli_a_malformed_record_exits_2_with_one_line_and_no_state(
    tmp_path, text, message
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    done = run("replay", str(path))
    assert done.returncode == 2
    assert done.stdout == b""
    err = done.stderr.decode()
    assert err.startswith("error: ") and err.count("\n") == 1
    assert message in err


def test_8_cli_a_missing_file_exits_2_with_one_line(tmp_path) -> None:
    done = run("replay", str(tmp_path / "nope.json"))
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode().startswith("error: cannot read")


def test_8_cli_a_huge_card_value_is_an_illegal_event_not_unreadable_json(tmp_path) -> None:
    text = json.dumps(RECORD).replace('"A": 7, "B": 3', '"A": ' + "9" * 5000 + ', "B": 3', 1)
    done = run("replay", write(tmp_path, text))
    assert done.returncode == 2
    assert json.loads(done.stdout)["events"] == 0
    assert "error: event 1: round: A's card must be a whole number" in done.stderr.decode()


def test_8_cli_names_outside_ascii_are_kept(tmp_path) -> None:
    record = {**RECORD, "seats": {"A": "Zoë", "B": "Chloé"}}
    done = run("replay", write(tmp_path, record))
    assert json.loads(done.stdout.decode("utf-8"))["seats"]["A"]["name"] == "Zoë"


def test_8_cli_usage_errors_exit_2() -> None:
    assert run().returncode == 2
    assert run("simulate").returncode == 2
    assert run("replay").returncode == 2


def test_8_cli_the_engines_own_command_answers_as_the_rules_command_does(tmp_path) -> None:
    """``python -m games.split_uno`` and RULES.md's ``python -m duels.engine`` are one command
    line: the same state, error line and exit status; each usage names the command typed."""
    illegal = {**RECORD, "events": RECORD["events"][:4] + [{"type": "round", "cards": {"A": 1}}]}
    path = write(tmp_path, illegal)
    rules, own = run("replay", path), run("replay", path, module="games.split_uno")
    assert own.returncode == 2 and json.loads(own.stdout)["events"] == 4
    rules_answer, own_answer = ((d.returncode, d.stdout, d.stderr) for d in (rules, own))
    assert own_answer == rules_answer
    assert run().stderr.startswith(b"usage: python -m duels.engine ")
    assert run(module="games.split_uno").stderr.startswith(b"usage: python -m games.split_uno ")


def test_11_cli_replays_the_team_worked_example_to_its_state(tmp_path) -> None:
    from tests.engine.worked_example import TEAM_WORKED, TEAM_WORKED_STATE

    done = run("replay", write(tmp_path, TEAM_WORKED))
    assert done.returncode == 0 and done.stderr == b""
    assert json.loads(done.stdout) == TEAM_WORKED_STATE


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"teams": None}, b"teams is only read with the team variant"),
        ({"variants": ["team"]}, b"the team variant needs teams"),
        ({"seats": {"A": "x", "B": "y", "C": "z"}, "options": {"max_seats": 3},
          "variants": ["team"], "teams": [["A", "B"], ["C"]]}, b"2 or 3 seat letters"),
        ({"seats": {"A": "x", "B": "\u3000"}}, b"seat B needs a non-empty name"),
    ],
)  # fmt: skip
def test_11_cli_a_malformed_multi_seat_record_exits_2_with_one_line(tmp_path, change, words):
    done = run("replay", write(tmp_path, {**RECORD, **change}))
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.startswith(b"error: ") and done.stderr.count(b"\n") == 1
    assert words in done.stderr


def test_11_cli_an_illegal_multi_seat_event_prints_the_state_before_it(tmp_path) -> None:
    record = {**RECORD, "ruleset": "official", "seats": {"A": "x", "B": "y", "C": "z"},
              "events": [{"type": "round", "cards": {"A": 1, "B": 2, "C": 3}},
                         {"type": "round", "cards": {"A": 7, "B": 2, "C": 3}}]}  # fmt: skip
    done = run("replay", write(tmp_path, record))
    assert done.returncode == 2
    assert json.loads(done.stdout)["events"] == 1
    assert (
        done.stderr == b"error: event 2: round: A reveals a 7 and must name its target in "
        b'targets, e.g. "targets": {"A": "\xe2\x80\xa6"}\n'
    )
