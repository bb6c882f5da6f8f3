"""htmx in the real browser: CSRF travels with htmx posts, a 422 refusal is shown in place."""

import pytest
from playwright.sync_api import expect

from tests.factories import PASSWORD, TournamentFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def sign_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="My dashboard")).to_be_visible()


def open_players_page(page) -> None:
    """An organiser's players page, marked so that a test can tell whether it reloaded."""
    organiser = UserFactory(username="olga")
    TournamentFactory(created_by=organiser, slug="cup", name="Cup")
    sign_in(page, "olga")
    page.goto("/t/cup/entrants/")
    page.evaluate("window.__marker = 'same page'")  # survives only if nothing reloads


@pytest.mark.live
def test_register_players_in_place_and_see_a_duplicate_refused(page):
    open_players_page(page)

    name = page.get_by_label("Player name")
    name.fill("Ada")
    name.press("Enter")
    expect(page.get_by_role("cell", name="Ada", exact=True)).to_be_visible()
    expect(page.get_by_label("Player name")).to_have_value("")
    # Keyboard flow: the cursor is back in the name field, the next name can be typed at once.
    expect(page.get_by_label("Player name")).to_be_focused()
    page.keyboard.type("Bob")
    page.keyboard.press("Enter")
    expect(page.get_by_role("cell", name="Bob", exact=True)).to_be_visible()
    expect(page.get_by_label("Player name")).to_be_focused()

    page.get_by_label("Player name").fill("ada")
    page.get_by_role("button", name="Register player").click()
    expect(page.get_by_role("alert")).to_contain_text("already registered")
    expect(page.get_by_label("Player name")).to_have_value("ada")
    assert page.evaluate("window.__marker") == "same page"
    expect(page.get_by_role("cell", name="Ada", exact=True)).to_have_count(1)


# A person who presses Enter the instant the cursor is back in the name field: htmx gives the
# focus back as it swaps, and the new form must already be htmx's by then. With htmx's default
# settle delay (20 ms) the form was wired only later and this Enter reloaded the whole page
# (CI saw it once under load).
TYPE_AT_ONCE = """() => {
  document.addEventListener("focusin", (event) => {
    const field = event.target;
    if (field.name !== "name" || window.__typed) return;
    window.__typed = true;
    setTimeout(() => { field.value = "Bob"; field.form.requestSubmit(); }, 0);
  });
}"""


@pytest.mark.live
def test_a_name_entered_the_instant_the_field_is_back_is_registered_in_place(page):
    open_players_page(page)

    page.get_by_label("Player name").fill("Ada")
    page.evaluate(TYPE_AT_ONCE)
    page.get_by_label("Player name").press("Enter")
    expect(page.get_by_role("cell", name="Bob", exact=True)).to_be_visible()
    expect(page.get_by_role("cell", name="Ada", exact=True)).to_be_visible()
    assert page.evaluate("window.__marker") == "same page"
    assert "registered=1" not in page.url
