"""Giving a running duel to another referee, and back, from the Rounds page on a phone (issue
"Trust on the night"): confirmed on the form, told to the referee it was taken from on the
console they have open (it turns read-only by itself, no reload), given back the same way;
axe finds nothing on the page."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from accounts.models import Role
from duels.models import Duel
from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.test_htmx_browser import sign_in
from tests.factories import RoleFactory, UserFactory, group_phase_duel
from tournaments.models import AuditEntry
from tournaments.services import refereeing

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The old referee's console learns of the take at its next poll (every 2 s): a person looks
# a few seconds; under CI's load a little longer.
POLLED = 15_000


@pytest.mark.live  # the old referee's console changes by itself while the organiser acts
def test_a_running_duel_is_given_to_another_referee_and_back_on_a_phone(page, browser, live_server):
    olga = UserFactory(username="olga")
    duel, _ = group_phase_duel(players=("Alice", "Bob"), slug="cup", created_by=olga)
    tournament = duel.tournament
    bao = RoleFactory(
        tournament=tournament, role=Role.REFEREE, user=UserFactory(username="bao")
    ).user
    cy = RoleFactory(tournament=tournament, role=Role.REFEREE, user=UserFactory(username="cy")).user
    Duel.objects.filter(pk=duel.pk).update(referee=bao)
    refereeing.append_event(duel, bao, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)

    # Bao runs the duel: their console is open on their phone, the move pad in hand.
    other = browser.new_context(viewport=PHONE, base_url=live_server.url)
    errors: list[str] = []
    theirs = other.new_page()
    theirs.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(theirs, "bao")
    theirs.goto(f"/t/cup/duels/{duel.pk}/")
    expect(theirs.locator("#round-form")).to_be_visible()
    expect(theirs.locator("#console-ending details")).to_have_count(1)

    page.set_viewport_size(PHONE)
    sign_in(page, "olga")
    page.goto("/t/cup/manage/rounds/")
    card = page.locator("li.duel-card.status-running")
    card.get_by_label("Referee for Group round 1").select_option(label="cy")
    # Without the confirmation nothing moves, and the page says why.
    card.get_by_role("button", name="Give Group round 1 to this referee").click()
    expect(page.get_by_role("alert")).to_contain_text("tick the confirmation")
    assert Duel.objects.get(pk=duel.pk).referee_id == bao.pk

    card = page.locator("li.duel-card.status-running")
    card.get_by_label("Referee for Group round 1").select_option(label="cy")
    card.get_by_label("Yes, move this running duel away from bao").check()
    card.get_by_role("button", name="Give Group round 1 to this referee").click()
    expect(page.get_by_text("Group round 1 is open for cy")).to_be_visible()
    expect(page.locator("li.duel-card.status-running")).to_contain_text("referee cy")
    assert Duel.objects.get(pk=duel.pk).referee_id == cy.pk
    assert AuditEntry.objects.filter(tournament=tournament, action="duel_taken").count() == 1

    results = Axe().run(page)  # every rule on, at phone size
    assert results.violations_count == 0, results.generate_report()

    # Bao's console, open all along and never reloaded, says who took the duel and follows
    # along read-only: no move pad, no ending form.
    try:
        expect(theirs.get_by_text("olga took this duel from you at")).to_be_visible(timeout=POLLED)
        expect(theirs.locator("#round-form")).to_have_count(0)
        expect(theirs.locator("#console-ending details")).to_have_count(0)
        assert errors == [], errors
    finally:
        other.close()

    # Given back, the same way.
    card = page.locator("li.duel-card.status-running")
    card.get_by_label("Referee for Group round 1").select_option(label="bao")
    card.get_by_label("Yes, move this running duel away from cy").check()
    card.get_by_role("button", name="Give Group round 1 to this referee").click()
    expect(page.get_by_text("Group round 1 is open for bao")).to_be_visible()
    assert Duel.objects.get(pk=duel.pk).referee_id == bao.pk
    page.set_viewport_size(DESKTOP)
