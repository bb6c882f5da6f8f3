"""A stream without Redis degrades to polling (issue 28). The web process as production runs
it (config/asgi.py under uvicorn), its streams' Redis unreachable from the start: the stream
is refused (503), the page never says its stream is up, and a result still reaches a
spectator's standings by the page's poll."""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_public_browser import group_phase
from tests.integration.redis_fault import free_port
from tournaments.services import refereeing

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def streams_without_redis(settings):
    """Set before the server starts (list it before `push_page`): the stream hub and the
    sender find nothing at REDIS_URL; the site's cache and broker keep theirs."""
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"
    settings.PUBLIC_POLL_SECONDS = 1


def test_without_redis_for_the_streams_the_standings_still_update_by_polling(
    streams_without_redis, push_page
):
    tournament, referee, entrants, duel = group_phase()
    refused: list[int] = []
    push_page.on(
        "response", lambda r: refused.append(r.status) if "/push/stream" in r.url else None
    )
    # Every state the page gives its stream, from the first.
    push_page.add_init_script(
        """
        window.__push = [];
        new MutationObserver(function (changes) {
          changes.forEach(function (change) {
            window.__push.push(change.target.getAttribute("data-push"));
          });
        }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-push"] });
        """
    )
    # The browser logs a refused stream as an error; that refusal is what this test is about.
    push_page.expected_console_errors = ["503", "EventSource"]
    push_page.goto(f"/t/{tournament.slug}/standings/")
    expect(push_page.locator('meta[name="push"]')).to_have_count(1)  # push on: it tried
    row = push_page.locator("#standings-table tbody tr", has_text=entrants[1].name)
    expect(row.locator("td.num").first).to_have_text("0")
    with push_page.expect_response(lambda r: "/push/stream" in r.url and r.status == 503):
        pass

    # Round 2: seat A is entrants[16]; entrants[1] wins by forfeit.
    refereeing.append_event(duel, referee, {"type": "forfeit", "seat": "A"}, duel.seq)

    expect(row.locator("td.num").first).to_have_text("3")
    assert refused and set(refused) == {503}
    states = push_page.evaluate("window.__push")
    assert states and "up" not in states, states  # it said "down", never "up"
    expect(push_page.locator("html")).not_to_have_attribute("data-push", "up")
