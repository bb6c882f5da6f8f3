"""The big screen on a projector at 1920×1080 (issue 26, "The venue's evening"), in Chromium:
one evening walked from before the start to the end, the group phase, the tie-breaks and the
playoffs between. At each step the screen is loaded as the venue shows it (cycling) and turned
through its three panels with Playwright's clock; for each panel when it shows, every element
a person sees lies inside the viewport and the page does not scroll (the group race's chart
ran off the bottom, its round axis cut). In the playoffs the bracket's names are not set
smaller than its placeholders ("Winner of Qualifier 1"), and the table lists the finalists
before 3rd and 4th. Axe on the screen with the chart and with the bracket.

The states come from the simulation (every group and tie-break duel one forfeit) and the
services; the playoff duels are lost by a retirement, which, unlike a no-show, forfeits that
duel only, so the bracket fills in as at the table."""

import random
from datetime import UTC, datetime, timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from duels.models import Duel
from tests.e2e.test_public_browser import shown
from tests.tournaments.test_group_services import make
from tournaments import services, simulation
from tournaments.models import Phase
from tournaments.services import refereeing
from tournaments.services.progression import start_playoffs, sync

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}
TURN_MS = 12_000  # static/js/screen.js
PANELS = ("standings", "stage", "now")

# What lies outside the viewport, of all a person sees: every element whose box is not empty,
# is visible (the turn hides the other panels with `visibility`) and is not the visually-hidden
# text for screen readers; and whether the page scrolls (the hidden panels count there too).
OUTSIDE = """() => {
  const w = innerWidth, h = innerHeight, root = document.documentElement, out = [];
  if (root.scrollWidth > w || root.scrollHeight > h) {
    out.push(`the page scrolls: ${root.scrollWidth}×${root.scrollHeight}`);
  }
  for (const el of document.querySelectorAll(".screen, .screen *")) {
    if (getComputedStyle(el).visibility !== "visible" || el.closest(".visually-hidden")) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5) {
      const text = (el.textContent || "").trim().slice(0, 30);
      out.push(`${el.tagName.toLowerCase()}.${el.getAttribute("class") || ""} "${text}" ` +
               `${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`);
    }
  }
  return out;
}"""

SIZES = """selector => [...document.querySelectorAll(selector)]
  .map(el => parseFloat(getComputedStyle(el).fontSize))"""


def walk_the_turns(page, slug: str, artifacts_dir, step: str) -> dict[str, list[str]]:
    """Load the cycling screen, turn it through its panels; what lies outside, per panel."""
    page.goto(f"/t/{slug}/screen/")
    expect(page.locator(".screen-panels")).to_have_attribute("data-turn", "standings")
    found = {}
    for name in PANELS:
        assert shown(page) == [name], step
        found[name] = page.evaluate(OUTSIDE)
        if name == "stage":  # the panel that changes most from step to step, for the record
            page.screenshot(path=str(artifacts_dir / f"screen-1080p-{step}-{name}.png"))
        page.clock.run_for(TURN_MS)
    assert shown(page) == ["standings"], step  # round the cycle
    return {name: out for name, out in found.items() if out}


def play_playoff(tournament, referee, stage: str) -> None:
    """Seat A wins the stage's duel (seat B retires: that duel only, not a no-show)."""
    duel = Duel.objects.get(tournament=tournament, kind="playoff", stage=stage, status="ready")
    refereeing.append_event(duel, referee, {"type": "forfeit", "seat": "B", "reason": "retired"}, 0)
    sync(tournament)


