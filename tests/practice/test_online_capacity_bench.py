"""bench/online_capacity.py (issue 31) in its smoke mode: two online tables played through HTTP
by their people's pages on gunicorn (SQLite, no Redis: the pages poll), with a spectator on
each table's watch page; moves taken and seen by the other seat and the spectators, no error.
About 20 s of wall time, most of it waiting (the people think 3-5 s a move); the figures
themselves are docs/performance.md's."""

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_capacity_bench_smoke_run_plays_moves_the_other_seat_sees():
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "online_capacity.py"), "--quick",
         "--port", str(_free_port())],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, (out + done.stderr)[-3000:]
    moves = int(re.search(r"moves taken (\d+)", out)[1])
    assert moves >= 1, out
    assert "errors 0;" in out, out
    for who in ("the other seat", "the spectators"):
        seen = re.search(rf"by {who}: .*?\(n=(\d+)\), never (\d+)", out)
        assert seen and int(seen[1]) >= 1 and seen[2] == "0", out
    assert "; 0 other lines" in out, out  # the server logged no traceback
