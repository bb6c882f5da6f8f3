"""The life of duels across phases (TOURNAMENT.md "Group phase" and "Corrections"), each case
that once left an event stuck or wrong, through the services (tournaments.services.lifecycle
is their one owner)."""

import pytest

from accounts.models import Role
from core.errors import ServiceError
from duels.models import Duel, DuelKind, DuelStatus
from duels.words import closed_reason_text, closed_why
from tests.factories import RoleFactory, UserFactory
from tests.tournaments.helpers import finish, play_playoffs, settle_tiebreaks
from tournaments import services
from tournaments.models import Entrant, EntrantStatus, Membership, Phase, RoundStatus
from tournaments.services import corrections, progression, refereeing
from tournaments.services.previews import preview

pytestmark = pytest.mark.django_db


def ten_players(organiser=None):
    """Ten players split 5 / 5, the group phase started (no duel played)."""
    organiser = organiser or UserFactory(username="olga")
    tournament = services.create_tournament(name="Cup", created_by=organiser)
    services.register_list(tournament, "\n".join(f"P{i}" for i in range(10)), organiser)
    services.split_groups(tournament, organiser, "alternating")
    services.start_group_phase(tournament, organiser)
    referee = RoleFactory(tournament=tournament, role=Role.REFEREE).user
    g1, g2 = (list(g.members.order_by("pk")) for g in tournament.groups.order_by("order"))
    return tournament, organiser, referee, g1, g2


def play(tournament, referee, number, first, second, winner_seat="A"):
    duel = services.name_representatives(tournament, referee, number, first.pk, second.pk)
    finish(duel, referee, winner_seat)
    duel.refresh_from_db()
    return duel


def start(duel, referee):
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 1, "B": 2}}, duel.seq)
    duel.refresh_from_db()
    return duel


class TestAReplayDueAfterRound15:
    """A group result voided (replay) during the tie-breaks: the replay is played by its
    referee during the tie-breaks, the plan is provisional and the playoffs wait."""

    def test_the_replay_is_played_and_holds_the_plan_and_the_playoffs_until_decided(
        self, played_group_phase, django_capture_on_commit_callbacks
    ):
        tournament, organiser, referee = played_group_phase
        settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
        assert tournament.top_four_settled_at is not None
        round_3 = Duel.objects.get(tournament=tournament, kind=DuelKind.GROUP, round__number=3)
        with django_capture_on_commit_callbacks(execute=True):
            corrections.void_result(tournament, organiser, round_3, "wrong player seated")
        tournament.refresh_from_db()
        replay = Duel.objects.get(replay_of=round_3)
        assert replay.kind == DuelKind.REPLAY and replay.status == DuelStatus.READY
        assert tournament.phase == Phase.TIE_BREAKS
        assert tournament.top_four_settled_at is None  # provisional while the replay is due
        assert progression.pending(tournament) is False  # nothing else the automation may do
        with pytest.raises(ServiceError, match="replay is still to be played"):
            progression.start_playoffs(tournament, organiser)
        # The referee plays it like any other duel; its result re-plans the tie-breaks.
        with django_capture_on_commit_callbacks(execute=True):
            finish(replay, referee, "B")
        replay.refresh_from_db()
        assert replay.status == DuelStatus.FINISHED
        assert replay.round.status == RoundStatus.DECIDED
        settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
        assert tournament.top_four_settled_at is not None
        with django_capture_on_commit_callbacks(execute=True):
            progression.start_playoffs(tournament, organiser)
        play_playoffs(tournament, referee, django_capture_on_commit_callbacks)
        assert tournament.phase == Phase.COMPLETE

    def test_a_replay_whose_player_withdrew_is_forfeited_at_once(
        self, played_group_phase, django_capture_on_commit_callbacks
    ):
        tournament, organiser, referee = played_group_phase
        round_2 = Duel.objects.get(tournament=tournament, kind=DuelKind.GROUP, round__number=2)
        with django_capture_on_commit_callbacks(execute=True):
            corrections.void_result(tournament, organiser, round_2, "score sheet lost")
        replay = Duel.objects.get(replay_of=round_2)
        with django_capture_on_commit_callbacks(execute=True):
            services.withdraw(tournament, organiser, replay.seat_a_id, reason="ill")
        replay.refresh_from_db()
        assert replay.status == DuelStatus.FINISHED
        assert replay.result.loser_id == replay.seat_a_id
        assert not progression.pending(tournament)
        settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
        assert tournament.top_four_settled_at is not None


