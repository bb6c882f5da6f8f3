"""A tap on the referee console, as a phone's browser sees it (issue 26, "A quicker tap").

    .venv/bin/python bench/console_tap.py      # options: --moves 80 --cpu 4 --latency 50 --seed 7
                                               #   --press 80 --trace FILE --profile

Chromium (/usr/bin/chromium, through Playwright) at phone size (390 x 844, touch), its CPU
slowed 4 times (CDP `Emulation.setCPUThrottlingRate`) and 50 ms added to every request's round
trip (CDP `Network.emulateNetworkConditions`), plays --moves moves of group-phase duels on the
console: the moves are legal moves picked by a seeded random referee (the same every run), each
entered as a referee does — the keys of the pads then "Play round", a decision's button, an
action card's button. Each tap is a finger's (CDP touch events), resting --press ms on the
glass before it lifts (80 by default; a person's tap lasts some 50-150 ms). For each move, the
tap that sends it is timed in the page:

- total: from the tap (the `pointerup` on the button: the finger lifted, on which the click
  follows) to the new state painted — htmx has
  swapped the answer in (the console, and out of band the log's new line and the news), every
  `htmx:afterSettle` handler has run (console.js's focus and scrolling), and the frame after
  that has been drawn (a task queued from the next `requestAnimationFrame`);
- server: the `Server-Timing` header this bench's server adds (the WSGI application's time,
  from the request to the whole answer built);
- in flight: from htmx's `send()` of the request to its answer in the page (the XHR's load,
  `htmx:beforeOnLoad`): the server's time and the emulated latency. Resource Timing's
  `responseEnd − requestStart` is printed too, but it is not what is subtracted: Chromium's
  emulated latency falls partly outside it (measured: with 50 ms of latency, requests whose
  server time was 10–40 ms showed 12–45 ms there), so "total − (responseEnd − requestStart)"
  would count most of the emulated network as the browser's work;
- browser's share: total − in flight, what the phone itself spends on a tap (the tap's events,
  htmx building and sending the request, parsing and swapping the answer, console.js, style,
  layout, paint), split into before the request and after its answer, and the latter into
  the swap, the settling (htmx:load, console.js's handlers) and the frame;
- in the DOM: from the tap to the new state swapped and settled, minus the request in flight
  (issue 26's own measure of a tap), and the time before the request split into the browser's
  input (the tap to its click) and htmx's;
- sent at the lift: how many taps lift.js sent at the finger's lift (issue 26: the page
  clicks the button itself, and the browser's click that follows is swallowed), against the
  browser's own click; "tap -> click" is then the lift to lift.js's click;
- --profile: the page's own script by self time per tap (CDP Profiler; for readable names,
  point base.html at django_htmx's htmx-2.js for the run);
- the floor: the tap to its click on a bare page (one button, same size, touch and throttle),
  what the browser spends on any tap before a page's script runs;
- the renderer's own counters per tap (CDP `Performance.getMetrics`, in thread time): layouts
  and style recalculations, and their time.

A tap that waited for a poll already in flight (`hx-sync`: one request of the console at a
time; the page polls every 2 s) is counted apart and left out of the figures: its wait is the
poll's round trip, not the browser's work.

It starts its own server: gunicorn (one process, the threaded worker gthread: this bench wraps the
WSGI application; without Redis the page polls, as it does without push) on 127.0.0.1
with the production settings (DEBUG off, plain HTTP, as bench/pages.py; static files collected
into a directory of its own and served by WhiteNoise, as bench/crowd.py),
on SQLite in a temporary file, and stops it afterwards. Every figure is printed as p50 / p95.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-not-a-secret-" + "x" * 30,
    "ALLOWED_HOSTS": "localhost,127.0.0.1",
    "SECURE_SSL_REDIRECT": "0",
    "SESSION_COOKIE_SECURE": "0",
    "CSRF_COOKIE_SECURE": "0",
    "SECURE_HSTS_SECONDS": "0",
    "LOG_LEVEL": "WARNING",
    "GUNICORN_ACCESS_LOG": "off",
    "PYTHONWARNINGS": "ignore:No directory at",
}
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}


def application(environ, start_response):
    """The project's WSGI application with a `Server-Timing` header: the time from the request
    to the whole answer built (Django renders and gzips it before returning). gunicorn serves
    this (`console_tap:application`); it exists for this bench only."""
    from config.wsgi import application as django_app

    start = time.perf_counter()
    held: list = []

    def timed_start(status, headers, exc_info=None):
        held[:] = [status, headers, exc_info]
        return lambda data: None  # Django never uses write()

    body = list(django_app(environ, timed_start))
    ms = (time.perf_counter() - start) * 1000
    status, headers, exc_info = held
    start_response(status, [*headers, ("Server-Timing", f"app;dur={ms:.2f}")], exc_info)
    return body


# Instruments the page: one record per tap that sends a move of the console. `--trace FILE`
# writes a Chromium trace of the first duel's taps (chrome://tracing, Perfetto), which names
# each forced layout's script.
PROBE = r"""
(() => {
  const tap = { pending: null, done: [], polls: 0, waiters: [] };
  window.__tap = tap;
  performance.setResourceTimingBufferSize(100000);
  const sending = (el) => el && el.closest &&
    el.closest("#console button[type=submit], #console button:not([type]), #console-ending button");
  // The tap is the finger lifted: the click follows the pointerup, and the time the finger
  // rests on the glass is not the browser's work. The event's timeStamp is when the input
  // reached the browser, so a busy page's delay in handling it counts.
  document.addEventListener("pointerup", (event) => {
    if (!sending(event.target)) return;
    tap.pending = { t0: event.timeStamp, queued: tap.polls > 0 };
  }, true);
  // The click the tap becomes: before it, the browser's own input pipeline (the gesture
  // recognised, hover, press and focus styles), which a page's script cannot shorten.
  document.addEventListener("click", (event) => {
    if (tap.pending && tap.pending.click === undefined) {
      tap.pending.click = performance.now();
      tap.pending.trusted = event.isTrusted;
    }
  }, true);
  document.addEventListener("htmx:beforeRequest", (event) => {
    const elt = event.detail.elt;
    if (elt && elt.classList && elt.classList.contains("poller")) tap.polls += 1;
    else if (tap.pending) tap.pending.sent = performance.now();
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (elt && elt.classList && elt.classList.contains("poller")) tap.polls -= 1;
  });
  document.addEventListener("htmx:beforeOnLoad", (event) => {
    if (tap.pending && tap.pending.sent !== undefined && tap.pending.arrived === undefined) {
      tap.pending.arrived = performance.now();
    }
  });
  // Captured on document, before console.js's own handler on body: htmx has read the answer
  // and is about to swap it.
  document.addEventListener("htmx:beforeSwap", () => {
    const p = tap.pending;
    if (p && p.arrived !== undefined && p.reading === undefined) p.reading = performance.now();
  }, true);
  document.addEventListener("htmx:afterSwap", (event) => {
    const p = tap.pending;
    if (p && p.arrived !== undefined && p.swapped === undefined &&
        event.detail.elt && event.detail.elt.id === "console") p.swapped = performance.now();
  });
  // On document: after console.js's own handler on body (focus, scrolling into view).
  document.addEventListener("htmx:afterSettle", (event) => {
    const p = tap.pending;
    if (!p || p.dom !== undefined) return;
    if (!event.detail.elt || event.detail.elt.id !== "console") return;
    p.dom = performance.now();
    requestAnimationFrame(() => setTimeout(() => {
      p.painted = performance.now();
      const entry = performance.getEntriesByType("resource").filter((e) =>
        e.initiatorType === "xmlhttprequest" && !e.name.includes("/poll/") && e.startTime >= p.t0
      )[0];
      if (entry) {
        p.requestStart = entry.requestStart;
        p.responseEnd = entry.responseEnd;
        const server = entry.serverTiming.find((t) => t.name === "app");
        p.server = server ? server.duration : null;
      }
      tap.pending = null;
      tap.done.push(p);
      tap.waiters.splice(0).forEach((resolve) => resolve());
    }, 0));
  });
  tap.wait = (n) => new Promise((resolve, reject) => {
    if (tap.done.length >= n) resolve(tap.done[n - 1]);
    else {
      tap.waiters.push(() => resolve(tap.wait(n)));
      setTimeout(() => reject(new Error("no new state 20 s after the tap")), 20000);
    }
  });
})();
"""


# The browser's own share of any tap, for reference: a page with one button and nothing else,
# at the same size, touch and CPU throttle, tapped after a scroll to it as the console's are.
BARE = """<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1">
<style>button { width: 100%; height: 60px; touch-action: manipulation; }</style>
<div style="height: 1500px"></div><button>Tap</button><div style="height: 1500px"></div>
<script>
window.__up = []; let t0 = 0;
document.addEventListener("pointerup", (e) => { t0 = e.timeStamp; }, true);
document.addEventListener("click", () => { window.__up.push(performance.now() - t0); }, true);
</script>"""


def input_floor(cpu: float, press: float, taps: int = 40) -> list[float]:
    """Tap -> click on the bare page above: what the browser spends before any page's script."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
        )
        page = context.new_page()
        page.set_content(BARE)
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        button = page.locator("button")
        for n in range(taps):
            page.evaluate(f"window.scrollTo(0, {3000 if n % 2 else 0})")
            button.scroll_into_view_if_needed()
            box = button.bounding_box()
            before = page.evaluate("window.__up.length")
            tap(cdp, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, press)
            page.wait_for_function(f"window.__up.length > {before}")
        values = page.evaluate("window.__up")
        browser.close()
    return values


