"""Undoing a withdrawal made by mistake (TOURNAMENT.md "Corrections"): the player is active
again in the same group, the forfeit is marked undone and the duel goes on where it stood,
what the app did by itself because of it is taken back; refused in words once anything else
has happened, or when the withdrawal eliminated a group."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from core.errors import ServiceError
from duels.models import Duel, DuelKind, DuelStatus, Result
from tests.duels.moves import moves
from tests.factories import UserFactory
from tests.tournaments.helpers import finish
from tournaments import services
from tournaments.models import (
    AuditEntry,
    EntrantStatus,
    Membership,
    Phase,
    RoundStatus,
    StandingRow,
    Withdrawal,
)
from tournaments.services import refereeing
from tournaments.services.groups import withdrawal_preview
from tournaments.services.progression import tiebreak_plan
from tournaments.services.withdrawals import latest, undo_blocker, undo_withdrawal

pytestmark = pytest.mark.django_db


def started(n=12, first=6):
    organiser = UserFactory(username="olga")
    tournament = services.create_tournament(name="Cup", created_by=organiser)
    services.register_list(tournament, "\n".join(f"P{i:02d}" for i in range(n)), organiser)
    entrants = list(tournament.entrants.order_by("name"))
    services.split_groups(
        tournament, organiser, "hand", {e.pk: 1 if i < first else 2 for i, e in enumerate(entrants)}
    )
    services.start_group_phase(tournament, organiser)
    tournament.refresh_from_db()
    reds, blues = tournament.groups.order_by("order")
    return tournament, organiser, reds, blues


def first_of(tournament, group, skip=0):
    return list(tournament.entrants.filter(group=group, status="active").order_by("name"))[skip]


def running_round_two(tournament, organiser, reds, blues):
    """Round 1 decided; round 2's duel running after one number round."""
    duel = services.name_representatives(
        tournament, organiser, 1, first_of(tournament, reds).pk, first_of(tournament, blues).pk
    )
    finish(duel, organiser, "A")
    duel = services.name_representatives(
        tournament, organiser, 2, first_of(tournament, reds, 1).pk, first_of(tournament, blues).pk
    )
    refereeing.append_event(duel, organiser, {"type": "round", "cards": {"A": 3, "B": 5}}, 0)
    duel.refresh_from_db()
    return duel


def rows(query):
    """Rows in a fixed order (None first): a withdrawn player has no group."""
    return sorted(query, key=lambda row: tuple(-1 if v is None else v for v in row))


def state_of(tournament):
    """What an undo must give back, read from the database."""
    tournament.refresh_from_db()
    return (
        tournament.phase,
        tournament.group_phase_ended_at,
        tournament.top_four_settled_at,
        rows(tournament.rounds.values_list("number", "status")),
        rows(Duel.objects.filter(tournament=tournament).values_list("pk", "status", "seq")),
        rows(tournament.entrants.values_list("pk", "status", "group_id")),
        rows(
            Membership.objects.filter(entrant__tournament=tournament).values_list(
                "entrant_id", "group_id", "since_round"
            )
        ),
        rows(StandingRow.objects.filter(tournament=tournament).values_list("entrant_id", "points")),
    )


def test_the_preview_names_the_forfeit_and_changes_nothing():
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    before = state_of(tournament)
    preview = withdrawal_preview(tournament, duel.seat_a)
    assert [(f.duel.pk, f.winner, f.walkover) for f in preview.forfeits] == [
        (duel.pk, duel.seat_b.name, False)
    ]
    assert not preview.eliminates and not preview.refusal
    assert state_of(tournament) == before


