"""The engine's command line (RULES.md section 8).

``python -m duels.engine replay RECORD.json`` (or ``-`` for standard input) prints the state as
JSON on standard output. An illegal event stops the replay: the state after the last legal event
is printed, ``error: event N: <reason>`` goes to standard error, exit status 2. A malformed
record exits 2 with a one-line error and prints no state.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn

from .duel import Duel
from .errors import EngineError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m duels.engine", description="The Split UNO referee engine."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a duel record and print its state as JSON")
    replay.add_argument("record", help="the record file, or - for standard input")
    args = parser.parse_args(argv)
    return _replay(args.record)


def _replay(path: str) -> int:
    record = _read_record(path)
    try:
        duel, error = Duel.load(record)
    except EngineError as malformed:
        _fail(f"malformed record: {malformed}")
    _write(sys.stdout, json.dumps(duel.state(), indent=1, ensure_ascii=False) + "\n")
    if error is not None:
        _write(sys.stderr, f"error: {_one_line(error.located())}\n")
        return 2
    return 0


def _read_record(path: str) -> Any:
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        _fail(f"cannot read {path}: {exc.strerror or exc}")
    # JSON has no limit on integer length; an absurd card value is an illegal event, not
    # unreadable JSON.
    sys.set_int_max_str_digits(0)
    try:
        return json.loads(data, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        # ValueError covers bad JSON, bad UTF-8 and integers too long to convert.
        _fail(f"the record is not JSON: {exc}")


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON value")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _write(stream: Any, text: str) -> None:
    # Bytes, so that a name holding a lone surrogate cannot make the output itself fail.
    stream.flush()
    stream.buffer.write(text.encode("utf-8", "backslashreplace"))
    stream.buffer.flush()


def _fail(message: str) -> NoReturn:
    _write(sys.stderr, f"error: {_one_line(message)}\n")
    sys.exit(2)


if __name__ == "__main__":
    sys.exit(main())