def tap(cdp, x: float, y: float, press: float) -> None:
    """A finger's tap (CDP Input.dispatchTouchEvent): down, held `press` ms, lifted. A person's
    finger rests on the glass for some 50-150 ms; a tap of no length (Playwright's) makes the
    browser handle the touch's start, and the frame of its pressed style, after the lift,
    which a real tap never sees."""
    point = {"x": x, "y": y, "radiusX": 8, "radiusY": 8, "force": 1, "id": 1}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    if press:
        time.sleep(press / 1000)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def line(name: str, values: list[float]) -> str:
    return (
        f"  {name:<44} p50 {statistics.median(values):6.1f} ms   "
        f"p95 {percentile(values, 0.95):6.1f} ms   max {max(values):6.1f} ms"
    )


def setup_django(sqlite: Path) -> None:
    for key, value in BENCH_ENV.items():
        os.environ.setdefault(key, value)
    os.environ["SQLITE_PATH"] = str(sqlite)
    # Static files as production serves them (hashed names, WhiteNoise), collected into the
    # bench's own directory.
    os.environ["STATIC_ROOT"] = str(sqlite.parent / "static")
    os.environ.pop("DATABASE_URL", None)
    # The bench's own reads and writes run beside Playwright's event loop (sync API).
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import warnings

    import django

    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)