def test_undo_gives_back_the_running_duel_where_it_stood():
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    jonas = duel.seat_a
    before = state_of(tournament)
    withdrawal = services.withdraw(tournament, organiser, jonas.pk, "ill", confirm=True)
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED
    assert tournament.rounds.get(number=2).status == RoundStatus.DECIDED
    assert tournament.rounds.get(number=3).status == RoundStatus.OPEN
    assert withdrawal.forfeits == [duel.pk]

    undone = undo_withdrawal(tournament, organiser, withdrawal_id=withdrawal.pk)

    assert undone.undone_at is not None and undone.undone_by == organiser
    assert state_of(tournament) == before
    duel.refresh_from_db()
    assert (duel.status, duel.seq) == (DuelStatus.RUNNING, 1)
    assert not Result.objects.filter(duel=duel).exists()
    # History kept: the forfeit's row is marked undone, never deleted.
    (forfeit,) = [m for m in moves(duel) if m.payload["type"] == "forfeit"]
    # Marked as the correction that took it back (the audit log says who).
    assert forfeit.undone_at is not None and forfeit.undone_by == "taken back"
    assert AuditEntry.objects.filter(tournament=tournament, action="withdrawal_undone").exists()
    assert AuditEntry.objects.filter(tournament=tournament, action="membership_changed").exists()
    # The duel goes on: the next move is entered as if nothing had happened.
    refereeing.append_event(duel, organiser, {"type": "forfeit", "seat": "B"}, duel.seq)
    duel.refresh_from_db()
    assert duel.result.winner == jonas


def test_the_same_undo_twice_changes_nothing_the_second_time():
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    withdrawal = services.withdraw(tournament, organiser, duel.seat_a_id, confirm=True)
    undo_withdrawal(tournament, organiser, withdrawal_id=withdrawal.pk)
    after = state_of(tournament)
    with pytest.raises(ServiceError, match="already undone: nothing changed") as err:
        undo_withdrawal(tournament, organiser, withdrawal_id=withdrawal.pk)
    assert err.value.code == "done"
    assert state_of(tournament) == after


def test_the_same_withdrawal_twice_changes_nothing_the_second_time():
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    services.withdraw(tournament, organiser, duel.seat_a_id, confirm=True)
    after = state_of(tournament)
    with pytest.raises(ServiceError, match="already withdrawn: nothing changed"):
        services.withdraw(tournament, organiser, duel.seat_a_id, confirm=True)
    assert state_of(tournament) == after
    assert Withdrawal.objects.count() == 1


def test_a_stale_confirmation_changes_nothing():
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    tournament.refresh_from_db()
    version = withdrawal_preview(tournament, duel.seat_a).version
    finish(duel, organiser, "A")  # the duel ends at the table meanwhile
    before = state_of(tournament)
    with pytest.raises(ServiceError, match="changed since you were asked") as err:
        services.withdraw(
            tournament, organiser, duel.seat_a_id, confirm=True, expected_version=version
        )
    assert err.value.code == "stale"
    assert state_of(tournament) == before


def test_anything_a_person_did_since_makes_the_withdrawal_final():
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    withdrawal = services.withdraw(tournament, organiser, duel.seat_a_id, confirm=True)
    services.name_representatives(
        tournament, organiser, 3, first_of(tournament, reds).pk, first_of(tournament, blues).pk
    )
    after = state_of(tournament)
    with pytest.raises(ServiceError, match="is final now") as err:
        undo_withdrawal(tournament, organiser, withdrawal_id=withdrawal.pk)
    assert "representatives named" in err.value.message
    assert state_of(tournament) == after


def test_a_move_in_another_duel_since_makes_the_withdrawal_final(played_group_phase):
    tournament, organiser, referee = played_group_phase
    tiebreak = Duel.objects.filter(tournament=tournament, kind=DuelKind.TIE_BREAK).first()
    outsider = tournament.entrants.exclude(pk__in=[tiebreak.seat_a_id, tiebreak.seat_b_id]).filter(
        status="active"
    )
    withdrawal = services.withdraw(tournament, organiser, outsider.last().pk, confirm=True)
    tiebreak.refresh_from_db()
    if tiebreak.status not in (DuelStatus.READY, DuelStatus.RUNNING):
        pytest.skip("the re-plan took this duel away")
    refereeing.append_event(tiebreak, referee, {"type": "round", "cards": {"A": 1, "B": 4}}, 0)
    assert "has moved on" in undo_blocker(tournament, withdrawal)


