"""Push to open pages (issue 28): what the stream server holds, how fast it fans out, and how
soon a spectator sees a referee's move, against polling.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_streams REDIS_URL=redis://127.0.0.1:6379/2 \\
        .venv/bin/python bench/streams.py idle --streams 5000 10000
    ... bench/streams.py fanout --streams 5000 --messages 20
    ... bench/streams.py live --streams 2000 --duration 60 --poll-duration 60

(The database is this benchmark's own, as bench/crowd.py's: `live` sets up crowd.py's published
30-player tournament once and plays up to 14 rounds of it; drop and recreate the database
between runs of `live`.)

- `idle`: one web process (gunicorn with gunicorn.conf.py and `-w 1`: one uvicorn worker)
  holding N idle streams: its resident memory per stream ((RSS with N - RSS with 50) / (N - 50))
  and its OS threads (/proc/<pid>/status), with 50 and with N streams; then every stream is
  closed and N opened again, so that a stream not freed would show (memory, or the process's
  STREAMS_MAX refusing; it is raised here to the largest N asked). Budget: <= 25 kB per
  stream, threads not growing with N.
- `fanout`: N streams of one public topic on that one process; this process sends messages
  through `core.push.send` (the production sending path: Lua script, Redis channel) a second
  apart, each with a fragment of --html-bytes, and every listener notes when the message's
  frame arrived. Reported: p50/p95/max from the send to the arrival. Budget p95 <= 300 ms.
- `live`: the production stack (gunicorn with gunicorn.conf.py: 2 uvicorn workers; PostgreSQL;
  Redis; a Celery worker) and N spectators spread over the tournament's public pages (the live
  page, standings, groups, rounds, tie-breaks, bracket, the big screen), each holding the
  stream its page's `<meta name="push">` names. A referee (signed in, over HTTP as the console
  does) posts a legal move every --move-seconds and ends the duel by a forfeit after
  --moves-per-duel moves (a result); between duels this script names the next round's
  players (and the new duel's first move waits a tick). For each move or result and each
  spectator whose page shows it (a move: the parts `push_playing` pushes, the live page and
  the big screen's `now` and `call` panels; a result: every part), the time from the
  referee's POST returning to the first message of those of its topics sent after the POST
  began (message numbers read from Redis just before the POST; the worker renders at its own
  time, so that message carries the state with the move): p50/p95/max; budget p95 <= 1 s,
  target <= 500 ms. CPU: gunicorn's and the Celery worker's process time over the messages
  delivered. Then the same spectators poll their page's live part instead (as htmx does: its
  tag in If-None-Match, every --poll-seconds +-15%, keep-alive connections; the big screen's
  spectators poll its `now` panel) while the referee goes on: the wait from the POST returning
  to the first changed answer, and the CPU per poll.

The load generator is this one process (an asyncio loop, uvloop if installed, raw HTTP/1.1 over
sockets; the referee in a thread): its own CPU is printed, as it shares the machine. Every
figure is printed with the load average before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
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
import threading
import time
import urllib.parse
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.request import HTTPCookieProcessor, Request, build_opener

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import crowd  # noqa: E402 - the stack, the tournament and the CPU meter are crowd.py's

BIN = crowd.BIN
now = time.monotonic
ID_LINE = re.compile(rb"id: ([^@\n]+)@(\d+)\nevent: change")


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def pct(values: list[float], q: float) -> float:
    return crowd.pct(values, q)


def summary(values: list[float], unit: float = 1000.0) -> str:
    if not values:
        return "none"
    return (
        f"p50 {pct(values, 0.5) * unit:.0f} / p95 {pct(values, 0.95) * unit:.0f} / "
        f"max {max(values) * unit:.0f} ms (n={len(values)})"
    )


# -- a stream, as a browser's EventSource holds it -------------------------------------------


class Stream(asyncio.Protocol):
    """One open stream: the request, the `ready` event, then each change's topic and number
    with the time its id line arrived. The frames' bodies are not kept (a fragment each)."""

    def __init__(self, request: bytes, topics: dict[bytes, int]) -> None:
        self.request = request
        self.topics = topics  # topic -> index, shared by every stream
        self.transport: asyncio.Transport | None = None
        self.head = b""
        self.ready = asyncio.get_running_loop().create_future()
        self.tail = b""
        self.got: list[tuple[float, int, int]] = []  # (arrival, topic index, number)
        self.lost = False

    def connection_made(self, transport) -> None:
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        if not self.ready.done():
            self.head += data
            if b"event: ready" in self.head:
                self.ready.set_result(True)
                self.tail = self.head[-256:]
            elif b"\r\n\r\n" in self.head and not self.head.startswith(b"HTTP/1.1 200"):
                self.ready.set_result(False)
            return
        at = now()
        window = self.tail + data
        skip = len(self.tail)
        for found in ID_LINE.finditer(window):
            if found.end() > skip:  # not one seen in the piece before
                index = self.topics.setdefault(found[1], len(self.topics))
                self.got.append((at, index, int(found[2])))
        self.tail = window[-256:]

    def connection_lost(self, exc) -> None:
        self.lost = True
        if not self.ready.done():
            self.ready.set_result(False)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def open_streams(
    port: int, paths: list[str], topics: dict[bytes, int], parallel: int = 200
) -> tuple[list[Stream | None], int]:
    """Opens one stream per path (each waits for its `ready`); returns them in the order
    asked (None where refused) and how many were refused."""
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(parallel)
    refused = 0

    async def one(path: str) -> Stream | None:
        nonlocal refused
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n"
        ).encode()
        async with gate:
            for attempt in range(5):
                try:
                    _, stream = await loop.create_connection(
                        lambda: Stream(request, topics), "127.0.0.1", port
                    )
                    if await asyncio.wait_for(stream.ready, 30):
                        return stream
                    stream.close()
                    refused += 1
                    return None
                except (OSError, TimeoutError):
                    await asyncio.sleep(0.2 * (attempt + 1))
            refused += 1
            return None

    return list(await asyncio.gather(*(one(p) for p in paths))), refused


