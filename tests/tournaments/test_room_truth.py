"""What the room is told ("Trust on the night"): "next" from the event's state, one name for
a table, voided rounds not counted as decided, a provisional tie-break plan while a group
replay is due, placings in the export, one word each for a duel's record and its rematch, a
planned start shown only while it is ahead, and voided tie-break and playoff duels marked by
their replay.

Tournaments are simulated with every duel a forfeit (the whole format, fast)."""

import csv
import io
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from duels.models import Duel
from tests.factories import UserFactory
from tournaments import presentation, read_models, simulation
from tournaments.models import Entrant, Phase, StartTime, Tournament
from tournaments.selectors import round_state, round_states
from tournaments.selectors_public.coming import coming_next
from tournaments.selectors_public.lines import DuelLine, duel_line, duel_queryset
from tournaments.selectors_schedule import venue
from tournaments.services import name_representatives
from tournaments.services.corrections import void_result
from tournaments.services.refereeing import call_duel
from tournaments.services.schedule import set_schedule

pytestmark = pytest.mark.django_db


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(simulation, "FORFEIT_RATE", 1.0)

    def run(players=10, until="complete", seed=None):
        tournament, _ = simulation.simulate_tournament(
            players=players, seed=seed or f"room-{players}-{until}", until=until
        )
        return tournament

    return run


def text_of(url: str, client: Client | None = None, **headers: str) -> str:
    response = (client or Client()).get(url, headers=headers)
    assert response.status_code == 200, url
    return response.content.decode()


# -- a table's name ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("", ""),
        ("3", "Table 3"),
        ("Table 1", "Table 1"),  # the form's own example
        ("table  2", "Table 2"),
        ("TABLE: 4", "Table 4"),
        ("12b", "Table 12b"),
        ("A", "Table A"),
        ("Main stage", "Main stage"),
        ("Tablet corner", "Tablet corner"),
    ],
)
def test_a_table_reads_the_same_however_it_was_typed(typed, shown):
    assert presentation.table_label(typed) == shown


def test_a_table_typed_either_way_reads_once_on_every_page_mail_and_the_api(
    quick, django_capture_on_commit_callbacks
):
    tournament = quick(until="round:2")  # round 3 open, its players not named
    organiser = tournament.created_by
    referee = tournament.roles.get().user
    ada, bao = (
        tournament.entrants.filter(status="active", group=g).order_by("name").first()
        for g in tournament.groups.order_by("order")
    )
    player = UserFactory(notify_by_email=True, email="p@example.org")
    Entrant.objects.filter(pk=ada.pk).update(user=player)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        duel = name_representatives(tournament, referee, 3, ada.pk, bao.pk, "Table 1")
    with django_capture_on_commit_callbacks(execute=True):
        call_duel(duel, organiser, "Table 1")
    slug = tournament.slug
    me = Client()
    me.force_login(player)
    staff = Client()
    staff.force_login(organiser)
    pages = {
        "screen": text_of(f"/t/{slug}/screen/"),
        "live": text_of(f"/t/{slug}/live/"),
        "me": text_of(reverse("player:tournaments"), me),
        "my duels": text_of(reverse("player:duels"), me),
        "rounds (organiser)": text_of(reverse("organiser:rounds", args=[slug]), staff),
        "mail": "\n".join(f"{m.subject}\n{m.body}" for m in mail.outbox),
    }
    assert len(mail.outbox) == 2  # named, then called
    for where, text in pages.items():
        assert "Table 1" in text, where
        assert "Table Table" not in text and "table Table" not in text, where
    api = Client().get(f"/api/tournaments/{slug}/duels/{duel.pk}").json()
    assert api["table"] == "Table 1" and api["table_label"] == "Table 1"

    # Typed as a bare number: "Table 3", never "At 3" nor "table 3" on its own.
    with django_capture_on_commit_callbacks(execute=True):
        call_duel(duel, organiser, "3")
    console = text_of(reverse("duels:console", args=[slug, duel.pk]), staff)
    assert "At Table 3" in console and "At 3 " not in console
    assert "go to Table 3" in mail.outbox[-1].subject
    assert "Table 3" in text_of(f"/t/{slug}/screen/?panel=call", **{"HX-Request": "true"})
    rounds = Client().get(f"/api/tournaments/{slug}/rounds").json()
    labels = [d["table_label"] for r in rounds for d in r["duels"] if d["id"] == duel.pk]
    assert labels == ["Table 3"]


