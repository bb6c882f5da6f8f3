"""Online tables at capacity (issue 31): 100 two-seat online tables played at once by people's
pages through HTTP, on the production stack.

    createdb -h 127.0.0.1 -U postgres bench_capacity                 # once
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_capacity \\
    REDIS_URL=redis://127.0.0.1:6379/14 \\
        .venv/bin/python bench/online_capacity.py   # --tables 100 --seconds 120 --seed 1
    .venv/bin/python bench/online_capacity.py --quick   # a smoke run: SQLite, no Redis, 2 tables

The stack is production's, as bench/crowd.py starts it: gunicorn with gunicorn.conf.py (two
uvicorn workers, Django in their thread pools, push's streams on their event loops), DEBUG
off, WhiteNoise serving the collected static files, PostgreSQL, Redis (cache, broker, push)
and a Celery worker; plain HTTP on 127.0.0.1. Without DATABASE_URL the database is SQLite in a
temporary file, and without REDIS_URL there is no push: the pages poll (the smoke run).

**Set-up** (not timed, through the services as the views call them): 2 x --tables accounts,
and --tables tables of two seats (the tournament rules, a 30 s seat clock, no bots), each
opened by one person and joined by the other through its link, a watch link issued; a
session for each account (as a sign-in makes one). The old tables of earlier runs are ended
first. Then, still not timed, the pages open on the lobbies (and the watch pages on theirs),
and each host's page starts its table with the lobby's *Start the game* form, the hosts
spread over --stagger seconds; the others' pages follow by their lobby's poll, and the people
move from the moment their table shows (so the seat clocks start with the game, not at
set-up). The measured window begins once every page shows its table (and holds its stream).

**The load** (timed, --seconds): one client per seat, each a person's page in an asyncio loop
(uvloop where installed; raw HTTP/1.1 over keep-alive connections, as bench/streams.py):

- it loads its table's page (the CSRF cookie and token, the push meta tag), opens the page's
  stream (Server-Sent Events) where the stack runs push, and follows the game as
  static/js/live.js and htmx do: a `change` of its game's topic newer than the revision shown
  asks the table's poll at once (X-Push-Version); the poll itself every 2 s without a stream,
  every PUSH_POLL_SECONDS (data-slow) with one; one request of the table at a time (hx-sync:
  a poll or a push-asked poll while a move is in flight is dropped, as the page drops it; a
  move waits for a poll in flight);
- when its seat is asked something (the table says "Your turn": a card to seal, a decision,
  a card to choose), it waits 3-5 s (seeded random), then posts a legal move read from the
  table's own forms (the form's fields, its revision and idempotency key, the CSRF header),
  as the card table's htmx forms send them; a turn that only offers action cards (the seat
  reveals nothing this round) is played one time in four, else left to wait. A decision
  that would end the game at once is avoided while another is offered;
- a command's answer time: from sending the move to its whole answer read; and from the
  tap, the page's wait for its poll in flight (hx-sync) first: what the person waits;
- "seen by the other device": for each move answered 200, at revision r, the time from that
  answer at its sender to the other seat's page first showing revision r or later (by its
  stream and poll, or by its own move's answer); 0 when it showed it already. A move the
  other page had not shown by the end (a few seconds after the moves stop) is counted apart.
- spectators (--spectators, default 500) follow a table's watch page
  (`/practice/online/watch/<token>/`, another branch's) where the app has one; without it
  none are run, and the output says so: a seat's page cannot stand in for a spectator's, since
  it shows a hand.

Printed: p50/p95/max of the command's answer and of "seen by the other device", the errors
(5xx, refused connections; 409 "moved on" and 422 refusals apart), the requests per second,
CPU seconds of gunicorn, the Celery worker, PostgreSQL (this database's backends), Redis (the
whole server) and of this load generator (its process time, which shares the same cores), the
load average at the start and the end, and a reference: bench/engine.py's fixed CPU loop in
this process before and after the load (process time) and, in the middle of the load, in a
process of its own (wall and process time: how much of a core a process got just then).
Budgets (issue 31): command p95 < 150 ms, seen by the other device p95 < 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gzip
import html
import json
import os
import random
import re
import resource
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import crowd  # noqa: E402 - the stack's settings, its CPU meter and start-up are crowd.py's
import engine  # noqa: E402 - the reference loop

BIN = crowd.BIN
now = time.monotonic
USERS = "cap"  # the accounts' names: cap0, cap1, ...
BUDGET_COMMAND = 0.150
BUDGET_SEEN = 1.0
THINK = (3.0, 5.0)  # seconds a person takes before a move
POLL_SECONDS = 2.0  # practice/online_views.POLL_SECONDS, the page's poll without a stream
STAGGER = 10.0  # seconds over which the hosts start their tables (before the window)
DRAIN = 4.0  # seconds the pages follow after the moves stop, for the last moves to be seen


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    return (
        f"p50 {crowd.pct(values, 0.5) * 1000:.0f} / p95 {crowd.pct(values, 0.95) * 1000:.0f} / "
        f"max {max(values) * 1000:.0f} ms (n={len(values)})"
    )


# -- HTTP/1.1, as a browser's keep-alive connection --------------------------------------------


class Closed(Exception):
    pass


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    cookies: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class Connection:
    """One keep-alive connection to the server; reopened when the server closed it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> Answer:
        for attempt in range(2):
            if self.writer is None or self.writer.is_closing():
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                fresh = True
            else:
                fresh = False
            head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            head += "".join(f"{k}: {v}\r\n" for k, v in headers.items())
            if body or method == "POST":
                head += f"Content-Length: {len(body)}\r\n"
            try:
                self.writer.write(head.encode("latin-1") + b"\r\n" + body)
                return await read_answer(self.reader, method)
            except (OSError, asyncio.IncompleteReadError, Closed) as err:
                self.close()
                if fresh or attempt:  # a kept-alive connection the server closed: once more
                    raise Closed(
                        f"{type(err).__name__} on a {'new' if fresh else 'reopened'} connection"
                    ) from err
        raise Closed

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], dict[str, str]]:
    raw = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
    lines = raw.split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        raise Closed
    headers: dict[str, str] = {}
    cookies: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name, value = name.strip().lower(), value.strip()
        if not name:
            continue
        if name == "set-cookie":
            pair = value.split(";", 1)[0]
            key, _, val = pair.partition("=")
            cookies[key.strip()] = val.strip()
        else:
            headers[name] = value
    return int(parts[1]), headers, cookies


