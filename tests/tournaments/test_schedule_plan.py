"""A schedule in a minute (issue 26): the whole evening from one time and an interval, a
shift when the night runs late, the estimate beside them, and the time zone asked when the
tournament is created. Times are elapsed time: across a clock change the slots stay
`every` real minutes apart, whatever the wall clock reads."""

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ServiceError
from duels.models import Duel, DuelKind, DuelStatus, Result
from tests.factories import UserFactory, group_phase_duel
from tournaments.models import AuditEntry, StartTime, Tournament
from tournaments.services import schedule as svc
from tournaments.services.refereeing import record_paper_result

pytestmark = pytest.mark.django_db

BERLIN = ZoneInfo("Europe/Berlin")


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def hidden(html: str, name: str, form: str = "") -> str:
    """A hidden field of the page's first form, or of the form posting to `form`'s address
    (every form carries the same `drawn`, and a key of its own)."""
    if form:
        html = re.search(rf'<form[^>]*action="{re.escape(form)}".*?</form>', html, re.S).group(0)
    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)


def stored(tournament) -> dict[str, datetime]:
    return dict(StartTime.objects.filter(tournament=tournament).values_list("key", "starts_at"))


def wall(at: datetime) -> str:
    """A time as the venue's clock reads it, with the zone's name for the hour that comes
    twice: "02:10 CET"."""
    local = at.astimezone(BERLIN)
    return f"{local:%d %H:%M} {local.tzname()}"


@pytest.fixture
def berlin():
    duel, referee = group_phase_duel(published=True)
    tournament = duel.tournament
    Tournament.objects.filter(pk=tournament.pk).update(time_zone="Europe/Berlin")
    tournament.refresh_from_db()
    return tournament, duel, referee


def test_every_minutes_then_one_shift_across_the_night_the_clocks_go_back(berlin):
    """Europe/Berlin, Sunday 25 October 2026: at 03:00 CEST the clock goes back to 02:00 CET.
    A plan from 22:00 every 20 minutes stays 20 real minutes a slot through it; a shift of
    15 minutes moves every part not yet played by 15 real minutes; posted twice, it shifts
    once; the page's fields sent back unchanged keep the hour that came twice."""
    tournament, duel, referee = berlin
    organiser = tournament.created_by
    client = client_for(organiser)
    url = reverse("organiser:schedule", args=[tournament.slug])
    page = client.get(url).content.decode()
    answer = client.post(
        reverse("organiser:schedule_plan", args=[tournament.slug]),
        {
            "first": "2026-10-24T22:00",
            "every": "20",
            "before_tie_breaks": "10",
            "before_playoffs": "15",
            "drawn": hidden(page, "drawn"),
            "intent": hidden(page, "intent"),
        },
    )
    assert answer.status_code == 302
    starts = stored(tournament)
    assert len(starts) == 20
    rounds = [starts[f"round:{n}"] for n in range(1, 16)]
    assert {b - a for a, b in zip(rounds, rounds[1:], strict=False)} == {timedelta(minutes=20)}
    expected = {
        "round:1": "24 22:00 CEST",
        "round:13": "25 02:00 CEST",
        "round:15": "25 02:40 CEST",
        "tie_breaks": "25 02:10 CET",  # 30 real minutes after round 15 (a slot and 10)
        "Q1": "25 02:45 CET",
        "E1": "25 02:45 CET",
        "Q2": "25 03:05 CET",
        "GF": "25 03:25 CET",
    }
    assert {k: wall(starts[k]) for k in expected} == expected

    # The page's own fields, sent back as shown, change nothing: 02:10 is read as the hour
    # it was (CET), not as the first 02:10, which would come before round 14.
    page = client.get(url).content.decode()
    assert 'value="2026-10-25T02:10"' in page
    fields = {
        key: re.search(rf'name="{re.escape(key)}" value="([^"]*)"', page).group(1)
        for key in svc.START_KEYS
    }
    again = client.post(
        url,
        {
            **fields,
            "time_zone": "Europe/Berlin",
            "drawn": hidden(page, "drawn"),
            "intent": hidden(page, "intent", url),
        },
    )
    assert again.status_code == 302
    assert stored(tournament) == starts
    assert AuditEntry.objects.filter(action="schedule_changed").count() == 1

    # Round 1 is played; the night runs 15 minutes late.
    record_paper_result(tournament, referee, duel_id=duel.pk, winner_id=duel.seat_a_id)
    page = client.get(url).content.decode()
    shift_url = reverse("organiser:schedule_shift", args=[tournament.slug])
    shift = {
        "minutes": "15",
        "drawn": hidden(page, "drawn"),
        "intent": hidden(page, "intent", shift_url),
    }
    assert shift["intent"] != hidden(page, "intent")  # the plan's key is another
    answer = client.post(shift_url, shift, follow=True)
    assert "Shifted by +15 minutes: 19 start times of the parts not yet played." in (
        answer.content.decode()
    )
    shifted = stored(tournament)
    assert shifted["round:1"] == starts["round:1"]  # played: it stays
    assert all(shifted[k] - starts[k] == timedelta(minutes=15) for k in starts if k != "round:1")
    assert wall(shifted["round:15"]) == "25 02:55 CEST"
    assert wall(shifted["tie_breaks"]) == "25 02:25 CET"
    assert wall(shifted["GF"]) == "25 03:40 CET"

    # The same form again (a double tap, a retry): its first answer, nothing shifted twice.
    repeat = client.post(shift_url, shift, follow=True)
    assert "This shift (+15 minutes) was already made by" in repeat.content.decode()
    assert "Nothing changed." in repeat.content.decode()
    # The same page's form with another key (a second tab drawn before the shift): refused.
    stale = client.post(shift_url, {**shift, "intent": "another-tab"})
    assert stale.status_code == 409
    assert "The schedule changed since this page was drawn" in stale.content.decode()
    assert stored(tournament) == shifted
    assert AuditEntry.objects.filter(action="schedule_changed").count() == 2