# -- what comes next -------------------------------------------------------------------------


def line(**overrides) -> DuelLine:
    fields = {
        "id": 1,
        "title": "Group round 4",
        "kind": "group",
        "status": "ready",
        "table": "",
        "seat_a": "Ada",
        "seat_b": "Bao",
        "seat_a_id": 1,
        "seat_b_id": 2,
        "group_a": "Reds",
        "group_b": "Blues",
        "round_number": 4,
    }
    return DuelLine(**{**fields, **overrides})


def rounds_open_at(number: int) -> list[tuple[int, str]]:
    return [
        (n, "decided" if n < number else "open" if n == number else "pending") for n in range(1, 16)
    ]


def test_next_in_the_group_phase_is_the_open_round_or_its_duel():
    t = Tournament(phase=Phase.GROUP_PHASE)
    waiting = coming_next(t, rounds_open_at(4), [], set())
    assert [(c.label, c.key, c.duel) for c in waiting] == [("Group round 4", "round:4", None)]
    named = coming_next(t, rounds_open_at(4), [line()], set())
    assert [(c.label, c.key) for c in named] == [("Group round 4", "round:4")]
    assert named[0].duel is not None
    playing = coming_next(t, rounds_open_at(4), [line(status="running")], set())
    assert playing == []  # the duel being played is "now", and nothing else is next yet


def test_next_after_the_group_phase_is_never_a_group_round():
    settled = Tournament(phase=Phase.TIE_BREAKS, top_four_settled_at=timezone.now())
    assert [(c.label, c.key) for c in coming_next(settled, [], [], set())] == [("Playoffs", "Q1")]
    tiebreak = line(kind="tie_break", title="Tie-break round 1, match 1", round_number=None)
    during = coming_next(Tournament(phase=Phase.TIE_BREAKS), [], [tiebreak], set())
    assert [c.label for c in during] == ["Tie-break round 1, match 1"]
    playoffs = coming_next(Tournament(phase=Phase.PLAYOFFS), [], [], {"Q1", "E1"})
    assert [c.label for c in playoffs] == ["Qualifier 2", "Grand Final"]


@pytest.mark.parametrize("phase", [Phase.COMPLETE, Phase.CANCELLED])
def test_nothing_is_next_after_the_final(phase):
    assert coming_next(Tournament(phase=phase), rounds_open_at(16), [line()], set()) == []


def test_the_screen_never_names_a_played_round_or_stage_as_next(quick):
    tournament = quick(until="tie_breaks")  # the tie-breaks are played: the playoffs wait
    soon = timezone.now() + timedelta(hours=1)
    set_schedule(
        tournament,
        tournament.created_by,
        time_zone="UTC",
        starts={"round:1": soon, "round:2": soon, "tie_breaks": soon, "Q1": soon},
    )
    tournament.refresh_from_db()
    assert tournament.phase == Phase.TIE_BREAKS and tournament.top_four_settled_at
    strip = venue(tournament)
    assert [s["label"] for s in strip["next_starts"]] == ["Playoffs"]
    assert strip["next_starts"][0]["at"] is not None  # Q1's planned start, as a time
    call = text_of(f"/t/{tournament.slug}/screen/?panel=call", **{"HX-Request": "true"})
    assert "Group round" not in call and "Tie-breaks" not in call


def test_nothing_is_next_on_the_screen_after_the_final(quick):
    tournament = quick(until="complete")
    later = timezone.now() + timedelta(hours=1)
    # Times planned for the evening (the schedule is closed once the event is over).
    for key in ("round:1", "Q1", "GF"):
        StartTime.objects.create(tournament=tournament, key=key, starts_at=later)
    tournament.standings_version += 1  # a schedule change moves the version
    tournament.save(update_fields=["standings_version"])
    tournament.refresh_from_db()
    assert venue(tournament)["next_starts"] == []
    screen = text_of(f"/t/{tournament.slug}/screen/")
    assert 'id="screen-next"' not in screen and "Next up" not in screen
    assert "Nothing: the tournament is over." in text_of(f"/t/{tournament.slug}/live/")