def new_duel(n: int):
    from tests.factories import group_phase_duel

    return group_phase_duel(players=(f"Ada {n}", f"Bo {n}"))


def legal_event(duel_pk: int, rng: random.Random) -> dict | None:
    from duels.models import Duel
    from duels.services import engine_of

    engine = engine_of(Duel.objects.select_related("seat_a", "seat_b").get(pk=duel_pk))
    if engine.finished:
        return None
    return rng.choice(engine.legal_events())


def prepare(page, event: dict):
    """Taps the event in as a referee does, all but the last tap: returns the button whose
    tap sends it (the one timed)."""
    kind = event["type"]
    if kind == "round":
        for seat, card in event["cards"].items():
            page.locator(
                f"#round-form label:has(> input[name='card_{seat}'][value='{card}'])"
            ).tap()
        return page.locator("#round-form button[type=submit]")
    if kind == "action":
        value = f"{event['seat']}:{event.get('color', event['card'])}"
        button = page.locator(f"#console .seat-actions button[value='{value}']")
        if "color" in event:
            button.locator("xpath=ancestor::details/summary").tap()
        return button
    return page.locator(f"#choice-{event['choice']}")


# The renderer's own counters (CDP Performance.getMetrics), read before and after a tap:
# how many times it laid the page out and recalculated styles, and for how long. Counts do
# not depend on how busy the machine is.
COUNTERS = ("LayoutCount", "RecalcStyleCount", "LayoutDuration", "RecalcStyleDuration",
            "ScriptDuration", "TaskDuration")  # fmt: skip


def counters(cdp) -> dict[str, float]:
    got = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {name: got.get(name, 0.0) for name in COUNTERS}