async def open_only(port: int, paths: list[str], topics: dict[bytes, int]):
    opened, refused = await open_streams(port, paths, topics)
    return [s for s in opened if s is not None], refused


# -- the server ------------------------------------------------------------------------------


def proc_status(pid: int) -> dict[str, str]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        fields[name] = value.strip()
    return fields


def rss_kb(pid: int) -> int:
    return int(proc_status(pid)["VmRSS"].split()[0])


def threads(pid: int) -> int:
    return int(proc_status(pid)["Threads"])


def server_env(env: dict[str, str], port: int, workers: int) -> dict[str, str]:
    return {
        **env,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_ACCESS_LOG": "off",
        "WEB_CONCURRENCY": str(workers),
    }


def start_server(
    env: dict[str, str], port: int, workers: int, extra: list[str] = ()
) -> subprocess.Popen:
    process = subprocess.Popen(
        [str(BIN / "gunicorn"), *extra], env=server_env(env, port, workers), cwd=ROOT
    )
    crowd.wait_for(f"http://127.0.0.1:{port}/healthz", process)
    return process


def workers_of(master: int) -> list[int]:
    return [pid for pid in crowd.children(master) if pid != master]


def stop(*processes: subprocess.Popen) -> None:
    for process in processes:
        process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def raise_file_limit() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# -- a: idle streams -------------------------------------------------------------------------


