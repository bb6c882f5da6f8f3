"""The referee console at 390 px in Chromium (issue 26): no word of the header, the log's move
numbers or a seat's counts is cut or broken in two; nothing is hidden to get there."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE
from tests.e2e.test_console_browser import console_url, sign_in
from tests.factories import group_phase_duel
from tournaments.services import refereeing

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# For every element matched: its text must lie on one line (a word or a number broken over
# two lines has more than one line box), and, inside a box that scrolls sideways, a word must
# be either wholly in the visible part or wholly out of it — never cut at the edge.
BROKEN = """(selector) => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const range = document.createRange();
    range.selectNodeContents(el);
    const text = el.textContent.trim();
    const rects = [...range.getClientRects()].filter((r) => r.width);
    const lines = new Set(rects.map((r) => Math.round(r.top)));
    if (lines.size > 1) out.push(`${text}: on ${lines.size} lines`);
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== "inline") {
      out.push(`${text}: wider than its box (${el.scrollWidth} > ${el.clientWidth})`);
    }
    const box = el.closest(".nav");
    if (box) {
      const edge = box.getBoundingClientRect();
      const r = el.getBoundingClientRect();
      if (r.left < edge.right - 1 && r.right > edge.right + 1) out.push(`${text}: cut at the edge`);
    }
  }
  return out;
}"""


def test_the_console_at_phone_width_cuts_no_word(page, artifacts_dir):
    duel, referee = group_phase_duel(published=True)
    # Eleven moves, so that the log shows two-digit move numbers; 7s give Bob action cards.
    seq = 0
    for _ in range(6):
        for event in (
            {"type": "round", "cards": {"A": 3, "B": 7}},
            {"type": "round", "cards": {"A": 7, "B": 3}},
        ):
            if seq == 11:
                break
            refereeing.append_event(duel, referee, event, seq)
            seq += 1
    page.set_viewport_size(PHONE)
    sign_in(page, referee.username)
    page.goto(console_url(duel))
    expect(page.locator("#log-list li")).to_have_count(11)
    page.screenshot(path=str(artifacts_dir / "console-phone-layout.png"))
    # The bench's duels run to 110 moves: the widest move number the log shows.
    page.locator(".log-seq").first.evaluate("(el) => { el.textContent = '110'; }")
    broken = page.evaluate(BROKEN, ".nav a, .nav button, .log-seq, .counts dt, .counts dd")
    assert broken == [], broken
    # The header wraps rather than scrolls sideways, and the pads still start above the fold.
    assert page.evaluate("(() => { const n = document.querySelector('.nav');"
                         " return n.scrollWidth <= n.clientWidth; })()")  # fmt: skip
    assert page.locator("#round-form .pad").first.bounding_box()["y"] < PHONE["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    result = Axe().run(page)
    assert result.violations_count == 0, result.generate_report()
