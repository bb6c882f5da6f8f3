"""The room is told the truth (Trust on the night), in Chromium: the big screen's "next"
through a whole simulated evening — the last group rounds, the tie-breaks, the playoffs, the
end — with every round and stage planned after the clock, so the schedule alone would name
any of them. "Next" must follow the event: never a decided duel, a round or a stage already
played, and nothing after the final.

The screen's timers are Playwright's clock: each step moves the event on through the
services, then lets the strip and the now-playing panel poll once and waits for their answers."""

import random
from datetime import timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone
from playwright.sync_api import expect

from duels.models import Duel
from tests.e2e.test_public_browser import shown
from tournaments import format as fmt
from tournaments import presentation, simulation
from tournaments.models import Phase, Round, RoundStatus, Tournament
from tournaments.services.progression import start_playoffs
from tournaments.services.refereeing import call_duel
from tournaments.services.schedule import set_schedule

# Not `live`: the screen's timers are Playwright's clock, so nothing on the page changes while
# the test acts but what the test lets run (the load of CI's second pass cannot reorder it).
pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

KEYS = [f"round:{n}" for n in range(1, 16)] + ["tie_breaks", "Q1", "E1", "Q2", "GF"]


@pytest.fixture
def fast_polls(settings):
    settings.PUBLIC_POLL_SECONDS = 1  # the pages poll every 5 s; the tests need not wait


def running(tournament: Tournament) -> bool:
    return Duel.objects.filter(tournament=tournament, status="running").exists()


def expected_next(tournament: Tournament) -> list[str]:
    """What the rules say comes next, read from the rows (the test's own reading, not the
    selector's): the duels waiting to start, the open round still without its players, the
    playoffs once positions 1–4 are settled, the playoff stages still to be drawn."""
    tournament.refresh_from_db()
    if tournament.phase in (Phase.COMPLETE, Phase.CANCELLED):
        return []
    waiting = list(
        Duel.objects.filter(tournament=tournament, status__in=["pending", "ready"])
        .select_related("round")
        .order_by("pk")
    )
    labels = [presentation.duel_title(d) for d in waiting if d.called_at is None]
    if tournament.phase == Phase.GROUP_PHASE:
        number = (
            Round.objects.filter(tournament=tournament, status=RoundStatus.OPEN)
            .values_list("number", flat=True)
            .first()
        )
        named = Duel.objects.filter(
            tournament=tournament, round__number=number, status__in=["pending", "ready", "running"]
        ).exists()
        if number and not named:
            labels.append(f"Group round {number}")
    elif tournament.phase == Phase.TIE_BREAKS and tournament.top_four_settled_at:
        labels.append("Playoffs")
    elif tournament.phase == Phase.TIE_BREAKS and not waiting and not running(tournament):
        labels.append("Tie-breaks")  # the automation is drawing the next ones
    elif tournament.phase == Phase.PLAYOFFS:
        drawn = set(
            Duel.objects.filter(tournament=tournament, kind="playoff")
            .exclude(status__in=["void", "abandoned"])
            .values_list("stage", flat=True)
        )
        labels += [fmt.STAGE_NAMES[s] for s in fmt.STAGES if s not in drawn]
    return labels[:3]


def test_the_big_screen_next_follows_the_evening_to_its_end(page, fast_polls, monkeypatch):
    monkeypatch.setattr(simulation, "FORFEIT_RATE", 1.0)  # every duel one move: fast
    tournament, _ = simulation.simulate_tournament(
        players=10, seed="room-evening", until="round:13"
    )
    organiser = tournament.created_by
    referee = tournament.roles.get().user
    # Every round and stage planned after the clock, five minutes apart.
    first = (timezone.now() + timedelta(hours=1)).replace(second=0, microsecond=0)
    planned = {key: first + timedelta(minutes=5 * i) for i, key in enumerate(KEYS)}
    set_schedule(tournament, organiser, time_zone="UTC", starts=planned)
    evening = simulation.TournamentSimulation(
        tournament, organiser, referee, random.Random("room-evening")
    )

    now = timezone.now()
    page.clock.install(time=now)
    page.clock.pause_at(now + timedelta(seconds=1))
    page.goto(f"/t/{tournament.slug}/screen/?show=now")
    strip = page.locator("#panel-call")
    panel = page.locator("#panel-now")
    seen: list[list[str]] = []

    def poll() -> None:
        """Let the strip and the now panel poll once, and wait for both answers."""
        with (
            page.expect_response("**/screen/?panel=call"),
            page.expect_response("**/screen/?panel=now"),
        ):
            page.clock.run_for(1150)  # each part polls within 1.15 × its interval

    def check() -> list[str]:
        """The strip names exactly what comes next, in order, each at its planned time."""
        poll()
        want = expected_next(tournament)
        nexts = strip.locator(".screen-next span")
        expect(nexts).to_have_count(len(want))
        labels = [text.split(" at ")[0] for text in nexts.all_inner_texts()]
        assert labels == want, (labels, want)
        if tournament.phase != Phase.GROUP_PHASE:
            assert not any(label.startswith("Group round") for label in labels), labels
        seen.append(labels)
        return labels

    assert check() == ["Group round 14"]
    expect(strip.locator(".screen-next")).to_have_text(
        f"Next: Group round 14 at {planned['round:14']:%H:%M}"
    )
    expect(panel).to_contain_text("Group round 14")

    evening.play_round(14)
    assert check() == ["Group round 15"]

    evening.play_round(15)
    evening.advance()
    tournament.refresh_from_db()
    assert tournament.phase == Phase.TIE_BREAKS
    check()
    # The tie-breaks, one duel at a time; the first is called to a table typed as the
    # form's example ("Table 1"), which the strip names once.
    called = False
    for _ in range(40):
        duel = (
            Duel.objects.filter(tournament=tournament, kind="tie_break", status="ready")
            .order_by("pk")
            .first()
        )
        if duel is None:
            break
        if not called:
            call_duel(duel, organiser, "Table 1")
            poll()
            expect(strip.locator(".screen-called")).to_contain_text("Table 1")
            expect(strip).not_to_contain_text("Table Table")
            called = True
        evening.play(duel)
        evening.advance()
        check()
    tournament.refresh_from_db()
    assert called, "this seed's evening has tie-breaks: the strip met them"
    assert tournament.top_four_settled_at is not None
    assert check() == ["Playoffs"]
    expect(strip.locator(".screen-next")).to_have_text(f"Next: Playoffs at {planned['Q1']:%H:%M}")

    start_playoffs(tournament, organiser)
    evening.advance()
    assert check() == ["Qualifier 1", "Eliminator", "Qualifier 2"]
    for _ in range(8):
        duel = (
            Duel.objects.filter(tournament=tournament, kind="playoff", status="ready")
            .order_by("pk")
            .first()
        )
        if duel is None:
            break
        evening.play(duel)
        evening.advance()
        check()

    tournament.refresh_from_db()
    assert tournament.phase == Phase.COMPLETE
    assert seen[-1] == []  # after the final, nothing is next
    expect(strip.locator(".screen-next")).to_have_count(0)
    expect(panel).not_to_contain_text("Next up")
    assert len(shown(page)) == 1

    page.clock.resume()  # axe waits on its own timers
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