async def read_answer(reader: asyncio.StreamReader, method: str) -> Answer:
    status, headers, cookies = await read_head(reader)
    body = b""
    if method != "HEAD" and status not in (204, 304) and status >= 200:
        if "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            pieces = []
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                pieces.append(await reader.readexactly(size + 2))
                if size == 0:
                    break
            body = b"".join(p[:-2] for p in pieces)
    if headers.get("content-encoding") == "gzip":
        body = gzip.decompress(body)
    # A "Connection: close" answer: the next request finds the connection closed and reopens.
    return Answer(status, headers, cookies, body)


# -- what a page reads from the card table's HTML ----------------------------------------------

TABLE = re.compile(r'<section id="card-table" data-revision="(\d+)"[^>]*class="([^"]*)"')
POLLER = re.compile(r'class="poller" hx-get="([^"]+)"')
META = re.compile(r'<meta name="push" content="([^"]+)"[^>]*data-slow="([^"]*)"')
BEAT = re.compile(r'<section id="card-table"[^>]* data-beat="([^"]+)" data-beat-seconds="(\d+)"')
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
FORM = re.compile(r'<form method="post" action="([^"]+)"([^>]*)>(.*?)</form>', re.S)
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')
RADIO = re.compile(r'<input type="radio" name="play" value="([^"]+)"([^>]*)>')
TARGET = re.compile(r'<input type="radio" name="target" value="([^"]+)"')
BUTTON = re.compile(r'<button type="submit" name="(\w+)" value="([^"]*)"([^>]*)>')


@dataclass
class Shown:
    """The table as the page shows it: its revision, whether the seat is asked something,
    the forms, the poll's address."""

    revision: int
    mine: bool
    body: str
    poll: str


def read_table(text: str) -> Shown | None:
    found = TABLE.search(text)
    if not found:
        return None
    poller = POLLER.search(text)
    return Shown(
        revision=int(found[1]),
        mine="is-your-turn" in found[2].split(),
        body=text,
        poll=html.unescape(poller[1]) if poller else "",
    )


def pick_move(shown: Shown, rng: random.Random) -> tuple[str, dict[str, str]] | None:
    """A legal move from the table's own forms, as a person taps it: (the form's address,
    its fields). None when the seat is asked nothing it must answer, or chooses to wait."""
    forms = []
    for action, attrs, inner in FORM.findall(shown.body):
        if "hx-post" not in attrs or 'name="kind" value="resign"' in inner:
            continue
        forms.append((html.unescape(action), attrs, inner))
    for action, attrs, inner in forms:
        fields = {k: html.unescape(v) for k, v in HIDDEN.findall(inner)}
        if "confirm-form" in attrs:
            return action, fields  # the person confirms what they chose
        if "choose-form" in attrs or "data-decision" in attrs:
            buttons = [(n, html.unescape(v), a) for n, v, a in BUTTON.findall(inner)]
            calm = [b for b in buttons if "danger" not in b[2]]
            if not buttons:
                continue
            name, value, _ = rng.choice(calm or buttons)
            return action, {**fields, name: value}
        if 'id="hand"' in attrs:
            plays = [(html.unescape(v), a) for v, a in RADIO.findall(inner)]
            plays = [v for v, a in plays if "disabled" not in a]
            seals = [v for v in plays if v.startswith("seal:")]
            actions = [v for v in plays if v.startswith("play:")]
            if seals:
                chosen = rng.choice(actions) if actions and rng.random() < 0.2 else None
                chosen = chosen or rng.choice(seals)
            elif actions and rng.random() < 0.25:
                chosen = rng.choice(actions)
            else:
                return None
            form = {**fields, "play": chosen}
            targets = TARGET.findall(shown.body)
            if targets and chosen != "play:color_change":
                form["target"] = rng.choice(targets)
            if chosen == "play:color_change":
                colours = [v for n, v, _ in BUTTON.findall(inner) if n == "color"]
                if not colours:
                    return None
                form["color"] = rng.choice(colours)
            return action, form
    return None


# -- a seat's page ---------------------------------------------------------------------------


@dataclass
class Tally:
    commands: list[float] = field(default_factory=list)  # send -> answer, moves answered 200
    # The tap -> answer of the same moves: the page's own wait for its poll in flight first.
    taps: list[float] = field(default_factory=list)
    refused: dict[int, int] = field(default_factory=dict)  # 409, 422, 403 ... by status
    errors: list[str] = field(default_factory=list)
    requests: int = 0
    dropped: int = 0  # a push's news dropped while a request was in flight (hx-sync)
    lost: int = 0  # ... and not shown by that request's answer either: the slow poll's
    queued: int = 0  # a move that waited for a poll in flight
    beats: int = 0  # presence's beats sent (where the page has them)


