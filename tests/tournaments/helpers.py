"""Shared steps of the tournament tests: play a duel, settle the tie-breaks, play the
playoffs, each through the services a referee uses."""

from duels.models import Duel, DuelKind, DuelStatus
from tournaments.services import refereeing


def open_duels(tournament, kind):
    return list(
        Duel.objects.filter(
            tournament=tournament, kind=kind, status__in=[DuelStatus.READY, DuelStatus.RUNNING]
        ).order_by("pk")
    )


def finish(duel, referee, winner_seat="A"):
    loser = "B" if winner_seat == "A" else "A"
    refereeing.append_event(duel, referee, {"type": "forfeit", "seat": loser}, duel.seq)


def settle_tiebreaks(tournament, referee, capture) -> None:
    """Play every tie-break duel as it is created (seat A wins), the automation running after
    each commit, until positions 1–4 are settled."""
    for _ in range(40):
        duels = open_duels(tournament, DuelKind.TIE_BREAK)
        if not duels:
            break
        for duel in duels:
            with capture(execute=True):
                finish(duel, referee, "A")
    tournament.refresh_from_db()


def play_playoffs(tournament, referee, capture, seat_for=lambda stage: "A") -> None:
    for _ in range(4):
        for duel in open_duels(tournament, DuelKind.PLAYOFF):
            with capture(execute=True):
                finish(duel, referee, seat_for(duel.stage))
    tournament.refresh_from_db()
