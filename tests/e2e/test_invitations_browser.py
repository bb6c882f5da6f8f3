"""Issue 16 in Chromium: a referee invitation opened in a signed-out browser, through sign-up,
to the role; a claim link through sign-up to the entry and the player's own check-in; staff
check-in; axe on every new page; and the pages without JavaScript."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from accounts.models import TournamentRole
from tests.e2e.conftest import PHONE
from tests.e2e.test_htmx_browser import sign_in
from tests.factories import PASSWORD, EntrantFactory, TournamentFactory, UserFactory
from tournaments.models import Entrant

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def serious(page) -> list[str]:
    results = Axe().run(page)  # every rule on: nothing is disabled
    return [
        v["id"] for v in results.response["violations"] if v["impact"] in ("serious", "critical")
    ]


def sign_up_from_link(page, username: str) -> None:
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()


def test_a_referee_invitation_from_a_signed_out_browser_to_the_role(browser, live_server):
    organiser = UserFactory(username="olga")
    TournamentFactory(created_by=organiser, slug="cup", name="Cup", published=False)
    found = {}
    staff = browser.new_context(base_url=live_server.url)
    page = staff.new_page()
    sign_in(page, "olga")
    page.goto("/t/cup/manage/people/")
    page.get_by_label("For (a name to recognise the link by)").fill("Rui")
    page.get_by_role("button", name="Create an invitation link").click()
    expect(page.get_by_role("heading", name="New referee invitation for Rui")).to_be_visible()
    expect(page.get_by_role("img", name="QR code of the referee invitation")).to_be_visible()
    found["people"] = serious(page)
    link = page.get_by_role("textbox", name="Link", exact=True).input_value()
    expect(page.get_by_role("table", name="Invitation links")).to_contain_text("Waiting")

    # A stranger's browser, signed out: the link, then "Create an account", then the role.
    guest = browser.new_context(base_url=live_server.url)
    visitor = guest.new_page()
    visitor.goto(link)
    expect(visitor.get_by_role("heading", name="Invitation to Cup")).to_be_visible()
    found["invite"] = serious(visitor)
    sign_up_from_link(visitor, "rui")
    expect(visitor).to_have_url(re.compile(r"/t/cup/invite/"))
    visitor.get_by_role("button", name=re.compile("Accept")).click()
    expect(visitor.get_by_role("status")).to_contain_text("You are now a referee of Cup")
    assert TournamentRole.objects.filter(user__username="rui", role="referee").exists()

    # The organiser sees the invitation accepted.
    page.goto("/t/cup/manage/people/")
    expect(page.get_by_role("table", name="Invitation links")).to_contain_text("Accepted by rui")
    # A used link says so in words.
    visitor.goto(link)
    expect(visitor.get_by_role("alert")).to_contain_text("already been accepted")

    # The referee checks a player in from the staff page.
    EntrantFactory(tournament_id=page_tournament_id(), name="Bea")
    visitor.goto("/t/cup/manage/check-in/")
    found["check-in"] = serious(visitor)
    visitor.get_by_role("button", name="Check in Bea").click()
    expect(visitor.get_by_role("status")).to_contain_text("Bea is checked in")
    assert Entrant.objects.get(name="Bea").checked_in_at is not None

    for path in ("print/referees/", "print/players/", "print/poster/", "check-in/"):
        page.goto(f"/t/cup/manage/{path}")
        found[path] = serious(page)
    staff.close()
    guest.close()
    assert {k: v for k, v in found.items() if v} == {}


def page_tournament_id() -> int:
    from tournaments.models import Tournament

    return Tournament.objects.get(slug="cup").pk


def test_a_claim_link_through_sign_up_to_the_entry_and_check_in(browser, live_server):
    organiser = UserFactory(username="olga")
    tournament = TournamentFactory(created_by=organiser, slug="cup", name="Cup", published=False)
    EntrantFactory(tournament=tournament, name="Bea")
    staff = browser.new_context(base_url=live_server.url)
    page = staff.new_page()
    sign_in(page, "olga")
    page.goto("/t/cup/manage/print/players/")
    expect(page.get_by_text("the link it replaces stops working")).to_be_visible()
    page.get_by_role("checkbox", name="Bea").check()  # none ticked by default
    page.get_by_role("button", name="Replace the ticked links and show their sheets").click()
    expect(page.get_by_role("heading", name="Bea")).to_be_visible()
    expect(page.get_by_role("img", name="QR code for Bea")).to_be_visible()
    assert serious(page) == []
    page.set_viewport_size(PHONE)  # the sheet and its QR code fit a phone, nothing sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    link = page.locator(".sheet-link").inner_text()

    # Without JavaScript: the whole way through still works.
    guest = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    visitor = guest.new_page()
    visitor.goto(link)
    expect(visitor.get_by_text("This link is for the player Bea")).to_be_visible()
    sign_up_from_link(visitor, "bea")
    visitor.get_by_role("button", name="I am Bea: claim this entry").click()
    expect(visitor.get_by_role("status")).to_contain_text("linked to Bea's entry")
    visitor.get_by_role("button", name="I am here: check me in").click()
    expect(visitor.get_by_role("status")).to_contain_text("You are checked in as Bea")
    assert Entrant.objects.get(name="Bea").checked_in_at is not None
    staff.close()
    guest.close()


def test_a_link_shown_once_is_copied_with_one_tap(browser, live_server):
    organiser = UserFactory(username="olga")
    tournament = TournamentFactory(created_by=organiser, slug="cup", name="Cup")
    EntrantFactory(tournament=tournament, name="Bea")
    context = browser.new_context(base_url=live_server.url)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    sign_in(page, "olga")
    page.goto("/t/cup/manage/players/")
    page.get_by_role("button", name="Issue a claim link for Bea").click()
    link = page.get_by_role("textbox", name="Link", exact=True).input_value()
    page.get_by_role("button", name="Copy the link").click()
    expect(page.locator(".copy-status")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == link
    assert serious(page) == []
    context.close()

    # Without JavaScript there is nothing to press: the link is copied from its field by hand.
    plain = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = plain.new_page()
    sign_in(page, "olga")
    page.goto("/t/cup/manage/players/")
    page.get_by_role("button", name="Issue a claim link for Bea").click()
    expect(page.get_by_role("textbox", name="Link", exact=True)).to_have_value(
        re.compile("/claim/")
    )
    expect(page.get_by_role("button", name="Copy the link")).to_have_count(0)
    plain.close()