class TestAnElimination:
    def test_a_running_duel_is_closed_as_abandoned_and_its_referee_told_why(self):
        tournament, organiser, referee, g1, g2 = ten_players()
        play(tournament, referee, 1, g1[0], g2[0])
        running = start(
            services.name_representatives(tournament, referee, 2, g1[1].pk, g2[1].pk), referee
        )
        # A non-playing member of the second group withdraws: it falls to 4, eliminated.
        services.withdraw(tournament, organiser, g2[2].pk, reason="left", confirm=True)
        running.refresh_from_db()
        assert running.status == DuelStatus.ABANDONED
        # Stored as a key and its parameters, read in the reader's language (issue 29).
        assert closed_why(running.closed_reason)["key"] == "group_eliminated"
        assert "eliminated after round 1" in closed_reason_text(running.closed_reason)
        assert not hasattr(running, "result") or running.result is None
        with pytest.raises(ServiceError, match="abandoned"):
            refereeing.append_event(
                running, referee, {"type": "round", "cards": {"A": 3, "B": 4}}, running.seq
            )
        tournament.refresh_from_db()
        assert tournament.group_phase_ended_at is not None
        assert running.round.status == RoundStatus.NOT_PLAYED

    def test_the_playing_member_forfeits_first_and_the_elimination_follows_that_round(self):
        tournament, organiser, referee, g1, g2 = ten_players()
        play(tournament, referee, 1, g1[0], g2[0])
        running = start(
            services.name_representatives(tournament, referee, 2, g1[1].pk, g2[1].pk), referee
        )
        leaver = running.seat_b if running.seat_b_id == g2[1].pk else running.seat_a
        services.withdraw(tournament, organiser, leaver.pk, reason="ill", confirm=True)
        running.refresh_from_db()
        assert running.status == DuelStatus.FINISHED
        assert running.result.loser_id == leaver.pk  # the forfeit decided round 2
        second = tournament.groups.get(order=2)
        assert second.eliminated_at_round == 2
        assert running.round.status == RoundStatus.DECIDED
        # Membership history: the player was in their group for round 2, which they played.
        rows = list(
            Membership.objects.filter(entrant=leaver)
            .order_by("since_round")
            .values_list("since_round", "group_id")
        )
        assert rows == [(1, second.pk), (3, None)]
        assert Entrant.objects.get(pk=leaver.pk).status == EntrantStatus.WITHDRAWN


class TestPreviews:
    def test_correcting_the_grand_final_names_the_new_champion(
        self, played_group_phase, django_capture_on_commit_callbacks
    ):
        tournament, organiser, referee = played_group_phase
        settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
        progression.start_playoffs(tournament, organiser)
        play_playoffs(tournament, referee, django_capture_on_commit_callbacks)
        final = Duel.objects.get(tournament=tournament, stage="GF", status=DuelStatus.FINISHED)
        lines = preview(
            tournament,
            lambda: corrections.correct_result(
                tournament, organiser, final, "B", "card count was wrong"
            ),
        )
        champion, runner_up = final.seat_a.name, final.seat_b.name
        assert f"Champion: {champion} → {runner_up}." in lines
        assert f"2nd place: {runner_up} → {champion}." in lines
        final.refresh_from_db()
        assert final.result.winner_id == final.seat_a_id  # nothing was kept