class Page:
    """A person's page of their seat: follows the game, and moves when asked."""

    def __init__(self, port, path, session, rng, tally, stopping, acting) -> None:
        self.port = port
        self.path = path
        self.cookies = {"sessionid": session} if session else {}
        self.rng = rng
        self.tally = tally
        self.stopping: asyncio.Event = stopping
        self.acting: asyncio.Event = acting  # set while the timed window lets people move
        self.http = Connection(port)
        self.shown: Shown | None = None
        self.csrf = ""
        self.stream_url = ""
        self.slow = 30.0
        self.up = False
        self.busy = asyncio.Lock()
        self.changed = asyncio.Event()
        self.last_fetch = 0.0
        self.seen: list[tuple[float, int]] = []  # (when, revision) each table this page showed
        self.moves: list[tuple[float, int]] = []  # (answered, revision) of its moves taken
        self.decided = -1  # the revision whose turn it chose to let pass
        self.starts = 0.0  # when this table's people start moving (tables start apart)
        self.pending = -1  # the newest version a push told of while a request was in flight
        self.stream_task: asyncio.Task | None = None
        self.stream_writer: asyncio.StreamWriter | None = None
        self.beats = Connection(port)  # presence.js's fetch: a connection of its own
        self.lobby = ""  # the lobby page, before the start
        self.lobby_poll = ""
        self.host = False
        self.asked: set[asyncio.Task] = set()  # polls a push asked for, not yet done

    def headers(self, htmx: bool = True) -> dict[str, str]:
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        out = {"Cookie": cookie, "Accept": "text/html"}
        if htmx:
            out |= {
                "HX-Request": "true",
                "HX-Target": "card-table",
                "HX-Current-URL": f"http://127.0.0.1:{self.port}{self.path}",
            }
        return out

    async def call(self, method: str, path: str, headers: dict, body: bytes = b"") -> Answer:
        self.tally.requests += 1
        answer = await self.http.request(method, path, headers, body)
        self.cookies.update({k: v for k, v in answer.cookies.items() if v})
        if answer.status >= 500:
            where = re.sub(r"/(\d+|[\w-]{30,})/", "/…/", path.split("?")[0])
            self.tally.errors.append(f"{method} {where}: {answer.status}")
        return answer

    def take(self, answer: Answer) -> None:
        """A table drawn: what the page shows from now on."""
        shown = read_table(answer.text)
        if shown is None:
            return
        self.shown = shown  # one request of the table at a time: answers come in order
        self.seen.append((now(), shown.revision))
        self.last_fetch = now()
        self.changed.set()

    def settle(self) -> None:
        """A request of the table done: news a push brought while it was in flight was
        dropped (hx-sync); its answer shows it (mostly the echo of the page's own move), or
        the page waits for its slow poll."""
        if self.pending >= 0:
            if self.shown is None or self.pending > self.shown.revision:
                self.tally.lost += 1
            self.pending = -1

    async def open(self) -> None:
        answer = await self.call("GET", self.path, self.headers(htmx=False))
        if answer.status != 200:
            raise RuntimeError(f"{self.path}: {answer.status}")
        token = CSRF.search(answer.text)
        self.csrf = token[1] if token else self.cookies.get("csrftoken", "")
        meta = META.search(answer.text)
        if meta:
            self.stream_url = html.unescape(meta[1])
            self.slow = float(meta[2] or 30)
        if TABLE.search(answer.text) is None:
            # The lobby (a seat's) or the watch page before the start: it polls every 2 s
            # until the host starts (HX-Redirect), and the host's has the start form.
            poller = POLLER.search(answer.text)
            self.lobby = answer.text
            self.lobby_poll = html.unescape(poller[1]) if poller else ""
            self.last_fetch = now()
            return
        self.lobby = self.lobby_poll = ""
        self.take(answer)
        if self.stream_url and self.stream_task is None:
            self.stream_task = asyncio.create_task(self.follow_stream())

    async def poll_lobby(self) -> None:
        """The lobby's poll (`?version=…`, the watch page's `?v=…`): 204 while nothing
        changed, the lobby again if it did, HX-Redirect once the game started."""
        async with self.busy:
            self.last_fetch = now()
            try:
                answer = await self.call("GET", self.lobby_poll, self.headers() | {
                    "HX-Target": "lobby"})  # fmt: skip
            except (OSError, asyncio.IncompleteReadError, Closed) as err:
                self.tally.errors.append(f"lobby poll: {err}")
                return
            if "hx-redirect" in answer.headers or "hx-refresh" in answer.headers:
                await self.open()
            elif answer.status == 200:
                poller = POLLER.search(answer.text)
                if poller:
                    self.lobby_poll = html.unescape(poller[1])

    async def start_game(self) -> None:
        """The host's "Start the game" (a plain form: its CSRF field, the lobby's version),
        then the table's page the redirect leads to."""
        for action, _, inner in FORM.findall(self.lobby):
            if 'value="start"' not in inner:
                continue
            fields = {k: html.unescape(v) for k, v in HIDDEN.findall(inner)} | {"do": "start"}
            headers = self.headers(htmx=False) | {
                "Content-Type": "application/x-www-form-urlencoded",
                "Origin": f"http://127.0.0.1:{self.port}",
            }
            async with self.busy:
                answer = await self.call(
                    "POST", html.unescape(action), headers, urllib.parse.urlencode(fields).encode()
                )
                if answer.status != 302:
                    self.tally.errors.append(f"start: {answer.status}")
                    return
                await self.open()
            return

    # -- push: the page's stream ---------------------------------------------------------------

    async def follow_stream(self) -> None:
        """Holds the stream as live.js's EventSource does; on `change` of the game newer than
        the table shown, asks the poll (dropped while another request is in flight)."""
        retry = 1.0
        while not self.stopping.is_set():
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                self.stream_writer = writer
                self.tally.requests += 1
                cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
                writer.write(
                    (
                        f"GET {self.stream_url} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                        f"Accept: text/event-stream\r\nCache-Control: no-cache\r\n"
                        f"Cookie: {cookie}\r\n\r\n"
                    ).encode()
                )
                status, headers, _ = await read_head(reader)
                if status != 200:
                    self.tally.errors.append(f"stream: {status}")
                    writer.close()
                    await asyncio.sleep(retry)
                    retry = min(30.0, retry * 2)
                    continue
                chunked = headers.get("transfer-encoding", "").lower() == "chunked"
                buffer = b""
                while True:
                    if chunked:
                        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                        data = (await reader.readexactly(size + 2))[:-2]
                        if size == 0:
                            break
                    else:
                        data = await reader.read(65536)
                        if not data:
                            break
                    buffer += data
                    while b"\n\n" in buffer:
                        frame, buffer = buffer.split(b"\n\n", 1)
                        self.on_frame(frame.decode("utf-8", "replace"))
                self.up = False
                writer.close()
            except (OSError, asyncio.IncompleteReadError, Closed, ValueError):
                self.up = False
                if not self.stopping.is_set():
                    await asyncio.sleep(retry)

    def on_frame(self, frame: str) -> None:
        event, data = "message", ""
        for line in frame.split("\n"):
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data += line[5:].strip()
        if event == "ready":
            self.up = True
            self.ask(None)  # live.js's refreshAll
        elif event == "bye":
            self.up = False
        elif event == "change":
            try:
                message = json.loads(data)
            except ValueError:
                return
            version = message.get("v")
            shown = self.shown
            if shown is not None and isinstance(version, int) and version <= shown.revision:
                return  # live.js's holds(): the echo of this page's own move, or older
            self.ask(version)

    def ask(self, version: int | None) -> None:
        task = asyncio.get_running_loop().create_task(self.fetch(pushed=version))
        self.asked.add(task)
        task.add_done_callback(self.asked.discard)

    # -- the poll ------------------------------------------------------------------------------

    async def fetch(self, pushed: int | None = None) -> None:
        """The table's poll (`?revision=…&v=…`); dropped while a request is in flight."""
        if self.busy.locked() or self.shown is None or not self.shown.poll:
            if pushed is not None:
                self.tally.dropped += 1
                self.pending = max(self.pending, pushed)
            return
        async with self.busy:
            headers = self.headers()
            if pushed is not None:
                headers["X-Push-Version"] = str(pushed)
            self.last_fetch = now()
            try:
                answer = await self.call("GET", self.shown.poll, headers)
            except (OSError, asyncio.IncompleteReadError, Closed) as err:
                self.tally.errors.append(f"poll: {err}")
                return
            if answer.status == 200:
                self.take(answer)
            elif "hx-redirect" in answer.headers or "hx-refresh" in answer.headers:
                await self.open()
            self.settle()

    async def poll(self) -> None:
        """htmx's `every 2s`; while the stream is up live.js lets a poll through only every
        `data-slow` seconds."""
        await asyncio.sleep(self.rng.uniform(0, POLL_SECONDS))
        while not self.stopping.is_set():
            if self.lobby_poll:
                wait = self.last_fetch + POLL_SECONDS - now()
                if wait > 0:
                    await asyncio.sleep(wait)
                elif not self.busy.locked():
                    await self.poll_lobby()
                else:
                    await asyncio.sleep(0.2)
                continue
            every = self.slow if self.up else POLL_SECONDS
            wait = self.last_fetch + every - now()
            if wait > 0:
                await asyncio.sleep(min(wait, POLL_SECONDS))
                continue
            await self.fetch()
            await asyncio.sleep(POLL_SECONDS)

    # -- the person --------------------------------------------------------------------------

    async def play(self) -> None:
        while not self.stopping.is_set():
            if self.host and self.lobby and self.acting.is_set() and now() >= self.starts:
                self.host = False  # once: the lobby's poll follows a start that went through
                await self.start_game()
                continue
            shown = self.shown
            if (
                self.acting.is_set()
                and now() >= self.starts
                and shown is not None
                and shown.mine
                and shown.revision != self.decided
            ):
                await asyncio.sleep(self.rng.uniform(*THINK))
                if not self.acting.is_set():
                    continue
                shown = self.shown
                if shown is None or not shown.mine:
                    continue
                chosen = pick_move(shown, self.rng)
                if chosen is None:
                    self.decided = shown.revision
                    continue
                await self.move(*chosen)
                continue
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 1.0)

    async def move(self, action: str, form: dict[str, str]) -> None:
        tapped = now()
        if self.busy.locked():
            self.tally.queued += 1
        async with self.busy:  # hx-sync "queue last": after the poll in flight
            headers = self.headers() | {
                "X-CSRFToken": self.csrf,
                "Content-Type": "application/x-www-form-urlencoded",
                "Origin": f"http://127.0.0.1:{self.port}",
            }
            body = urllib.parse.urlencode(form).encode()
            sent = now()
            try:
                answer = await self.call("POST", action, headers, body)
            except (OSError, asyncio.IncompleteReadError, Closed) as err:
                self.tally.errors.append(f"move: {err}")
                return
            answered = now()
            if answer.status == 200:
                self.take(answer)
                self.tally.commands.append(answered - sent)
                self.tally.taps.append(answered - tapped)
                if self.shown is not None:
                    self.moves.append((answered, self.shown.revision))
            else:
                self.tally.refused[answer.status] = self.tally.refused.get(answer.status, 0) + 1
                if answer.status < 500:
                    self.take(answer)
                if answer.status in (403, 404) or answer.status >= 500:
                    self.tally.errors.append(f"move: {answer.status}")
            self.settle()

    async def beat(self) -> None:
        """presence.js, where the page has it: while the seat's page is visible, a POST every
        `data-beat-seconds` to `data-beat` (204), outside htmx's queue (a fetch)."""
        while self.shown is None and not self.stopping.is_set():
            await asyncio.sleep(1)
        found = BEAT.search(self.shown.body) if self.shown else None
        if not found:
            return
        every = int(found[2])
        await asyncio.sleep(self.rng.uniform(0, every))
        while not self.stopping.is_set():
            found = BEAT.search(self.shown.body) if self.shown else None
            if found:
                cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
                headers = {"Cookie": cookie, "X-CSRFToken": self.csrf,
                           "Origin": f"http://127.0.0.1:{self.port}"}  # fmt: skip
                self.tally.requests += 1
                self.tally.beats += 1
                try:
                    answer = await self.beats.request("POST", html.unescape(found[1]), headers)
                    if answer.status != 204:
                        self.tally.errors.append(f"beat: {answer.status}")
                except (OSError, asyncio.IncompleteReadError, Closed) as err:
                    self.tally.errors.append(f"beat: {err}")
            await asyncio.sleep(every)

    def close(self) -> None:
        for task in list(self.asked):
            task.cancel()
        self.beats.close()
        self.http.close()
        if self.stream_writer is not None:
            self.stream_writer.close()