def test_a_planned_start_shows_on_me_and_the_console_only_while_it_is_ahead(quick):
    """As on the venue strip: a planned time that has passed says nothing about what comes
    next, so `/me/` and the referee's console stop showing it (and `/me/`'s poll sees it go,
    though no version moved)."""
    tournament = quick(until="round:2")  # round 3 open, its players not named
    referee = tournament.roles.get().user
    ada, bao = (
        tournament.entrants.filter(status="active", group=g).order_by("name").first()
        for g in tournament.groups.order_by("order")
    )
    player = UserFactory()
    Entrant.objects.filter(pk=ada.pk).update(user=player)
    duel = name_representatives(tournament, referee, 3, ada.pk, bao.pk, "")
    Duel.objects.filter(pk=duel.pk).update(referee=referee)
    soon = timezone.now() + timedelta(hours=1)
    start = StartTime.objects.create(tournament=tournament, key="round:3", starts_at=soon)
    Tournament.objects.filter(pk=tournament.pk).update(
        standings_version=tournament.standings_version + 1
    )
    me = Client()
    me.force_login(player)
    staff = Client()
    staff.force_login(referee)
    played = tournament.duels.filter(round__number=2, status="finished").first()
    console = reverse("duels:console", args=[tournament.slug, played.pk])
    url = reverse("player:tournaments")
    ahead = me.get(url, headers={"HX-Request": "true"})
    assert "Group round 3" in ahead.content.decode() and "planned" in ahead.content.decode()
    assert "Your next duel" in text_of(console, staff)
    assert "planned" in text_of(console, staff)

    # The clock passes the planned start; nothing else changes.
    start.starts_at = timezone.now() - timedelta(minutes=1)
    start.save(update_fields=["starts_at"])
    polled = me.get(url, headers={"HX-Request": "true", "If-None-Match": ahead["ETag"]})
    assert polled.status_code == 200  # not a 304: the time shown is gone
    assert "Group round 3" in polled.content.decode()
    assert "planned" not in polled.content.decode()
    assert "planned" not in text_of(url, me)
    on_console = text_of(console, staff)
    assert "Your next duel" in on_console and "planned" not in on_console
    again = me.get(url, headers={"HX-Request": "true", "If-None-Match": polled["ETag"]})
    assert again.status_code == 304


# -- voided rounds ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "decisive", "due", "state"),
    [
        ("decided", True, False, "decided"),
        ("decided", False, True, "replay_due"),
        ("decided", False, False, "voided"),
        ("open", False, True, "open"),
        ("not_played", False, False, "not_played"),
    ],
)
def test_a_round_is_decided_only_by_a_decisive_result(status, decisive, due, state):
    assert round_state(status, decisive, due) == state


def test_a_round_voided_with_a_replay_is_shown_so_and_not_counted(quick):
    tournament = quick(until="round:5")  # rounds 1–5 decided, round 6 open
    organiser = tournament.created_by
    voided = tournament.duels.get(round__number=2, kind="group")
    void_result(tournament, organiser, voided, "Wrong players", replay=True)
    tournament.refresh_from_db()
    states = dict(round_states(tournament))
    assert states[2] == "replay_due" and sum(s == "decided" for s in states.values()) == 4
    public = text_of(f"/t/{tournament.slug}/rounds/")
    round_two = public[public.index('id="round-2"') : public.index('id="round-3"')]
    assert "Voided: replay due" in round_two and "Decided" not in round_two
    assert "Round 4 of 15 decided; round 6 is open." in text_of(f"/t/{tournament.slug}/live/")
    staff = Client()
    staff.force_login(organiser)
    overview = text_of(reverse("organiser:overview", args=[tournament.slug]), staff)
    assert "Round 6 of 15 is open (4 decided; the replay of round 2 is due)" in overview
    rounds_page = text_of(reverse("organiser:rounds", args=[tournament.slug]), staff)
    assert "Voided: replay due" in rounds_page
    # The API says it too, beside the stored status.
    api = Client().get(f"/api/tournaments/{tournament.slug}/rounds").json()
    assert [(r["status"], r["state"]) for r in api if r["number"] == 2] == [
        ("decided", "replay_due")
    ]
    # results.csv names no winner for the voided duel.
    rows = list(
        csv.DictReader(io.StringIO(text_of(f"/api/tournaments/{tournament.slug}/results.csv")))
    )
    row = next(r for r in rows if r["duel"] == str(voided.pk))
    assert row["status"] == "void" and row["winner"] == ""
    # Its replay is the rematch; the page that steps through a played duel is its record.
    assert ">Record<" in public and ">Replay<" not in public
    assert "Group round 2 (replay)" in text_of(f"/t/{tournament.slug}/live/")


# -- the tie-break plan while a group replay is due ------------------------------------------


