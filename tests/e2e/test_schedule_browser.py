"""On the day (issue 16) in Chromium: a result played on paper in at most three submits and
page loads; the big screen's clock and the duel called to its table; /me/ updating live."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

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
    form.get_by_label("Representative of Reds").select_option(label="Alice")
    form.get_by_label("Representative of Blues").select_option(label="Bob")
    form.get_by_label("Blues's representative").check()
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
