"""The one owner of a tournament's life: what a result, a correction, a void, a withdrawal or
an elimination does to the open duels, the rounds and the phases (TOURNAMENT.md "Group phase",
"Corrections"; docs/architecture.md has the table).

Its callers lock the tournament, call `duels.services` for the duel's own rows, then call one
function here in the same transaction — no signals, no hooks. The tie-break plan and the
bracket are `progression`'s, derived from the results this module leaves.

The invariant every function keeps: no state leaves an open duel nobody may play, or a phase
that waits for a duel that will never come.
"""

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from duels import services as duels
from duels.models import Duel, DuelKind, DuelStatus

from .. import format as fmt
from ..models import EntrantStatus, Group, Phase, Round, RoundStatus, Tournament
from . import audit
from .shared_cards import lapse_gifts
from .standings import recompute_standings

# The one spelling of a group-phase duel and of a duel not over yet, for the services, the
# selectors and the pages alike (the pages once kept copies that could drift). A duel that
# takes moves is narrower: `duels.services.OPEN_STATUSES` (no pending duel).
GROUP_KINDS = (DuelKind.GROUP, DuelKind.REPLAY)
OPEN = (DuelStatus.PENDING, DuelStatus.READY, DuelStatus.RUNNING)
# A duel not started: no move stands (seq 0) and, played online, it is not dealt yet — an
# online duel starts when both players are ready (ONLINE.md 6), before any move.
UNSTARTED = Q(seq=0) & (Q(online=False) | Q(game__isnull=True))


def unstarted(duel: Duel) -> bool:
    """`UNSTARTED`, of a duel in hand."""
    return duel.seq == 0 and not (duel.online and duel.game_id is not None)


def group_phase_open(tournament: Tournament) -> bool:
    return tournament.phase == Phase.GROUP_PHASE and tournament.group_phase_ended_at is None


# Rounds ----------------------------------------------------------------------------------------


def decide_round(tournament: Tournament, round_: Round) -> None:
    """Round n has a decisive result: its change window opens and round n + 1 opens."""
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.DECIDED)
    round_.status = RoundStatus.DECIDED
    if group_phase_open(tournament):
        Round.objects.filter(
            tournament=tournament, number=round_.number + 1, status=RoundStatus.PENDING
        ).update(status=RoundStatus.OPEN)


def undecide_round(tournament: Tournament, round_: Round) -> bool:
    """Round n's decisive result is gone and its replay is due (a void or a correction).

    Round n + 1 opens only when round n has a decisive result (TOURNAMENT.md, "Rounds"): so
    until round n + 1's duel has started, round n is open again — its replay decides it, and the
    change window after it stays shut meanwhile — and round n + 1 waits, with any duel already
    named for it. Once round n + 1 has started the rounds go on, and the replay counts when it
    is played. Returns whether round n reopened."""
    if (
        round_.status != RoundStatus.DECIDED
        or round_.number >= fmt.ROUNDS
        or not group_phase_open(tournament)
    ):
        return False
    if (
        Duel.objects.filter(tournament=tournament, round__number=round_.number + 1)
        .exclude(UNSTARTED)
        .exists()
    ):
        return False
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.OPEN)
    round_.status = RoundStatus.OPEN
    Round.objects.filter(
        tournament=tournament, number=round_.number + 1, status=RoundStatus.OPEN
    ).update(status=RoundStatus.PENDING)
    return True


def round_not_played(tournament: Tournament, round_: Round) -> None:
    """A round voided without a replay has no result ("not played"); the rounds go on: the
    next opens if it was waiting for this one, and after round 15 the group phase is over."""
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.NOT_PLAYED)
    round_.status = RoundStatus.NOT_PLAYED
    if not group_phase_open(tournament):
        return
    if round_.number >= fmt.ROUNDS:
        end_group_phase(tournament)
    else:
        Round.objects.filter(
            tournament=tournament, number=round_.number + 1, status=RoundStatus.PENDING
        ).update(status=RoundStatus.OPEN)


def last_decided_round(tournament: Tournament) -> int:
    return (
        Round.objects.filter(tournament=tournament, status=RoundStatus.DECIDED)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    ) or 0


# Results ---------------------------------------------------------------------------------------


def after_result(tournament: Tournament, duel: Duel, actor: Any) -> None:
    """A duel has just finished (`duels.services` recorded its result): the round is decided
    (after round 15 the group phase is over) or a replay is due; the standings are rebuilt and
    the automation takes the next step (tie-breaks, the next playoff duel, completion)."""
    from ..tasks import advance_tournament, enqueue_on_commit

    winner = duel.result.winner
    audit.record(
        tournament,
        actor,
        "duel_finished",
        duel=duel.pk,
        kind=duel.kind,
        winner=winner.pk if winner else None,
        finish=duel.result.finish,
    )
    if winner is None:
        replay_due(tournament, duel, actor)
    elif duel.kind in GROUP_KINDS:
        decide_round(tournament, duel.round)
        if duel.round.number == fmt.ROUNDS:
            end_group_phase(tournament)
    recompute_standings(tournament)
    enqueue_on_commit(advance_tournament, tournament.pk)


