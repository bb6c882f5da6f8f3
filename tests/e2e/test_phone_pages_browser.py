"""The practice, tables and sharing pages at 390 x 844 in Chromium, in English and in French
(whose words are longer), as a tester found them on a phone (issue 30, and what issue 26 left):
nothing sticks out of the screen sideways, every item of the site's header is on it, no
legend is drawn over its fieldset's border, and no move number or seat count wraps."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from accounts.models import Role
from tables import services as tables
from tests.e2e.conftest import PHONE
from tests.e2e.test_console_browser import console_url, shot, watch
from tests.factories import PASSWORD, EntrantFactory, UserFactory, group_phase_duel
from tournaments.services import entrants as entrant_services
from tournaments.services import invitations, refereeing

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Seat names as long as a table allows (40), of ordinary words, so that a seat card is narrow.
NAMES = [
    "Maximiliana Wolkenstein-Oberhausen",
    "Bartholomew Featherstonehaugh",
    "Cristóbal Villanueva de la Fuente",
    "Dorothea Abernethy-Kilpatrick",
    "Evangelina Montgomery-Castellano",
    "Fitzwilliam Worthington-Smythe",
]

# What a person would see broken at 390 px, as a list of sentences (empty when all is well):
# - the page scrolls sideways, or an element sticks out of the screen's right or left edge
#   (inside a box that scrolls sideways, out of that box's scrolling area is allowed);
# - an element of the header (`.nav`) is outside the screen: it could be reached only by
#   scrolling the header sideways;
# - a legend overlaps its fieldset's border line on the inline axis (the border's top edge is
#   where a legend belongs) or sticks out of the fieldset;
# - a move number (`.log-seq`), a seat's count (`.counts dt`, `.counts dd`) or a header link
#   is on more than one line.
BROKEN = """() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  const name = (el) => `<${el.tagName.toLowerCase()} class="${el.className}"> ` +
    el.textContent.trim().replace(/\\s+/g, " ").slice(0, 40);
  const shown = (el) => el.getClientRects().length &&
    !el.closest("[hidden], template, .visually-hidden, details:not([open]) > :not(summary)");
  if (document.documentElement.scrollWidth > width + 1) {
    out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
  }
  const scrolls = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      if (["auto", "scroll", "hidden"].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  for (const el of document.body.querySelectorAll("*")) {
    // The skip link waits off the screen until it has the focus.
    if (!shown(el) || scrolls(el) || el.closest(".skip-link")) continue;
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > width + 1 || r.left < -1)) {
      out.push(`sticks out (${Math.round(r.left)}..${Math.round(r.right)}): ${name(el)}`);
    }
  }
  for (const el of document.querySelectorAll(".nav a, .nav button")) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.right > width + 1 || r.left < -1) out.push(`header item off the screen: ${name(el)}`);
  }
  const lines = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].filter((r) => r.width)
      .map((r) => Math.round(r.top))).size;
  };
  for (const legend of document.querySelectorAll("fieldset > legend")) {
    if (!shown(legend)) continue;
    const set = getComputedStyle(legend.parentElement);
    // A legend in the border (not floated) that wraps: its border runs through its lines.
    const bordered = set.borderTopStyle !== "none" && parseFloat(set.borderTopWidth) > 0;
    if (bordered && getComputedStyle(legend).float === "none" && lines(legend) > 1) {
      out.push(`legend over its fieldset's border: ${name(legend)}`);
    }
    const box = legend.parentElement.getBoundingClientRect();
    const r = legend.getBoundingClientRect();
    if (r.left < box.left - 1 || r.right > box.right + 1) {
      out.push(`legend wider than its fieldset: ${name(legend)}`);
    }
  }
  // A button's words run out of its border (it was squeezed narrower than they are).
  for (const el of document.querySelectorAll("button, .button")) {
    if (shown(el) && el.scrollWidth > el.clientWidth + 1) {
      out.push(`words out of their button: ${name(el)}`);
    }
  }
  const one = ".log-seq, .counts dt, .counts dd, .nav a, .nav button";
  for (const el of document.querySelectorAll(one)) {
    if (shown(el) && lines(el) > 1) out.push(`on ${lines(el)} lines: ${name(el)}`);
  }
  return out;
}"""


def check(page, url: str, found: dict, artifacts_dir, *, wide_seq: bool = False) -> None:
    """Loads `url` (or looks at the page as it is, url "") and notes what is broken."""
    if url:
        page.goto(url)
    if wide_seq and page.locator(".log-seq").count():
        # Games run past a hundred moves: the widest number a log shows.
        page.locator(".log-seq").first.evaluate("(el) => { el.textContent = '110'; }")
    path = urlsplit(page.url).path
    key = f"{page.evaluate('document.documentElement.lang')} {path}"
    found[key] = page.evaluate(BROKEN)
    # A record link's token is secret and changes each run: not in the file's name.
    slug = re.sub(r"[^a-z0-9]+", "-", re.sub(r"/replay/.+", "/replay", key.lower())).strip("-")
    shot(page, artifacts_dir / f"phone-{slug}.png")


def a_move(page) -> None:
    """The person's first move in Trois or CPT-113, in any language: a card that matches (a
    wild one with its colour), else the draw."""
    card = page.locator("main button.uno[name], main form.wild button")
    draw = "main form[action$='/move/']:not(.hand, .combination, .wild, .inline) button"
    (card if card.count() else page.locator(draw)).first.click()


def signed_in(page, server: str, username: str, language: str) -> None:
    """Signed in as `username`, the site in `language` (the language menu's cookie)."""
    page.context.clear_cookies()
    page.context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    page.goto("/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def a_casual_table(owner):
    """Six long-named seats, a few rounds in, with a record link and a co-referee."""
    table = tables.open_table(owner=owner, ruleset="official", names=NAMES, action_cards=2)
    for rev, cards in enumerate(([9, 1, 2, 3, 4, 5], [1, 9, 2, 3, 4, 5])):
        event = {"type": "round", "cards": dict(zip("ABCDEF", cards, strict=True))}
        tables.append_event(table_id=table.pk, actor=owner, event=event, expected_revision=rev)
    token = tables.make_replay_link(table_id=table.pk, actor=owner)
    guest = UserFactory(username="bartholomew_featherstonehaugh")
    tables.accept_invitation(
        token=tables.invite_co_referee(table_id=table.pk, actor=owner), user=guest
    )
    tables.invite_co_referee(table_id=table.pk, actor=owner)
    return table, token


def a_duel():
    duel, referee = group_phase_duel(
        published=True, players=("Maximiliana Wolkenstein", "Bartholomew Featherstonehaugh")
    )
    for seq in range(11):
        event = {"type": "round", "cards": {"A": 3, "B": 7} if seq % 2 else {"A": 7, "B": 3}}
        refereeing.append_event(duel, referee, event, seq)
    organiser = duel.tournament.created_by
    invitations.issue_invitation(
        duel.tournament, organiser, role=Role.REFEREE, label="Bartholomew Featherstonehaugh"
    )
    entrant = EntrantFactory(tournament=duel.tournament, name="Cristóbal Villanueva de la Fuente")
    entrant_services.issue_claim_link(entrant, organiser)
    return duel, referee, organiser


@pytest.mark.parametrize("language", ["en", "fr"])
def test_practice_and_tables_pages_fit_a_phone(browser, live_server, artifacts_dir, language):
    """Each page the tester went through, with six long-named seats, two-seat duels and
    move numbers past a hundred; a screenshot of each in test-artifacts/screenshots."""
    owner = UserFactory(username="ada")
    table, token = a_casual_table(owner)
    duel, referee, organiser = a_duel()
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors = watch(page)
    found: dict[str, list[str]] = {}

    signed_in(page, live_server.url, "ada", language)
    for url in ("/practice/", "/practice/games/", "/tables/", f"/tables/{table.pk}/sharing/"):
        check(page, url, found, artifacts_dir)
    check(page, f"/tables/{table.pk}/", found, artifacts_dir, wide_seq=True)
    check(page, f"/tables/replay/{token}/", found, artifacts_dir, wide_seq=True)
    for kind in ("trois", "cpt113"):
        page.goto("/practice/games/")
        page.locator(f"form:has(input[value='{kind}']) button[type=submit]").click()
        a_move(page)
        expect(page.locator(".log-seq").first).to_be_visible()
        check(page, "", found, artifacts_dir, wide_seq=True)
    page.goto("/practice/")
    page.locator("form.practice-start button[type=submit]").click()
    expect(page.locator("main h1")).to_be_visible()
    check(page, "", found, artifacts_dir, wide_seq=True)

    signed_in(page, live_server.url, referee.username, language)
    check(page, console_url(duel), found, artifacts_dir, wide_seq=True)
    check(page, f"{console_url(duel)}replay/", found, artifacts_dir, wide_seq=True)
    signed_in(page, live_server.url, organiser.username, language)
    t = f"/t/{duel.tournament.slug}/manage"
    for url in (f"{t}/people/", f"{t}/players/"):
        check(page, url, found, artifacts_dir)
    context.close()
    (artifacts_dir / f"phone-pages-{language}.json").write_text(json.dumps(found, indent=1))
    assert {url: problems for url, problems in found.items() if problems} == {}
    assert errors == []


@pytest.mark.parametrize("width", [360, 390])
def test_every_item_of_the_header_is_on_a_phone_screen_in_every_language(
    browser, live_server, artifacts_dir, width
):
    """The header wraps onto a second line rather than scrolling sideways: Practice and
    Tables, last of its links, were off the screen; "My duels" is never cut in two."""
    UserFactory(username="ada")
    context = browser.new_context(
        viewport={"width": width, "height": PHONE["height"]}, base_url=live_server.url
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    for language in ("en", "es", "fr", "ms"):
        signed_in(page, live_server.url, "ada", language)
        expect(page.locator(".nav a[href='/tables/']")).to_be_in_viewport()
        check(page, "/practice/", found, artifacts_dir)
    context.close()
    assert {key: problems for key, problems in found.items() if problems} == {}
