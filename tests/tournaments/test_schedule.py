"""The schedule and the venue clock (issue 16): time zone and start times, calling a duel to
its table, and where they show (big screen, /me/, the referee's console)."""

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Role
from core.errors import ServiceError
from duels.models import Duel
from tests.factories import RoleFactory, UserFactory, group_phase_duel
from tournaments.models import AuditEntry, StartTime
from tournaments.services.refereeing import call_duel, record_paper_result
from tournaments.services.schedule import set_schedule

pytestmark = pytest.mark.django_db


@pytest.fixture
def ready():
    duel, referee = group_phase_duel(published=True)
    return duel.tournament, duel, referee


def client_for(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_start_times_are_stored_in_the_zone_and_changes_audited(ready):
    tournament, duel, referee = ready
    tournament.refresh_from_db()  # granting the referee moved the version
    version = tournament.standings_version
    at = datetime(2026, 12, 5, 14, 30, tzinfo=ZoneInfo("Europe/Paris"))
    set_schedule(
        tournament, tournament.created_by, time_zone="Europe/Paris", starts={"round:2": at}
    )
    tournament.refresh_from_db()
    assert tournament.time_zone == "Europe/Paris"
    assert StartTime.objects.get(tournament=tournament, key="round:2").starts_at == at
    assert tournament.standings_version == version + 1
    assert AuditEntry.objects.filter(tournament=tournament, action="schedule_changed").count() == 1
    set_schedule(
        tournament, tournament.created_by, time_zone="Europe/Paris", starts={"round:2": None}
    )
    assert not StartTime.objects.filter(tournament=tournament).exists()
    # The audit log says it in words, not keys and ISO strings (browser pass).
    log = client_for(tournament.created_by).get(f"/t/{tournament.slug}/manage/audit/")
    html = log.content.decode()
    assert "time zone: UTC → Europe/Paris" in html
    # In the tournament's zone, as it was typed (issue 26: the venue's clock).
    assert "Group round 2: not set → 5 Dec 2026 14:30" in html
    assert "Group round 2: 5 Dec 2026 14:30 → not set" in html
    assert "Times are the venue's (Europe/Paris)" in html
    assert "round:2" not in html and "None" not in html


def test_start_times_out_of_the_events_order_are_refused_in_words(ready):
    """Browser pass: round 10 at 14:00 and round 9 at 15:00 was saved, and the big screen then
    announced them in that order."""
    tournament, duel, referee = ready
    organiser = tournament.created_by
    at = datetime(2026, 12, 5, 15, 0, tzinfo=ZoneInfo("UTC"))
    hour = timedelta(hours=1)

    def schedule(**starts):
        set_schedule(tournament, organiser, time_zone="UTC", starts=starts)

    schedule(**{"round:9": at})
    with pytest.raises(ServiceError, match="Group round 10 would start before Group round 9"):
        schedule(**{"round:10": at - hour})
    assert set(StartTime.objects.values_list("key", flat=True)) == {"round:9"}
    schedule(**{"round:10": at + hour, "Q1": at + 5 * hour, "E1": at + 5 * hour})  # side by side
    with pytest.raises(ServiceError, match="Grand Final would start before Qualifier 1"):
        schedule(GF=at + 4 * hour)
    with pytest.raises(ServiceError, match="Qualifier 1 would start before Group round 10"):
        schedule(Q1=at)  # moving an existing time is checked against the others too
    schedule(**{"round:9": None, "round:10": None})  # clearing never conflicts
    schedule(Q1=at - hour, E1=at - hour)


@pytest.mark.parametrize(
    ("who", "kwargs", "message"),
    [
        ("referee", {}, "only organisers"),
        ("organiser", {"time_zone": "Mars/Olympus"}, "is not a time zone"),
        ("organiser", {"starts": {"round:16": None}}, "unknown part"),
        ("organiser", {"starts": {"GF": datetime(2026, 1, 1, 10)}}, "needs its time zone"),
    ],
)
def test_schedule_refusals_change_nothing(ready, who, kwargs, message):
    tournament, duel, referee = ready
    actor = referee if who == "referee" else tournament.created_by
    args = {"time_zone": "Europe/Paris", "starts": {}, **kwargs}
    with pytest.raises(ServiceError) as err:
        set_schedule(tournament, actor, **args)
    assert message in err.value.message.lower()
    tournament.refresh_from_db()
    assert tournament.time_zone == "UTC" and not StartTime.objects.exists()


def test_a_call_keeps_table_and_time_and_is_audited(ready):
    tournament, duel, referee = ready
    tournament.refresh_from_db()  # granting the referee moved the version
    version = tournament.standings_version
    call_duel(duel, referee, " Table  4 ")
    duel.refresh_from_db()
    assert duel.table == "Table 4" and duel.called_at is not None
    entry = AuditEntry.objects.get(tournament=tournament, action="duel_called")
    assert entry.actor == referee and entry.detail["table"] == "Table 4"
    tournament.refresh_from_db()
    assert tournament.standings_version == version + 1


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("no_table", "which table"),
        ("finished", "has not started"),
        ("player", "only referees and organisers"),
        ("stranger", "only referees and organisers"),
    ],
)
def test_call_refusals(ready, case, message):
    tournament, duel, referee = ready
    actor, table = referee, "5"
    if case == "no_table":
        table = "  "
    elif case == "finished":
        record_paper_result(tournament, referee, duel_id=duel.pk, winner_id=duel.seat_a_id)
    elif case == "player":
        actor = UserFactory()
        duel.seat_a.user = actor
        duel.seat_a.save()
    elif case == "stranger":
        actor = UserFactory()
    with pytest.raises(ServiceError) as err:
        call_duel(duel, actor, table)
    assert message in err.value.message.lower()
    assert not AuditEntry.objects.filter(action="duel_called").exists()


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("organiser", 302),
        ("co_organiser", 302),
        ("referee", 302),
        ("player", 403),
        ("other_staff", 404),
        ("anonymous", 404),
    ],
)
def test_call_view_matrix(who, status):
    duel, referee = group_phase_duel(published=False)
    tournament = duel.tournament
    player = UserFactory()
    duel.seat_b.user = player
    duel.seat_b.save()
    users = {
        "organiser": tournament.created_by,
        "co_organiser": RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user,
        "referee": referee,
        "player": player,
        "other_staff": group_phase_duel()[0].tournament.created_by,
        "anonymous": None,
    }
    response = client_for(users[who]).post(
        reverse("organiser:call_duel", args=[tournament.slug, duel.pk]), {"table": "8"}
    )
    assert response.status_code == status
    duel.refresh_from_db()
    assert (duel.called_at is not None) is (status == 302)