def test_a_plan_over_times_already_set_asks_first_and_names_them(berlin):
    tournament, duel, referee = berlin
    svc.set_schedule(
        tournament,
        tournament.created_by,
        time_zone="Europe/Berlin",
        starts={"round:1": datetime(2026, 12, 5, 19, 0, tzinfo=BERLIN)},
    )
    client = client_for(tournament.created_by)
    page = client.get(reverse("organiser:schedule", args=[tournament.slug])).content.decode()
    plan_url = reverse("organiser:schedule_plan", args=[tournament.slug])
    plan = {
        "first": "2026-12-05T19:30",
        "every": "15",
        "before_tie_breaks": "0",
        "before_playoffs": "0",
        "drawn": hidden(page, "drawn"),
        "intent": hidden(page, "intent"),
    }
    asked = client.post(plan_url, plan)
    html = asked.content.decode()
    assert asked.status_code == 200
    assert "This plan replaces 1 start time already set" in html
    assert "Sat 5 Dec 19:00 CET" in html and "Sat 5 Dec 19:30 CET" in html
    assert stored(tournament)["round:1"] == datetime(2026, 12, 5, 18, 0, tzinfo=UTC)
    confirmed = client.post(
        plan_url,
        {**plan, "confirm": "1", "drawn": hidden(html, "drawn"), "intent": hidden(html, "intent")},
    )
    assert confirmed.status_code == 302
    assert stored(tournament)["round:1"] == datetime(2026, 12, 5, 18, 30, tzinfo=UTC)
    assert len(stored(tournament)) == 20


ODD = [
    ("plan", {"every": "0"}, "The interval is 1 to 240 minutes."),
    ("plan", {"every": "-15"}, "The interval is 1 to 240 minutes."),
    ("plan", {"every": "9" * 30}, "The interval is 1 to 240 minutes."),
    ("plan", {"before_playoffs": "-1"}, "0 to 240 minutes."),
    ("plan", {"before_tie_breaks": "100000"}, "0 to 240 minutes."),
    ("plan", {"first": "9999-12-31T23:59"}, "too far in the future"),
    ("plan", {"drawn": ""}, "This page is out of date: reload it."),
    ("shift", {"minutes": "0"}, "Shift by 1 to 720 minutes"),
    ("shift", {"minutes": "721"}, "Shift by 1 to 720 minutes"),
    ("shift", {"minutes": "-100000"}, "Shift by 1 to 720 minutes"),
    ("shift", {"minutes": "1e9"}, "Enter a whole number."),
    ("shift", {"drawn": "x" * 20_000}, "This page is out of date: reload it."),
    ("times", {"time_zone": "US/Pacific"}, "Select a valid choice"),
    ("times", {"round:1": "9999-12-31T23:59", "time_zone": "America/New_York"}, "too far"),
]


