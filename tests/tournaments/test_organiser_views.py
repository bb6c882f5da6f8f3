"""Organiser pages (issue 8): the role matrix on every page and every post, CSRF on every
post, and each page's behaviour through the services — refusals explained with 422 and the
input kept, htmx partials, the transfers board's live check, corrections previewed exactly."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Role
from duels.models import Duel, DuelStatus
from tests.factories import EntrantFactory, RoleFactory, TournamentFactory, UserFactory
from tournaments import services
from tournaments.models import (
    AuditEntry,
    Entrant,
    EntrantStatus,
    Phase,
    SharedCard,
    StandingRow,
    Tournament,
)
from tournaments.services import refereeing as duel_services

pytestmark = pytest.mark.django_db

WHO = ["organiser", "co_organiser", "referee", "player", "stranger", "anonymous"]
ORGANISERS = {
    "organiser": 200,
    "co_organiser": 200,
    "referee": 403,
    "player": 403,
    "stranger": 404,
    "anonymous": 404,
}
STAFF = {**ORGANISERS, "referee": 200}
# Expected status of each page for each role on an unpublished tournament.
PAGES = {
    "overview": ORGANISERS,
    "setup": ORGANISERS,
    "players": ORGANISERS,
    "groups": ORGANISERS,
    "transfers": ORGANISERS,
    "rounds": STAFF,
    "results": ORGANISERS,
    "people": ORGANISERS,
    "audit": ORGANISERS,
}


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def url(name: str, *args) -> str:
    return reverse(f"organiser:{name}", args=["cup", *args])


@pytest.fixture
def cup():
    organiser = UserFactory(username="olga")
    tournament = TournamentFactory(created_by=organiser, published=False, slug="cup", name="Cup")
    tournament.groups.create(name="Reds", order=1)
    tournament.groups.create(name="Blues", order=2)
    users = {
        "organiser": organiser,
        "co_organiser": RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user,
        "referee": RoleFactory(tournament=tournament, role=Role.REFEREE).user,
        "player": EntrantFactory(tournament=tournament, name="Pia", user=UserFactory()).user,
        "stranger": UserFactory(),
        "anonymous": None,
    }
    return tournament, users


def register(tournament, organiser, n=21, first=15):
    """`n` players P01… registered (Pia included when the cup has her) and split first/rest."""
    have = tournament.entrants.count()
    services.register_list(
        tournament, "\n".join(f"P{i:02d}" for i in range(1, n - have + 1)), organiser
    )
    entrants = list(tournament.entrants.order_by("name"))
    services.split_groups(
        tournament, organiser, "hand", {e.pk: 1 if i < first else 2 for i, e in enumerate(entrants)}
    )
    return entrants


def in_group_phase(tournament, organiser, *, decided=1, sizes=(15, 6)):
    """The group phase started with the given split and `decided` rounds won by seat A."""
    register(tournament, organiser, n=sum(sizes), first=sizes[0])
    services.start_group_phase(tournament, organiser)
    reds, blues = tournament.groups.order_by("order")
    for number in range(1, decided + 1):
        first = tournament.entrants.filter(group=reds, status="active").order_by("name").first()
        second = tournament.entrants.filter(group=blues, status="active").order_by("name").first()
        duel = services.name_representatives(tournament, organiser, number, first.pk, second.pk)
        duel_services.append_event(duel, organiser, {"type": "forfeit", "seat": "B"}, 0)
    tournament.refresh_from_db()
    return reds, blues


# ---- the role matrix --------------------------------------------------------------------


@pytest.mark.parametrize("page", list(PAGES))
@pytest.mark.parametrize("who", WHO)
def test_page_access_matrix_unpublished(cup, page, who):
    tournament, users = cup
    response = client_for(users[who]).get(url(page))
    assert response.status_code == PAGES[page][who]


@pytest.mark.parametrize("page", list(PAGES))
@pytest.mark.parametrize("who", ["player", "stranger", "anonymous"])
def test_published_organiser_pages_stay_closed_to_the_public(cup, page, who):
    tournament, users = cup
    tournament.published = True
    tournament.save()
    expected = {"player": 403, "stranger": 403, "anonymous": 302}[who]
    response = client_for(users[who]).get(url(page))
    assert response.status_code == expected
    if who == "anonymous":
        assert reverse("login") in response.url


@pytest.mark.parametrize("who", WHO)
def test_correction_page_matrix(cup, who):
    tournament, users = cup
    in_group_phase(tournament, users["organiser"], decided=1)
    duel = Duel.objects.get(tournament=tournament, round__number=1)
    expected = ORGANISERS[who]
    assert client_for(users[who]).get(url("result", duel.pk)).status_code == expected


# Every post of the organiser pages, with data that would change something.
def posts(tournament):
    entrant = tournament.entrants.first()
    return [
        ("open_registration", [], {}),
        ("start_group_phase", [], {}),
        ("start_playoffs", [], {}),
        ("catch_up", [], {}),
        ("publish", [], {"published": "1"}),
        ("cancel", [], {"reason": "rain", "confirm": "on"}),
        ("setup", [], {"name": "Renamed", "duel_preset": "tournament", "tiebreak_mode": "full"}),
        ("players", [], {"name": "Newcomer"}),
        ("register_list", [], {"names": "Newcomer"}),
        ("register_csv", [], {"file": SimpleUploadedFile("p.csv", b"Newcomer\n")}),
        ("withdraw", [], {"entrant": entrant.pk, "reason": "ill"}),
        ("issue_claim", [entrant.pk], {}),
        ("groups", [], {"method": "alternating"}),
        ("groups_check", [], {}),
        ("group_names", [], {"first": "Suns", "second": "Moons"}),
        ("transfers", [], {}),
        ("transfers_check", [], {}),
        ("name_representatives", [], {}),
        ("shared_card", [], {}),
        ("paper_result", [], {}),
        ("paper_duel", [1], {}),
        ("assign_referee", [1], {}),
        ("result", [1], {}),
        ("people", [], {"username": "olga", "role": "referee"}),
        ("revoke", [1], {}),
    ]


POST_NAMES = [
    "open_registration",
    "start_group_phase",
    "start_playoffs",
    "catch_up",
    "publish",
    "cancel",
    "setup",
    "players",
    "register_list",
    "register_csv",
    "withdraw",
    "issue_claim",
    "groups",
    "groups_check",
    "group_names",
    "transfers",
    "transfers_check",
    "name_representatives",
    "shared_card",
    "paper_result",
    "paper_duel",
    "assign_referee",
    "result",
    "people",
    "revoke",
]


@pytest.mark.parametrize("name", POST_NAMES)
def test_every_post_needs_the_csrf_token(cup, name):
    tournament, users = cup
    _, args, data = next(p for p in posts(tournament) if p[0] == name)
    client = Client(enforce_csrf_checks=True)
    client.force_login(users["organiser"])
    before = (
        Tournament.objects.values_list("name", "phase", "published").get(pk=tournament.pk),
        AuditEntry.objects.count(),
        Entrant.objects.count(),
    )
    response = client.post(url(name, *args), data)
    assert response.status_code == 403
    assert "form has expired" in response.content.decode()
    assert (
        Tournament.objects.values_list("name", "phase", "published").get(pk=tournament.pk),
        AuditEntry.objects.count(),
        Entrant.objects.count(),
    ) == before


@pytest.mark.parametrize("name", POST_NAMES)
@pytest.mark.parametrize("who", ["player", "stranger", "anonymous"])
def test_no_post_is_open_to_players_or_the_public(cup, name, who):
    tournament, users = cup
    _, args, data = next(p for p in posts(tournament) if p[0] == name)
    before = (AuditEntry.objects.count(), Entrant.objects.count())
    response = client_for(users[who]).post(url(name, *args), data)
    assert response.status_code == {"player": 403, "stranger": 404, "anonymous": 404}[who]
    assert (AuditEntry.objects.count(), Entrant.objects.count()) == before


REFEREE_MAY = {
    "name_representatives",
    "shared_card",
    "assign_referee",
    "paper_result",
    "paper_duel",
}


@pytest.mark.parametrize("name", sorted(set(POST_NAMES) - REFEREE_MAY))
def test_referees_post_nothing_but_rounds_and_cards(cup, name):
    tournament, users = cup
    _, args, data = next(p for p in posts(tournament) if p[0] == name)
    before = AuditEntry.objects.count()
    assert client_for(users["referee"]).post(url(name, *args), data).status_code == 403
    assert AuditEntry.objects.count() == before


@pytest.mark.parametrize("who", WHO)
def test_only_the_organiser_cancels(cup, who):
    tournament, users = cup
    response = client_for(users[who]).post(url("cancel"), {"reason": "rain", "confirm": "on"})
    expected = {
        "organiser": 302,
        "co_organiser": 403,
        "referee": 403,
        "player": 403,
        "stranger": 404,
        "anonymous": 404,
    }[who]
    assert response.status_code == expected
    tournament.refresh_from_db()
    assert (tournament.phase == Phase.CANCELLED) is (who == "organiser")


# ---- creating and setting up ------------------------------------------------------------


def test_create_with_settings_leads_to_the_overview(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        reverse("tournaments:create"),
        {
            "name": "Harbour Cup",
            "duel_preset": "paper",
            "variants": ["speed"],
            "tiebreak_mode": "minimal",
            "shared_cards": "",
            "duel_time_limit_minutes": "30",
        },
    )
    tournament = Tournament.objects.get()
    assert response.url == reverse("organiser:overview", args=[tournament.slug])
    assert (
        tournament.duel_preset,
        tournament.variants,
        tournament.tiebreak_mode,
        tournament.shared_cards,
        tournament.duel_time_limit_minutes,
    ) == ("paper", ["speed"], "minimal", False, 30)
    html = client.get(response.url).content.decode()
    assert "Paper + Speed rules" in html and "no time limit" not in html


def test_create_refuses_a_time_limit_out_of_range_and_keeps_the_input(client):
    client.force_login(UserFactory())
    response = client.post(
        reverse("tournaments:create"),
        {
            "name": "Harbour Cup",
            "duel_preset": "tournament",
            "tiebreak_mode": "full",
            "duel_time_limit_minutes": "999",
        },
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert 'value="Harbour Cup"' in html and "less than or equal to 240" in html
    assert not Tournament.objects.exists()


def test_settings_lock_once_the_group_phase_has_started(cup):
    tournament, users = cup
    client = client_for(users["co_organiser"])
    response = client.post(
        url("setup"),
        {"name": "Cup", "duel_preset": "official", "tiebreak_mode": "full", "shared_cards": "on"},
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.duel_preset == "official"
    in_group_phase(tournament, users["organiser"], decided=0)
    html = client.get(url("setup")).content.decode()
    assert "Locked: the group phase has started." in html
    # A disabled field ignores what is posted: the locked setting keeps its value.
    client.post(url("setup"), {"name": "Cup", "duel_preset": "paper", "tiebreak_mode": "full"})
    tournament.refresh_from_db()
    assert tournament.duel_preset == "official"


# ---- players ----------------------------------------------------------------------------


def test_old_addresses_redirect_to_the_organiser_pages(cup):
    tournament, users = cup
    client = client_for(users["organiser"])
    assert client.get(reverse("tournaments:entrants", args=["cup"])).url == url("players")
    assert client.get(reverse("tournaments:people", args=["cup"])).url == url("people")


def test_register_one_in_place_and_a_duplicate_is_refused_with_the_name_kept(cup):
    tournament, users = cup
    client = client_for(users["organiser"])
    response = client.post(url("players"), {"name": "Ada"}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="players-panel">')
    assert 'hx-swap-oob="innerHTML">Ada is registered.' in html
    assert "HX-Request" in response["Vary"]
    response = client.post(url("players"), {"name": "ADA"}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert "already registered" in response.content.decode()
    assert 'value="ADA"' in response.content.decode()
    # Without htmx: post, redirect, and the message on the next page.
    response = client.post(url("players"), {"name": "Bea"}, follow=True)
    assert "Bea is registered." in response.content.decode()


def test_a_pasted_list_is_reported_line_by_line_and_refused_lines_stay_to_fix(cup):
    tournament, users = cup
    client = client_for(users["organiser"])
    response = client.post(url("register_list"), {"names": "Ada\n\npia\nBo\n" + "x" * 81})
    html = response.content.decode()
    assert response.status_code == 200
    assert "2 registered, 2 refused" in html
    assert "“pia” is already registered as “Pia”: names that differ only in capitals" in html
    assert "at most 80 characters" in html
    # The refused lines are back in the box, the registered ones are not.
    box = html.split('name="names"', 1)[1].split("</textarea>", 1)[0]
    assert "pia" in box and "x" * 81 in box and "Ada" not in box
    assert set(tournament.entrants.values_list("name", flat=True)) == {"Pia", "Ada", "Bo"}


def test_a_csv_with_two_bad_rows_reports_both(cup):
    tournament, users = cup
    client = client_for(users["co_organiser"])
    data = b"name,club\nAda,North\n,South\nBea,\nPIA,East\n"
    response = client.post(
        url("register_csv"),
        {"file": SimpleUploadedFile("players.csv", data, "text/csv")},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "2 registered, 2 refused" in html
    assert "<td>3</td><td>(empty)</td><td><strong>Refused:</strong> A player needs a name." in html
    assert (
        "<td>5</td><td>PIA</td><td><strong>Refused:</strong> “PIA” is already registered as “Pia”"
        in html
    )


def test_a_file_that_is_not_utf8_is_refused_in_words(cup):
    tournament, users = cup
    response = client_for(users["organiser"]).post(
        url("register_csv"), {"file": SimpleUploadedFile("p.csv", "Zoë\n".encode("latin-1"))}
    )
    assert response.status_code == 422
    assert "not UTF-8" in response.content.decode()


def test_registration_closes_when_the_group_phase_starts(cup):
    tournament, users = cup
    in_group_phase(tournament, users["organiser"], decided=0)
    client = client_for(users["organiser"])
    html = client.get(url("players")).content.decode()
    assert "Registration is closed" in html
    response = client.post(url("players"), {"name": "Late"})
    assert response.status_code == 422
    assert "no late entries" in response.content.decode()


def test_claim_links_are_issued_from_the_players_page(cup):
    tournament, users = cup
    entrant = EntrantFactory(tournament=tournament, name="Bea")
    response = client_for(users["organiser"]).post(url("issue_claim", entrant.pk))
    assert response.status_code == 200
    assert "/t/cup/claim/" in response.context["link"]
    entrant.refresh_from_db()
    assert entrant.claim_token_hash


def test_withdraw_during_set_up_keeps_a_private_reason(cup):
    tournament, users = cup
    pia = tournament.entrants.get(name="Pia")
    client = client_for(users["co_organiser"])
    asked = client.post(url("withdraw"), {"entrant": pia.pk, "reason": "ill"})
    assert asked.status_code == 200
    assert "Withdraw Pia?" in asked.content.decode()
    pia.refresh_from_db()
    assert pia.status == EntrantStatus.ACTIVE  # the first post only asks
    version = asked.context["preview"].version
    response = client.post(
        url("withdraw"), {"entrant": pia.pk, "reason": "ill", "confirm": "1", "version": version}
    )
    assert response.status_code == 302
    pia.refresh_from_db()
    assert (pia.status, pia.withdrawal_reason) == (EntrantStatus.WITHDRAWN, "ill")


def test_a_withdrawal_that_sinks_a_group_asks_for_confirmation(cup):
    tournament, users = cup
    reds, blues = in_group_phase(tournament, users["organiser"], decided=1, sizes=(10, 5))
    leaving = tournament.entrants.filter(group=blues).order_by("name").last()
    client = client_for(users["organiser"])
    response = client.post(url("withdraw"), {"entrant": leaving.pk, "reason": "ill"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Blues is eliminated at once" in html
    assert "Confirm: withdraw " + leaving.name + " and eliminate Blues" in html
    leaving.refresh_from_db()
    assert leaving.status == EntrantStatus.ACTIVE
    version = response.context["preview"].version
    response = client.post(
        url("withdraw"),
        {"entrant": leaving.pk, "reason": "ill", "confirm": "1", "version": version},
    )
    assert response.status_code == 302
    blues.refresh_from_db()
    assert blues.eliminated_at_round == 1


# ---- groups and starting ----------------------------------------------------------------


def test_split_by_hand_and_the_live_check(cup):
    tournament, users = cup
    register(tournament, users["organiser"], n=12, first=12)
    client = client_for(users["organiser"])
    entrants = list(tournament.entrants.order_by("name"))
    # The check (htmx, on every change) counts what the selects say, before saving.
    data = {f"g{e.pk}": "1" if i < 8 else "2" for i, e in enumerate(entrants)}
    html = client.post(url("groups_check"), data, headers={"HX-Request": "true"}).content.decode()
    assert "Reds: <strong>8</strong>" in html and "Blues: <strong>4</strong>" in html
    assert "Blues has 4 members; a group needs 5 to 15." in html
    data[f"g{entrants[0].pk}"] = "2"
    html = client.post(url("groups_check"), data).content.decode()
    assert "Both groups are within 5 to 15" in html
    response = client.post(url("groups"), {**data, "method": "hand"})
    assert response.status_code == 302
    assert tournament.entrants.filter(group__order=2).count() == 5


def test_random_and_alternating_splits(cup):
    tournament, users = cup
    register(tournament, users["organiser"], n=11, first=0)
    client = client_for(users["organiser"])
    client.post(url("groups"), {"method": "random"})
    tournament.refresh_from_db()
    assert tournament.split_seed
    assert tournament.entrants.filter(group__order=1).count() == 6
    assert tournament.split_seed in client.get(url("groups")).content.decode()
    client.post(url("groups"), {"method": "alternating"})
    assert tournament.entrants.filter(group__order=2).count() == 5


def test_group_names(cup):
    tournament, users = cup
    client = client_for(users["organiser"])
    response = client.post(url("group_names"), {"first": "Suns", "second": "suns"})
    assert response.status_code == 422
    assert "two different names" in response.content.decode()
    client.post(url("group_names"), {"first": "Suns", "second": "Moons"})
    assert list(tournament.groups.order_by("order").values_list("name", flat=True)) == [
        "Suns",
        "Moons",
    ]


def test_starting_explains_what_blocks_it_then_starts(cup):
    tournament, users = cup
    client = client_for(users["co_organiser"])
    html = client.get(url("overview")).content.decode()
    assert "Not in a group yet: Pia." in html
    response = client.post(url("start_group_phase"))
    assert response.status_code == 422
    assert "The group phase cannot start" in response.content.decode()
    register(tournament, users["organiser"], n=21, first=15)
    assert "the group phase can start" in client.get(url("overview")).content.decode()
    response = client.post(url("start_group_phase"), follow=True)
    assert "round 1 is open" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.phase == Phase.GROUP_PHASE
    assert "The split is final" not in client.get(url("groups")).content.decode()


def test_the_overview_says_when_a_set_up_withdrawal_blocks_round_1(cup):
    tournament, users = cup
    in_group_phase(tournament, users["organiser"], decided=0, sizes=(6, 5))
    blues = tournament.groups.get(order=2)
    leaver = tournament.entrants.filter(group=blues).order_by("name").first()
    services.withdraw(tournament, users["organiser"], leaver.pk, reason="flight")
    client = client_for(users["organiser"])
    html = client.get(url("overview")).content.decode()
    assert "Round 1 cannot start: Blues has 4 members" in html
    mover = tournament.entrants.filter(group__order=1).order_by("name").last()
    services.split_groups(tournament, users["organiser"], "hand", {mover.pk: 2})
    assert "Round 1 cannot start" not in client.get(url("overview")).content.decode()


# ---- transfers --------------------------------------------------------------------------


def test_transfers_wait_for_round_one_and_say_so(cup):
    tournament, users = cup
    in_group_phase(tournament, users["organiser"], decided=0)
    html = client_for(users["organiser"]).get(url("transfers")).content.decode()
    assert "Transfers open once round 1 has a decisive result" in html
    assert 'id="transfer-form"' not in html


def test_the_board_refuses_a_move_into_the_full_group_on_the_spot(cup):
    tournament, users = cup
    reds, blues = in_group_phase(tournament, users["organiser"], decided=1)
    client = client_for(users["organiser"])
    html = client.get(url("transfers")).content.decode()
    assert "Round 1 is decided" in html
    assert "Reds: <strong>15</strong>" in html and "Blues: <strong>6</strong>" in html
    mover = tournament.entrants.filter(group=blues).first()
    check = client.post(
        url("transfers_check"), {f"to{mover.pk}": "1"}, headers={"HX-Request": "true"}
    ).content.decode()
    assert "Refused: Reds would have 16 members, and a group may have at most 15." in check
    assert "Reds: <strong>16</strong>" in check and "(now 15)" in check
    assert 'id="transfer-actions" class="button-row" hx-swap-oob="true"' in check
    response = client.post(url("transfers"), {f"to{mover.pk}": "1"}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert "at most 15" in response.content.decode()
    mover.refresh_from_db()
    assert mover.group == blues


def test_a_move_the_other_way_is_applied_and_the_board_says_what_happened(cup):
    tournament, users = cup
    reds, blues = in_group_phase(tournament, users["organiser"], decided=1)
    mover = tournament.entrants.filter(group=reds).order_by("name").last()
    client = client_for(users["co_organiser"])
    check = client.post(url("transfers_check"), {f"to{mover.pk}": "2"}).content.decode()
    assert "1 change, within the limits" in check
    assert f"{mover.name} → Blues" in check
    response = client.post(
        url("transfers"),
        {f"to{mover.pk}": "2", "reason": "balance"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert f"Applied: {mover.name} → Blues." in response.content.decode()
    mover.refresh_from_db()
    assert mover.group == blues
    assert AuditEntry.objects.filter(action="membership_changed", reason="balance").exists()


def test_a_whole_reshuffle_is_checked_as_a_whole(cup):
    tournament, users = cup
    reds, blues = in_group_phase(tournament, users["organiser"], decided=1)
    client = client_for(users["organiser"])
    red = tournament.entrants.filter(group=reds).first()
    blue = tournament.entrants.filter(group=blues).first()
    # A swap: each move alone is fine or refused, together they keep 15/6.
    check = client.post(
        url("transfers_check"), {f"to{red.pk}": "2", f"to{blue.pk}": "1"}
    ).content.decode()
    assert "2 changes, within the limits" in check
    response = client.post(url("transfers"), {f"to{red.pk}": "2", f"to{blue.pk}": "1"})
    assert response.status_code == 302
    red.refresh_from_db()
    blue.refresh_from_db()
    assert (red.group, blue.group) == (blues, reds)


def test_a_change_that_sinks_a_group_needs_confirmation_then_eliminates_it(cup):
    tournament, users = cup
    reds, blues = in_group_phase(tournament, users["organiser"], decided=1, sizes=(9, 6))
    movers = list(tournament.entrants.filter(group=blues).order_by("name")[:2])
    data = {f"to{m.pk}": "1" for m in movers}
    client = client_for(users["organiser"])
    check = client.post(url("transfers_check"), data).content.decode()
    assert "Blues would have 4 members, below 5: if you confirm, Blues is eliminated" in check
    assert "Confirm: apply and eliminate Blues" in check
    response = client.post(url("transfers"), data)
    assert response.status_code == 422
    html = response.content.decode()
    assert "Confirm: apply and eliminate Blues" in html
    # The moves typed are still selected.
    select = html.split(f'id="id_to{movers[0].pk}"')[1].split("</select>")[0]
    assert '<option value="1" selected>Reds</option>' in select
    response = client.post(url("transfers"), {**data, "confirm": "1"}, follow=True)
    assert "Blues is eliminated" in response.content.decode()
    blues.refresh_from_db()
    assert blues.eliminated_at_round == 1
    assert all(
        e.status == EntrantStatus.ELIMINATED for e in tournament.entrants.filter(group=blues)
    )


def test_nothing_to_apply_is_explained(cup):
    tournament, users = cup
    in_group_phase(tournament, users["organiser"], decided=1)
    response = client_for(users["organiser"]).post(url("transfers"), {})
    assert response.status_code == 422
    assert "Nothing to apply" in response.content.decode()


# ---- rounds -----------------------------------------------------------------------------


def test_naming_representatives_with_a_table_and_a_referee(cup):
    tournament, users = cup
    reds, blues = in_group_phase(tournament, users["organiser"], decided=0)
    first = tournament.entrants.filter(group=reds).first()
    second = tournament.entrants.filter(group=blues).first()
    referee = users["referee"]
    client = client_for(users["co_organiser"])
    response = client.post(
        url("name_representatives"),
        {"first": first.pk, "second": second.pk, "table": "Table 3", "referee": referee.pk},
    )
    assert response.status_code == 302
    duel = Duel.objects.get(tournament=tournament, round__number=1)
    assert (duel.seat_a, duel.seat_b, duel.table, duel.referee, duel.status) == (
        first,
        second,
        "Table 3",
        referee,
        DuelStatus.READY,
    )
    html = client.get(url("rounds")).content.decode()
    assert "Ready for a referee" in html and "Table 3" in html
    assert "Next up" in html


def test_a_referee_names_but_does_not_assign_and_a_wrong_group_is_refused(cup):
    tournament, users = cup
    reds, blues = in_group_phase(tournament, users["organiser"], decided=0)
    red = tournament.entrants.filter(group=reds).first()
    other_red = tournament.entrants.filter(group=reds).last()
    client = client_for(users["referee"])
    html = client.get(url("rounds")).content.decode()
    assert 'name="referee"' not in html
    # A player of the wrong group is not even offered; posting one anyway is refused.
    response = client.post(
        url("name_representatives"), {"first": red.pk, "second": other_red.pk, "table": "T1"}
    )
    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    assert not Duel.objects.filter(tournament=tournament).exists()


def test_naming_and_assigning_are_both_or_neither(cup):
    tournament, users = cup
    reds, blues = in_group_phase(tournament, users["organiser"], decided=0)
    red = tournament.entrants.filter(group=reds).first()
    blue = tournament.entrants.filter(group=blues).first()
    # Pia plays (she is a linked player): she cannot referee; nothing is named either.
    pia_user = users["player"]
    RoleFactory(tournament=tournament, user=pia_user, role=Role.REFEREE)
    pia = tournament.entrants.get(name="Pia")
    assert pia.group in (reds, blues)
    first, second = (pia, blue) if pia.group == reds else (red, pia)
    response = client_for(users["organiser"]).post(
        url("name_representatives"),
        {"first": first.pk, "second": second.pk, "referee": pia_user.pk},
    )
    assert response.status_code == 422
    assert "cannot referee this duel" in response.content.decode()
    assert not Duel.objects.filter(tournament=tournament).exists()


def test_now_playing_and_next_up(cup):
    tournament, users = cup
    reds, blues = in_group_phase(tournament, users["organiser"], decided=1)
    red = tournament.entrants.filter(group=reds).last()
    blue = tournament.entrants.filter(group=blues).last()
    duel = services.name_representatives(
        tournament, users["organiser"], 2, red.pk, blue.pk, "Table 9"
    )
    client = client_for(users["referee"])
    html = client.get(url("rounds")).content.decode()
    next_up = html.split('id="next-up-heading"', 1)[1]
    assert "Table 9" in next_up and "Group round 2" in next_up
    duel_services.append_event(
        duel, users["referee"], {"type": "round", "cards": {"A": 5, "B": 3}}, 0
    )
    html = client.get(url("rounds")).content.decode()
    playing = html.split('id="playing-heading"', 1)[1].split('id="next-up-heading"', 1)[0]
    assert blue.name in playing and "Table 9" in playing


def test_record_a_shared_card(cup):
    tournament, users = cup
    tournament.shared_cards = True
    tournament.save()
    reds, blues = in_group_phase(tournament, users["organiser"], decided=0)
    red = tournament.entrants.filter(group=reds).order_by("name").first()
    blue = tournament.entrants.filter(group=blues).order_by("name").first()
    duel = services.name_representatives(tournament, users["organiser"], 1, red.pk, blue.pk)
    # A real round so that the winner ends with an action card: a 7 gives Bob a card.
    duel_services.append_event(
        duel, users["referee"], {"type": "round", "cards": {"A": 3, "B": 7}}, 0
    )
    duel_services.append_event(duel, users["referee"], {"type": "forfeit", "seat": "B"}, 1)
    mate = tournament.entrants.filter(group=reds).exclude(pk=red.pk).first()
    client = client_for(users["referee"])
    response = client.post(url("shared_card"), {"giver": red.pk, "receiver": mate.pk})
    assert response.status_code == 302, response.content.decode()
    assert SharedCard.objects.filter(giver=red, receiver=mate).exists()
    response = client.post(url("shared_card"), {"giver": red.pk, "receiver": mate.pk})
    assert response.status_code == 422
    assert "already given a card" in response.content.decode()


# ---- results ----------------------------------------------------------------------------


def test_a_correction_is_previewed_exactly_then_recorded(cup):
    tournament, users = cup
    in_group_phase(tournament, users["organiser"], decided=1)
    duel = Duel.objects.select_related("seat_a", "seat_b").get(
        tournament=tournament, round__number=1
    )
    a, b = duel.seat_a, duel.seat_b
    client = client_for(users["co_organiser"])
    assert f"{a.name} won" in client.get(url("results")).content.decode()
    before = (
        AuditEntry.objects.count(),
        list(StandingRow.objects.values_list("points", flat=True)),
    )
    response = client.post(
        url("result", duel.pk),
        {"ruling": "B", "reason": "wrong seat", "preview": "1"},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="ruling">')
    assert f"{a.name}: 3 → -2 points" in html and f"{b.name}: -2 → 3 points" in html
    assert "Total of Reds: 3 → -2." in html
    assert "Nothing has been recorded yet." in html
    assert (
        AuditEntry.objects.count(),
        list(StandingRow.objects.values_list("points", flat=True)),
    ) == before
    response = client.post(
        url("result", duel.pk),
        {"ruling": "B", "reason": "wrong seat", "apply": "1", "version": _version(tournament)},
    )
    assert response.status_code == 302
    duel.result.refresh_from_db()
    assert (duel.result.winner, duel.result.correction_reason) == (b, "wrong seat")


def _version(tournament) -> str:
    """The tournament's version now: what "Record this ruling" is drawn for."""
    tournament.refresh_from_db(fields=["standings_version"])
    return str(tournament.standings_version)


