"""The pages in Spanish and Malay at phone size in Chromium (issue 29).

- a referee whose browser asks for Spanish signs in and plays a round on the console: every
  word the test reads is the catalogue's Spanish, `<html lang="es">`, nothing is wider than the
  phone, axe finds nothing (its `html-has-lang`, `valid-lang` and `html-xml-lang-mismatch`
  included: the language menu names each language in its own words with its own `lang`);
- a visitor whose browser asks for Malay reads the live page and the standings in Malay, then
  picks French in the menu at the foot of the page, with JavaScript off: the page comes back
  in French, at the same address, and stays French on the next page.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import translation
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE
from tests.e2e.test_console_browser import console_url, key_of
from tests.factories import PASSWORD, group_phase_duel
from tournaments import simulation

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def words(language: str, message: str) -> str:
    """`message` as the catalogue says it in `language` (never the English)."""
    with translation.override(language):
        said = translation.gettext(message)
    assert said != message or language == "en-gb", f"{message!r} has no {language} translation"
    return said


def context_in(browser, live_server, locale: str, **options):
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, locale=locale, **options
    )
    context.set_default_timeout(10_000)
    return context


def no_violations(page) -> None:
    result = Axe().run(page)
    assert result.violations_count == 0, result.generate_report()


def fits_the_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_referee_plays_a_round_in_spanish_on_a_phone(browser, live_server, artifacts_dir):
    duel, referee = group_phase_duel(published=True)
    page = context_in(browser, live_server, "es-ES").new_page()
    page.goto("/accounts/login/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    page.get_by_label(words("es", "Username")).fill(referee.username)
    page.get_by_label(words("es", "Password")).fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.get_by_role("heading", name=words("es", "My dashboard"))).to_be_visible()

    page.goto(console_url(duel))
    expect(page.locator("html")).to_have_attribute("lang", "es")
    key_of(page, "A", 7).click()
    key_of(page, "B", 3).click()
    page.locator("#round-form button[type=submit]").click()
    expect(page.locator("#log-list li")).to_have_count(1)
    page.screenshot(path=str(artifacts_dir / "console-es-phone.png"), full_page=True)
    fits_the_phone(page)
    no_violations(page)
    page.context.close()


def test_a_visitor_reads_malay_then_picks_french_without_javascript(
    browser, live_server, artifacts_dir, monkeypatch
):
    monkeypatch.setattr(simulation, "FORFEIT_RATE", 1.0)
    tournament, _ = simulation.simulate_tournament(players=10, seed="i18n", until="round:3")
    context = context_in(browser, live_server, "ms-MY", java_script_enabled=False)
    page = context.new_page()
    page.goto(f"/t/{tournament.slug}/standings/")
    expect(page.locator("html")).to_have_attribute("lang", "ms")
    expect(page.get_by_role("heading", level=1, name=words("ms", "Standings"))).to_be_visible()
    page.screenshot(path=str(artifacts_dir / "standings-ms-phone.png"), full_page=True)
    fits_the_phone(page)
    no_violations(page)

    page.locator("#language-menu-choice").select_option("fr")
    page.locator(".language-menu button[type=submit]").click()
    expect(page).to_have_url(f"{live_server.url}/t/{tournament.slug}/standings/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1, name=words("fr", "Standings"))).to_be_visible()
    page.goto(f"/t/{tournament.slug}/live/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    fits_the_phone(page)
    no_violations(page)
    context.close()
