"""The rules pages on a phone (390 × 844) in Chromium: a deep link lands on its section, the
page never scrolls sideways (only the rule sets' table scrolls, in its own box), and axe finds
nothing, on the Split UNO page and on the other games' pages."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE
from tests.e2e.test_console_browser import no_accessibility_violations, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def in_viewport(page, selector: str) -> bool:
    return page.evaluate(
        """(selector) => {
            const r = document.querySelector(selector).getBoundingClientRect();
            return r.top >= 0 && r.top < window.innerHeight;
        }""",
        selector,
    )


def test_the_rules_on_a_phone_open_at_a_deep_link_and_fit_the_screen(page, artifacts_dir):
    page.set_viewport_size(PHONE)
    page.goto("/rules/")
    expect(page.get_by_role("heading", level=1, name="Split UNO rules")).to_be_visible()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    no_accessibility_violations(page)
    shot(page, artifacts_dir / "rules-phone-top.png", full_page=False)

    # A deep link, as a table page's "what does this do?" opens it: the section's top is on
    # screen, and it says what refusing costs.
    page.goto("/rules/#decision-dare")
    dare = page.locator("#decision-dare")
    expect(dare.get_by_role("heading", name="DARE: complete or refuse?")).to_be_in_viewport()
    assert in_viewport(page, "#decision-dare")
    expect(dare).to_contain_text("you lose the whole game at once")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    shot(page, artifacts_dir / "rules-phone-decision-dare.png", full_page=False)

    # A jump link of the index moves there too, and the rule sets' table scrolls in its box.
    page.locator(".rule-index").get_by_role("link", name="counter a BLOCK").click()
    expect(page.locator("#decision-block_counter h3")).to_be_in_viewport()
    box = page.locator(".table-wrap[role=region]")
    assert box.evaluate("(el) => el.scrollWidth > el.clientWidth")  # the table scrolls inside
    assert page.evaluate(NO_SIDEWAYS_SCROLL)  # and the page does not
    box.scroll_into_view_if_needed()
    shot(page, artifacts_dir / "rules-phone-presets.png", full_page=False)

    for path, heading in (("/rules/trois/", "Trois rules"), ("/rules/cpt113/", "CPT-113 rules")):
        page.goto(path)
        expect(page.get_by_role("heading", level=1, name=heading)).to_be_visible()
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
        no_accessibility_violations(page)
