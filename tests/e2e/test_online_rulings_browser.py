"""Online tournament duels, the organiser's side (ONLINE.md 6), in Chromium at phone size
(390 × 844): the settings page with the online setting, a duel neither player was ready for
ruled from the Rounds page, an entry unlinked after its confirmation; axe on each page."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from duels.models import Duel, DuelStatus
from tests.e2e.conftest import PHONE
from tests.e2e.test_confirm_browser import serious
from tests.e2e.test_htmx_browser import sign_in
from tests.factories import UserFactory, group_phase_duel

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_organiser_rules_on_an_online_duel_and_unlinks_an_entry_on_a_phone(page):
    olga = UserFactory(username="olga")
    duel, _referee = group_phase_duel(created_by=olga, slug="cup", online_duels=True)
    for entrant, name in ((duel.seat_a, "ada"), (duel.seat_b, "bo")):
        entrant.user = UserFactory(username=name)
        entrant.save(update_fields=["user"])
    Duel.objects.filter(pk=duel.pk).update(
        online=True, ready_by=timezone.now() - timedelta(minutes=1)
    )
    found = {}
    page.set_viewport_size(PHONE)
    sign_in(page, "olga")

    page.goto("/t/cup/manage/settings/")
    expect(page.get_by_role("group", name="Duels are played")).to_contain_text(
        "Locked: the group phase has started."
    )
    found["settings"] = serious(page)

    page.goto("/t/cup/manage/rounds/")
    expect(page.get_by_text("Neither player was ready: rule on this duel.")).to_be_visible()
    found["rounds, a ruling asked"] = serious(page)
    page.get_by_label("Alice forfeits: Bob wins").check()
    page.get_by_label("Yes, rule so: it cannot be undone here").check()
    page.get_by_role("button", name="Rule", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text(
        "Group round 1: Alice forfeits (not ready); Bob wins."
    )
    expect(page.get_by_role("table", name="Each online duel")).to_contain_text("Finished: Bob won")
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED and duel.result.winner_id == duel.seat_b_id

    page.goto("/t/cup/manage/players/")
    page.get_by_role("button", name="Unlink bo from Bob…").click()
    confirm = page.get_by_role("region", name="Unlink Bob's entry from bo?")
    expect(confirm).to_contain_text("Nothing has changed yet.")
    found["unlink confirmation"] = serious(page)
    page.get_by_role("button", name="Confirm: unlink bo from Bob").click()
    expect(page.get_by_role("status")).to_contain_text(
        "Bob's entry is no longer linked to an account"
    )
    expect(page.get_by_role("button", name="Unlink bo from Bob…")).to_have_count(0)
    duel.seat_b.refresh_from_db()
    assert duel.seat_b.user_id is None
    assert found == {k: [] for k in found}, found


def test_an_organiser_adjudicates_a_duel_both_players_abandoned_on_a_phone(page, monkeypatch):
    from tests.tournaments.test_online_rulings import abandoned_by_both
    from tournaments.services import online_rulings

    olga = UserFactory(username="olga")
    duel, _referee = group_phase_duel(created_by=olga, slug="cup", online_duels=True)
    for entrant, name in ((duel.seat_a, "ada"), (duel.seat_b, "bo")):
        entrant.user = UserFactory(username=name)
        entrant.save(update_fields=["user"])
    Duel.objects.filter(pk=duel.pk).update(online=True)
    duel = abandoned_by_both(Duel.objects.get(pk=duel.pk), monkeypatch)
    assert online_rulings.both_abandoned(duel)
    found = {}
    page.set_viewport_size(PHONE)
    sign_in(page, "olga")
    page.goto("/t/cup/manage/rounds/")
    expect(page.get_by_text("Both players abandoned: rule on this duel.")).to_be_visible()
    expect(page.get_by_role("table", name="Each online duel")).to_contain_text(
        "Stopped: both players abandoned"
    )
    found["rounds, both abandoned"] = serious(page)
    page.get_by_label("Adjudicate: Bob wins").check()
    page.get_by_label("Yes, rule so: it cannot be undone here").check()
    page.get_by_role("button", name="Rule", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Group round 1: adjudicated to Bob.")
    expect(page.get_by_role("table", name="Each online duel")).to_contain_text("Finished: Bob won")
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED and duel.result.winner_id == duel.seat_b_id
    assert found == {k: [] for k in found}, found