async def idle(args, env) -> None:
    from core import push

    token = push.token_for(["public:bench-idle:home"])
    path = f"/push/stream?t={token}"
    for count in args.streams:
        server = start_server(env, args.port, 1, args.extra)
        try:
            (worker,) = workers_of(server.pid)
            topics: dict[bytes, int] = {}
            base, refused0 = await open_only(args.port, [path] * 50, topics)
            await asyncio.sleep(2)
            rss0, threads0 = rss_kb(worker), threads(worker)
            started, cpu0 = now(), own_cpu()
            more, refused = await open_only(args.port, [path] * (count - 50), topics)
            opened_in = now() - started
            await asyncio.sleep(3)
            rss1, threads1 = rss_kb(worker), threads(worker)
            held = len(base) + len(more)
            per = (rss1 - rss0) * 1024 / max(1, len(more))
            print(
                f"\n== idle, {count} streams asked, one uvicorn worker (load before {load()})\n"
                f"  open: {held} (refused {refused0 + refused}) in {opened_in:.1f} s; "
                f"the load generator's CPU for it {own_cpu() - cpu0:.1f} s\n"
                f"  RSS with 50 streams {rss0 / 1024:.1f} MiB, with {held} "
                f"{rss1 / 1024:.1f} MiB: {per / 1000:.1f} kB per stream (budget 25 kB)\n"
                f"  OS threads with 50 streams {threads0}, with {held} {threads1}"
            )
            for stream in more:
                stream.close()
            await asyncio.sleep(3)
            rss2, threads2 = rss_kb(worker), threads(worker)
            again, refused2 = await open_only(args.port, [path] * (count - 50), topics)
            await asyncio.sleep(3)
            rss3, threads3 = rss_kb(worker), threads(worker)
            print(
                f"  after closing {len(more)}: RSS {rss2 / 1024:.1f} MiB, threads {threads2}; "
                f"{len(again)} opened again (refused {refused2}): RSS {rss3 / 1024:.1f} MiB "
                f"(+{(rss3 - rss1) / 1024:.1f} MiB on the first round), threads {threads3}"
                f"\n  load after {load()}"
            )
            for stream in base + again:
                stream.close()
            await asyncio.sleep(1)
        finally:
            stop(server)


# -- b: fan-out ------------------------------------------------------------------------------


async def fanout(args, env) -> None:
    from core import push

    topic = "public:bench-fanout:home"
    path = f"/push/stream?t={push.token_for([topic])}"
    server = start_server(env, args.port, 1, args.extra)
    try:
        (worker,) = workers_of(server.pid)
        topics: dict[bytes, int] = {}
        streams, refused = await open_only(args.port, [path] * args.streams, topics)
        await asyncio.sleep(2)
        print(
            f"\n== fan-out: {len(streams)} streams of one topic on one uvicorn worker "
            f"(refused {refused}), {args.messages} messages a second apart, fragment "
            f"{args.html_bytes} bytes; load before {load()}"
        )
        fragment = "<p>" + "x" * max(0, args.html_bytes - 7) + "</p>"
        sent: dict[int, float] = {}
        cpu0, server0 = own_cpu(), crowd.cpu_seconds([worker])
        loop = asyncio.get_running_loop()
        for i in range(args.messages):
            at = now()
            # The send is synchronous (a Redis round trip): in a thread, as a web process's
            # task would be, so that the loop keeps reading the streams meanwhile.
            number = await loop.run_in_executor(None, push.send, topic, f"bench-{i}", fragment)
            if number is None:
                sys.exit("push.send returned None: is Redis reachable (REDIS_URL)?")
            sent[number] = at
            await asyncio.sleep(1.0)
        await asyncio.sleep(2)
        cpu = own_cpu() - cpu0
        server_cpu = crowd.cpu_seconds([worker]) - server0
        index = topics.get(topic.encode())
        delays, per_message = [], {n: [] for n in sent}
        for stream in streams:
            for at, which, n in stream.got:
                if which == index and n in sent:
                    delays.append(at - sent[n])
                    per_message[n].append(at - sent[n])
        expected = len(streams) * len(sent)
        slowest = sorted(max(v) for v in per_message.values() if v)
        print(
            f"  send -> arrival, every listener and message: {summary(delays)}; "
            f"budget p95 <= 300 ms: {'met' if pct(delays, 0.95) <= 0.3 else 'NOT met'}\n"
            f"  delivered {len(delays)} of {expected}; the last listener of each message: "
            f"median {pct(slowest, 0.5) * 1000:.0f} ms, worst {slowest[-1] * 1000:.0f} ms\n"
            f"  CPU: the web worker {server_cpu:.2f} s "
            f"({server_cpu / max(1, len(delays)) * 1e6:.0f} us per delivery), "
            f"the load generator {cpu:.2f} s; load after {load()}"
        )
        for stream in streams:
            stream.close()
        await asyncio.sleep(1)
    finally:
        stop(server)


