"""Tournament duels are played through the table core (issue 27): a duel stored before it (its
`DuelEvent` rows) is carried over by the migration with the same log, record and revision,
and the forms' keys with it — a form sent again after the upgrade is still answered "already
recorded" — and its next move lands from a page opened before."""

from datetime import timedelta

import pytest
from django.utils import timezone

from duels import selectors
from duels import services as duel_services
from duels.models import Duel, DuelStatus
from play.models import Game, GameEvent, Intent
from tests.factories import group_phase_duel
from tests.migrating import migrate_around
from tournaments.services import refereeing
from tournaments.services.refereeing import AlreadyRecorded

R73 = {"type": "round", "cards": {"A": 7, "B": 3}}
R21 = {"type": "round", "cards": {"A": 2, "B": 1}}
R91 = {"type": "round", "cards": {"A": 9, "B": 1}}


@pytest.mark.django_db(transaction=True)
def test_a_duel_stored_before_the_core_keeps_its_log_record_revision_and_keys():
    stored: dict = {}
    # Made with today's models before the database goes back (an insert names every column).
    duel, referee = group_phase_duel()
    broken, _ = group_phase_duel(players=("Cy", "Di"))
    idle, _ = group_phase_duel(players=("Eve", "Fay"))

    def old_duels(apps):
        DuelEvent = apps.get_model("duels", "DuelEvent")
        start = timezone.now() - timedelta(minutes=10)
        Duel.objects.filter(pk=duel.pk).update(
            status=DuelStatus.RUNNING, seq=2, revision=4, started_at=start, referee=referee
        )
        # Move 1, then move 2 entered, undone and entered again (four changes: revision 4).
        rows = [
            (1, R73, ["Alice reveals 7"], 1, None, "k1", ""),
            (2, R21, ["Alice reveals 2"], 2, 3, "k2", "u2"),
            (2, R91, ["Alice reveals 9"], 4, None, "k3", ""),
        ]
        for seq, payload, summary, made, undone, intent, undo_intent in rows:
            event = DuelEvent.objects.create(
                duel_id=duel.pk,
                seq=seq,
                payload=payload,
                summary=summary,
                created_by_id=referee.pk,
                intent=intent,
                undone_at=start + timedelta(minutes=undone) if undone else None,
                undone_by_id=referee.pk if undone else None,
                undo_intent=undo_intent,
            )
            DuelEvent.objects.filter(pk=event.pk).update(created_at=start + timedelta(minutes=made))
        Duel.objects.filter(pk=broken.pk).update(status=DuelStatus.RUNNING, seq=1, revision=1)
        DuelEvent.objects.create(
            duel_id=broken.pk,
            seq=1,
            payload={"type": "round", "cards": {"A": 1}},
            summary=["kept as it was"],
        )
        # A duel with no event whose revision a correction once bumped (nothing to undo).
        Duel.objects.filter(pk=idle.pk).update(revision=2)
        stored.update(duel=duel.pk, referee=referee, broken=broken.pk, idle=idle.pk)

    migrate_around("duels", "_duel_events_to_play", old_duels)

    duel = Duel.objects.select_related("seat_a", "seat_b", "referee").get(pk=stored["duel"])
    assert duel.game.kind == "split_uno_refereed" and duel.revision == duel.game.revision == 4
    # The opening (the record's header) first, then every move at its place in the timeline.
    events = list(GameEvent.objects.filter(game=duel.game).order_by("pk"))
    assert [(e.seq, e.revision, e.undone_at is None) for e in events] == [
        (1, 0, True),
        (2, 1, True),
        (3, 2, False),
        (3, 4, True),
    ]
    referee = stored["referee"]
    assert {e.actor for e in events[1:]} == {f"user:{referee.pk}"}
    assert events[2].undone_by == f"user:{referee.pk}"
    # The console's log as it showed it: the words stored, the undone move marked.
    view = selectors.console(duel)
    assert [(e.seq, e.lines, e.undone) for e in view.log] == [
        (2, ["Alice reveals 9"], False),
        (2, ["Alice reveals 2"], True),
        (1, ["Alice reveals 7"], False),
    ]
    assert view.revision == 4 and view.seq == 2
    assert duel_services.record_of(duel)["events"] == [R73, R91]
    # The keys came along: the last move's form sent again is told it was recorded…
    assert Intent.objects.filter(game=duel.game).count() == 4  # three moves and one undo
    with pytest.raises(AlreadyRecorded) as repeat:
        refereeing.play_move(duel, referee, R91, 1, 3, intent="k3")
    assert repeat.value.code == "repeat" and "Alice reveals 9" in repeat.value.message
    # …and so is the undo's.
    with pytest.raises(AlreadyRecorded) as undone:
        refereeing.undo_last_event(duel, referee, 2, 2, intent="u2")
    assert undone.value.code == "repeat" and "Alice reveals 2" in undone.value.message
    # A page opened before the upgrade (revision 4) enters the next move.
    bonus = {"type": "respond", "seat": "A", "choice": "opponents_draw"}  # two rounds won
    refereeing.play_move(duel, referee, bonus, 2, 4)
    duel.refresh_from_db()
    assert (duel.seq, duel.revision, duel.game.revision) == (3, 5, 5)
    # A record the engine refuses is kept as stored and shown as such, never an error.
    broken = Duel.objects.select_related("seat_a", "seat_b", "referee").get(pk=stored["broken"])
    assert Game.objects.filter(pk=broken.game_id).exists()
    shown = selectors.console(broken)
    assert shown.headline == "This duel's record cannot be replayed"
    assert [e.lines for e in shown.log] == [["kept as it was"]]
    # A duel without events has no log: revision 0, as its console shows, and its first
    # move lands from that page.
    idle = Duel.objects.select_related("seat_a", "seat_b").get(pk=stored["idle"])
    assert idle.revision == 0 and selectors.console(idle).revision == 0


