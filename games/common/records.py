"""Reading a game record: the header checks both engines make in the same words."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .errors import MalformedRecord


def read_header(record: object, fmt: str, version: int) -> Mapping[str, Any]:
    """``record`` as a mapping once its format and version are right; its seed checked."""
    if not isinstance(record, Mapping):
        raise MalformedRecord(f'a record must be a JSON object with "format": "{fmt}"')
    if record.get("format") != fmt:
        raise MalformedRecord(f'unknown format: this engine reads "format": "{fmt}"')
    if record.get("version") != version or type(record.get("version")) is not int:
        raise MalformedRecord(f"unsupported version: this engine reads version {version}")
    seed = record.get("seed")
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise MalformedRecord("seed must be a whole number from 0 to 2**63 - 1")
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise MalformedRecord("moves must be a list of moves")
    return record


def load_json(path: str) -> Any:
    """The JSON in ``path`` (``-`` for standard input), or MalformedRecord in words."""
    import sys

    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as err:
        raise MalformedRecord(f"cannot read {path}: {err.strerror}") from None
    except ValueError as err:
        raise MalformedRecord(f"{path} is not JSON: {err}") from None
