"""A new person signs up, signs out, signs in and sees the dashboard, in Chromium."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE
from tests.factories import PASSWORD, TournamentFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_sign_up_sign_out_sign_in_and_see_the_dashboard(page):
    page.goto("/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("newcomer")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()

    expect(page).to_have_url(re.compile(r"/dashboard/$"))
    expect(page.get_by_role("heading", name="My dashboard")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("Welcome, newcomer")

    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("link", name="Sign in", exact=True)).to_be_visible()

    page.get_by_role("link", name="Sign in", exact=True).click()
    page.get_by_label("Username").fill("newcomer")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="My dashboard")).to_be_visible()
    expect(page.get_by_role("navigation", name="Main")).to_contain_text("newcomer")


def test_wrong_password_is_explained_and_the_username_kept(page):
    UserFactory(username="ana")
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("ana")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("correct username and password")
    expect(page.get_by_label("Username")).to_have_value("ana")


def test_dashboard_lists_a_created_tournament(page):
    user = UserFactory(username="olga")
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Tournament name").fill("Harbour Cup")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", name="Harbour Cup")).to_be_visible()
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_role("status")).to_contain_text("Published")
    page.get_by_role("link", name="My dashboard").click()
    row = page.get_by_role("row", name=re.compile("Harbour Cup"))
    expect(row).to_contain_text("Organiser")
    expect(row).to_contain_text("Published")
    assert user.created_tournaments.get().published


@pytest.mark.parametrize(("label", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_home_page_screenshots(page, artifacts_dir, label, viewport):
    TournamentFactory(name="Harbour Cup", published=True)
    page.set_viewport_size(viewport)
    page.goto("/")
    expect(page.get_by_role("link", name="Harbour Cup")).to_be_visible()
    # Nothing overflows sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    path = artifacts_dir / f"home-{label}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 5_000
