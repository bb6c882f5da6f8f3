"""A schedule in a minute (issue 26), in Chromium at phone size: the create page preselects
the device's own time zone (an older name of it read as the list's), and the schedule page
plans the whole evening from one time and an interval, and warns when the slots are shorter
than a duel. Axe on both pages."""

from datetime import UTC, datetime

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE
from tests.e2e.test_console_browser import watch
from tests.e2e.test_htmx_browser import sign_in
from tests.factories import UserFactory
from tournaments.models import StartTime, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def kolkata_page(browser, live_server):
    """A phone whose clock is set to Kolkata, reported by its old name, Asia/Calcutta (as
    Chromium's ICU names it): the page fixture's checks, in that zone."""
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, timezone_id="Asia/Calcutta"
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors = watch(page)  # the page fixture's checks
    yield page
    context.close()
    assert errors == [], errors


def test_the_zone_is_preselected_and_the_evening_planned_in_one_go_on_a_phone(kolkata_page):
    page = kolkata_page
    UserFactory(username="olga")
    sign_in(page, "olga")
    page.goto("/t/new/")
    assert page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == "Asia/Calcutta"
    expect(page.get_by_label("Time zone")).to_have_value("Asia/Kolkata")
    results = Axe().run(page)  # every rule on
    assert results.violations_count == 0, results.generate_report()

    page.get_by_label("Tournament name").fill("Night Cup")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_text("“Night Cup” is created.")).to_be_visible()
    assert Tournament.objects.get().time_zone == "Asia/Kolkata"

    page.goto("/t/night-cup/manage/schedule/")
    expect(page.get_by_text("Group duels are played one at a time")).to_be_visible()
    page.get_by_label("Group round 1 at").fill("2026-12-05T19:00")
    page.get_by_label("Then a round every (minutes)").fill("6")
    page.get_by_role("button", name="Fill every start time").click()
    expect(page.get_by_text("Every start time is planned (20 parts)")).to_be_visible()
    expect(
        page.get_by_text("Group round 2 starts 6 minutes after Group round 1, less than")
    ).to_be_visible()
    expect(page.get_by_label("Group round 15")).to_have_value("2026-12-05T20:24")
    first = StartTime.objects.get(key="round:1").starts_at
    assert first == datetime(2026, 12, 5, 13, 30, tzinfo=UTC)  # 19:00 in Kolkata
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