def test_odd_input_is_refused_in_words_and_nothing_is_stored(berlin):
    """Negative, zero, huge and garbled minutes, a date at the end of the calendar, an old
    zone name, a form without what it was drawn for: 422, in words, nothing stored."""
    tournament, duel, referee = berlin
    at = datetime(2026, 12, 5, 19, 0, tzinfo=BERLIN)
    svc.set_schedule(
        tournament, tournament.created_by, time_zone="Europe/Berlin", starts={"round:2": at}
    )
    before = (stored(tournament), AuditEntry.objects.count())
    client = client_for(tournament.created_by)
    page = client.get(reverse("organiser:schedule", args=[tournament.slug])).content.decode()
    base = {"drawn": hidden(page, "drawn"), "intent": hidden(page, "intent")}
    forms = {
        "plan": (
            "organiser:schedule_plan",
            {"first": "2026-12-05T19:00", "every": "15", "before_tie_breaks": "0"}
            | {"before_playoffs": "0"},
        ),
        "shift": ("organiser:schedule_shift", {"minutes": "15"}),
        "times": ("organiser:schedule", {"time_zone": "Europe/Berlin"}),
    }
    for form, values, words in ODD:
        name, data = forms[form]
        answer = client.post(reverse(name, args=[tournament.slug]), {**base, **data, **values})
        assert answer.status_code == 422, (form, values)
        assert words in answer.content.decode(), (form, values)
        assert (stored(tournament), AuditEntry.objects.count()) == before, (form, values)
    tournament.refresh_from_db()
    assert tournament.time_zone == "Europe/Berlin"


def test_the_shift_moves_only_what_is_not_yet_played_and_needs_something_to_move():
    duel, referee = group_phase_duel(round_number=4)  # rounds 1-3 decided, 4 open and ready
    tournament = duel.tournament
    organiser = tournament.created_by
    at = datetime(2026, 12, 5, 19, 0, tzinfo=UTC)
    svc.set_schedule(tournament, organiser, time_zone="UTC", starts={"round:3": at, "round:4": at})
    assert svc.played_keys(tournament) == {"round:1", "round:2", "round:3"}
    Duel.objects.filter(pk=duel.pk).update(status=DuelStatus.RUNNING)  # round 4 under way
    assert "round:4" in svc.played_keys(tournament)
    with pytest.raises(ServiceError, match="Nothing to shift"):
        svc.shift_schedule(tournament, organiser, minutes=10)
    with pytest.raises(ServiceError, match="Shift by 1 to 720"):
        svc.shift_schedule(tournament, organiser, minutes=True)  # not a number of minutes
    with pytest.raises(ServiceError, match="Only organisers"):
        svc.shift_schedule(tournament, referee, minutes=10)
    assert stored(tournament) == {"round:3": at, "round:4": at}