@pytest.mark.parametrize(
    ("who", "status"),
    [("organiser", 200), ("co_organiser", 200), ("referee", 403), ("player", 403)],
)
def test_schedule_page_matrix(who, status):
    duel, referee = group_phase_duel(published=True)
    tournament = duel.tournament
    player = UserFactory()
    duel.seat_a.user = player
    duel.seat_a.save()
    users = {
        "organiser": tournament.created_by,
        "co_organiser": RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user,
        "referee": referee,
        "player": player,
    }
    url = reverse("organiser:schedule", args=[tournament.slug])
    assert client_for(users[who]).get(url).status_code == status


def test_the_schedule_form_reads_times_in_the_chosen_zone(ready):
    tournament, duel, referee = ready
    client = client_for(tournament.created_by)
    url = reverse("organiser:schedule", args=[tournament.slug])
    drawn = re.search(r'name="drawn" value="(\w+)"', client.get(url).content.decode()).group(1)
    response = client.post(
        url, {"time_zone": "Asia/Tokyo", "GF": "2026-12-06T18:00", "drawn": drawn}
    )
    assert response.status_code == 302
    gf = StartTime.objects.get(tournament=tournament, key="GF").starts_at
    assert gf == datetime(2026, 12, 6, 9, 0, tzinfo=UTC)
    html = client.get(url).content.decode()
    assert 'value="2026-12-06T18:00"' in html
    bad = client.post(url, {"time_zone": "Nowhere", "GF": "tomorrow"})
    assert bad.status_code == 422
    assert "Select a valid choice" in bad.content.decode()


def test_the_big_screen_strip_shows_the_call_and_changes_its_tag(ready):
    tournament, duel, referee = ready
    set_schedule(
        tournament,
        tournament.created_by,
        time_zone="Asia/Tokyo",
        starts={
            "round:1": timezone.now() + timedelta(hours=1),
            "round:2": timezone.now() + timedelta(hours=2),
        },
    )
    client = Client()
    url = reverse("public:screen", args=[tournament.slug]) + "?panel=call"
    first = client.get(url, HTTP_HX_REQUEST="true")
    # "Next" is round 1's duel, the one waiting to start, at its planned time; round 2 is
    # not next yet, whatever the schedule says.
    assert "Next: <span>Group round 1 at" in first.content.decode()
    assert "Group round 2" not in first.content.decode()
    tag = first["ETag"]
    assert client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=tag).status_code in (
        200,  # the minute turned between the two reads
        304,
    )
    call_duel(duel, referee, "7")
    second = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=tag)
    assert second.status_code == 200 and second["ETag"] != tag
    html = second.content.decode()
    assert "Table 7" in html and "Alice" in html and "Bob" in html
    page = client.get(reverse("public:screen", args=[tournament.slug])).content.decode()
    assert 'data-time-zone="Asia/Tokyo"' in page and "Table 7" in page


def test_me_shows_the_call_and_polls_with_a_tag(ready):
    tournament, duel, referee = ready
    player = UserFactory()
    duel.seat_a.user = player
    duel.seat_a.save()
    client = client_for(player)
    url = reverse("player:tournaments")
    first = client.get(url, HTTP_HX_REQUEST="true")
    assert first.status_code == 200 and "called to Table" not in first.content.decode()
    assert (
        client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    )
    call_duel(duel, referee, "3")
    second = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    assert "called to Table 3" in second.content.decode()


def test_the_referee_console_shows_their_next_duel(ready):
    tournament, duel, referee = ready
    other, _ = group_phase_duel()
    Duel.objects.filter(pk=duel.pk).update(referee=referee)
    call_duel(duel, referee, "2")
    # On another duel's console, the referee sees this one as their next.
    from tests.factories import EntrantFactory

    reds, blues = tournament.groups.order_by("order")
    current = Duel.objects.create(
        tournament=tournament,
        kind="tie_break",
        stage="x",
        seat_a=EntrantFactory(tournament=tournament, group=reds, name="Cy"),
        seat_b=EntrantFactory(tournament=tournament, group=blues, name="Di"),
        status="ready",
        options={"truth_dare": False},
    )
    html = (
        client_for(referee)
        .get(reverse("duels:console", args=[tournament.slug, current.pk]))
        .content.decode()
    )
    assert "Your next duel" in html and "called to Table 2" in html
    html = (
        client_for(referee)
        .get(reverse("duels:console", args=[tournament.slug, duel.pk]))
        .content.decode()
    )
    assert "Your next duel" not in html  # the duel on the page is not "next"