def test_the_plan_is_provisional_while_a_group_replay_is_due(quick):
    tournament = quick(until="tie_breaks")
    organiser = tournament.created_by
    assert read_models.tiebreaks(tournament)["planned"]["provisional"] is False
    voided = tournament.duels.filter(kind="group", status="finished").order_by("pk").last()
    void_result(tournament, organiser, voided, "Recorded for the wrong round", replay=True)
    tournament.refresh_from_db()
    planned = read_models.tiebreaks(tournament)["planned"]
    assert planned["provisional"] is True and planned["settled"] is False
    staff = Client()
    staff.force_login(organiser)
    overview = text_of(reverse("organiser:overview", args=[tournament.slug]), staff)
    assert "provisional" in overview and "positions 1–4 settled" not in overview
    assert "Provisional:" in text_of(f"/t/{tournament.slug}/tiebreaks/")
    assert "Provisional:" in text_of(f"/t/{tournament.slug}/standings/")


# -- the export after the event --------------------------------------------------------------


def test_the_standings_export_of_a_finished_event_leads_with_its_placings(quick):
    tournament = quick(until="complete")
    champion = Entrant.objects.get(
        pk=int(next(k for k, v in tournament.placings.items() if v == 1))
    )
    rows = list(
        csv.reader(io.StringIO(text_of(f"/api/tournaments/{tournament.slug}/standings.csv")))
    )
    assert rows[0][0] == "placing"
    assert [r[0] for r in rows[1:5]] == ["1", "2", "3", "4"]
    assert rows[1][2] == champion.name
    assert all(r[0] == "" for r in rows[5:])


# -- a replayed playoff duel -----------------------------------------------------------------


def test_a_replayed_playoff_or_tiebreak_duel_is_titled_a_replay(quick):
    assert presentation.title_of("playoff", "Q1", None, replay=True) == "Qualifier 1 (replay)"
    assert (
        presentation.title_of("tie_break", "K1-r1-m2", None, replay=True)
        == "Tie-break round 1, match 2 (replay)"
    )
    assert presentation.title_of("playoff", "GF", None) == "Grand Final"
    tournament = quick(until="complete")
    final = tournament.duels.get(kind="playoff", stage="GF", status="finished")
    rematch = Duel.objects.create(
        tournament=tournament,
        kind="playoff",
        stage="GF",
        seat_a_id=final.seat_a_id,
        seat_b_id=final.seat_b_id,
        replay_of=final,
        status="ready",
        options={},
    )
    assert presentation.duel_title(rematch) == "Grand Final (replay)"
    assert duel_line(duel_queryset(pk=rematch.pk).get()).title == "Grand Final (replay)"
    assert presentation.duel_title(final) == "Grand Final"


def test_a_playoff_win_corrected_to_none_is_replayed_under_a_replay_title(quick):
    from tournaments.services.corrections import correct_result
    from tournaments.services.refereeing import append_event

    tournament = quick(until="playoffs")  # Q1 and E1 ready
    organiser = tournament.created_by
    referee = tournament.roles.get().user
    q1 = tournament.duels.get(kind="playoff", stage="Q1")
    # A forfeit for the referee's own reason (a no-show would forfeit every later duel too).
    append_event(q1, referee, {"type": "forfeit", "seat": "B", "reason": "left the room"}, 0)
    q1.refresh_from_db()
    correct_result(tournament, organiser, q1, None, "Seat B was at the table after all")
    rematch = tournament.duels.get(kind="playoff", stage="Q1", replay_of=q1)
    assert rematch.status == "ready"
    live = text_of(f"/t/{tournament.slug}/live/")
    assert "Qualifier 1 (replay)" in live
    bracket = text_of(f"/t/{tournament.slug}/bracket/")
    q1_box = bracket[
        bracket.index('class="match stage-Q1') : bracket.index('class="match stage-E1')
    ]
    assert "To be played (replay)" in q1_box
    results = list(
        csv.DictReader(io.StringIO(text_of(f"/api/tournaments/{tournament.slug}/results.csv")))
    )
    assert [r["title"] for r in results if r["duel"] == str(rematch.pk)] == ["Qualifier 1 (replay)"]


# -- voided tie-break and playoff duels and their replays -------------------------------------


