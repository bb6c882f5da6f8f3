"""Creating, configuring, publishing and cancelling; corrections' limits; fixed query counts."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Role
from core.errors import ServiceError
from duels.models import Duel, DuelStatus
from tests.factories import RoleFactory, UserFactory
from tournaments import services
from tournaments.models import AuditEntry, Phase, Tournament
from tournaments.services import corrections, groups
from tournaments.services import refereeing as duel_services

pytestmark = pytest.mark.django_db


def snapshot(tournament):
    row = Tournament.objects.filter(pk=tournament.pk).values().get()
    return (
        row,
        AuditEntry.objects.filter(tournament=tournament).count(),
        list(Duel.objects.filter(tournament=tournament).values_list("pk", "status")),
    )


@pytest.fixture
def cup():
    organiser = UserFactory()
    return services.create_tournament(name="Cup", created_by=organiser), organiser


def test_create_makes_two_groups_and_an_audit_entry(cup):
    tournament, organiser = cup
    assert list(tournament.groups.values_list("order", flat=True)) == [1, 2]
    entry = AuditEntry.objects.get(tournament=tournament)
    assert (entry.actor, entry.action) == (organiser, "tournament_created")


def test_configure_records_what_changed(cup):
    tournament, organiser = cup
    services.configure(
        tournament,
        organiser,
        duel_preset="paper",
        variants=["speed"],
        tiebreak_mode="minimal",
        duel_time_limit_minutes=30,
    )
    tournament.refresh_from_db()
    assert (
        tournament.duel_preset,
        tournament.variants,
        tournament.tiebreak_mode,
        tournament.duel_time_limit_minutes,
    ) == ("paper", ["speed"], "minimal", 30)
    entry = AuditEntry.objects.filter(action="settings_changed").get()
    assert entry.detail["changes"]["duel_preset"] == ["tournament", "paper"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"duel_preset": "poker"}, "Unknown duel preset"),
        ({"variants": ["team"]}, "Unknown variant “team”"),
        ({"tiebreak_mode": "chaos"}, "“full” or “minimal”"),
        ({"duel_time_limit_minutes": 999}, "1 to 240 minutes"),
        ({"colour": "red"}, "not a tournament setting"),
        ({"name": "   "}, "Give the tournament a name"),
    ],
)
def test_configure_refusals_change_nothing(cup, changes, message):
    tournament, organiser = cup
    before = snapshot(tournament)
    with pytest.raises(ServiceError) as err:
        services.configure(tournament, organiser, **changes)
    assert message in err.value.message
    assert snapshot(tournament) == before


def test_publish_and_unpublish_bump_the_version(cup):
    tournament, organiser = cup
    services.set_published(tournament, True, organiser)
    tournament.refresh_from_db()
    assert tournament.published and tournament.standings_version == 1
    services.set_published(tournament, True, organiser)  # no change, no bump
    tournament.refresh_from_db()
    assert tournament.standings_version == 1


def test_cancel_needs_a_reason_and_abandons_open_duels():
    from tests.factories import group_phase_duel

    duel, referee = group_phase_duel()
    tournament = duel.tournament
    before = snapshot(tournament)
    with pytest.raises(ServiceError, match="Say why"):
        services.cancel(tournament, tournament.created_by, " ")
    assert snapshot(tournament) == before
    services.cancel(tournament, tournament.created_by, "venue flooded")
    duel.refresh_from_db()
    tournament.refresh_from_db()
    assert duel.status == DuelStatus.ABANDONED and tournament.phase == Phase.CANCELLED
    with pytest.raises(ServiceError, match="already cancelled"):
        services.cancel(tournament, tournament.created_by, "again")
    with pytest.raises(ServiceError, match="over"):
        services.configure(tournament, tournament.created_by, name="Renamed")


@pytest.fixture
def decided():
    """Round 1 of a group phase decided by a forfeit (seat A wins)."""
    from tests.factories import group_phase_duel

    duel, referee = group_phase_duel()
    duel_services.append_event(duel, referee, {"type": "forfeit", "seat": "B"}, 0)
    duel.refresh_from_db()
    return duel, referee


class TestCorrections:
    def test_correcting_a_win_to_none_makes_a_replay_due(self, decided):
        duel, _ = decided
        organiser = duel.tournament.created_by
        corrections.correct_result(duel.tournament, organiser, duel, None, "both at zero")
        duel.refresh_from_db()
        assert duel.result.winner is None and duel.result.corrected
        assert duel.result.table_winner == duel.seat_a  # the record stays as played
        assert duel.result.correction_reason == "both at zero"
        assert Duel.objects.filter(replay_of=duel, status=DuelStatus.READY).exists()

    def test_a_referee_cannot_correct(self, decided):
        duel, referee = decided
        before = snapshot(duel.tournament)
        with pytest.raises(ServiceError) as err:
            corrections.correct_result(duel.tournament, referee, duel, "B", "protest")
        assert err.value.code == "forbidden"
        assert snapshot(duel.tournament) == before

    def test_an_organiser_who_plays_in_the_duel_cannot_correct_it(self, decided):
        duel, _ = decided
        co = RoleFactory(tournament=duel.tournament, role=Role.CO_ORGANISER).user
        duel.seat_b.user = co
        duel.seat_b.save()
        with pytest.raises(ServiceError, match="You play in this duel"):
            corrections.correct_result(duel.tournament, co, duel, "B", "I won really")

    def test_voiding_without_replay_leaves_the_round_not_played(self, decided):
        duel, _ = decided
        organiser = duel.tournament.created_by
        corrections.void_result(duel.tournament, organiser, duel, "wrong players", replay=False)
        duel.refresh_from_db()
        assert duel.status == DuelStatus.VOID
        assert duel.round.status == "not_played"
        from tournaments.models import StandingRow

        assert set(
            StandingRow.objects.filter(tournament=duel.tournament).values_list("points", flat=True)
        ) == {0}


class TestAReplayDueReopensItsRound:
    """Round n + 1 opens only when round n has a decisive result: a void (with replay) or a
    win corrected to none reopens round n until round n + 1's duel has started."""

    @staticmethod
    def statuses(tournament):
        return dict(tournament.rounds.filter(number__lte=3).values_list("number", "status"))

    def test_a_void_reopens_the_round_and_its_replay_decides_it(self, decided):
        duel, referee = decided
        tournament, organiser = duel.tournament, duel.tournament.created_by
        assert self.statuses(tournament) == {1: "decided", 2: "open", 3: "pending"}
        corrections.void_result(tournament, organiser, duel, "wrong players")
        assert self.statuses(tournament) == {1: "open", 2: "pending", 3: "pending"}
        assert not groups.change_window(tournament).open
        with pytest.raises(ServiceError, match="Round 2 is not open"):
            services.name_representatives(tournament, organiser, 2, duel.seat_a_id, duel.seat_b_id)
        replay = Duel.objects.get(replay_of=duel)
        duel_services.append_event(replay, referee, {"type": "forfeit", "seat": "A"}, 0)
        assert self.statuses(tournament) == {1: "decided", 2: "open", 3: "pending"}
        assert groups.change_window(tournament).open

    def test_a_duel_named_for_the_next_round_waits_for_the_replay(self, decided):
        duel, referee = decided
        tournament, organiser = duel.tournament, duel.tournament.created_by
        second = services.name_representatives(
            tournament, organiser, 2, duel.seat_a_id, duel.seat_b_id, "Table 2"
        )
        corrections.correct_result(tournament, organiser, duel, None, "both at zero")
        assert self.statuses(tournament) == {1: "open", 2: "pending", 3: "pending"}
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="round 1's replay must be decided first"):
            duel_services.append_event(second, referee, {"type": "forfeit", "seat": "B"}, 0)
        assert snapshot(tournament) == before
        replay = Duel.objects.get(replay_of=duel)
        duel_services.append_event(replay, referee, {"type": "forfeit", "seat": "B"}, 0)
        duel_services.append_event(second, referee, {"type": "forfeit", "seat": "B"}, 0)
        assert self.statuses(tournament) == {1: "decided", 2: "decided", 3: "open"}

    def test_once_the_next_round_has_started_the_rounds_go_on(self, decided):
        duel, referee = decided
        tournament, organiser = duel.tournament, duel.tournament.created_by
        second = services.name_representatives(
            tournament, organiser, 2, duel.seat_a_id, duel.seat_b_id
        )
        duel_services.append_event(second, referee, {"type": "round", "cards": {"A": 4, "B": 2}}, 0)
        corrections.void_result(tournament, organiser, duel, "wrong players")
        assert self.statuses(tournament) == {1: "decided", 2: "open", 3: "pending"}
        assert Duel.objects.filter(replay_of=duel, status=DuelStatus.READY).exists()