class TestRepair:
    def test_the_sweep_closes_a_replay_left_open_past_the_group_phase_and_the_console_says_why(
        self, played_group_phase, django_capture_on_commit_callbacks, client
    ):
        from tournaments import tasks

        tournament, organiser, referee = played_group_phase
        settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
        progression.start_playoffs(tournament, organiser)
        # What an earlier version could leave: a group replay due after the playoffs started.
        round_4 = Duel.objects.get(tournament=tournament, kind=DuelKind.GROUP, round__number=4)
        stuck = Duel.objects.create(
            tournament=tournament,
            kind=DuelKind.REPLAY,
            round=round_4.round,
            seat_a=round_4.seat_a,
            seat_b=round_4.seat_b,
            group_a=round_4.group_a,
            group_b=round_4.group_b,
            referee=referee,
            status=DuelStatus.READY,
            replay_of=round_4,
            ruleset=round_4.ruleset,
            options=round_4.options,
        )
        with pytest.raises(ServiceError, match="can no longer be played"):
            refereeing.append_event(stuck, referee, {"type": "forfeit", "seat": "A"}, 0)
        assert tasks.sweep()["repaired"] == 1
        stuck.refresh_from_db()
        assert stuck.status == DuelStatus.ABANDONED
        assert closed_why(stuck.closed_reason) == {"key": "playoffs_froze"}
        assert "froze when the playoffs started" in closed_reason_text(stuck.closed_reason)
        client.force_login(referee)
        page = client.get(f"/t/{tournament.slug}/duels/{stuck.pk}/").content.decode()
        assert "This duel is abandoned" in page and "froze when the playoffs started" in page
        assert tasks.sweep()["repaired"] == 0  # nothing left to repair

    def test_the_automation_voids_a_walkover_recorded_for_a_final_never_scheduled(
        self, played_group_phase_minimal, django_capture_on_commit_callbacks
    ):
        from duels import services as duel_rows
        from tournaments.format import duel_key

        tournament, organiser, referee = played_group_phase_minimal
        settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
        plan = progression.tiebreak_plan(tournament)
        stopped = next(k for k in plan.knockouts if k.state == "stopped")
        first, second = next(t.players for t in plan.tiers if t.state == "shared")
        final = duel_key(stopped.key, len(stopped.rounds) + 1, 1)
        with django_capture_on_commit_callbacks(execute=True):
            services.withdraw(tournament, organiser, second, reason="train")
        # Today: no walkover for the final minimal mode never scheduled.
        assert not Duel.objects.filter(tournament=tournament, stage=final).exists()
        # What an earlier version recorded then: the automation's walkover for that final.
        ghost = duel_rows.create_duel(
            tournament=tournament,
            kind=DuelKind.TIE_BREAK,
            stage=final,
            seat_a_id=min(first, second),
            seat_b_id=max(first, second),
            ruleset=tournament.duel_preset,
            variants=[],
            options={"truth_dare": False},
        )
        duel_rows.forfeit(duel_rows.lock(ghost), None, "A" if second < first else "B", "withdrawn")
        assert progression.pending(tournament)
        assert progression.sync(tournament)
        ghost.refresh_from_db()
        assert ghost.status == DuelStatus.VOID
        assert not progression.pending(tournament)
        settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
        assert tournament.top_four_settled_at is not None


class TestVoidWithoutReplay:
    def test_a_reopened_round_voided_without_replay_lets_the_next_round_open(self):
        tournament, organiser, referee, g1, g2 = ten_players()
        play(tournament, referee, 1, g1[0], g2[0])
        second = play(tournament, referee, 2, g1[1], g2[1])
        # Round 2's win corrected to none: a replay is due and round 2 is open again, round 3
        # waits for it. Then the organiser rules that round 2 has no result after all.
        corrections.correct_result(tournament, organiser, second, None, "miscount")
        assert tournament.rounds.get(number=3).status == RoundStatus.PENDING
        corrections.void_result(tournament, organiser, second, "no result", replay=False)
        assert tournament.rounds.get(number=2).status == RoundStatus.NOT_PLAYED
        assert not Duel.objects.filter(replay_of=second).exclude(status=DuelStatus.VOID).exists()
        assert tournament.rounds.get(number=3).status == RoundStatus.OPEN
        play(tournament, referee, 3, g1[2], g2[2])  # the rounds go on