@pytest.mark.django_db
def test_a_duel_taken_back_before_its_start_plays_its_first_move_with_its_new_set_up():
    """A withdrawal's forfeit dealt the duel's game; taken back, the duel waits again, and
    its start gives the game another set-up (a group-mate's shared card): its first move is
    played with it, not with the set-up the game was read with."""
    from django.db import transaction

    from tests.duels.moves import moves
    from tests.factories import EntrantFactory
    from tournaments.models import RoundStatus, SharedCard
    from tournaments.services import lifecycle

    duel, referee = group_phase_duel()
    duel = lifecycle.forfeit(duel.tournament, None, duel, "B")
    with transaction.atomic():
        assert duel_services.take_back(
            duel_services.lock(duel.pk), None, seq=0, status=DuelStatus.READY
        )
    duel.round.status = RoundStatus.OPEN  # reopened by the tournament's own take-back
    duel.round.save()
    mate = EntrantFactory(tournament=duel.tournament, group=duel.group_a)
    earlier, _ = group_phase_duel(players=("Cy", "Di"))
    SharedCard.objects.create(
        tournament=duel.tournament, giver=mate, receiver=duel.seat_a, from_duel=earlier
    )
    lines = refereeing.append_event(
        duel, referee, {"type": "action", "seat": "A", "card": "block"}, 0
    )
    assert "Alice plays BLOCK on Bob" in " ".join(lines)
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING and duel.seq == 1
    assert [m.payload["type"] for m in moves(duel, undone=False)] == ["action"]


@pytest.mark.django_db
def test_a_redo_sent_twice_is_told_it_was_entered_not_a_conflict():
    duel, referee = group_phase_duel()
    refereeing.play_move(duel, referee, R73, 0, 0, intent="k1")
    refereeing.undo_last_event(duel, referee, 1, 1, intent="k2")
    duel.refresh_from_db()
    seq, revision = duel.seq, duel.revision
    refereeing.redo_undone(duel, referee, seq, revision, intent="k3")
    with pytest.raises(AlreadyRecorded) as again:  # the double tap on "Redo"
        refereeing.redo_undone(duel, referee, seq, revision, intent="k3")
    assert again.value.code == "repeat" and "Alice" in again.value.message
    duel.refresh_from_db()
    assert (duel.seq, duel.revision) == (1, 3)


@pytest.mark.django_db
def test_a_page_whose_move_number_is_not_the_duels_is_stale_even_at_its_revision():
    """A first move must start the duel (its referee, its time, its shared cards): a post
    whose revision matches but whose move number does not is refused, never applied to a
    duel left unstarted."""
    duel, referee = group_phase_duel()
    with pytest.raises(duel_services.Conflict):
        refereeing.play_move(duel, referee, R73, 5, 0)
    duel.refresh_from_db()
    assert (duel.status, duel.seq, duel.game_id) == (DuelStatus.READY, 0, None)
    refereeing.play_move(duel, referee, R73, 0, 0)
    duel.refresh_from_db()
    assert (duel.status, duel.seq) == (DuelStatus.RUNNING, 1) and duel.started_at is not None
