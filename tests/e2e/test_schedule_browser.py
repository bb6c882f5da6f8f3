"""On the day (issue 16) in Chromium: a result played on paper in at most three submits and
page loads; the big screen's clock and the duel called to its table; /me/ updating live."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from accounts.notifications import WORDS
from duels.models import Duel, DuelStatus
from tests.e2e.test_htmx_browser import sign_in
from tests.factories import group_phase_duel

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def count_actions(page) -> list[str]:
    """Every page load and form submit the person causes (a redirect's landing page is part
    of the submit that caused it, as a person sees it)."""
    actions: list[str] = []

    def on_request(request):
        if request.frame != page.main_frame or request.redirected_from is not None:
            return
        if request.is_navigation_request() or request.method == "POST":
            actions.append(f"{request.method} {request.url}")

    page.on("request", on_request)
    return actions


def test_a_paper_result_in_at_most_three_actions(page):
    duel, referee = group_phase_duel(players=("Alice", "Bob"), slug="cup")
    tournament = duel.tournament
    Duel.objects.filter(pk=duel.pk).delete()  # round 1 open, nobody named yet
    organiser = tournament.created_by
    sign_in(page, organiser.username)

    actions = count_actions(page)
    page.goto("/t/cup/manage/rounds/")
    form = page.locator("#paper-form")
    form.get_by_label("Played for Reds").select_option(label="Alice")
    form.get_by_label("Played for Blues").select_option(label="Bob")
    form.get_by_label("The player chosen for Blues won").check()
    form.get_by_label("Reason (private, optional)").fill("the tablet died")
    form.get_by_role("button", name="Record the paper result").click()
    expect(page.get_by_text("Group round 1 played on paper: Bob won.")).to_be_visible()
    assert len(actions) <= 3, actions
    assert len(actions) == 2, actions  # open the page, submit the form
    played = Duel.objects.get(tournament=tournament, round__number=1)
    assert played.status == DuelStatus.FINISHED and played.result.winner.name == "Bob"
    expect(page.get_by_role("heading", name="Round 2 of 15")).to_be_visible()

    results = Axe().run(page)  # every rule on
    assert results.violations_count == 0, results.generate_report()


def test_back_after_a_paper_result_does_not_refill_the_next_rounds_form(page):
    """Walk of the night: Back after a paper sheet showed round 2's form refilled by the
    browser with round 1's players and winner, and one tap recorded a round nobody played.
    The form is not restored now: the next sheet needs its choices made again."""
    duel, _ = group_phase_duel(players=("Alice", "Bob"), slug="cup")
    tournament = duel.tournament
    Duel.objects.filter(pk=duel.pk).delete()
    sign_in(page, tournament.created_by.username)
    page.goto("/t/cup/manage/rounds/")
    form = page.locator("#paper-form")
    form.get_by_label("Played for Reds").select_option(label="Alice")
    form.get_by_label("Played for Blues").select_option(label="Bob")
    form.get_by_label("The player chosen for Blues won").check()
    form.get_by_role("button", name="Record the paper result").click()
    expect(page.get_by_text("Group round 1 played on paper: Bob won.")).to_be_visible()

    page.go_back()
    form = page.locator("#paper-form")
    expect(form.get_by_label("Played for Reds")).to_have_value("")
    expect(form.get_by_label("Played for Blues")).to_have_value("")
    expect(form.get_by_label("The player chosen for Blues won")).not_to_be_checked()
    form.get_by_role("button", name="Record the paper result").click()
    expect(page.locator("#id_paper_first_error")).to_have_text("This field is required.")
    assert not Duel.objects.filter(tournament=tournament, round__number=2).exists()


def test_a_refused_form_brings_its_first_error_into_view_on_a_phone(page):
    """Sent empty, the paper form comes back with its errors far down the Rounds page: the
    first field in error has the focus and is on screen (browser pass: the page came back at
    its top with the errors ~1,300 px below)."""
    from tests.e2e.conftest import PHONE

    duel, _ = group_phase_duel(players=("Alice", "Bob"), slug="cup")
    Duel.objects.filter(pk=duel.pk).delete()
    sign_in(page, duel.tournament.created_by.username)
    page.set_viewport_size(PHONE)
    page.goto("/t/cup/manage/rounds/")
    page.locator("#paper-form").get_by_role("button", name="Record the paper result").click()
    first = page.locator("#paper-form").get_by_label("Played for Reds")
    expect(first).to_be_focused()
    expect(first).to_be_in_viewport()
    expect(page.locator("#id_paper_first_error")).to_have_text("This field is required.")


@pytest.fixture
def fast_polls(settings):
    settings.PUBLIC_POLL_SECONDS = 1  # the pages poll every 5 s; the tests need not wait


@pytest.mark.live
def test_the_big_screen_shows_the_venue_clock_and_the_call_live(page, fast_polls):
    """The clock ticks in the tournament's zone (Tokyo, whatever the browser's), and a call
    made by staff reaches the screen by its poll. Playwright's clock drives the timers."""
    from datetime import UTC, datetime, timedelta

    from django.utils import timezone

    from tests.e2e.test_public_browser import group_phase, shown
    from tournaments.services import refereeing
    from tournaments.services.schedule import set_schedule

    tournament, referee, entrants, duel = group_phase(table="")
    soon = (timezone.now() + timedelta(days=1)).replace(second=0, microsecond=0)
    set_schedule(
        tournament,
        tournament.created_by,
        time_zone="Asia/Tokyo",
        starts={"round:2": soon, "round:3": soon + timedelta(minutes=30)},
    )
    page.clock.install(time=datetime(2026, 11, 23, 12, 0, 30, tzinfo=UTC))
    page.clock.pause_at(datetime(2026, 11, 23, 12, 0, 31, tzinfo=UTC))
    page.goto(f"/t/{tournament.slug}/screen/")
    clock = page.locator("#screen-clock")
    expect(clock).to_have_text("21:00")  # 12:00 UTC is 21:00 in Tokyo
    expect(page.locator(".screen-zone")).to_have_text("Asia/Tokyo")
    local_soon = timezone.localtime(soon, __import__("zoneinfo").ZoneInfo("Asia/Tokyo"))
    # Next is round 2's duel, waiting to start (the event's state), at its planned time; round
    # 3 is not next while round 2 is still to play.
    expect(page.locator(".screen-next")).to_have_text(f"Next: Group round 2 at {local_soon:%H:%M}")
    expect(page.locator(".screen-called")).to_have_count(0)
    page.clock.run_for(60_000)
    expect(clock).to_have_text("21:01")

    refereeing.call_duel(duel, referee, "7")
    with page.expect_response("**/screen/?panel=call"):
        # Each part polls once within 1.15 × its interval (static/js/app.js spreads them).
        page.clock.run_for(1150)
    called = page.locator(".screen-called li")
    expect(called).to_have_count(1)
    expect(called).to_contain_text("Table 7")
    expect(page.locator(".screen-next")).to_have_count(0)  # the called duel is listed once
    expect(called).to_contain_text(f"{entrants[16].name} v {entrants[1].name}")
    assert len(shown(page)) == 1  # the strip is no panel: still exactly one panel shows

    page.clock.resume()  # axe waits on its own timers
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