def test_a_withdrawal_that_eliminated_a_group_cannot_be_undone():
    tournament, organiser, reds, blues = started(n=11, first=6)
    duel = services.name_representatives(
        tournament, organiser, 1, first_of(tournament, reds).pk, first_of(tournament, blues).pk
    )
    finish(duel, organiser, "A")
    leaving = first_of(tournament, blues, 1)
    assert withdrawal_preview(tournament, leaving).eliminates == blues.name
    withdrawal = services.withdraw(tournament, organiser, leaving.pk, confirm=True)
    assert withdrawal.eliminated
    with pytest.raises(ServiceError, match="eliminated a group"):
        undo_withdrawal(tournament, organiser, withdrawal_id=withdrawal.pk)


def test_a_set_up_withdrawal_is_undone_into_the_same_group():
    tournament, organiser, reds, blues = started()
    leaving = first_of(tournament, reds)
    before = state_of(tournament)
    withdrawal = services.withdraw(tournament, organiser, leaving.pk, "flight")
    undo_withdrawal(tournament, organiser, withdrawal_id=withdrawal.pk)
    assert state_of(tournament) == before


def test_a_withdrawal_during_registration_is_undone():
    organiser = UserFactory()
    tournament = services.create_tournament(name="Cup", created_by=organiser)
    services.register_list(tournament, "Ada\nBo", organiser)
    ada = tournament.entrants.get(name="Ada")
    withdrawal = services.withdraw(tournament, organiser, ada.pk)
    undo_withdrawal(tournament, organiser, withdrawal_id=withdrawal.pk)
    ada.refresh_from_db()
    assert ada.status == EntrantStatus.ACTIVE