def replay_due(tournament: Tournament, duel: Duel, actor: Any) -> Duel:
    """A duel without a decisive result (a draw, a void with replay, a win corrected to none)
    is replayed by the same players on the same seats. A group replay whose player is no
    longer active (withdrawn, or eliminated with their group) is forfeited by that player at
    once: nobody could ever play it otherwise."""
    replay = duels.create_replay(duel)
    replay.tournament = tournament
    if duel.kind in GROUP_KINDS:
        gone = [
            seat
            for seat, e in (("A", duel.seat_a), ("B", duel.seat_b))
            if e.status != EntrantStatus.ACTIVE
        ]
        if gone:
            return forfeit(tournament, actor, replay, gone[0], reason="withdrawn")
    return replay


def void_replays(duel: Duel) -> int:
    """A draw corrected to a win voids its replay, played or not — and the replays of that
    replay: a drawn replay is replayed in turn, and any duel down the chain may hold a
    decisive result for the same round (two would count twice). Returns how many changed."""
    chain, frontier = [], [duel.pk]
    while frontier:
        frontier = list(Duel.objects.filter(replay_of__in=frontier).values_list("pk", flat=True))
        chain.extend(frontier)
    return duels.void(chain)


def forfeit(
    tournament: Tournament, actor: Any, duel: Duel, seat: str, *, reason: str = "withdrawn"
) -> Duel:
    """The player on `seat` is absent for good (a withdrawal, an elimination, a walkover): the
    duel ends as their forfeit, scored as a loss, and its result is applied."""
    duel = duels.lock(duel)
    duel.tournament = tournament
    duels.forfeit(duel, actor, seat, reason)
    after_result(tournament, duel, actor)
    return duel


def due_group_replays(tournament: Tournament) -> QuerySet[Duel]:
    """Group-phase replays still to be played once the group phase is over (TOURNAMENT.md
    "Corrections": they hold the tie-break plan provisional and the playoffs back)."""
    return Duel.objects.filter(tournament=tournament, kind__in=GROUP_KINDS, status__in=OPEN)


def players_leave(tournament: Tournament, actor: Any, players: set[int]) -> None:
    """Players are no longer active (withdrawn, eliminated): a running duel of theirs is
    forfeited first, a replay due for them is forfeited too, and any nomination for a duel
    that has not started is cleared (the group names someone else)."""
    if not players:
        return
    theirs = Q(seat_a_id__in=players) | Q(seat_b_id__in=players)
    for duel in (
        Duel.objects.filter(theirs, tournament=tournament, status__in=OPEN)
        .exclude(UNSTARTED, kind=DuelKind.GROUP)
        .select_related("seat_a", "seat_b", "round")
    ):
        if duel.kind in (DuelKind.TIE_BREAK, DuelKind.PLAYOFF) and unstarted(duel):
            continue  # the plan and the bracket re-plan these from results (walkovers)
        seat = "A" if duel.seat_a_id in players else "B"
        forfeit(tournament, actor, duel, seat)
    clear_nominations(tournament, players)


def clear_nominations(tournament: Tournament, players: set[int]) -> None:
    """Moving or withdrawing clears a nomination for a group duel that has not started.

    Not started means no move stands (seq 0), as in `players_leave`: a duel whose only moves
    were undone is still running by status, and would otherwise be neither forfeited nor
    cleared, named for a player who may no longer play it. An online duel dealt has started
    (`UNSTARTED`): it is forfeited, not cleared."""
    theirs = Q(seat_a_id__in=players) | Q(seat_b_id__in=players)
    duels.void(
        Duel.objects.filter(
            UNSTARTED, theirs, tournament=tournament, kind=DuelKind.GROUP, status__in=OPEN
        ).values_list("pk", flat=True)
    )


# Phases ----------------------------------------------------------------------------------------


def end_group_phase(tournament: Tournament) -> None:
    """The group phase is over (round 15 decided or an elimination): gifts lapse. The
    tie-breaks are planned by the automation (the next step)."""
    if tournament.group_phase_ended_at is None:
        tournament.group_phase_ended_at = timezone.now()
        tournament.save(update_fields=["group_phase_ended_at"])
        lapse_gifts(tournament)


