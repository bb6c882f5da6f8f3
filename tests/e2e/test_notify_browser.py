"""The venue's evening (issue 26), in Chromium at phone size (390 × 844): a player switches
e-mail notifications on from `/me/` with one tap, and finds them on in the settings, its
checkbox named by its short label; axe on both pages."""

import pytest
from playwright.sync_api import expect

from accounts.notifications import WORDS as LAZY_WORDS
from tests.e2e.conftest import PHONE
from tests.e2e.test_console_browser import no_accessibility_violations
from tests.e2e.test_htmx_browser import sign_in
from tests.factories import EntrantFactory, TournamentFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The words are lazy (translated when shown): compared as the English the tests run in.
WORDS = {key: str(value) for key, value in LAZY_WORDS.items()}


def test_a_player_switches_notifications_on_from_me_on_a_phone(page):
    user = UserFactory(username="ada", email="ada@example.org")
    EntrantFactory(tournament=TournamentFactory(name="Club night"), name="Ada", user=user)
    page.set_viewport_size(PHONE)
    sign_in(page, "ada")
    page.goto("/me/")
    expect(page.get_by_text(WORDS["offer"])).to_be_visible()
    no_accessibility_violations(page)

    page.get_by_role("button", name=WORDS["button"]).click()
    expect(page.get_by_role("status")).to_contain_text(WORDS["on"])
    expect(page).to_have_url("/me/")
    expect(page.get_by_role("button", name=WORDS["button"])).to_have_count(0)
    user.refresh_from_db()
    assert user.notify_by_email

    page.goto("/accounts/notifications/")
    box = page.get_by_label(WORDS["label"])
    expect(box).to_be_checked()
    expect(box).to_have_accessible_description(WORDS["hint"])
    no_accessibility_violations(page)