def test_a_move_costs_the_same_queries_in_a_small_and_a_large_tournament():
    from tests.factories import EntrantFactory, group_phase_duel

    counts = []
    for extra in (0, 20):  # 5/5, then 15/15
        duel, referee = group_phase_duel()
        reds, blues = duel.tournament.groups.order_by("order")
        for i in range(extra):
            EntrantFactory(tournament=duel.tournament, group=reds if i % 2 else blues)
        duel_services.append_event(duel, referee, {"type": "round", "cards": {"A": 1, "B": 2}}, 0)
        for n in range(1, 6):  # winners alternate: no streak bonus interrupts
            cards = {"A": 4, "B": 3} if n % 2 else {"A": 3, "B": 4}
            duel_services.append_event(duel, referee, {"type": "round", "cards": cards}, n)
        with CaptureQueriesContext(connection) as queries:
            duel_services.append_event(
                duel, referee, {"type": "round", "cards": {"A": 6, "B": 5}}, 6
            )
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_transfer_costs_the_same_queries_in_a_small_and_a_large_tournament():
    from tests.tournaments.test_group_services import make, play_round

    counts = []
    for n_players, sizes in ((10, (5, 5)), (30, (15, 15))):
        tournament, organiser, referee, entrants = make(n_players, sizes)
        services.start_group_phase(tournament, organiser)
        play_round(tournament, referee, 1, entrants[0], entrants[sizes[0]])
        with CaptureQueriesContext(connection) as queries:
            services.change_groups(
                tournament, organiser, {entrants[1].pk: 2, entrants[sizes[0] + 1].pk: 1}
            )
        counts.append(len(queries))
    assert counts[0] == counts[1]