def serve(port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "console_tap:application",
            # The threaded worker, not gunicorn.conf.py's uvicorn worker (issue 28), which
            # serves ASGI: this bench's wrapper is a WSGI application.
            "--worker-class",
            "gthread",
            "--pythonpath",
            f"{ROOT / 'bench'},{ROOT}",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            "1",
            "--threads",
            "4",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=dict(os.environ),
    )
    for _ in range(300):
        if server.poll() is not None:
            raise RuntimeError("gunicorn stopped")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)  # noqa: S310
            return server
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("gunicorn did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=80, help="moves timed, over as many duels")
    parser.add_argument("--cpu", type=float, default=4, help="CPU throttling rate")
    parser.add_argument("--latency", type=float, default=50, help="ms added per round trip")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--press", type=float, default=80, help="ms the finger rests on the glass (0: none)"
    )
    parser.add_argument("--port", type=int, default=8231)
    parser.add_argument("--trace", type=Path, help="write a Chromium trace of the taps here")
    parser.add_argument(
        "--profile", action="store_true", help="print the page's script by self time (CDP)"
    )
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="console_tap_"))
    setup_django(workdir / "bench.sqlite3")
    from django.conf import settings
    from playwright.sync_api import sync_playwright

    from tests.factories import PASSWORD

    assert settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
    rng = random.Random(args.seed)
    server = serve(args.port)
    taps: list[dict] = []
    profiles: list[dict] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                headless=True,
                args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
            )
            print(
                f"Chromium {browser.version} at {PHONE['width']}x{PHONE['height']} (touch), CPU "
                f"throttled {args.cpu:g}x, +{args.latency:g} ms a round trip, taps held "
                f"{args.press:g} ms; gunicorn on "
                f"SQLite; Python {platform.python_version()}, {platform.machine()}, "
                f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
            )
            n = 0
            while len(taps) < args.moves:
                duel, referee = new_duel(n)
                n += 1
                context = browser.new_context(
                    viewport=PHONE,
                    base_url=f"http://127.0.0.1:{args.port}",
                    has_touch=True,
                    is_mobile=True,
                )
                context.set_default_timeout(30_000)
                page = context.new_page()
                page.add_init_script(PROBE)
                page.goto("/accounts/login/")
                page.get_by_label("Username").fill(referee.username)
                page.get_by_label("Password").fill(PASSWORD)
                page.get_by_role("button", name="Sign in").click()
                page.get_by_role("heading", name="My dashboard").wait_for()
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
                cdp.send(
                    "Network.emulateNetworkConditions",
                    {
                        "offline": False,
                        "latency": args.latency,
                        "downloadThroughput": -1,
                        "uploadThroughput": -1,
                    },
                )
                page.goto(f"/t/{duel.tournament.slug}/duels/{duel.pk}/")
                page.locator("#console").wait_for()
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
                if args.trace and n == 1:
                    browser.start_tracing(page=page, screenshots=False)
                if args.profile:
                    cdp.send("Profiler.enable")
                    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
                    cdp.send("Profiler.start")
                done = 0
                while len(taps) < args.moves:
                    event = legal_event(duel.pk, rng)
                    if event is None:
                        break
                    seq = int(page.locator("#console").get_attribute("data-seq"))
                    button = prepare(page, event)
                    # The tap itself as a finger gives it (CDP Input.dispatchTouchEvent), without
                    # Playwright's checks before an action, which would run in the page and count.
                    # A button out of view is scrolled to first, as a referee would.
                    button.scroll_into_view_if_needed()
                    box = button.bounding_box()
                    before = counters(cdp)
                    tap(cdp, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, args.press)
                    done += 1
                    record = page.evaluate("(n) => window.__tap.wait(n)", done)
                    after = counters(cdp)
                    record["work"] = {k: after[k] - before[k] for k in COUNTERS}
                    page.locator(f"#console[data-seq='{seq + 1}']").wait_for(state="attached")
                    taps.append(record)
                if args.trace and n == 1:
                    args.trace.write_bytes(browser.stop_tracing())
                if args.profile:
                    profiles.append(cdp.send("Profiler.stop")["profile"])
                context.close()
            browser.close()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        shutil.rmtree(workdir, ignore_errors=True)

    kept = [t for t in taps if not t["queued"]]
    total = [t["painted"] - t["t0"] for t in kept]
    flight = [t["arrived"] - t["sent"] for t in kept]
    print(
        f"{len(taps)} moves over {n} duels (seed {args.seed}); {len(kept)} timed, "
        f"{len(taps) - len(kept)} left out (sent after a poll in flight)"
    )
    early = sum(1 for t in kept if t.get("trusted") is False)
    print(
        f"{early} of {len(kept)} taps sent at the finger's lift (lift.js clicked the button); "
        f"{len(kept) - early} by the browser's own click"
    )
    print(line("total: tap -> new state painted", total))
    print(line("  tap -> swapped and settled (DOM)", [t["dom"] - t["t0"] for t in kept]))
    print(line("server (Server-Timing)", [t["server"] for t in kept if t["server"] is not None]))
    print(line("request in flight: send() -> answer in page", flight))
    print(
        line(
            "  Resource Timing: responseEnd - requestStart",
            [t["responseEnd"] - t["requestStart"] for t in kept if "requestStart" in t],
        )
    )

    def between(start: str, end: str) -> list[float]:
        return [t[end] - t[start] for t in kept]

    print(
        line(
            "browser's share: total - in flight",
            [a - b for a, b in zip(total, flight, strict=True)],
        )
    )
    print(
        line(
            "  in the DOM: swapped and settled - in flight",
            [t["dom"] - t["t0"] - f for t, f in zip(kept, flight, strict=True)],
        )
    )
    print(line("  tap -> request sent", between("t0", "sent")))
    print(line("    tap -> click (the browser's input)", between("t0", "click")))
    print(line("    click -> request sent (htmx)", between("click", "sent")))
    print(line("  answer in page -> painted", between("arrived", "painted")))
    print(line("    answer -> swapped (htmx:afterSwap)", between("arrived", "swapped")))
    print(line("      answer -> htmx:beforeSwap (htmx reads it)", between("arrived", "reading")))
    print(line("      htmx:beforeSwap -> swapped (the swap)", between("reading", "swapped")))
    print(line("    swapped -> settled (htmx:afterSettle)", between("swapped", "dom")))
    print(line("    settled -> painted", between("dom", "painted")))
    floor = input_floor(args.cpu, args.press)
    print(
        line("a bare page's tap -> click, same CPU (the floor)", floor)
        + f"  ({len(floor)} taps on one button, after a scroll to it)"
    )
    if profiles:
        print_profile(profiles, len(taps))
    print("the renderer's main thread per tap (CDP Performance.getMetrics, thread time):")
    for name, scale, unit in (
        ("LayoutCount", 1, ""),
        ("RecalcStyleCount", 1, ""),
        ("LayoutDuration", 1000, " ms"),
        ("RecalcStyleDuration", 1000, " ms"),
        ("ScriptDuration", 1000, " ms"),
        ("TaskDuration", 1000, " ms"),
    ):
        values = [t["work"][name] * scale for t in kept]
        print(
            f"  {name:<22} p50 {statistics.median(values):6.1f}{unit:<3}  "
            f"p95 {percentile(values, 0.95):6.1f}{unit}"
        )