def serious(page) -> list[str]:
    """Axe's serious and critical findings on the panel showing. Axe waits on timers of its
    own: the page's clock runs meanwhile, and the pause box (WCAG 2.2.2) holds the turn."""
    page.get_by_label("Pause").check()
    page.clock.resume()
    try:
        results = Axe().run(page)
    finally:
        now = datetime.fromtimestamp(page.evaluate("Date.now()") / 1000, UTC)
        page.clock.pause_at(now + timedelta(seconds=1))
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_the_big_screen_fits_a_1080p_projector_through_the_evening(
    page, monkeypatch, artifacts_dir
):
    page.set_viewport_size(PROJECTOR)
    # The screen's timers run on Playwright's clock: a turn comes when the test says.
    page.clock.install(time=datetime(2026, 11, 27, 19, 0, tzinfo=UTC))
    page.clock.pause_at(datetime(2026, 11, 27, 19, 0, 1, tzinfo=UTC))
    outside: dict[str, dict[str, list[str]]] = {}

    # Before the start: the players registered and split, published.
    waiting, organiser, _, _ = make(n_players=10, sizes=(5, 5))
    services.set_published(waiting, True, organiser)
    outside["before the start"] = walk_the_turns(page, waiting.slug, artifacts_dir, "before")

    # The group phase: thirteen rounds played, the race chart drawn.
    monkeypatch.setattr(simulation, "FORFEIT_RATE", 1.0)  # every duel one move: fast
    tournament, _ = simulation.simulate_tournament(
        players=10, seed="room-evening", until="round:13"
    )
    organiser, referee = tournament.created_by, tournament.roles.get().user
    evening = simulation.TournamentSimulation(
        tournament, organiser, referee, random.Random("room-evening")
    )
    outside["group phase"] = walk_the_turns(page, tournament.slug, artifacts_dir, "groups")
    expect(page.locator("#screen-chart-title")).to_be_attached()
    page.clock.run_for(TURN_MS)  # the group race shows
    assert shown(page) == ["stage"]
    axe = {"group race": serious(page)}

    # The tie-breaks (this seed's evening has them), the first duel called to its table.
    evening.play_round(14)
    evening.play_round(15)
    evening.advance()
    tournament.refresh_from_db()
    assert tournament.phase == Phase.TIE_BREAKS
    first = Duel.objects.filter(tournament=tournament, kind="tie_break", status="ready").first()
    refereeing.call_duel(first, organiser, "Table 1")
    outside["tie-breaks"] = walk_the_turns(page, tournament.slug, artifacts_dir, "tiebreaks")
    for _ in range(40):
        duel = Duel.objects.filter(tournament=tournament, kind="tie_break", status="ready").first()
        if duel is None:
            break
        evening.play(duel)
        evening.advance()

    # The playoffs: the bracket with its placeholders; then the Eliminator, Qualifier 1 and
    # Qualifier 2 decided (4th and 3rd placed), the two finalists still to play.
    start_playoffs(tournament, organiser)
    evening.advance()
    outside["playoffs"] = walk_the_turns(page, tournament.slug, artifacts_dir, "playoffs")
    page.clock.run_for(TURN_MS)  # the bracket shows
    names = page.evaluate(SIZES, "#panel-stage .bracket .seat-name")
    placeholders = page.evaluate(SIZES, "#panel-stage .bracket .seat-from")
    assert len(names) == 4 and len(placeholders) == 4, (names, placeholders)
    assert min(names) >= max(placeholders), (names, placeholders)
    axe["bracket"] = serious(page)

    for stage in ("E1", "Q1", "Q2"):
        play_playoff(tournament, referee, stage)
    tournament.refresh_from_db()
    outside["the final to play"] = walk_the_turns(page, tournament.slug, artifacts_dir, "final")
    gf = tournament.duels.get(kind="playoff", stage="GF", status="ready")
    third, fourth = ({v: int(k) for k, v in tournament.placings.items()}[place] for place in (3, 4))
    lines = page.locator("#panel-standings tbody tr")
    expect(page.locator("#panel-standings-heading")).to_have_text("Playoff table")
    for line, (player, place) in enumerate(
        ((gf.seat_a_id, "1–2"), (gf.seat_b_id, "1–2"), (third, "3"), (fourth, "4"))
    ):
        name = tournament.entrants.get(pk=player).name
        expect(lines.nth(line).locator("th")).to_have_text(name)
        expect(lines.nth(line).locator("td.place")).to_have_text(place)

    # The end: the champion, the final table.
    play_playoff(tournament, referee, "GF")
    tournament.refresh_from_db()
    assert tournament.phase == Phase.COMPLETE
    outside["finished"] = walk_the_turns(page, tournament.slug, artifacts_dir, "finished")
    expect(page.locator("#panel-standings-heading")).to_have_text("Final table")

    assert {step: found for step, found in outside.items() if found} == {}
    assert {what: found for what, found in axe.items() if found} == {}