def test_a_voided_duel_is_marked_by_what_took_its_place():
    from tournaments.selectors_public.lines import replays_of_voided

    names = {7: "Ada", 8: "Bao"}
    rows = [
        (1, "GF", "void", None),  # replaced by 3, still open
        (2, "Q2", "void", 7),  # voided twice over: 4 is void, 5 took the place and is played
        (3, "GF", "ready", None),
        (4, "Q2", "void", None),
        (5, "Q2", "finished", 8),
        (6, "E1", "void", None),  # nothing took its place (yet, or ever)
        (9, "Q1", "void", None),  # the duel after it was abandoned: no replay
        (10, "Q1", "abandoned", None),
        (11, "K1-r1-m1", "void", None),  # a drawn replay is still a replay
        (12, "K1-r1-m1", "finished", None),
    ]
    assert replays_of_voided(rows, names) == {
        1: "Replay due",
        2: "Replayed: Bao won",
        4: "Replayed: Bao won",
        11: "Replayed",
    }


def test_the_bracket_marks_a_voided_duel_replay_due_then_replayed(
    quick, django_capture_on_commit_callbacks
):
    from tournaments.services.corrections import correct_result
    from tournaments.services.refereeing import append_event

    tournament = quick(until="playoffs")  # Q1 and E1 ready
    organiser = tournament.created_by
    referee = tournament.roles.get().user

    def play(stage: str) -> Duel:
        duel = tournament.duels.exclude(status="void").get(kind="playoff", stage=stage)
        # A forfeit for the referee's own reason (a no-show would forfeit every later duel).
        with django_capture_on_commit_callbacks(execute=True):
            append_event(duel, referee, {"type": "forfeit", "seat": "B", "reason": "left"}, 0)
        return duel

    q1 = play("Q1")
    play("E1")
    play("Q2")
    old_q2 = tournament.duels.get(kind="playoff", stage="Q2")
    old_gf = tournament.duels.get(kind="playoff", stage="GF")
    q1.refresh_from_db()
    # Q1 went the other way: Qualifier 2 and the Grand Final no longer follow.
    correct_result(tournament, organiser, q1, "B", "The sheet named the wrong seat")
    old_q2.refresh_from_db()
    old_gf.refresh_from_db()
    assert (old_q2.status, old_gf.status) == ("void", "void")

    def void_item(html: str, duel: Duel) -> str:
        start = html.index(f"<s>{presentation.duel_title(duel)}: {duel.seat_a.name} v ")
        return html[start : html.index("</li>", start)]

    bracket = text_of(f"/t/{tournament.slug}/bracket/")
    assert "Replay due" in void_item(bracket, old_q2)
    assert "Replay" not in void_item(bracket, old_gf)  # no Grand Final drawn yet
    # The new Qualifier 2 is played: the old one reads as replayed, with who won, and the
    # old Grand Final's replay is due.
    new_q2 = play("Q2")
    bracket = text_of(f"/t/{tournament.slug}/bracket/")
    assert f"Replayed: {new_q2.seat_a.name} won" in void_item(bracket, old_q2)
    assert "Replay due" in void_item(bracket, old_gf)


def test_the_tiebreaks_page_marks_a_voided_replay_due_then_replayed(
    quick, django_capture_on_commit_callbacks
):
    from tournaments.services.corrections import correct_result
    from tournaments.services.refereeing import append_event

    tournament = quick(until="round:15")  # the tie-breaks planned, one duel ready
    organiser = tournament.created_by
    referee = tournament.roles.get().user
    match = tournament.duels.get(kind="tie_break", status="ready")

    def forfeit(duel: Duel) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            append_event(duel, referee, {"type": "forfeit", "seat": "B", "reason": "left"}, 0)

    def rematch() -> Duel:
        return tournament.duels.exclude(status="void").get(replay_of=match)

    forfeit(match)
    match.refresh_from_db()
    correct_result(tournament, organiser, match, None, "Both were at the table")
    first = rematch()
    match.refresh_from_db()
    # Then a win after all: its rematch is voided, and nothing takes its place.
    correct_result(tournament, organiser, match, "A", "Seat A shed all cards first")
    first.refresh_from_db()
    assert first.status == "void"
    title = f"{presentation.title_of('tie_break', first.stage, None, replay=True)}: "

    def void_item() -> str:
        html = text_of(f"/t/{tournament.slug}/tiebreaks/")
        start = html.index(f"<s>{title}")
        return html[start : html.index("</li>", start)]

    assert "Replay" not in void_item().removeprefix(f"<s>{title}")
    match.refresh_from_db()
    correct_result(tournament, organiser, match, None, "No: seat A had a card left")
    assert "Replay due" in void_item()
    second = rematch()
    forfeit(second)
    assert f"Replayed: {second.seat_a.name} won" in void_item()
