"""The command line both matching engines share: ``replay RECORD`` and ``simulate --count N
[--seed S] [--bot …]``, each engine adding its own options to ``simulate``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from typing import Any

from .errors import GameError, IllegalMove
from .records import load_json


def engine_parser(
    prog: str, description: str
) -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The parser and its ``simulate`` command, for the engine's own options."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    commands = parser.add_subparsers(dest="command", required=True)
    rep = commands.add_parser("replay", help="replay a record and print its state as JSON")
    rep.add_argument("record", help="the record file, or - for standard input")
    sim = commands.add_parser("simulate", help="play games between bots, print a summary")
    sim.add_argument("--count", type=int, required=True)
    sim.add_argument("--seed", type=int, default=0)
    return parser, sim


def add_bots(simulate: argparse.ArgumentParser, bots: Iterable[str], order: str) -> None:
    """``--bot``, once a seat in ``order`` (words after "in order")."""
    simulate.add_argument(
        "--bot",
        action="append",
        choices=sorted(bots),
        default=[],
        help=f"the bot of each seat in order{order} (default heuristic)",
    )


def seat_bots(parser: argparse.ArgumentParser, args: argparse.Namespace, seats: int) -> list[str]:
    """The bot of each of ``seats`` seats (heuristic where ``--bot`` names none), once
    ``--count`` is checked."""
    if not 1 <= args.count <= 1_000_000:
        parser.error("--count must be from 1 to 1000000")
    return (args.bot + ["heuristic"] * seats)[:seats]


def print_replay(path: str, replay: Callable[[object], tuple[Any, IllegalMove | None]]) -> int:
    """``replay``: the state after a record's moves, as JSON; exit 2 with "malformed
    record: …" or "error: move N: …" on standard error."""
    try:
        game, error = replay(load_json(path))
    except GameError as err:
        print(f"malformed record: {err}", file=sys.stderr)
        return 2
    print(json.dumps(game.state.as_dict(), indent=1, ensure_ascii=False))
    if error is not None:
        print(f"error: {error.located()}", file=sys.stderr)
        return 2
    return 0