def eliminate(
    tournament: Tournament, actor: Any, group: Group, players: list[int], after_round: int
) -> None:
    """Direct elimination (TOURNAMENT.md "Fluid membership"), after round `after_round`: the
    group's members are out, the rounds left are not played, an unstarted duel of those
    rounds is cancelled, a group duel still running is closed as abandoned without result
    (its referee is told why), and the group phase ends."""
    from ..models import Entrant

    group.eliminated_at_round = after_round
    group.save(update_fields=["eliminated_at_round"])
    Entrant.objects.filter(pk__in=players).update(status=EntrantStatus.ELIMINATED)
    lapse_gifts(tournament, receivers=players)
    later = Duel.objects.filter(
        tournament=tournament, kind__in=GROUP_KINDS, round__number__gt=after_round
    )
    duels.void(later.filter(status__in=duels.UNSTARTED_STATUSES).values_list("pk", flat=True))
    running = list(
        Duel.objects.filter(
            tournament=tournament, kind__in=GROUP_KINDS, status=DuelStatus.RUNNING
        ).values_list("pk", flat=True)
    )
    duels.abandon(
        running,
        f"{group.name} was eliminated after round {after_round}: the group "
        "phase is over and this duel has no result.",
    )
    Round.objects.filter(tournament=tournament, number__gt=after_round).exclude(
        status=RoundStatus.DECIDED
    ).update(status=RoundStatus.NOT_PLAYED)
    end_group_phase(tournament)
    # A replay due from an earlier round stays due (played during the tie-breaks) unless one
    # of its players went out with the group: then they forfeit it.
    players_leave(tournament, actor, set(players))
    audit.record(
        tournament,
        actor,
        "group_eliminated",
        group=group.pk,
        players=list(players),
        after_round=after_round,
        duels_abandoned=running,
    )


def take_back(tournament: Tournament, actor: Any, before: dict[str, Any]) -> dict[str, list[int]]:
    """Undo a mistaken withdrawal's effects on the duels, rounds and phases (TOURNAMENT.md
    "Corrections"): `before` is what the withdrawal found (services/withdrawals.py), and the
    caller checked that nothing but the withdrawal and the automation after it changed since.

    A duel it forfeited goes on where it stood (the forfeit marked undone, never deleted); a
    walkover the automation recorded after it is taken back the same way; a nomination it
    cleared is named again; a duel the automation created after it is voided (kept, struck
    through); the rounds and the phase are as they were. Returns the duels it took back
    ("restored") and those it voided ("voided")."""
    known = {int(pk): (status, seq) for pk, (status, seq) in before["duels"].items()}
    restored, voided = [], []
    for duel in Duel.objects.filter(tournament=tournament).select_related(
        "seat_a", "seat_b", "round", "referee"
    ):
        if duel.pk not in known:
            if duel.status != DuelStatus.VOID:
                voided.append(duel.pk)
            continue
        status, seq = known[duel.pk]
        if (duel.status, duel.seq) == (status, seq):
            continue
        if duel.status == DuelStatus.FINISHED and status in OPEN:
            duel.tournament = tournament
            duels.take_back(duels.lock(duel.pk), actor, seq=seq, status=status)
            restored.append(duel.pk)
        elif duel.status == DuelStatus.VOID and status in OPEN:
            duels.restore({duel.pk: status})
            restored.append(duel.pk)
    duels.void(voided)
    for pk, status in before["rounds"].items():
        Round.objects.filter(pk=int(pk), tournament=tournament).exclude(status=status).update(
            status=status
        )
    ended = before["group_phase_ended_at"]
    tournament.phase = before["phase"]
    tournament.group_phase_ended_at = datetime.fromisoformat(ended) if ended else None
    settled = before["top_four_settled_at"]
    tournament.top_four_settled_at = datetime.fromisoformat(settled) if settled else None
    tournament.placings = before["placings"]
    tournament.save(
        update_fields=["phase", "group_phase_ended_at", "top_four_settled_at", "placings"]
    )
    return {"restored": restored, "voided": voided}


def cancel_duels(tournament: Tournament, reason: str) -> int:
    """A cancelled tournament's open duels are closed as abandoned, without result."""
    return duels.abandon(
        Duel.objects.filter(tournament=tournament, status__in=OPEN).values_list("pk", flat=True),
        reason,
    )


@transaction.atomic
def repair(tournament: Tournament) -> int:
    """Close duels an earlier version left open that nobody may play any more (the sweep
    calls this before the automation's step): a group duel still open after the group phase
    is over — a round's duel is cancelled, and any group-phase duel is closed once the playoffs
    have started, since group results froze then. Returns how many duels it closed."""
    if tournament.phase in (Phase.DRAFT, Phase.REGISTRATION) or group_phase_open(tournament):
        return 0
    stale = Duel.objects.filter(tournament=tournament, kind__in=GROUP_KINDS, status__in=OPEN)
    closed = duels.void(stale.filter(UNSTARTED, kind=DuelKind.GROUP).values_list("pk", flat=True))
    if tournament.phase in (Phase.PLAYOFFS, Phase.COMPLETE, Phase.CANCELLED):
        closed += duels.abandon(
            stale.exclude(status=DuelStatus.VOID).values_list("pk", flat=True),
            "Group results froze when the playoffs started: this duel has no result.",
        )
    else:
        closed += duels.abandon(
            stale.filter(kind=DuelKind.GROUP).values_list("pk", flat=True),
            "The group phase is over: this round's duel has no result.",
        )
    if closed:
        audit.record(tournament, None, "stale_duels_closed", count=closed)
        audit.bump_version(tournament)
    return closed