def print_profile(profiles: list[dict], taps: int, top: int = 30) -> None:
    """The page's own script by self time over the taps (CDP Profiler samples, throttled time):
    each sample is put on the nearest function of a file the page loads (a native call such
    as querySelectorAll on its caller); samples with none (Playwright's own scripts between
    taps, the idle, the renderer's program) are left out."""
    by: dict[str, float] = {}
    for profile in profiles:
        nodes = {node["id"]: node for node in profile["nodes"]}
        parent = {c: node["id"] for node in profile["nodes"] for c in node.get("children", [])}
        deltas = profile["timeDeltas"]
        for sample, delta in zip(profile["samples"], deltas[1:] + [0], strict=True):
            node, native = sample, None
            while node is not None and not nodes[node]["callFrame"]["url"].startswith("http"):
                native = native or nodes[node]["callFrame"]["functionName"]
                node = parent.get(node)
            if node is None:
                continue
            frame = nodes[node]["callFrame"]
            name = frame["functionName"] or "(anonymous)"
            url = frame["url"].rsplit("/", 1)[-1]
            key = f"{name} {url}:{frame['lineNumber'] + 1}" + (f" > {native}" if native else "")
            by[key] = by.get(key, 0.0) + delta / 1000
    total = sum(by.values())
    print(f"the page's own script by self time, per tap ({total / taps:.1f} ms a tap, throttled):")
    for key, ms in sorted(by.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {ms / taps:7.2f} ms  {key}")


if __name__ == "__main__":
    main()