@settings(max_examples=30, deadline=None)
@given(
    first=st.datetimes(
        min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
    ),
    zone=st.sampled_from(["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "UTC"]),
    every=st.integers(1, svc.EVERY_MAX),
    gaps=st.tuples(st.integers(0, svc.GAP_MAX), st.integers(0, svc.GAP_MAX)),
    shift=st.integers(-svc.SHIFT_MAX, svc.SHIFT_MAX),
)
def test_slots_are_elapsed_minutes_in_the_events_order(first, zone, every, gaps, shift):
    """Pure: every slot `every` real minutes after the one before (plus its gap), in order
    (the service's own order check passes), and a shift adds exactly its minutes."""
    tz = ZoneInfo(zone)
    starts = svc.plan_starts(
        first.astimezone(tz),
        every=every,
        before_tie_breaks=gaps[0],
        before_playoffs=gaps[1],
        zone=tz,
    )
    real = {k: t.astimezone(UTC) for k, t in starts.items()}
    steps = [real[b] - real[a] for a, b in zip(svc.START_KEYS, svc.START_KEYS[1:], strict=False)]
    minute = timedelta(minutes=1)
    assert steps == [every * minute] * 14 + [
        (every + gaps[0]) * minute,
        (every + gaps[1]) * minute,
        timedelta(0),  # the Eliminator beside Qualifier 1
        every * minute,
        every * minute,
    ]
    svc._check_order(starts)
    moved = {k: svc.after(t, shift, tz) for k, t in starts.items()}
    assert all(moved[k].astimezone(UTC) - real[k] == shift * minute for k in starts)
    svc._check_order(moved)


def _finished(tournament, duel, minutes: float, finish: str = "shed_all") -> None:
    start = datetime(2026, 12, 5, 19, 0, tzinfo=UTC)
    copy = Duel.objects.create(
        tournament=tournament,
        kind=DuelKind.GROUP,
        round=duel.round,
        seat_a=duel.seat_a,
        seat_b=duel.seat_b,
        status=DuelStatus.FINISHED,
        started_at=start,
        finished_at=start + timedelta(minutes=minutes),
    )
    Result.objects.create(
        duel=copy,
        winner=duel.seat_a,
        loser=duel.seat_b,
        finish=finish,
        table_winner=duel.seat_a,
        table_finish=finish,
    )


def test_the_estimate_says_a_duel_is_about_14_minutes_then_measures_this_tournaments(berlin):
    tournament, duel, referee = berlin
    client = client_for(tournament.created_by)
    url = reverse("organiser:schedule", args=[tournament.slug])
    html = client.get(url).content.decode()
    assert "Group duels are played one at a time" in html
    assert "15 rounds take 15 duel lengths" in html
    assert "A duel takes about 14 minutes (an assumption until duels are played here" in html
    assert "100 moves at about 8 seconds each" in html
    # 18 slots of 15 minutes, 25 minutes of gaps and the final's 14: about 5 h 9 min.
    assert "The evening takes about 5 h 9 min" in html
    assert 'name="every" value="15"' in html  # the interval suggested: a duel, rounded up

    # Six-minute slots, as the club night typed them: warned on the plan and on the times.
    page = client.post(
        reverse("organiser:schedule_plan", args=[tournament.slug]),
        {
            "first": "2026-12-05T19:00",
            "every": "6",
            "before_tie_breaks": "0",
            "before_playoffs": "0",
            "drawn": "0" * 16,  # drawn at another state: refused, the plan shown with words
            "intent": "",
        },
    )
    assert page.status_code == 409
    assert (
        "Slots of 6 minutes are shorter than a typical duel (about 14 minutes)"
        in page.content.decode()
    )
    svc.set_schedule(
        tournament,
        tournament.created_by,
        time_zone="Europe/Berlin",
        starts={
            "round:1": datetime(2026, 12, 5, 19, 0, tzinfo=BERLIN),
            "round:2": datetime(2026, 12, 5, 19, 6, tzinfo=BERLIN),
        },
    )
    html = client.get(url).content.decode()
    assert "Group round 2 starts 6 minutes after Group round 1, less than a typical duel" in html

    # Duels played here: the median of those played to the end (a paper result says nothing).
    for minutes in (10, 12, 20):
        _finished(tournament, duel, minutes)
    _finished(tournament, duel, 0.5, finish="adjudicated")
    html = client.get(url).content.decode()
    assert "A duel takes about 13 minutes: the median of the 3 duels played to the end here" in html


def test_the_time_zone_is_asked_at_creation_from_a_list_without_old_names():
    user = UserFactory()
    client = client_for(user)
    url = reverse("tournaments:create")
    html = client.get(url).content.decode()
    select = re.search(r'<select[^>]*name="time_zone".*?</select>', html, re.S).group(0)
    assert "data-browser-zone" in select and '"Asia/Calcutta": "Asia/Kolkata"' in html.replace(
        "&quot;", '"'
    )
    values = re.findall(r'<option value="([^"]*)"', select)
    common = re.search(r'<optgroup label="Common time zones">(.*?)</optgroup>', select, re.S)
    assert re.findall(r'value="([^"]*)"', common.group(1))[:3] == [
        "Europe/London",
        "Europe/Paris",
        "Europe/Berlin",
    ]
    assert '<option value="UTC" selected>' in select  # the default without JavaScript
    for old in ("localtime", "US/Pacific", "Etc/GMT+1", "Asia/Calcutta", "CET", "posixrules"):
        assert old not in values
    assert "Asia/Kolkata" in values and "Europe/Oslo" in values
    assert "America/New York" in select  # the label reads as words
    refused = client.post(url, {"name": "Old Cup", "time_zone": "US/Pacific"})
    assert refused.status_code == 422 and not Tournament.objects.exists()
    made = client.post(
        url,
        {
            "name": "Night Cup",
            "time_zone": "Europe/Berlin",
            "duel_preset": "tournament",
            "tiebreak_mode": "full",
        },
    )
    assert made.status_code == 302
    assert Tournament.objects.get().time_zone == "Europe/Berlin"
    # The schedule page offers the same list, the stored zone chosen.
    page = client.get(reverse("organiser:schedule", args=["night-cup"])).content.decode()
    assert '<option value="Europe/Berlin" selected>Europe/Berlin</option>' in page
    assert "Asia/Calcutta" not in page.split("data-zone-aliases")[0]