def seen(sender: Page, viewers: list[Page], since: float, until: float) -> tuple[list[float], int]:
    """For each move `sender` took (answered 200 in [since, until]) and each of `viewers`, the
    time from its answer to that page first showing its revision or a later one (0 when it
    showed it already); and how many times a page never showed it."""
    delays, unseen = [], 0
    for answered, revision in sender.moves:
        if not since <= answered <= until:
            continue
        for viewer in viewers:
            first = next((t for t, r in viewer.seen if r >= revision), None)
            if first is None:
                unseen += 1
            else:
                delays.append(max(0.0, first - answered))
    return delays, unseen


# -- set-up ----------------------------------------------------------------------------------


@dataclass
class Made:
    table: int
    sessions: tuple[str, str]  # the host's, the guest's
    watch: str  # the watch page's address, "" without one


def setup(args) -> list[Made]:
    """The tables in their lobbies, both people in, each with its watch link where the app
    has them."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from practice import online
    from practice.models import OnlineTable

    call_command("migrate", verbosity=0)
    if not os.environ.get("PLAIN_STATIC"):
        call_command("collectstatic", interactive=False, verbosity=0)
    user_model = get_user_model()
    users = []
    for n in range(2 * args.tables):
        user, _ = user_model.objects.get_or_create(username=f"{USERS}{n}")
        users.append(user)
    old = OnlineTable.objects.filter(host__username__startswith=USERS).exclude(
        status__in=(OnlineTable.Status.FINISHED, OnlineTable.Status.ENDED)
    )
    for table in old:
        online.end(table_id=table.pk, user=table.host)
    made = []
    sessions: dict[int, str] = {}
    for user in users:
        client = Client()
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
        sessions[user.pk] = client.cookies["sessionid"].value
    for n in range(args.tables):
        host, guest = users[2 * n], users[2 * n + 1]
        table = online.open_table(
            host=host, ruleset=args.rules, seats=2, seat_clock=args.clock or None
        )
        online.join(token=table.join_token, user=guest)
        # Not started here: the host's page starts it when the load begins (the seat clocks
        # would run while 700 pages open otherwise).
        watch = ""
        if args.spectators and hasattr(online, "new_watch_link"):  # the watch link's branch
            table.refresh_from_db()
            table = online.new_watch_link(table_id=table.pk, user=host, version=table.version)
            watch = f"/practice/online/watch/{table.watch_token}/"
        made.append(Made(table.pk, (sessions[host.pk], sessions[guest.pk]), watch))
    return made


def cpu_per_request(args) -> None:
    """CPU per request of each kind, in this process through the whole middleware stack
    (Django's test client, the production settings, the same database and Redis): one table
    of two people played --cpu-moves moves by the same random person as the load, each move
    followed by the other seat's poll and each of --cpu-spectators spectators' (a changed
    table: the first spectator's, then the others' at the same revision), then the other
    seat's and the first spectator's again (unchanged: 204). What a request costs the server,
    whatever else the machine does; and their sum per move, as the load makes them."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from practice import online
    from practice.models import OnlineTable

    user_model = __import__("django.contrib.auth", fromlist=["get_user_model"]).get_user_model()
    ada, _ = user_model.objects.get_or_create(username=f"{USERS}-cpu-a")
    bo, _ = user_model.objects.get_or_create(username=f"{USERS}-cpu-b")
    for old in OnlineTable.objects.filter(host=ada, status=OnlineTable.Status.PLAYING):
        online.end(table_id=old.pk, user=ada)
    table = online.open_table(host=ada, ruleset=args.rules, seats=2, seat_clock=args.clock or None)
    online.join(token=table.join_token, user=bo)
    table.refresh_from_db()
    table = online.start(table_id=table.pk, user=ada, version=table.version)
    watch = ""
    if hasattr(online, "new_watch_link"):
        table.refresh_from_db()
        table = online.new_watch_link(table_id=table.pk, user=ada, version=table.version)
        watch = f"/practice/online/watch/{table.watch_token}/"
    seats = []
    for user in (ada, bo):
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
        seats.append(client)
    watchers = [Client(HTTP_HOST="127.0.0.1") for _ in range(args.cpu_spectators)]
    htmx = {"HX-Request": "true"}
    kinds: dict[str, list[float]] = {}
    # --cpu-profile: a profile of each kind (a CPU clock) and its SQL queries counted; the
    # profiler's own cost inflates small calls, so its times are shares, not the figures.
    profiles: dict[str, cProfile.Profile] = {}
    queries: dict[str, list[int]] = {}

    def timed(kind: str, call):
        if args.cpu_profile:
            profile = profiles.setdefault(kind, cProfile.Profile(time.process_time))
            with CaptureQueriesContext(connection) as captured:
                profile.enable()
                response = call()
                profile.disable()
            queries.setdefault(kind, []).append(len(captured.captured_queries))
            return response
        start = time.process_time()
        response = call()
        kinds.setdefault(kind, []).append(time.process_time() - start)
        return response

    path = f"/practice/online/{table.pk}/"
    shown = [read_table(timed("seat's page, whole", lambda c=c: c.get(path)).content.decode())
             for c in seats]  # fmt: skip
    watched: list[Shown | None] = [None for _ in watchers]
    if watch:
        watched = [
            read_table(timed("watch page, whole", lambda w=w: w.get(watch)).content.decode())
            for w in watchers
        ]
    rng = random.Random(args.seed)
    moves = 0
    for _ in range(args.cpu_moves * 4):
        if moves >= args.cpu_moves:
            break
        for i, client in enumerate(seats):
            mine = shown[i]
            chosen = pick_move(mine, rng) if mine and mine.mine else None
            if chosen is None:
                continue
            answer = timed("move (POST, the table drawn)", lambda c=client, m=chosen: c.post(
                m[0], m[1], headers=htmx))  # fmt: skip
            moves += 1
            shown[i] = read_table(answer.content.decode()) or shown[i]
            other = 1 - i
            for kind in ("seat's poll, changed (200)", "seat's poll, unchanged (204)"):
                answer = timed(
                    kind, lambda u=shown[other].poll, o=other: seats[o].get(u, headers=htmx)
                )
                if answer.status_code == 200:
                    shown[other] = read_table(answer.content.decode()) or shown[other]
            for j, watcher in enumerate(watchers):
                if watched[j] is None:
                    continue
                asked = (
                    ("watch poll, changed (200)", "watch poll, unchanged (204)")
                    if j == 0
                    else ("watch poll, changed, next spectators",)
                )
                for kind in asked:
                    answer = timed(
                        kind, lambda u=watched[j].poll, w=watcher: w.get(u, headers=htmx)
                    )
                    if answer.status_code == 200:
                        watched[j] = read_table(answer.content.decode()) or watched[j]
            beat = BEAT.search(shown[i].body)
            if beat:
                timed("presence beat (204)", lambda c=client, b=beat: c.post(html.unescape(b[1])))
        else:
            # Nobody had a move to make (both let an optional action card pass): a fresh look.
            shown = [read_table(c.get(path).content.decode()) for c in seats]
    if args.cpu_profile:
        folder = Path(args.cpu_profile)
        folder.mkdir(parents=True, exist_ok=True)
        for kind, profile in profiles.items():
            name = re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-")
            profile.dump_stats(folder / f"{name}.prof")
            counted = queries[kind]
            print(
                f"  {kind:<36} n {len(counted):>4}  SQL queries p50 "
                f"{crowd.pct(counted, 0.5)}, max {max(counted)}: {folder / name}.prof"
            )
        online.end(table_id=table.pk, user=ada)
        return
    print(f"\n== CPU per request in one process ({moves} moves of one table, revision "
          f"{shown[0].revision if shown[0] else '?'}; load average {load()})")  # fmt: skip
    for kind, values in kinds.items():
        tenth = max(1, len(values) // 10)
        print(
            f"  {kind:<32} n {len(values):>4}  p50 {crowd.pct(values, 0.5) * 1000:6.1f} ms  "
            f"p95 {crowd.pct(values, 0.95) * 1000:6.1f} ms  (the first tenth p50 "
            f"{crowd.pct(values[:tenth], 0.5) * 1000:.1f}, the last "
            f"{crowd.pct(values[-tenth:], 0.5) * 1000:.1f} ms)"
        )
    p50 = {kind: crowd.pct(values, 0.5) * 1000 for kind, values in kinds.items()}
    per_move = p50["move (POST, the table drawn)"] + p50["seat's poll, changed (200)"]
    if watch and watchers:
        per_move += p50["watch poll, changed (200)"]
        per_move += (len(watchers) - 1) * p50.get("watch poll, changed, next spectators", 0.0)
    print(
        f"  a move with the pages that fetch it (the other seat, {len(watchers) if watch else 0} "
        f"spectators), p50s summed: {per_move:.1f} ms"
    )
    online.end(table_id=table.pk, user=ada)


def reference_probe() -> None:
    """The reference loop once, in a process of its own: its wall and process time (JSON)."""
    wall, cpu = now(), time.process_time()
    engine.reference_loop()
    print(json.dumps({"wall": now() - wall, "cpu": time.process_time() - cpu}))


async def probe_later(delay: float) -> dict | None:
    await asyncio.sleep(delay)
    process = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--reference-probe", stdout=asyncio.subprocess.PIPE
    )
    out, _ = await process.communicate()
    with contextlib.suppress(ValueError):
        return json.loads(out)
    return None


# -- the run ---------------------------------------------------------------------------------


async def run(args, tables: list[Made], meter) -> None:
    rng = random.Random(args.seed)
    tally = Tally()
    stopping, acting = asyncio.Event(), asyncio.Event()

    def page(path: str, session: str) -> Page:
        return Page(args.port, path, session, random.Random(rng.random()), tally, stopping, acting)

    seats = [[page(f"/practice/online/{t.table}/", s) for s in t.sessions] for t in tables]
    # The spectators, spread over the tables (round the tables in turn), signed out: the
    # link is their permission.
    watchers: list[list[Page]] = [[] for _ in tables]
    if all(t.watch for t in tables):
        for n in range(args.spectators):
            watchers[n % len(tables)].append(page(tables[n % len(tables)].watch, ""))
    people = [p for pair in seats for p in pair]
    watching = [w for group in watchers for w in group]
    pages = people + watching
    for pair in seats:
        pair[0].host = True
    # The pages open (not timed), a few at a time: the lobbies, the watch pages before the
    # start.
    gate = asyncio.Semaphore(20)

    async def opened(page: Page) -> None:
        async with gate:
            await page.open()

    started = now()
    await asyncio.gather(*(opened(p) for p in pages))
    print(f"  {len(pages)} pages open (lobbies) in {now() - started:.1f} s; load average {load()}")
    tasks = [asyncio.create_task(p.poll()) for p in pages]
    tasks += [asyncio.create_task(p.play()) for p in people]
    tasks += [asyncio.create_task(p.beat()) for p in people]
    # The hosts start their tables apart, over --stagger seconds, as tables opened by
    # different people would; the others' lobbies and watch pages follow by their poll, and
    # each person moves from the moment their table shows. The measured window begins once
    # every page shows its table.
    started = now()
    for n, pair in enumerate(seats):
        starts = started + random.Random(f"{args.seed}-{n}").uniform(0, args.stagger)
        for person in pair:
            person.starts = starts
    acting.set()
    while now() - started < 300 and not all(p.shown and p.up == bool(p.stream_url)
                                             for p in pages):  # fmt: skip
        await asyncio.sleep(0.2)
    in_play = sum(p.shown is not None for p in pages)
    print(
        f"  {len(tables)} tables started, {in_play} pages showing their table, "
        f"{sum(p.up for p in pages)} streams up, in {now() - started:.1f} s; the window "
        f"begins (load average {load()})"
    )

    load_start = load()
    tally.__init__()
    meter.start()
    cpu0 = own_cpu()
    begin = now()
    probe = asyncio.create_task(probe_later(args.seconds / 2))
    await asyncio.sleep(args.seconds)
    acting.clear()
    moves_until = now()
    await asyncio.sleep(args.drain)
    stopping.set()
    wall = now() - begin
    generator = own_cpu() - cpu0
    used = meter.stop()
    load_end = load()
    requests = tally.requests
    asked = [task for page in pages for task in page.asked]
    for page in pages:
        page.close()
        if page.stream_task:
            page.stream_task.cancel()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, *asked, *(p.stream_task for p in pages if p.stream_task),
                         return_exceptions=True)  # fmt: skip
    mid = await probe

    by_seat: list[float] = []
    by_watcher: list[float] = []
    unseen_seat = unseen_watcher = 0
    for pair, group in zip(seats, watchers, strict=True):
        for i, sender in enumerate(pair):
            delays, unseen = seen(sender, [pair[1 - i]], begin, moves_until)
            by_seat += delays
            unseen_seat += unseen
            delays, unseen = seen(sender, group, begin, moves_until)
            by_watcher += delays
            unseen_watcher += unseen
    every = by_seat + by_watcher
    unseen = unseen_seat + unseen_watcher
    commands = tally.commands
    from practice.models import OnlineTable

    over = await asyncio.to_thread(
        lambda: (
            OnlineTable.objects.filter(pk__in=[t.table for t in tables])
            .exclude(status=OnlineTable.Status.PLAYING)
            .count()
        )
    )
    refused = ", ".join(f"{k}: {v}" for k, v in sorted(tally.refused.items())) or "none"
    kinds: dict[str, int] = {}
    for error in tally.errors:
        kinds[error] = kinds.get(error, 0) + 1
    errors = ", ".join(f"{n} x {kind}" for kind, n in sorted(kinds.items(), key=lambda k: -k[1]))
    spectators = (
        "watch pages, signed out"
        if watching
        else "none asked"
        if not args.spectators
        else "none: this tree has no watch link"
    )
    command_ok = crowd.pct(commands, 0.95) < BUDGET_COMMAND
    tap_ok = bool(tally.taps) and crowd.pct(tally.taps, 0.95) < BUDGET_COMMAND
    seen_ok = bool(every) and crowd.pct(every, 0.95) < BUDGET_SEEN and not unseen
    server = sum(used.values())
    print(
        f"\n== {len(tables)} tables, {len(people)} seats, {len(watching)} spectators "
        f"({spectators}), {args.seconds} s of moves (+{args.drain:g} s following)\n"
        f"  load average at the start {load_start}, at the end {load_end} "
        f"({os.cpu_count()} CPUs)\n"
        f"  moves taken {len(commands)} ({len(commands) / args.seconds:.1f}/s); "
        f"refused {refused}; errors {len(tally.errors)}"
        + (f" ({errors})" if tally.errors else "")
        + f"; tables over by the end {over}\n"
        f"  command answered (send -> whole answer): {summary(commands)}; "
        f"budget p95 < {BUDGET_COMMAND * 1000:.0f} ms: {'met' if command_ok else 'NOT met'}\n"
        f"    from the tap (the page's wait for its poll in flight first, as hx-sync "
        f"queues it): {summary(tally.taps)}; p95 < {BUDGET_COMMAND * 1000:.0f} ms: "
        f"{'met' if tap_ok else 'NOT met'}\n"
        f"  seen by every other device of the game (answer at the sender -> the page shows "
        f"it): {summary(every)}; never shown by the end {unseen}; "
        f"budget p95 < {BUDGET_SEEN * 1000:.0f} ms: {'met' if seen_ok else 'NOT met'}\n"
        f"    by the other seat: {summary(by_seat)}, never {unseen_seat}\n"
        f"    by the spectators: {summary(by_watcher)}, never {unseen_watcher}\n"
        f"  requests {requests} ({requests / wall:.0f}/s: page loads, polls, moves, streams "
        f"opened); push news dropped by a request in flight {tally.dropped} (newer than that "
        f"request's answer: {tally.lost}); moves that waited for a poll {tally.queued}; "
        f"presence beats {tally.beats}\n"
        f"  CPU seconds over {wall:.0f} s: "
        + ", ".join(f"{name} {seconds:.1f}" for name, seconds in used.items())
        + f"; this load generator {generator:.1f} ({generator / wall * 100:.0f}% of a core)\n"
        f"  the stack {server / wall * 100:.0f}% of a core, with the generator "
        f"{(server + generator) / wall * 100:.0f}% (of {os.cpu_count() * 100}%); gunicorn's CPU "
        f"per move taken (its answer and the others' polls it brings) "
        f"{used['gunicorn'] / max(1, len(commands)) * 1000:.0f} ms"
    )
    if mid:
        print(
            f"  reference loop in its own process mid-run: {mid['wall'] * 1000:.0f} ms wall, "
            f"{mid['cpu'] * 1000:.0f} ms CPU (it had {mid['cpu'] / mid['wall'] * 100:.0f}% "
            f"of a core)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--seconds", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--port", type=int, default=8241)
    parser.add_argument("--rules", default="tournament")
    parser.add_argument("--clock", type=int, default=30, help="the seat clock, s (0: none)")
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 2 tables, 2 spectators, 6 s"
    )
    parser.add_argument("--cpu-only", action="store_true", help="only CPU per request")
    parser.add_argument("--cpu-moves", type=int, default=120, help="moves of --cpu-only")
    parser.add_argument(
        "--cpu-spectators", type=int, default=5, help="spectators of --cpu-only's table"
    )
    parser.add_argument(
        "--cpu-profile", metavar="DIR", help="with --cpu-only: a profile and SQL count a kind"
    )
    parser.add_argument("--reference-probe", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.stagger, args.drain = STAGGER, DRAIN
    if args.reference_probe:
        reference_probe()
        return
    if args.cpu_only:
        args.tables = 0
    if args.quick:
        args.tables, args.seconds, args.spectators = 2, 6, 2
        args.stagger, args.drain = 1.0, 2.5
        # No page here asks for a static file: the smoke run skips collecting them (10 s).
        crowd.ENV["PLAIN_STATIC"] = "1"
        crowd.ENV["PYTHONWARNINGS"] = "ignore:No directory at"

    # 700 pages hold about 2,000 connections (a page's table, its stream, its beats).
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    workdir = Path(tempfile.mkdtemp(prefix="online-capacity-"))
    if not os.environ.get("DATABASE_URL"):
        os.environ["SQLITE_PATH"] = str(workdir / "bench.sqlite3")
    for name in ("DATABASE_URL", "REDIS_URL"):
        crowd.ENV.pop(name, None)
    crowd.ENV["STATIC_ROOT"] = os.environ.get("STATIC_ROOT") or str(workdir / "static")
    env = {**os.environ, **crowd.ENV}
    os.environ.update(crowd.ENV)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # This process's own few queries (crowd.Meter's list of PostgreSQL's backends) run
    # beside its event loop, outside any request.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    sys.path.insert(0, str(ROOT))
    print(f"command: {shlex.join(sys.argv)}; load average {load()}")
    set_up = now()
    tables = setup(args)
    from django.conf import settings
    from django.db import connection

    database = connection.settings_dict["NAME"]
    engine_name = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[1]
    print(f"set-up: {len(tables)} tables in their lobbies in {now() - set_up:.1f} s")
    before = engine.reference_seconds()
    print(f"reference loop (bench/engine.py, best of 5) {before * 1000:.1f} ms; "
          f"load average {load()}")  # fmt: skip
    if args.cpu_only:
        cpu_per_request(args)
        after = engine.reference_seconds()
        print(f"reference loop after {after * 1000:.1f} ms; load average {load()}")
        return
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    server_env = {**env, "GUNICORN_BIND": f"127.0.0.1:{args.port}", "GUNICORN_ACCESS_LOG": "off"}
    worker = subprocess.Popen(
        [str(BIN / "celery"), "-A", "config", "worker", "--loglevel", "WARNING",
         "--concurrency", "1", "--without-gossip", "--without-mingle", "-n", "capacity@%h"],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
    ) if env.get("REDIS_URL") else None  # fmt: skip
    # The server's log apart (Django logs each 409 and 422 as a warning): summed up below.
    log = (workdir / "gunicorn.log").open("w")
    gunicorn = subprocess.Popen(
        [str(BIN / "gunicorn"), "--log-level", "warning"],
        env=server_env,
        cwd=ROOT,
        stderr=log,
    )
    try:
        crowd.wait_for(f"http://127.0.0.1:{args.port}/healthz", gunicorn)
        print(
            f"stack: gunicorn {crowd.gunicorn_settings(server_env, [])}, {engine_name} "
            f"{database if engine_name != 'sqlite3' else '(a file)'}, "
            + (
                f"Redis {env['REDIS_URL'].rsplit('/', 1)[1]} (push on), a Celery worker"
                if worker
                else "no Redis (no push: the pages poll)"
            )
            + f"; load generator: {'uvloop' if 'uvloop' in sys.modules else 'asyncio'}"
        )
        meter = Meter(gunicorn.pid, worker.pid if worker else None, database, engine_name)
        asyncio.run(run(args, tables, meter))
    finally:
        for process in (gunicorn, worker):
            if process:
                process.send_signal(signal.SIGTERM)
        for process in (gunicorn, worker):
            if process:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
        log.close()
        server_log(workdir / "gunicorn.log")
        import shutil

        shutil.rmtree(workdir, ignore_errors=True)
    after = engine.reference_seconds()
    print(f"reference loop after {after * 1000:.1f} ms; load average {load()}")


def server_log(path: Path) -> None:
    """The server's log: how many lines of each kind; the lines other than refusals in full
    (a traceback, a worker restarted)."""
    lines = path.read_text(errors="replace").splitlines()
    kinds: dict[str, int] = {}
    other = []
    for line in lines:
        word = line.split(":", 1)[0]
        if word in ("Conflict", "Unprocessable Content", "Forbidden", "Not Found"):
            kinds[word] = kinds.get(word, 0) + 1
        else:
            other.append(line)
    print(
        "server log: "
        + (", ".join(f"{n} {k!r}" for k, n in kinds.items()) or "no refusal logged")
        + f"; {len(other)} other lines"
        + ("".join(f"\n    {line}" for line in other[:20]))
    )


class Meter(crowd.Meter):
    """crowd.py's meter, without the parts a smoke run has not (no worker, SQLite)."""

    def __init__(self, gunicorn: int, worker: int | None, database: str, engine_name: str):
        super().__init__(gunicorn, worker or 0, database)
        self.engine_name = engine_name

    def read(self) -> dict[str, dict[int, float]]:
        parts = {"gunicorn": crowd.children(self.gunicorn)}
        if self.worker:
            parts["celery worker"] = crowd.children(self.worker)
        if self.engine_name == "postgresql":
            parts["postgresql (this database)"] = crowd.postgres_pids(self.database)
        if os.environ.get("REDIS_URL"):
            parts["redis (whole server)"] = crowd.redis_pid()
        return {name: crowd.cpu_by_pid(pids) for name, pids in parts.items()}


if __name__ == "__main__":
    main()
