"""Trust on the night, in Chromium at phone size (390 × 844): a withdrawal confirmed after the
page names the forfeit, then undone; a check-in undone; the playoffs started after their
confirmation, and the frozen results after it; axe on every page this changed."""

from contextlib import nullcontext

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from duels.models import Duel, DuelKind, DuelStatus
from tests.e2e.conftest import PHONE
from tests.e2e.test_htmx_browser import sign_in
from tests.factories import EntrantFactory, TournamentFactory, UserFactory
from tests.tournaments.conftest import play_group_phase
from tests.tournaments.helpers import settle_tiebreaks
from tests.tournaments.test_withdrawal_undo import running_round_two, started
from tournaments import services
from tournaments.models import EntrantStatus, Phase

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def serious(page) -> list[str]:
    results = Axe().run(page)  # every rule on: nothing is disabled
    return [
        v["id"] for v in results.response["violations"] if v["impact"] in ("serious", "critical")
    ]


def no_capture(execute: bool = True):
    """Outside a test transaction on-commit work runs at each commit by itself."""
    return nullcontext()


def test_a_withdrawal_is_confirmed_then_undone_on_a_phone(page):
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    jonas, mia = duel.seat_a, duel.seat_b
    found = {}
    page.set_viewport_size(PHONE)
    sign_in(page, organiser.username)
    page.goto(f"/t/{tournament.slug}/manage/players/")
    page.get_by_label("Player to withdraw").select_option(label=jonas.name)
    page.get_by_role("button", name="Withdraw…").click()
    confirm = page.get_by_role("region", name=f"Withdraw {jonas.name}?")
    expect(confirm).to_contain_text(f"{jonas.name} forfeits Group round 2: {mia.name} wins it")
    expect(confirm).to_contain_text("Nothing has changed yet.")
    found["withdraw confirmation"] = serious(page)
    jonas.refresh_from_db()
    assert jonas.status == EntrantStatus.ACTIVE  # asking changed nothing

    page.get_by_role("button", name=f"Confirm: withdraw {jonas.name}").click()
    expect(page.get_by_role("status")).to_contain_text(
        f"{jonas.name} is withdrawn. {jonas.name} forfeits Group round 2: {mia.name} wins it"
    )
    undo = page.get_by_role("button", name=f"Undo {jonas.name}'s withdrawal")
    expect(undo).to_be_visible()
    found["players with the undo"] = serious(page)

    undo.click()
    expect(page.get_by_role("status")).to_contain_text(f"{jonas.name}'s withdrawal is undone")
    expect(page.get_by_role("button", name=f"Undo {jonas.name}'s withdrawal")).to_have_count(0)
    duel.refresh_from_db()
    jonas.refresh_from_db()
    assert (duel.status, duel.seq, jonas.status) == (DuelStatus.RUNNING, 1, EntrantStatus.ACTIVE)
    assert found == {k: [] for k in found}, found


def test_a_check_in_is_undone_on_a_phone(page):
    organiser = UserFactory(username="olga")
    tournament = TournamentFactory(created_by=organiser, slug="cup", name="Cup")
    tournament.groups.create(name="Reds", order=1)
    tournament.groups.create(name="Blues", order=2)
    EntrantFactory(tournament=tournament, name="Pia")
    EntrantFactory(tournament=tournament, name="Oli")
    found = {}
    page.set_viewport_size(PHONE)
    sign_in(page, "olga")
    page.goto("/t/cup/manage/check-in/")
    page.get_by_role("button", name="Check in Pia").click()
    expect(page.get_by_role("status")).to_contain_text("Pia is checked in.")
    found["check-in"] = serious(page)
    page.get_by_role("button", name="Undo Pia's check-in").click()
    expect(page.get_by_role("status")).to_contain_text("Pia's check-in is undone")
    expect(page.get_by_role("button", name="Check in Pia")).to_be_visible()
    # The no-shows: the first press names them and changes nothing.
    page.get_by_role("button", name="Remove the 2 no-shows…").click()
    expect(page.get_by_role("region", name="Remove these 2 no-shows?")).to_contain_text("Oli")
    found["no-shows confirmation"] = serious(page)
    assert tournament.entrants.count() == 2
    assert found == {k: [] for k in found}, found


