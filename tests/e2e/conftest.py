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
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
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