def test_a_void_with_replay_is_previewed_and_a_missing_reason_refused(cup):
    tournament, users = cup
    in_group_phase(tournament, users["organiser"], decided=1)
    duel = Duel.objects.get(tournament=tournament, round__number=1)
    client = client_for(users["organiser"])
    response = client.post(url("result", duel.pk), {"ruling": "void_replay", "reason": ""})
    assert response.status_code == 422
    assert "This field is required." in response.content.decode()
    html = client.post(
        url("result", duel.pk), {"ruling": "void_replay", "reason": "noise", "preview": "1"}
    ).content.decode()
    assert "New duel to play — Group round 1 (replay)" in html
    assert "Group round 1: P01 v P16: finished → void." in html
    assert "Total of Reds: 3 → 0." in html
    assert "Ranks move for 19 other players whose points do not change." in html


def test_a_ruling_applied_from_the_results_page_sends_htmx_to_the_page_not_into_the_form(cup):
    """htmx posts the form in place: once applied it is told to load the Results page itself
    (HX-Redirect), never handed the whole page to draw inside the form; without JavaScript
    the same post redirects."""
    tournament, users = cup
    in_group_phase(tournament, users["organiser"], decided=1)
    duel = Duel.objects.get(tournament=tournament, round__number=1)
    client = client_for(users["organiser"])
    response = client.post(
        url("result", duel.pk),
        {"ruling": "void_replay", "reason": "noise", "apply": "1", "version": _version(tournament)},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 204 and response.content == b""
    assert response["HX-Redirect"] == url("results")
    duel.refresh_from_db()
    assert duel.status == DuelStatus.VOID
    page = client.get(url("results")).content.decode()
    assert "the ruling is recorded" in page  # the message waits for the page it leads to
    again = Duel.objects.get(replay_of=duel)
    finish_duel = client.post(url("result", again.pk), {"ruling": "A", "reason": "x", "apply": "1"})
    assert finish_duel.status_code == 404  # not finished yet: nothing to rule on


def test_a_refused_correction_is_explained(cup):
    tournament, users = cup
    in_group_phase(tournament, users["organiser"], decided=1)
    duel = Duel.objects.get(tournament=tournament, round__number=1)
    response = client_for(users["organiser"]).post(
        url("result", duel.pk), {"ruling": "A", "reason": "check", "preview": "1"}
    )
    assert response.status_code == 422
    assert "That is already the result." in response.content.decode()


# ---- phases and the automation ----------------------------------------------------------


def test_the_overview_shows_the_round_and_the_window(cup):
    tournament, users = cup
    in_group_phase(tournament, users["organiser"], decided=1)
    html = client_for(users["organiser"]).get(url("overview")).content.decode()
    assert "Round 2 of 15 is open (1 decided)" in html
    assert "Open the transfers board" in html
    assert "Up to date" in html
    assert "name the representatives and open the duel" in html
    assert "Nothing yet: it plans the tie-breaks" in html  # no "after the first results"
    # Once round 2's duel is named, the overview no longer asks for it (browser pass).
    reds, blues = tournament.groups.order_by("order")
    first, second = (
        tournament.entrants.filter(group=g).order_by("name").first() for g in (reds, blues)
    )
    services.name_representatives(tournament, users["organiser"], 2, first.pk, second.pk)
    html = client_for(users["organiser"]).get(url("overview")).content.decode()
    assert "Round 2 of 15 is open (1 decided). Its duel is named" in html
    assert "name the representatives" not in html


def test_the_playoffs_wait_for_positions_one_to_four(cup):
    tournament, users = cup
    in_group_phase(tournament, users["organiser"], decided=1, sizes=(10, 5))
    reds, blues = tournament.groups.order_by("order")
    # Sink Blues: the group phase ends and the automation plans the tie-breaks.
    leaving = tournament.entrants.filter(group=blues).first()
    services.change_groups(tournament, users["organiser"], {leaving.pk: 1}, confirm=True)
    client = client_for(users["organiser"])
    html = client.get(url("overview")).content.decode()
    tournament.refresh_from_db()
    # On-commit callbacks do not fire inside this test's transaction: the automation is
    # behind, and the page says so and offers to take the step now.
    assert tournament.phase == Phase.GROUP_PHASE
    assert "The automation has a step to take" in html
    assert client.post(url("catch_up")).status_code == 302
    tournament.refresh_from_db()
    assert tournament.phase == Phase.TIE_BREAKS
    html = client.get(url("overview")).content.decode()
    assert "Tie-breaks planned by the automation" in html
    assert tournament.tiebreak_seed in html
    assert "Draw: " in html  # ten players level at 0 cover positions 2–4: a knockout
    assert "Tie-breaks planned" in client.get(url("audit")).content.decode()
    response = client.post(url("start_playoffs"))
    assert response.status_code == 422
    assert "Positions 1–4 are not settled yet" in response.content.decode()


def test_cancel_needs_a_reason_and_a_confirmation(cup):
    tournament, users = cup
    client = client_for(users["organiser"])
    response = client.post(url("cancel"), {"reason": "rain"})
    assert response.status_code == 422
    assert "This field is required." in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.phase == Phase.DRAFT
    response = client.post(url("cancel"), {"reason": "rain", "confirm": "on"}, follow=True)
    assert "The tournament is cancelled." in response.content.decode()
    assert "nothing more can be changed here" in response.content.decode()


def test_publish_from_the_overview(cup):
    tournament, users = cup
    response = client_for(users["co_organiser"]).post(url("publish"), {"published": "1"})
    assert response.url == url("overview")
    tournament.refresh_from_db()
    assert tournament.published


# ---- people and the audit log -----------------------------------------------------------


def test_people_grant_and_revoke(cup):
    tournament, users = cup
    UserFactory(username="rex")
    client = client_for(users["co_organiser"])
    response = client.post(url("people"), {"username": "rex", "role": "co_organiser"})
    assert response.status_code == 422
    assert client.post(url("people"), {"username": "rex", "role": "referee"}).status_code == 302
    grant = tournament.roles.get(user__username="rex")
    assert client.post(url("revoke", grant.pk)).status_code == 302
    assert not tournament.roles.filter(user__username="rex").exists()


def test_the_grant_form_grants_from_the_page_an_invitation_left(cup):
    """After "Create an invitation link" the page stands at people/invite/: the grant form
    must still post to people/, not make a second, nameless invitation (browser pass)."""
    import re

    tournament, users = cup
    UserFactory(username="rex")
    client = client_for(users["organiser"])
    page = client.post(url("invite"), {"role": "referee", "label": "Rita"})
    html = page.content.decode()
    assert page.status_code == 200 and "Rita" in html
    forms = re.findall(r"<form [^>]*method=\"post\"[^>]*>", html)
    assert forms and all("action=" in f for f in forms), forms
    grant = re.search(r'<form [^>]*action="([^"]+)"[^>]*>(?:(?!</form>).)*Grant role', html, re.S)
    assert grant and grant.group(1) == url("people")
    invitations = tournament.invitations.count()
    assert client.post(grant.group(1), {"username": "rex", "role": "referee"}).status_code == 302
    assert tournament.roles.filter(user__username="rex").exists()
    assert tournament.invitations.count() == invitations


def test_the_audit_log_filters_by_what_and_who(cup):
    tournament, users = cup
    in_group_phase(tournament, users["organiser"], decided=1)
    client = client_for(users["co_organiser"])
    html = client.get(url("audit")).content.decode()
    assert "Group phase started" in html and "Players registered" in html
    html = client.get(
        url("audit"), {"action": "duel_finished"}, headers={"HX-Request": "true"}
    ).content.decode()
    assert html.lstrip().startswith('<div id="audit-log">')
    assert "Duel finished" in html and "Players registered" not in html
    html = client.get(url("audit"), {"who": str(users["organiser"].pk)}).content.decode()
    assert "Group phase started" in html
    html = client.get(url("audit"), {"who": "automation"}).content.decode()
    assert "Group phase started" not in html.split("<tbody>", 1)[1]


# ---- a fixed number of queries ----------------------------------------------------------


@pytest.mark.parametrize("page", ["transfers", "players", "rounds", "overview"])
def test_pages_cost_the_same_queries_for_12_or_24_players(page):
    counts = []
    for n in (12, 24):
        organiser = UserFactory()
        tournament = TournamentFactory(created_by=organiser, slug=f"cup{n}")
        tournament.groups.create(name="Reds", order=1)
        tournament.groups.create(name="Blues", order=2)
        in_group_phase(tournament, organiser, decided=1, sizes=(n // 2, n // 2))
        client = client_for(organiser)
        client.get(reverse(f"organiser:{page}", args=[tournament.slug]))  # warm caches
        with CaptureQueriesContext(connection) as queries:
            assert (
                client.get(reverse(f"organiser:{page}", args=[tournament.slug])).status_code == 200
            )
        counts.append(len(queries))
    assert counts[0] == counts[1]


# ---- later phases ------------------------------------------------------------------------


def play_open_duels(tournament, actor, kind):
    """Seat A wins every waiting duel of `kind` by a forfeit; the automation then steps on
    (on-commit callbacks do not fire inside a test's transaction, so `sync` is called)."""
    from tournaments.services import progression

    for _ in range(40):
        ready = Duel.objects.filter(tournament=tournament, kind=kind, status=DuelStatus.READY)
        if not ready.exists():
            return
        for duel in ready:
            duel_services.append_event(duel, actor, {"type": "forfeit", "seat": "B"}, 0)
        progression.sync(tournament)


@pytest.fixture
def finished(cup):
    """A whole event by forfeits: Blues sunk after round 1, the tie-breaks, the playoffs."""
    from tournaments.services import progression

    tournament, users = cup
    organiser = users["organiser"]
    reds, blues = in_group_phase(tournament, organiser, decided=1, sizes=(10, 5))
    services.change_groups(
        tournament, organiser, {tournament.entrants.filter(group=blues).first().pk: 1}, confirm=True
    )
    progression.sync(tournament)
    stages = {}
    play_open_duels(tournament, organiser, "tie_break")
    stages["tie_breaks"] = client_for(organiser).get(url("overview")).content.decode()
    progression.start_playoffs(tournament, organiser)
    stages["playoffs"] = client_for(organiser).get(url("overview")).content.decode()
    play_open_duels(tournament, organiser, "playoff")
    tournament.refresh_from_db()
    return tournament, users, stages


def test_every_page_renders_after_the_tie_breaks_and_the_playoffs(finished):
    tournament, users, stages = finished
    assert tournament.phase == Phase.COMPLETE
    assert "Positions 1–4 are settled: you may start the playoffs" in stages["tie_breaks"]
    assert "Master seed" in stages["tie_breaks"] and "Draw: " in stages["tie_breaks"]
    assert "Playoff bracket" in stages["playoffs"] and "Qualifier 1" in stages["playoffs"]
    client = client_for(users["co_organiser"])
    for page in PAGES:
        assert client.get(url(page)).status_code == 200, page
    html = client.get(url("overview")).content.decode()
    assert "Placings: " in html and "The tournament is complete." in html
    assert "nothing more can be changed here but its playoff results" in html
    final = Duel.objects.get(tournament=tournament, stage="GF")
    html = client.get(url("result", final.pk)).content.decode()
    assert "Void:" not in html  # only group rounds are voided


def test_an_organiser_gives_any_open_duel_a_table_and_a_referee(cup):
    tournament, users = cup
    reds, blues = in_group_phase(tournament, users["organiser"], decided=1)
    red = tournament.entrants.filter(group=reds).last()
    blue = tournament.entrants.filter(group=blues).last()
    duel = services.name_representatives(tournament, users["organiser"], 2, red.pk, blue.pk)
    referee = users["referee"]
    version = Tournament.objects.get(pk=tournament.pk).standings_version
    client = client_for(users["co_organiser"])
    response = client.post(
        url("assign_referee", duel.pk), {"referee": referee.pk, "table": "  Table   5 "}
    )
    assert response.status_code == 302
    duel.refresh_from_db()
    assert (duel.table, duel.referee) == ("Table 5", referee)
    assert Tournament.objects.get(pk=tournament.pk).standings_version > version  # pages follow
    html = client.get(url("rounds")).content.decode()
    next_up = html.split('id="next-up-heading"', 1)[1]
    assert 'value="Table 5"' in next_up and "Table 5 · referee" in next_up

    # Too long a name is refused in words, and nothing changes.
    response = client.post(url("assign_referee", duel.pk), {"referee": "", "table": "T" * 41})
    assert response.status_code == 422
    assert "at most 40 characters" in response.content.decode()
    duel.refresh_from_db()
    assert (duel.table, duel.referee) == ("Table 5", referee)


def test_a_referee_takes_a_duel_but_does_not_choose_its_table(cup):
    tournament, users = cup
    reds, blues = in_group_phase(tournament, users["organiser"], decided=1)
    red = tournament.entrants.filter(group=reds).last()
    blue = tournament.entrants.filter(group=blues).last()
    duel = services.name_representatives(
        tournament, users["organiser"], 2, red.pk, blue.pk, "Table 1"
    )
    referee = users["referee"]
    client = client_for(referee)
    response = client.post(
        url("assign_referee", duel.pk), {"referee": referee.pk, "table": "Table 2"}
    )
    assert response.status_code == 422
    assert "Only organisers choose tables." in response.content.decode()
    duel.refresh_from_db()
    assert (duel.table, duel.referee) == ("Table 1", None)
    # Without a table the same referee takes the duel.
    assert client.post(url("assign_referee", duel.pk), {"referee": referee.pk}).status_code == 302
    duel.refresh_from_db()
    assert (duel.table, duel.referee) == ("Table 1", referee)


def test_staff_pages_name_a_referee_by_username_and_the_name_everyone_sees(cup):
    """The console and the public pages show a person's display name; the staff pages show the
    username staff add people by, with that name after it, everywhere a person is named."""
    tournament, users = cup
    referee = users["referee"]
    referee.display_name = "Ada <Lovelace>"
    referee.save(update_fields=["display_name"])
    reds, blues = in_group_phase(tournament, users["organiser"], decided=1)
    red = tournament.entrants.filter(group=reds).last()
    blue = tournament.entrants.filter(group=blues).last()
    duel = services.name_representatives(tournament, users["organiser"], 2, red.pk, blue.pk)
    client = client_for(users["organiser"])
    client.post(url("assign_referee", duel.pk), {"referee": referee.pk, "table": "Table 5"})
    label = f"{referee.username} (Ada &lt;Lovelace&gt;)"  # escaped, as every name
    rounds = client.get(url("rounds")).content.decode()
    assert f"referee {label}" in rounds
    assert f">{label}</option>" in rounds  # the referee picker too
    assert f"<td>{label}</td>" in client.get(url("people")).content.decode()
    audit = client.get(url("audit")).content.decode()
    assert audit.count(label) >= 1  # the assignment's detail names the referee so too
    # Without a display name, the username alone.
    assert users["organiser"].staff_label == users["organiser"].username