# -- c: the live stack -----------------------------------------------------------------------

PAGES = ("live", "standings", "groups", "rounds", "tiebreaks", "bracket", "screen")
META = re.compile(r'<meta name="push" content="([^"]+)"[^>]*data-topics="([^"]*)"')


class Referee(threading.Thread):
    """Signs in and plays, a move every `every` seconds, a result after `per_duel` moves; each
    POST's start, return and the push topics' message numbers read just before it."""

    def __init__(self, base: str, slug: str, topics: list[str], every: float, per_duel: int):
        super().__init__(daemon=True)
        self.base, self.slug, self.topics = base, slug, topics
        self.every, self.per_duel = every, per_duel
        self.events: list[dict] = []
        self.running = threading.Event()
        self.running.set()
        self.errors: list[str] = []
        self.jar = CookieJar()
        self.http = build_opener(HTTPCookieProcessor(self.jar))
        import redis

        self.redis = redis.Redis.from_url(os.environ["REDIS_URL"])
        from core import push

        self.keys = [push.SEQ_PREFIX + t for t in topics]

    def csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def sign_in(self) -> None:
        page = self.http.open(f"{self.base}/accounts/login/").read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        body = urllib.parse.urlencode(
            {
                "username": "crowd-referee",
                "password": crowd.PASSWORD,
                "csrfmiddlewaretoken": token[1] if token else "",
            }
        ).encode()
        self.http.open(  # noqa: S310 - loopback, http
            Request(  # noqa: S310
                f"{self.base}/accounts/login/",
                data=body,
                headers={"Referer": f"{self.base}/accounts/login/"},
            )
        ).read()

    def post(self, url: str, data: dict) -> int:
        request = Request(  # noqa: S310 - loopback, http
            url,
            data=urllib.parse.urlencode(data).encode(),
            headers={"HX-Request": "true", "X-CSRFToken": self.csrf(), "Referer": self.base + "/"},
        )
        with self.http.open(request) as response:
            response.read()
            return response.status

    def run(self) -> None:
        from games.split_uno import Duel

        self.sign_in()
        duel_id, moves = 0, 0
        tick = time.monotonic()
        while self.running.is_set():
            tick += self.every
            try:
                current = crowd.next_duel(self.slug)
                if not current:
                    self.errors.append("the group phase is over: recreate the database")
                    return
                if current != duel_id:
                    # A duel named now bumps the version (its pages are pushed by the
                    # worker): its first move waits a tick, so as not to be credited with it.
                    duel_id, moves = current, 0
                    time.sleep(max(0.0, tick - time.monotonic()))
                    continue
                base = f"{self.base}/t/{self.slug}/duels/{duel_id}/"
                record = json.loads(self.http.open(base + "record.json").read())
                engine = Duel.from_record(record)
                seq = len(record["events"])
                if not engine.finished:
                    if moves >= self.per_duel:
                        kind, url = "result", base + "end/"
                        data = {"seq": seq, "rev": seq, "ending": "forfeit_B"}
                        data |= {"reason": "bench", "confirm": "on"}
                    else:
                        kind, url = "move", base + "move/"
                        data = self.move(engine, seq)
                    numbers = [int(v or 0) for v in self.redis.mget(self.keys)]
                    began = now()
                    status = self.post(url, data)
                    returned = now()
                    self.events.append(
                        {
                            "kind": kind,
                            "began": began,
                            "returned": returned,
                            "status": status,
                            "before": dict(zip(self.topics, numbers, strict=True)),
                        }
                    )
                    moves += 1
            except Exception as exc:  # noqa: BLE001 - a benchmark notes and goes on
                self.errors.append(repr(exc))
            time.sleep(max(0.0, tick - time.monotonic()))

    @staticmethod
    def move(engine, seq: int) -> dict:
        event = random.choice(engine.legal_events())
        data = {"seq": seq, "rev": seq, "type": event["type"]}
        if event["type"] == "round":
            data.update({f"card_{seat}": card for seat, card in event["cards"].items()})
        elif event["type"] == "action":
            data.update({"seat": event["seat"], "card": event["card"]})
            if "color" in event:
                data["color"] = event["color"]
        else:
            data.update({"seat": event["seat"], "choice": event["choice"]})
        return data

    def final(self) -> dict[str, int]:
        return dict(
            zip(self.topics, [int(v or 0) for v in self.redis.mget(self.keys)], strict=True)
        )