def test_the_playoffs_start_after_their_confirmation_on_a_phone(page):
    tournament, organiser, referee = play_group_phase(no_capture)
    settle_tiebreaks(tournament, referee, no_capture)
    assert tournament.top_four_settled_at is not None
    found = {}
    page.set_viewport_size(PHONE)
    sign_in(page, organiser.username)
    page.goto(f"/t/{tournament.slug}/manage/")
    page.get_by_role("button", name="Start the playoffs…").click()
    confirm = page.get_by_role("region", name="Start the playoffs?")
    expect(confirm).to_contain_text("can no longer be corrected or voided")
    expect(confirm).to_contain_text("Qualifier 1")
    found["playoffs confirmation"] = serious(page)
    tournament.refresh_from_db()
    assert tournament.phase == Phase.TIE_BREAKS  # asking changed nothing

    page.get_by_role(
        "button", name="Confirm: start the playoffs and freeze the group and tie-break results"
    ).click()
    expect(page.get_by_role("status")).to_contain_text("results are frozen")
    tournament.refresh_from_db()
    assert tournament.phase == Phase.PLAYOFFS

    page.goto(f"/t/{tournament.slug}/manage/results/")
    expect(page.get_by_text("results are frozen, marked so below")).to_be_visible()
    found["results, frozen"] = serious(page)
    group = Duel.objects.filter(
        tournament=tournament, kind=DuelKind.GROUP, status=DuelStatus.FINISHED
    ).first()
    page.goto(f"/t/{tournament.slug}/manage/results/{group.pk}/")
    expect(page.get_by_text("froze when the playoffs started")).to_be_visible()
    expect(page.get_by_role("button", name="Show what will be recomputed")).to_have_count(0)
    found["a frozen result"] = serious(page)
    assert found == {k: [] for k in found}, found


def test_axe_on_the_referee_sheets_and_the_players_own_undo(page):
    organiser = UserFactory(username="olga")
    tournament = TournamentFactory(created_by=organiser, slug="cup", name="Cup")
    services.invitations.issue_invitation(tournament, organiser, role="referee", label="Rui")
    player = UserFactory(username="pia")
    pia = EntrantFactory(tournament=tournament, name="Pia", user=player)
    found = {}
    page.set_viewport_size(PHONE)
    sign_in(page, "olga")
    page.goto("/t/cup/manage/print/referees/")
    box = page.get_by_role("checkbox", name="Rui")
    expect(box).not_to_be_checked()  # none ticked by default
    found["referee sheets"] = serious(page)
    page.get_by_role("button", name="Replace the ticked links and show their sheets").click()
    expect(page.get_by_role("alert")).to_contain_text("Tick whose links to replace")
    page.context.clear_cookies()
    sign_in(page, "pia")
    page.goto("/t/cup/")
    page.get_by_role("button", name="I am here: check me in").click()
    page.get_by_role("button", name="Not here after all: undo my check-in").click()
    expect(page.get_by_role("status")).to_contain_text("Your check-in as Pia is undone.")
    found["tournament page"] = serious(page)
    pia.refresh_from_db()
    assert pia.checked_in_at is None
    assert found == {k: [] for k in found}, found


def test_removing_a_linked_player_is_confirmed_on_a_phone(page):
    organiser = UserFactory(username="olga")
    tournament = TournamentFactory(created_by=organiser, slug="cup", name="Cup")
    pia = EntrantFactory(tournament=tournament, name="Pia", user=UserFactory(username="pia"))
    found = {}
    page.set_viewport_size(PHONE)
    sign_in(page, "olga")
    page.goto("/t/cup/manage/players/")
    page.get_by_role("button", name="Remove Pia…").click()
    confirm = page.get_by_role("region", name="Remove Pia?")
    expect(confirm).to_contain_text("Nothing has changed yet.")
    expect(confirm).to_contain_text("The entry is linked to the account pia")
    expect(confirm).to_contain_text("A removal cannot be undone")
    found["removal confirmation"] = serious(page)
    assert tournament.entrants.filter(pk=pia.pk).exists()  # asking changed nothing

    page.get_by_role("button", name="Confirm: remove Pia and unlink pia").click()
    expect(page.get_by_role("status")).to_contain_text("Pia is removed.")
    expect(page.get_by_role("button", name="Remove Pia…")).to_have_count(0)
    assert not tournament.entrants.filter(pk=pia.pk).exists()
    # The same confirmation sent again (the browser's back and resend) changes nothing.
    page.go_back()
    page.get_by_role("button", name="Confirm: remove Pia and unlink pia").click()
    expect(page.get_by_role("status")).to_contain_text("Pia was already removed: nothing changed.")
    found["players after the removal"] = serious(page)
    assert found == {k: [] for k in found}, found
