"""Registration, the split, starting the group phase, transfers, eliminations, withdrawals and
materialised standings, through the services. Every refusal leaves the database unchanged."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Role
from core.errors import ServiceError
from duels.models import Duel, DuelStatus
from tests.factories import RoleFactory, UserFactory
from tournaments import services
from tournaments.models import (
    AuditEntry,
    Entrant,
    EntrantStatus,
    GroupTotal,
    Membership,
    Phase,
    RoundStatus,
    StandingRow,
)
from tournaments.services import refereeing as duel_services

pytestmark = pytest.mark.django_db


def state(tournament):
    """Everything a refused change must leave as it was."""
    tournament.refresh_from_db()
    return (
        tournament.phase,
        tournament.standings_version,
        sorted(
            Entrant.objects.filter(tournament=tournament).values_list(
                "pk", "name", "status", "group_id"
            )
        ),
        Membership.objects.filter(entrant__tournament=tournament).count(),
        Duel.objects.filter(tournament=tournament).count(),
        AuditEntry.objects.filter(tournament=tournament).count(),
    )


def make(n_players=21, sizes=(15, 6)):
    organiser = UserFactory()
    tournament = services.create_tournament(name="Harbour Cup", created_by=organiser)
    services.register_list(
        tournament, "\n".join(f"P{i:02d}" for i in range(1, n_players + 1)), organiser
    )
    entrants = list(tournament.entrants.order_by("name"))
    assignment = {e.pk: 1 if i < sizes[0] else 2 for i, e in enumerate(entrants)}
    services.split_groups(tournament, organiser, "hand", assignment)
    referee = RoleFactory(tournament=tournament, role=Role.REFEREE).user
    return tournament, organiser, referee, entrants


def play_round(tournament, referee, number, first, second, winner_seat="A"):
    duel = services.name_representatives(tournament, referee, number, first.pk, second.pk)
    loser = "B" if winner_seat == "A" else "A"
    duel_services.append_event(duel, referee, {"type": "forfeit", "seat": loser}, 0)
    duel.refresh_from_db()
    return duel


class TestRegistration:
    def test_pasted_list_reports_duplicates_and_bad_lines_line_by_line(self):
        organiser = UserFactory()
        tournament = services.create_tournament(name="Cup", created_by=organiser)
        services.add_entrant(tournament, "Ada", organiser)
        report = services.register_list(tournament, "Bea\n\nada\nCy\nBEA\n" + "x" * 81, organiser)
        assert [(r.line, r.added) for r in report] == [
            (1, True),
            (3, False),
            (4, True),
            (5, False),
            (6, False),
        ]
        assert "already registered" in report[1].message
        assert "at most 80 characters" in report[4].message
        assert sorted(tournament.entrants.values_list("name", flat=True)) == ["Ada", "Bea", "Cy"]

    def test_csv_with_header_and_two_bad_rows(self):
        organiser = UserFactory()
        tournament = services.create_tournament(name="Cup", created_by=organiser)
        report = services.register_csv(
            tournament, b"name,club\nAda,North\n,South\nBea,\nAda,East\n", organiser
        )
        assert [(r.line, r.added) for r in report] == [(2, True), (3, False), (4, True), (5, False)]
        assert "needs a name" in report[1].message

    def test_a_31st_active_entrant_is_refused(self):
        organiser = UserFactory()
        tournament = services.create_tournament(name="Cup", created_by=organiser)
        report = services.register_list(
            tournament, "\n".join(f"N{i}" for i in range(31)), organiser
        )
        assert sum(r.added for r in report) == 30
        assert "full" in report[-1].message
        with pytest.raises(ServiceError, match="full"):
            services.add_entrant(tournament, "Late", organiser)

    def test_no_late_entries_once_the_group_phase_started(self):
        tournament, organiser, _, _ = make()
        services.start_group_phase(tournament, organiser)
        before = state(tournament)
        with pytest.raises(ServiceError, match="no late entries"):
            services.add_entrant(tournament, "Late", organiser)
        assert state(tournament) == before


class TestSplitAndStart:
    def test_alternating_split_gives_the_extra_player_to_the_first_group(self):
        tournament, organiser, _, entrants = make(n_players=11)
        split = services.split_groups(tournament, organiser, "alternating")
        first, second = tournament.groups.order_by("order")
        assert list(split.values()).count(first.pk) == 6
        assert split[entrants[0].pk] == first.pk

    def test_random_split_stores_its_seed_and_is_reproducible(self):
        tournament, organiser, _, _ = make(n_players=12)
        split = services.split_groups(tournament, organiser, "random")
        tournament.refresh_from_db()
        assert tournament.split_seed
        from tournaments import format as fmt

        first, second = tournament.groups.order_by("order")
        assert split == fmt.random_split(
            sorted(split), [first.pk, second.pk], tournament.split_seed
        )

    def test_start_creates_15_rounds_and_membership_and_locks_the_duel_rules(self):
        tournament, organiser, _, _ = make()
        services.start_group_phase(tournament, organiser)
        tournament.refresh_from_db()
        assert tournament.phase == Phase.GROUP_PHASE
        statuses = list(tournament.rounds.values_list("status", flat=True))
        assert statuses == [RoundStatus.OPEN] + [RoundStatus.PENDING] * 14
        assert (
            Membership.objects.filter(entrant__tournament=tournament, since_round=1).count() == 21
        )
        assert StandingRow.objects.filter(tournament=tournament).count() == 21
        with pytest.raises(ServiceError, match="locked"):
            services.configure(tournament, organiser, duel_preset="paper")

    @pytest.mark.parametrize(
        ("n", "sizes", "message"),
        [
            (9, (5, 4), "10–30 active entrants"),
            (20, (16, 4), "at most 15"),
            (12, (8, 4), "needs at least 5"),
        ],
    )
    def test_start_refusals_name_the_problem(self, n, sizes, message):
        tournament, organiser, _, _ = make(n_players=n, sizes=sizes)
        before = state(tournament)
        with pytest.raises(ServiceError) as err:
            services.start_group_phase(tournament, organiser)
        assert message in err.value.message
        assert state(tournament) == before

    def test_players_in_no_group_are_named(self):
        tournament, organiser, _, entrants = make(n_players=12, sizes=(6, 6))
        services.add_entrant(tournament, "Loner", organiser)
        with pytest.raises(ServiceError) as err:
            services.start_group_phase(tournament, organiser)
        assert "Loner" in err.value.message

    def test_a_referee_cannot_start_the_group_phase(self):
        tournament, organiser, referee, _ = make()
        with pytest.raises(ServiceError) as err:
            services.start_group_phase(tournament, referee)
        assert err.value.code == "forbidden"


class TestTransfers:
    @pytest.fixture
    def after_round_one(self):
        tournament, organiser, referee, entrants = make()
        services.start_group_phase(tournament, organiser)
        play_round(tournament, referee, 1, entrants[0], entrants[15])
        return tournament, organiser, referee, entrants

    def test_points_go_to_the_player_and_the_group_they_represented(self, after_round_one):
        tournament, organiser, referee, entrants = after_round_one
        rows = {r.entrant_id: r for r in StandingRow.objects.filter(tournament=tournament)}
        assert (rows[entrants[0].pk].points, rows[entrants[15].pk].points) == (3, -2)
        assert rows[entrants[0].pk].rank == 1
        first, second = tournament.groups.order_by("order")
        assert GroupTotal.objects.get(group=first).total == 3
        assert GroupTotal.objects.get(group=second).by_round[0] == -2

    def test_moving_into_the_full_group_is_refused(self, after_round_one):
        tournament, organiser, _, entrants = after_round_one
        before = state(tournament)
        with pytest.raises(ServiceError) as err:
            services.change_groups(tournament, organiser, {entrants[16].pk: 1})
        assert "at most 15" in err.value.message
        assert state(tournament) == before

    def test_a_move_the_other_way_is_recorded_from_the_next_round(self, after_round_one):
        tournament, organiser, _, entrants = after_round_one
        version = state(tournament)[1]
        services.change_groups(tournament, organiser, {entrants[0].pk: 2}, reason="swap")
        mover = Entrant.objects.get(pk=entrants[0].pk)
        second = tournament.groups.get(order=2)
        assert mover.group == second
        assert Membership.objects.filter(entrant=mover).latest("pk").since_round == 2
        assert state(tournament)[1] > version
        # Points stay with the player; the group keeps what was earned for it.
        first = tournament.groups.get(order=1)
        assert GroupTotal.objects.get(group=first).total == 3
        assert StandingRow.objects.get(entrant=mover).points == 3

    def test_a_swap_is_checked_on_its_end_state(self, after_round_one):
        tournament, organiser, _, entrants = after_round_one
        services.change_groups(tournament, organiser, {entrants[1].pk: 2, entrants[16].pk: 1})
        sizes = [tournament.groups.get(order=o).members.count() for o in (1, 2)]
        assert sizes == [15, 6]

    def test_leaving_a_group_below_5_needs_confirmation_then_eliminates_it(self, after_round_one):
        tournament, organiser, _, entrants = after_round_one
        services.change_groups(tournament, organiser, {entrants[1].pk: 2})  # 14 / 7
        before = state(tournament)
        movers = {entrants[15].pk: None, entrants[16].pk: None, entrants[17].pk: None}
        with pytest.raises(ServiceError) as err:
            services.change_groups(tournament, organiser, movers)
        assert err.value.code == "confirm"
        assert "would be eliminated" in err.value.message
        assert state(tournament) == before
        services.change_groups(tournament, organiser, movers, confirm=True, reason="left")
        second = tournament.groups.get(order=2)
        assert second.eliminated_at_round == 1
        statuses = dict(Entrant.objects.filter(group=second).values_list("pk", "status"))
        assert set(statuses.values()) == {EntrantStatus.ELIMINATED}
        tournament.refresh_from_db()
        assert tournament.group_phase_ended_at is not None
        assert set(tournament.rounds.filter(number__gt=1).values_list("status", flat=True)) == {
            RoundStatus.NOT_PLAYED
        }
        assert GroupTotal.objects.get(group=tournament.groups.get(order=1)).status == "winner"

    def test_no_transfer_while_the_next_duel_runs(self, after_round_one):
        tournament, organiser, referee, entrants = after_round_one
        duel = services.name_representatives(
            tournament, referee, 2, entrants[2].pk, entrants[17].pk
        )
        duel_services.append_event(duel, referee, {"type": "round", "cards": {"A": 1, "B": 2}}, 0)
        before = state(tournament)
        with pytest.raises(ServiceError, match="Round 2's duel has started"):
            services.change_groups(tournament, organiser, {entrants[3].pk: 2})
        assert state(tournament) == before

    def test_moving_a_nominated_player_clears_the_nomination(self, after_round_one):
        tournament, organiser, referee, entrants = after_round_one
        duel = services.name_representatives(
            tournament, referee, 2, entrants[2].pk, entrants[17].pk
        )
        services.change_groups(tournament, organiser, {entrants[2].pk: 2})
        duel.refresh_from_db()
        assert duel.status == DuelStatus.VOID

    def test_withdrawing_during_a_running_duel_forfeits_it_first(self, after_round_one):
        tournament, organiser, referee, entrants = after_round_one
        duel = services.name_representatives(
            tournament, referee, 2, entrants[2].pk, entrants[17].pk
        )
        duel_services.append_event(duel, referee, {"type": "round", "cards": {"A": 1, "B": 2}}, 0)
        services.withdraw(tournament, organiser, entrants[2].pk, reason="ill")
        duel.refresh_from_db()
        assert duel.status == DuelStatus.FINISHED
        assert duel.result.loser_id == entrants[2].pk and duel.result.finish == "forfeit"
        gone = Entrant.objects.get(pk=entrants[2].pk)
        assert gone.status == EntrantStatus.WITHDRAWN and gone.withdrawal_reason == "ill"
        row = StandingRow.objects.get(entrant=gone)
        assert row.points == -2 and row.rank is None

    def test_recompute_costs_a_fixed_number_of_queries(self, after_round_one):
        tournament, organiser, referee, entrants = after_round_one
        with CaptureQueriesContext(connection) as small:
            services.recompute_standings(tournament)
        for number in range(2, 6):
            play_round(tournament, referee, number, entrants[number], entrants[15 + number % 6])
        with CaptureQueriesContext(connection) as large:
            services.recompute_standings(tournament)
        assert len(large) == len(small)


def test_membership_of_any_past_round_is_shown_as_it_was():
    from tournaments.selectors import members_at_round

    tournament, organiser, referee, entrants = make()
    services.start_group_phase(tournament, organiser)
    play_round(tournament, referee, 1, entrants[0], entrants[15])
    services.change_groups(tournament, organiser, {entrants[1].pk: 2})
    first, second = tournament.groups.order_by("order")
    round1, round2 = members_at_round(tournament, 1), members_at_round(tournament, 2)
    assert entrants[1].pk in round1[first.pk] and entrants[1].pk not in round1[second.pk]
    assert entrants[1].pk in round2[second.pk] and entrants[1].pk not in round2[first.pk]
    assert (len(round1[first.pk]), len(round2[first.pk])) == (15, 14)


def test_referee_assignment_rules():
    from tests.factories import group_phase_duel
    from tournaments.services.refereeing import assign_referee

    duel, referee = group_phase_duel()
    other = RoleFactory(tournament=duel.tournament, role=Role.REFEREE).user
    assign_referee(duel, referee, referee)  # takes an unassigned duel
    with pytest.raises(ServiceError, match="organisers assign"):
        assign_referee(duel, other, other)  # cannot take one assigned to someone else
    assign_referee(duel, duel.tournament.created_by, other)
    duel.refresh_from_db()
    assert duel.referee == other
    player = UserFactory()
    duel.seat_a.user = player
    duel.seat_a.save()
    RoleFactory(tournament=duel.tournament, user=player, role=Role.REFEREE)
    with pytest.raises(ServiceError, match="cannot referee this duel"):
        assign_referee(duel, duel.tournament.created_by, player)