def page_url(slug: str, page: str) -> str:
    return f"/t/{slug}/{page}/"


def discover(base: str, slug: str) -> dict[str, tuple[str, list[str]]]:
    """Each public page's stream (its meta tag's address and topics), as a browser gets it."""
    found = {}
    for page in PAGES:
        try:
            with build_opener().open(base + page_url(slug, page)) as response:
                text = response.read().decode()
        except OSError:
            continue
        meta = META.search(text)
        if meta:
            found[page] = (html.unescape(meta[1]), html.unescape(meta[2]).split())
    return found


class Poller:
    """A spectator polling its page's live part over one keep-alive connection."""

    def __init__(self, port: int, path: str) -> None:
        self.port, self.path = port, path
        self.tag = ""
        self.answers: list[tuple[float, int]] = []  # (arrival, status)
        self.reader = self.writer = None

    async def get(self) -> int:
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        headers = f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nHX-Request: true\r\n"
        if self.tag:
            headers += f"If-None-Match: {self.tag}\r\n"
        self.writer.write((headers + "\r\n").encode())
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        status = int(head.split(" ", 2)[1])
        fields = {}
        for line in head.split("\r\n")[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        if "content-length" in fields:
            await self.reader.readexactly(int(fields["content-length"]))
        elif fields.get("transfer-encoding") == "chunked":
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                await self.reader.readexactly(size + 2)
                if size == 0:
                    break
        if status == 200 and fields.get("etag"):
            self.tag = fields["etag"]
        if fields.get("connection", "").lower() == "close":
            self.writer.close()
            self.writer = None
        return status

    async def run(self, seconds: float, every: float, stopping: asyncio.Event) -> None:
        await asyncio.sleep(random.uniform(0, every))
        while not stopping.is_set():
            try:
                status = await self.get()
                self.answers.append((now(), status))
            except (OSError, asyncio.IncompleteReadError, ValueError):
                self.writer = None
                self.answers.append((now(), 0))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), every * random.uniform(0.85, 1.15))


# The parts pushed after a move (tournaments.live_cache.push_playing: a move is no new version);
# a result bumps the version and the worker pushes every part (live_cache.warm).
MOVE_PARTS = ("home", "screen-now", "screen-call")


def shows(topic: str, kind: str) -> bool:
    return kind == "result" or topic.rsplit(":", 1)[1] in MOVE_PARTS