def test_a_tie_break_withdrawal_is_undone_and_the_plan_is_as_before(
    played_group_phase, django_capture_on_commit_callbacks
):
    tournament, organiser, referee = played_group_phase
    assert tournament.phase == Phase.TIE_BREAKS
    tiebreak = Duel.objects.filter(
        tournament=tournament, kind=DuelKind.TIE_BREAK, status=DuelStatus.READY
    ).first()
    refereeing.append_event(tiebreak, referee, {"type": "round", "cards": {"A": 1, "B": 4}}, 0)
    plan_before = tiebreak_plan(tournament)
    before = state_of(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        withdrawal = services.withdraw(tournament, organiser, tiebreak.seat_b_id, confirm=True)
    tiebreak.refresh_from_db()
    assert tiebreak.status == DuelStatus.FINISHED
    with django_capture_on_commit_callbacks(execute=True):
        undo_withdrawal(tournament, organiser, withdrawal_id=withdrawal.pk)
    after = state_of(tournament)
    # Duels the automation created after the withdrawal are voided (kept); all else as before.
    new = [d for d in after[4] if d[0] not in {b[0] for b in before[4]}]
    assert all(status == DuelStatus.VOID for _, status, _ in new)
    assert [s for s in after if s is not after[4]] == [s for s in before if s is not before[4]]
    assert [d for d in after[4] if d not in new] == before[4]
    assert tiebreak_plan(tournament) == plan_before


def test_only_the_organisers_undo():
    tournament, organiser, reds, blues = started()
    withdrawal = services.withdraw(tournament, organiser, first_of(tournament, reds).pk)
    with pytest.raises(ServiceError) as err:
        undo_withdrawal(tournament, UserFactory(), withdrawal_id=withdrawal.pk)
    assert err.value.code == "forbidden"
    assert latest(tournament) == withdrawal


def test_the_referee_of_the_forfeited_duel_is_told(django_capture_on_commit_callbacks, settings):
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    referee = UserFactory(username="rita", email="rita@example.org", notify_by_email=True)
    Duel.objects.filter(pk=duel.pk).update(referee=referee)
    withdrawal = services.withdraw(tournament, organiser, duel.seat_a_id, confirm=True)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        undo_withdrawal(tournament, organiser, withdrawal_id=withdrawal.pk)
    assert [m.to for m in mail.outbox] == [["rita@example.org"]]
    assert "goes on where it stood" in mail.outbox[0].body
    # The referee is sent to the duel's console (issue 26: every e-mail links to its subject).
    console = reverse("duels:console", args=[tournament.slug, duel.pk])
    assert f"{settings.SITE_URL}{console}\n" in mail.outbox[0].body


# ---- the pages: a confirmation is a second post, and the undo ------------------------------


def players_url(tournament, name="players", *args):
    return reverse(f"organiser:{name}", args=[tournament.slug, *args])


def signed_in(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def test_the_first_post_names_the_forfeit_and_changes_nothing():
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    jonas, mia = duel.seat_a, duel.seat_b
    before = state_of(tournament)
    client = signed_in(organiser)
    response = client.post(players_url(tournament, "withdraw"), {"entrant": jonas.pk})
    html = response.content.decode()
    assert response.status_code == 200
    assert f"Withdraw {jonas.name}?" in html
    assert f"{jonas.name} forfeits Group round 2: {mia.name} wins it" in html
    assert f"Confirm: withdraw {jonas.name}" in html
    assert state_of(tournament) == before


def test_confirm_withdraws_says_the_forfeit_and_offers_the_undo():
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    jonas, mia = duel.seat_a, duel.seat_b
    client = signed_in(organiser)
    asked = client.post(players_url(tournament, "withdraw"), {"entrant": jonas.pk})
    confirm = {
        "entrant": jonas.pk,
        "reason": "",
        "confirm": "1",
        "version": asked.context["preview"].version,
    }
    response = client.post(players_url(tournament, "withdraw"), confirm, follow=True)
    html = response.content.decode()
    assert f"{jonas.name} is withdrawn. {jonas.name} forfeits Group round 2: {mia.name}" in html
    assert f"Undo {jonas.name}'s withdrawal" in html
    jonas.refresh_from_db()
    assert jonas.status == EntrantStatus.WITHDRAWN
    # The same confirmation again: nothing changes, and the page says so.
    after = state_of(tournament)
    again = client.post(players_url(tournament, "withdraw"), confirm, follow=True)
    assert f"{jonas.name} is already withdrawn: nothing changed." in again.content.decode()
    assert state_of(tournament) == after
    assert Withdrawal.objects.count() == 1


def test_a_confirmation_drawn_before_a_change_asks_again():
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    client = signed_in(organiser)
    asked = client.post(players_url(tournament, "withdraw"), {"entrant": duel.seat_a_id})
    # Meanwhile the duel ends at the table: the withdrawal would forfeit nothing now.
    finish(duel, organiser, "A")
    before = state_of(tournament)
    response = client.post(
        players_url(tournament, "withdraw"),
        {
            "entrant": duel.seat_a_id,
            "confirm": "1",
            "version": asked.context["preview"].version,
        },
    )
    assert response.status_code == 409
    assert "changed since you were asked" in response.content.decode()
    assert response.context["preview"].forfeits == []  # asked again, with what it does now
    assert state_of(tournament) == before


def test_undo_by_the_page_and_twice():
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    withdrawal = services.withdraw(tournament, organiser, duel.seat_a_id, confirm=True)
    client = signed_in(organiser)
    undo = players_url(tournament, "undo_withdrawal", withdrawal.pk)
    response = client.post(undo, follow=True)
    assert f"{duel.seat_a.name}&#x27;s withdrawal is undone" in response.content.decode()
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING
    after = state_of(tournament)
    again = client.post(undo, follow=True)
    assert "was already undone: nothing changed" in again.content.decode()
    assert state_of(tournament) == after
    # The audit log keeps both, in words.
    log = client.get(players_url(tournament, "audit")).content.decode()
    assert "Withdrawal undone" in log and "Group membership changed" in log
    # The referee's console shows the duel going on, the forfeit marked undone.
    console = client.get(reverse("duels:console", args=[tournament.slug, duel.pk]))
    assert console.status_code == 200
    words = " ".join(re.sub(r"<[^>]+>", " ", console.content.decode()).split())
    forfeit = f"{duel.seat_a.name} forfeits (withdrawn): {duel.seat_b.name} wins the duel."
    assert f"2 undone {forfeit}" in words


def test_an_undo_no_longer_possible_is_refused_in_words_and_not_offered():
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    withdrawal = services.withdraw(tournament, organiser, duel.seat_a_id, confirm=True)
    services.name_representatives(
        tournament, organiser, 3, first_of(tournament, reds).pk, first_of(tournament, blues).pk
    )
    client = signed_in(organiser)
    page = client.get(players_url(tournament)).content.decode()
    assert "is final now" in page and "Undo " + duel.seat_a.name not in page
    before = state_of(tournament)
    response = client.post(players_url(tournament, "undo_withdrawal", withdrawal.pk))
    assert response.status_code == 422
    assert "is final now" in response.content.decode()
    assert state_of(tournament) == before


def test_a_referee_may_not_undo_a_withdrawal():
    from accounts.models import Role
    from tests.factories import RoleFactory

    tournament, organiser, reds, blues = started()
    withdrawal = services.withdraw(tournament, organiser, first_of(tournament, reds).pk)
    referee = RoleFactory(tournament=tournament, role=Role.REFEREE).user
    response = signed_in(referee).post(players_url(tournament, "undo_withdrawal", withdrawal.pk))
    assert response.status_code == 403
    assert latest(tournament) == withdrawal


def test_a_nomination_the_withdrawal_cleared_is_named_again():
    tournament, organiser, reds, blues = started()
    duel = services.name_representatives(
        tournament, organiser, 1, first_of(tournament, reds).pk, first_of(tournament, blues).pk
    )
    finish(duel, organiser, "A")
    named = services.name_representatives(
        tournament, organiser, 2, first_of(tournament, reds, 1).pk, first_of(tournament, blues).pk
    )
    before = state_of(tournament)
    withdrawal = services.withdraw(tournament, organiser, named.seat_a_id, confirm=True)
    named.refresh_from_db()
    assert named.status == DuelStatus.VOID  # the group names someone else
    undo_withdrawal(tournament, organiser, withdrawal_id=withdrawal.pk)
    named.refresh_from_db()
    assert (named.status, named.seat_a_id) == (DuelStatus.READY, withdrawal.entrant_id)
    assert state_of(tournament) == before


def test_redo_after_an_undone_withdrawal_does_not_enter_the_forfeit_again():
    """The forfeit a withdrawal's undo took back is marked undone like a referee's undo, but
    it is not one: the console's "Redo" (even a forged post) has nothing to enter."""
    tournament, organiser, reds, blues = started()
    duel = running_round_two(tournament, organiser, reds, blues)
    withdrawal = services.withdraw(tournament, organiser, duel.seat_a_id, "ill", confirm=True)
    undo_withdrawal(tournament, organiser, withdrawal_id=withdrawal.pk)
    duel.refresh_from_db()
    assert (duel.status, duel.seq) == (DuelStatus.RUNNING, 1)
    with pytest.raises(ServiceError, match="Nothing to redo"):
        refereeing.redo_undone(duel, organiser, duel.seq, duel.revision)
    duel.refresh_from_db()
    assert (duel.status, duel.seq) == (DuelStatus.RUNNING, 1)
    assert not Result.objects.filter(duel=duel).exists()
    # A referee's own undo after it is still redone.
    refereeing.append_event(duel, organiser, {"type": "round", "cards": {"A": 4, "B": 2}}, 1)
    duel.refresh_from_db()
    refereeing.undo_last_event(duel, organiser, duel.seq, duel.revision)
    duel.refresh_from_db()
    refereeing.redo_undone(duel, organiser, duel.seq, duel.revision)
    duel.refresh_from_db()
    assert duel.seq == 2