@pytest.mark.live
def test_me_shows_the_call_without_a_reload(page, fast_polls):
    from tests.e2e.test_public_browser import group_phase
    from tests.factories import UserFactory
    from tournaments.models import Entrant
    from tournaments.services import refereeing

    tournament, referee, entrants, duel = group_phase(table="")
    player = UserFactory(username="pat")
    Entrant.objects.filter(pk=entrants[1].pk).update(user=player)
    sign_in(page, "pat")
    page.goto("/me/")
    next_duel = page.locator(".next-duel")
    expect(next_duel).to_contain_text(f"Group round 2 v {entrants[16].name}")
    expect(next_duel).not_to_contain_text("called")
    page.evaluate("window.__loaded = true")  # gone if the page reloads

    refereeing.call_duel(duel, referee, "9")
    expect(next_duel).to_contain_text("called to Table 9")  # the poll brings it in
    assert page.evaluate("window.__loaded") is True

    results = Axe().run(page)  # the page with its "check me in" button
    assert results.violations_count == 0, results.generate_report()
    # Called to the table, the player checks in from the same page and lands back on it.
    page.get_by_role("button", name=f"I am here: check me in to {tournament.name}").click()
    expect(page.get_by_role("status")).to_contain_text("You are checked in as")
    expect(page.locator(".entry-cards")).to_contain_text("You are checked in.")
    assert page.url.endswith("/me/")


def test_axe_on_the_schedule_and_notifications_pages(page):
    duel, referee = group_phase_duel(slug="cup")
    organiser = duel.tournament.created_by
    sign_in(page, organiser.username)
    page.goto("/t/cup/manage/schedule/")
    page.get_by_label("Time zone").select_option("Europe/Paris")
    page.get_by_label("Grand Final").fill("2026-12-06T18:00")
    page.get_by_role("button", name="Save the schedule").click()
    expect(page.get_by_text("Schedule saved.")).to_be_visible()
    expect(page.get_by_label("Grand Final")).to_have_value("2026-12-06T18:00")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()

    page.goto("/accounts/notifications/")
    page.get_by_label("E-mail address").fill("olga@example.org")
    page.get_by_label(str(WORDS["label"])).check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text(str(WORDS["on"]))).to_be_visible()
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