def deliveries(streams, topics_of, index, events, final):
    """For each move or result, and each stream following a part that it changes (and that
    was pushed after the POST began): the time from the POST's return to the arrival of the
    first message of those parts numbered above the number read before the POST. By kind
    of event and page."""
    waits: dict[tuple[str, str], list[float]] = {}
    missed = expected = 0
    for stream, page in streams:
        names = topics_of[page]
        # Per topic, its messages as they came: numbers rise, so the first with a number
        # above the one read before the POST is found by bisection.
        numbers: dict[str, list[int]] = {t: [] for t in names}
        arrivals: dict[str, list[float]] = {t: [] for t in names}
        name_of = {index.get(t.encode()): t for t in names}
        for at, which, n in stream.got:
            topic = name_of.get(which)
            if topic is not None:
                numbers[topic].append(n)
                arrivals[topic].append(at)
        for event in events:
            if event["status"] != 200:
                continue
            news = [t for t in names if shows(t, event["kind"]) and final[t] > event["before"][t]]
            if not news:
                continue
            expected += 1
            first = None
            for topic in news:
                i = bisect.bisect_right(numbers[topic], event["before"][topic])
                if i < len(numbers[topic]):
                    at = min(arrivals[topic][i:])
                    first = at if first is None else min(first, at)
            if first is None:
                missed += 1
            else:
                waits.setdefault((event["kind"], page), []).append(first - event["returned"])
    return waits, missed, expected


def by_kind(waits: dict[tuple[str, str], list[float]], kind: str | None = None) -> list[float]:
    return [w for (k, _), values in waits.items() if kind in (None, k) for w in values]


def per_page(waits: dict[tuple[str, str], list[float]]) -> str:
    lines = []
    for kind, page in sorted(waits):
        values = waits[(kind, page)]
        lines.append(
            f"      {kind:<6} on {page:<9} p50 {pct(values, 0.5) * 1000:5.0f} / p95 "
            f"{pct(values, 0.95) * 1000:5.0f} / max {max(values) * 1000:5.0f} ms (n={len(values)})"
        )
    return "\n".join(lines)


