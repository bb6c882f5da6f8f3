"""Playwright for Python driving Debian's Chromium (Playwright cannot download its own here)."""

import pytest

from tests.conftest import CHROMIUM, browser_missing

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


@pytest.fixture(scope="session")
def browser():
    why = browser_missing()
    if why:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    yield from _page(browser, live_server.url)


@pytest.fixture
def asgi_server(transactional_db, push_on):
    """The web process as production runs it (config/asgi.py under uvicorn: the streams on
    the event loop, Django in its threads), in a thread of the test, with push on through
    the real Redis (issue 28). `live_server` is Django's WSGI server: it has no streams."""
    import threading
    from types import SimpleNamespace

    import uvicorn
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.wsgi import get_wsgi_application

    from config.asgi import build

    application = build(StaticFilesHandler(get_wsgi_application()))
    config = uvicorn.Config(
        application,
        host="127.0.0.1",
        port=0,
        lifespan="on",
        log_level="warning",
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="asgi-server", daemon=True)
    thread.start()
    started = threading.Event()
    for _ in range(200):
        if server.started:
            started.set()
            break
        started.wait(0.05)
    assert server.started, "the ASGI server did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    yield SimpleNamespace(url=f"http://127.0.0.1:{port}", server=server)
    # As a restart does: the streams end first (with their retry hint), then the server.
    from core import streams

    loop = next(iter(server.server_state.tasks), None)
    if loop is not None:
        loop.get_loop().call_soon_threadsafe(streams.close_streams)
    server.should_exit = True
    thread.join(15)
    # Each of Django's threads closes its database connection as it stops (as Django's own
    # live server does for its thread): left open, they keep the test database from being
    # dropped at the end of the run.
    application.django.threads.shutdown(wait=True)


@pytest.fixture
def push_page(browser, asgi_server):
    """A page on the ASGI server, with push on."""
    yield from _page(browser, asgi_server.url)


def _page(browser, base_url):
    context = browser.new_context(viewport=DESKTOP, base_url=base_url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # A test that cuts the network off on purpose lists what that logs (a failed request,
    # htmx:sendError) here; nothing else is excused.
    page.expected_console_errors = []

    def on_console(msg):
        # Chromium logs every 4xx answer; refusals (409, 422) are answers the page expects.
        excused = any(text in msg.text for text in page.expected_console_errors)
        if msg.type == "error" and "status of 4" not in msg.text and not excused:
            errors.append(msg.text)

    page.on("console", on_console)
    yield page
    context.close()
    # A CSP violation or a script error is a bug a person would hit.
    assert errors == [], errors