async def live(args, env, slug: str) -> None:
    from django.db import connection

    database = connection.settings_dict["NAME"]
    base = f"http://127.0.0.1:{args.port}"
    worker = subprocess.Popen(
        [str(BIN / "celery"), "-A", "config", "worker", "--loglevel", "WARNING",
         "--concurrency", "1", "--without-gossip", "--without-mingle", "-n", "streams@%h"],
        env=env, cwd=ROOT,
    )  # fmt: skip
    server = start_server(env, args.port, 2, args.extra)
    try:
        pages = discover(base, slug)
        if not pages:
            sys.exit("no page names a stream: is push on (REDIS_URL set)?")
        topics_of = {page: topics for page, (_, topics) in pages.items()}
        every_topic = sorted({t for topics in topics_of.values() for t in topics})
        plan = [list(pages)[i % len(pages)] for i in range(args.streams)]
        print(
            f"\n== live: the production stack (gunicorn "
            f"{crowd.gunicorn_settings(server_env(env, args.port, 2), [])}, Django's threads "
            f"{env.get('GUNICORN_THREADS', '2 (the default)')} a worker; "
            f"PostgreSQL {database}, Redis {env['REDIS_URL'].rsplit('/', 1)[1]}, a Celery "
            f"worker), tournament {slug}; {args.streams} spectators over "
            + ", ".join(f"{p} ({plan.count(p)}, {len(t)} topics)" for p, t in topics_of.items())
        )
        meter = crowd.Meter(server.pid, worker.pid, database)
        index: dict[bytes, int] = {}
        started = now()
        cpu0 = own_cpu()
        opened, refused = await open_streams(
            args.port, [pages[p][0] for p in plan], index, parallel=100
        )
        by_stream = [(s, p) for s, p in zip(opened, plan, strict=True) if s is not None]
        opened = [s for s, _ in by_stream]
        workers = workers_of(server.pid)
        print(
            f"  {len(opened)} streams open in {now() - started:.1f} s (refused {refused}; "
            f"the load generator's CPU {own_cpu() - cpu0:.1f} s); web workers' RSS "
            + ", ".join(f"{rss_kb(w) / 1024:.0f} MiB" for w in workers)
            + "; threads "
            + ", ".join(str(threads(w)) for w in workers)
        )
        await asyncio.sleep(2)

        # -- push ------------------------------------------------------------------------
        load_before = load()
        referee = Referee(base, slug, every_topic, args.move_seconds, args.moves_per_duel)
        meter.start()
        cpu0 = own_cpu()
        referee.start()
        await asyncio.sleep(args.duration)
        referee.running.clear()
        await asyncio.to_thread(referee.join, 10)
        await asyncio.sleep(3)  # the last move's messages
        used = meter.stop()
        generator = own_cpu() - cpu0
        final = referee.final()
        events = referee.events
        waits, missed, expected = deliveries(by_stream, topics_of, index, events, final)
        received = sum(len(s.got) for s in opened)
        lost = sum(s.lost for s in opened)
        stack = used["gunicorn"] + used["celery worker"]
        moves = sum(e["kind"] == "move" for e in events)
        results = sum(e["kind"] == "result" for e in events)
        posts = [e["returned"] - e["began"] for e in events]
        bad = sum(e["status"] != 200 for e in events)
        every = by_kind(waits)
        print(
            f"\n== push, {args.duration} s: {moves} moves and {results} results posted "
            f"(non-200: {bad}; the POST itself {summary(posts)}); load {load_before} -> {load()}\n"
            f"  POST returned -> the new state in each listener whose page shows it:\n"
            f"    all: {summary(every)}; budget p95 <= 1 s "
            f"{'met' if pct(every, 0.95) <= 1 else 'NOT met'}, target 500 ms "
            f"{'met' if pct(every, 0.95) <= 0.5 else 'not met'}\n"
            f"    moves: {summary(by_kind(waits, 'move'))}\n"
            f"    results: {summary(by_kind(waits, 'result'))}\n{per_page(waits)}\n"
            f"    expected {expected}, never arrived {missed}; streams lost meanwhile {lost}\n"
            f"  messages received by the listeners: {received}; CPU: gunicorn "
            f"{used['gunicorn']:.1f} s, Celery worker {used['celery worker']:.1f} s, "
            f"PostgreSQL {used['postgresql (this database)']:.1f} s, Redis (whole server) "
            f"{used['redis (whole server)']:.1f} s; web + worker per delivered update "
            f"{stack / max(1, received) * 1e6:.0f} us ({stack / args.duration * 100:.0f}% of "
            f"a core); the load generator {generator:.1f} s"
            + (f"\n  referee errors: {referee.errors[:3]}" if referee.errors else "")
        )
        for stream in opened:
            stream.close()
        await asyncio.sleep(2)
        if args.poll_duration <= 0:
            return

        # -- the same spectators polling -------------------------------------------------
        polled = {
            page: (f"/t/{slug}/screen/?panel=now" if page == "screen" else page_url(slug, page))
            for page in pages
        }
        pollers = [(Poller(args.port, polled[p]), p) for p in plan]
        stopping = asyncio.Event()
        load_before = load()
        referee = Referee(base, slug, every_topic, args.move_seconds, args.moves_per_duel)
        meter.start()
        cpu0 = own_cpu()
        tasks = [
            asyncio.create_task(p.run(args.poll_duration, args.poll_seconds, stopping))
            for p, _ in pollers
        ]
        await asyncio.sleep(args.poll_seconds * 1.2)  # every spectator has its tag
        referee.start()
        await asyncio.sleep(args.poll_duration)
        referee.running.clear()
        await asyncio.to_thread(referee.join, 10)
        await asyncio.sleep(args.poll_seconds * 1.2)
        stopping.set()
        await asyncio.gather(*tasks)
        used = meter.stop()
        generator = own_cpu() - cpu0
        wall = args.poll_duration + args.poll_seconds * 2.4
        answers = sum(len(p.answers) for p, _ in pollers)
        failed = sum(status == 0 for p, _ in pollers for _, status in p.answers)
        waits = {}
        for poller, page in pollers:
            changed = [at for at, status in poller.answers if status == 200]
            for event in referee.events:
                if event["status"] != 200 or not any(
                    shows(t, event["kind"]) for t in topics_of[page]
                ):
                    continue
                at = changed[bisect.bisect_right(changed, event["returned"]) :][:1]
                if at:
                    waits.setdefault((event["kind"], page), []).append(at[0] - event["returned"])
        every = by_kind(waits)
        stack = used["gunicorn"] + used["celery worker"]
        print(
            f"\n== polling every {args.poll_seconds:g} s (+-15%), {args.poll_duration} s of "
            f"moves: {sum(e['kind'] == 'move' for e in referee.events)} moves, "
            f"{sum(e['kind'] == 'result' for e in referee.events)} results; load "
            f"{load_before} -> {load()}\n"
            f"  POST returned -> the first changed answer of each spectator whose page shows it:\n"
            f"    all: {summary(every)}\n    moves: {summary(by_kind(waits, 'move'))}\n"
            f"    results: {summary(by_kind(waits, 'result'))}\n{per_page(waits)}\n"
            f"  polls answered {answers} ({answers / wall:.0f}/s, failed {failed}); CPU: gunicorn "
            f"{used['gunicorn']:.1f} s, Celery worker {used['celery worker']:.1f} s, PostgreSQL "
            f"{used['postgresql (this database)']:.1f} s, Redis {used['redis (whole server)']:.1f}"
            f" s; web + worker per poll {stack / max(1, answers) * 1e6:.0f} us "
            f"({stack / wall * 100:.0f}% of a core); the load generator {generator:.1f} s"
            + (f"\n  referee errors: {referee.errors[:3]}" if referee.errors else "")
        )
    finally:
        stop(server, worker)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("idle", "fanout", "live"))
    parser.add_argument("--streams", type=int, nargs="+", default=None)
    parser.add_argument("--messages", type=int, default=20)
    parser.add_argument("--html-bytes", type=int, default=2000)
    parser.add_argument("--duration", type=int, default=60, help="seconds of moves, push")
    parser.add_argument("--poll-duration", type=int, default=60, help="0: no polling phase")
    parser.add_argument("--poll-seconds", type=float, default=5.0)
    parser.add_argument("--move-seconds", type=float, default=1.0)
    parser.add_argument("--moves-per-duel", type=int, default=15)
    parser.add_argument("--port", type=int, default=8202)
    parser.add_argument(
        "--gunicorn-args", default="", help="added to gunicorn's command line (an experiment)"
    )
    args = parser.parse_args()
    args.extra = shlex.split(args.gunicorn_args)
    args.streams = (
        args.streams or {"idle": [5000, 10000], "fanout": [5000], "live": [2000]}[args.what]
    )
    raise_file_limit()
    env = crowd.django_env()
    # Room for the largest count asked (the default bound is 10,000 a process).
    env["STREAMS_MAX"] = str(max(10000, max(args.streams) + 100))
    os.environ.update(crowd.ENV)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    # This process's own few queries (naming a duel, crowd.Meter's list of PostgreSQL's
    # backends) run beside its event loop, outside any request: Django may run them there.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    import django

    django.setup()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    print(f"load generator: {'uvloop' if 'uvloop' in sys.modules else 'asyncio'}; "
          f"command: {shlex.join(sys.argv)}; load average {load()}")  # fmt: skip
    cpu0 = own_cpu()
    try:
        if args.what == "idle":
            asyncio.run(idle(args, env))
        elif args.what == "fanout":
            args.streams = args.streams[0]
            asyncio.run(fanout(args, env))
        else:
            args.streams = args.streams[0]
            asyncio.run(live(args, env, crowd.setup()))
    finally:
        if crowd.ENV.get("STATIC_ROOT_OURS"):
            import shutil

            shutil.rmtree(crowd.ENV["STATIC_ROOT"], ignore_errors=True)
    print(f"the load generator's CPU in all: {own_cpu() - cpu0:.1f} s")


if __name__ == "__main__":
    main()
