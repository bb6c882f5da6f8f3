"""The tournament moves on from its results: tie-breaks planned and their duels created round
by round, the Page playoff progressed, placings published.

`sync` is idempotent: it derives what should exist from the stored results and draws and
creates only what is missing, so running it twice, late or out of order changes nothing.
"""

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.permissions import Action, can
from core.errors import ServiceError
from duels import services as duels
from duels.models import Duel, DuelKind, DuelStatus
from duels.selectors import moves_of

from .. import format as fmt
from ..models import EntrantStatus, Phase, StandingRow, TieBreakDraw, Tournament
from . import audit, lifecycle
from .setup import lock

MAX_STEPS = 32  # each step records at least one walkover; the bracket and plans are finite


def _duels(tournament: Tournament, kind: str):
    return (
        Duel.objects.filter(tournament=tournament, kind=kind)
        .exclude(status__in=[DuelStatus.VOID, DuelStatus.ABANDONED])
        .values_list("pk", "stage", "seat_a_id", "seat_b_id", "status", "result__winner_id")
    )


def _winner(status: str, winner: int | None) -> int | None:
    return winner if status == DuelStatus.FINISHED else None


def _drawn(status: str, winner: int | None) -> bool:
    return status == DuelStatus.FINISHED and winner is None


def tiebreak_plan(tournament: Tournament, *, leave_out: set[int] = frozenset()) -> fmt.TieBreakPlan:
    """The tie-break plan from stored standings, draws and duels (a fixed number of queries)."""
    draws = {d.key: d.order for d in TieBreakDraw.objects.filter(tournament=tournament)}
    drawn = {p for order in draws.values() for p in order}
    points, withdrawn = {}, set()
    for entrant, pts, status in StandingRow.objects.filter(tournament=tournament).values_list(
        "entrant_id", "points", "entrant__status"
    ):
        if status == EntrantStatus.ACTIVE:
            points[entrant] = pts
        elif status == EntrantStatus.WITHDRAWN and entrant in drawn:
            points[entrant] = pts  # withdrew during the tie-breaks: keeps its knockouts' keys
            withdrawn.add(entrant)
    # A finished row without a winner (a draw, a win corrected to none) is `drawn`: its
    # replay is the row still to play, and the one a walkover is recorded on.
    duels = [
        fmt.TieBreakDuel(stage, a, b, _winner(status, winner), pk, _drawn(status, winner))
        for pk, stage, a, b, status, winner in _duels(tournament, DuelKind.TIE_BREAK)
        if pk not in leave_out
    ]
    return fmt.plan_tiebreaks(
        points,
        master_seed=tournament.tiebreak_seed or "unplanned",
        mode=tournament.tiebreak_mode,
        draws=draws,
        duels=duels,
        withdrawn=withdrawn,
    )


def playoff_bracket(tournament: Tournament) -> fmt.Bracket:
    seeding = tuple(tournament.playoff_seeding) or (None,) * 4
    duels = [
        fmt.PlayoffDuel(stage, a, b, _winner(status, winner), pk, _drawn(status, winner))
        for pk, stage, a, b, status, winner in _duels(tournament, DuelKind.PLAYOFF)
    ]
    seeded = [p for p in seeding if p is not None]
    withdrawn = set(
        tournament.entrants.filter(pk__in=seeded, status=EntrantStatus.WITHDRAWN).values_list(
            "pk", flat=True
        )
    )
    # A qualifier who does not show (a forfeit recorded with the reason "no_show") forfeits
    # that duel and every later one; a forfeit for any other reason loses that duel only.
    no_show = set()
    for move in moves_of(
        {"tournament": tournament, "kind": DuelKind.PLAYOFF},
        excluding={"status": DuelStatus.VOID},
        type="forfeit",
        reason="no_show",
    ):
        if move.undone_at is None:
            no_show.add(move.seat_a_id if move.event.get("seat") == "A" else move.seat_b_id)
    return fmt.page_bracket(seeding, duels, forfeited=withdrawn | no_show)


def _new_duel(
    tournament: Tournament, kind: str, stage: str, seat_a: int | None, seat_b: int | None
) -> Duel:
    return duels.create_duel(
        tournament=tournament,
        kind=kind,
        stage=stage,
        seat_a_id=seat_a,
        seat_b_id=seat_b,
        ruleset=tournament.duel_preset,
        variants=tournament.variants,
        options={"truth_dare": False},
    )


def _announce(duel: Duel) -> None:
    """Its players are told whom they play, once the plan's new duel is committed (as group
    rounds do when the organiser names representatives; sent once per duel and player)."""
    from ..tasks import enqueue_on_commit, notify_named  # the tasks module imports services

    enqueue_on_commit(notify_named, duel.pk)


def _walkover(tournament: Tournament, kind: str, match) -> None:
    """Record a walkover as a forfeit of the absent player, on the stored row or a new one."""
    duel = (
        Duel.objects.get(pk=match.ref)
        if match.ref
        else _new_duel(
            tournament,
            kind,
            match.key if kind == "tie_break" else match.stage,
            match.seat_a,
            match.seat_b,
        )
    )
    loser = match.seat_b if match.winner == match.seat_a else match.seat_a
    lifecycle.forfeit(tournament, None, duel, "A" if duel.seat_a_id == loser else "B")


def _spurious_walkovers(tournament: Tournament) -> list[int]:
    """Walkovers an earlier version recorded for a tie-break duel the plan never scheduled
    (minimal mode, a final decided only by a withdrawal): the automation's lone forfeit of a
    withdrawn player, in a match the plan without it does not reach."""
    lone = {
        "tournament": tournament,
        "kind": DuelKind.TIE_BREAK,
        "seq": 1,
        "status": DuelStatus.FINISHED,
    }
    candidates = [
        move.duel_id
        for move in moves_of(lone, type="forfeit", reason="withdrawn")
        if move.seq == 1 and move.undone_at is None and not move.actor
    ]
    if not candidates:
        return []
    plan = tiebreak_plan(tournament, leave_out=set(candidates))
    reached = {m.key for k in plan.knockouts for r in k.rounds for m in r.matches}
    stages = dict(Duel.objects.filter(pk__in=candidates).values_list("pk", "stage"))
    return [pk for pk in candidates if stages[pk] not in reached]


def _sync_tiebreaks(tournament: Tournament) -> None:
    spurious = _spurious_walkovers(tournament)
    if spurious:
        duels.void(spurious)
        audit.record(tournament, None, "tiebreak_duels_voided", duels=spurious)
    if lifecycle.due_group_replays(tournament).exists():
        _hold_tiebreaks(tournament)
        return
    for _step in range(MAX_STEPS):
        plan = tiebreak_plan(tournament)
        for draw in plan.new_draws:
            TieBreakDraw.objects.get_or_create(
                tournament=tournament,
                key=draw.key,
                defaults={"seed": draw.seed, "order": list(draw.order)},
            )
        if plan.void:
            duels.void(d.ref for d in plan.void)
            audit.record(
                tournament, None, "tiebreak_duels_voided", duels=[d.ref for d in plan.void]
            )
        if not plan.walkovers:
            break
        for match in plan.walkovers:
            _walkover(tournament, DuelKind.TIE_BREAK, match)
    for match in plan.to_play:
        if match.ref is None:
            _announce(
                _new_duel(tournament, DuelKind.TIE_BREAK, match.key, match.seat_a, match.seat_b)
            )
    if plan.settled and tournament.top_four_settled_at is None:
        tournament.top_four_settled_at = timezone.now()
        tournament.save(update_fields=["top_four_settled_at"])
        audit.record(
            tournament,
            None,
            "top_four_settled",
            positions={str(k): list(v) for k, v in plan.positions.items()},
        )
    elif not plan.settled and tournament.top_four_settled_at is not None:
        # A withdrawal or a correction re-opened positions 1–4.
        tournament.top_four_settled_at = None
        tournament.save(update_fields=["top_four_settled_at"])


def _hold_tiebreaks(tournament: Tournament) -> None:
    """A group replay is still due (TOURNAMENT.md "Corrections"): the plan is provisional, so
    no draw is made and no tie-break duel created, positions 1–4 are not settled, and the
    playoffs wait. Duels the plan no longer calls for are still voided."""
    plan = tiebreak_plan(tournament)
    if plan.void:
        duels.void(d.ref for d in plan.void)
        audit.record(tournament, None, "tiebreak_duels_voided", duels=[d.ref for d in plan.void])
    if tournament.top_four_settled_at is not None:
        tournament.top_four_settled_at = None
        tournament.save(update_fields=["top_four_settled_at"])


def _sync_playoffs(tournament: Tournament) -> None:
    for _step in range(MAX_STEPS):
        bracket = playoff_bracket(tournament)
        if bracket.void:
            duels.void(d.ref for d in bracket.void)
            audit.record(
                tournament, None, "playoff_duels_voided", duels=[d.ref for d in bracket.void]
            )
        if not bracket.walkovers:
            break
        for match in bracket.walkovers:
            _walkover(tournament, DuelKind.PLAYOFF, match)
    for match in bracket.to_play:
        if match.ref is None:
            _announce(
                _new_duel(tournament, DuelKind.PLAYOFF, match.stage, match.seat_a, match.seat_b)
            )
    placings = {str(p): place for place, p in bracket.placings.items() if p is not None}
    if placings != tournament.placings:
        tournament.placings = placings
        tournament.save(update_fields=["placings"])
    if bracket.complete and tournament.phase == Phase.PLAYOFFS:
        tournament.phase = Phase.COMPLETE
        tournament.save(update_fields=["phase"])
        audit.record(tournament, None, "tournament_complete", placings=placings)
    elif not bracket.complete and tournament.phase == Phase.COMPLETE:
        # A correction after completion re-opened the bracket: the new duels are played first.
        tournament.phase = Phase.PLAYOFFS
        tournament.save(update_fields=["phase"])
        audit.record(tournament, None, "tournament_reopened")


def pending(tournament: Tournament) -> bool:
    """Read-only: does `sync` have a step to take? (The automation is behind when it does.)"""
    tournament.refresh_from_db()
    if tournament.phase == Phase.GROUP_PHASE:
        return tournament.group_phase_ended_at is not None
    if tournament.phase == Phase.TIE_BREAKS:
        plan = tiebreak_plan(tournament)
        if _spurious_walkovers(tournament):
            return True
        if lifecycle.due_group_replays(tournament).exists():
            return bool(plan.void) or tournament.top_four_settled_at is not None
        return (
            bool(plan.new_draws or plan.void or plan.walkovers)
            or any(m.ref is None for m in plan.to_play)
            or plan.settled != (tournament.top_four_settled_at is not None)
        )
    if tournament.phase in (Phase.PLAYOFFS, Phase.COMPLETE):
        bracket = playoff_bracket(tournament)
        return (
            bool(bracket.void or bracket.walkovers)
            or any(m.ref is None for m in bracket.to_play)
            or bracket.complete != (tournament.phase == Phase.COMPLETE)
        )
    return False


def _fingerprint(tournament: Tournament) -> tuple:
    tournament.refresh_from_db(fields=["phase", "top_four_settled_at", "placings"])
    return (
        tournament.phase,
        tournament.top_four_settled_at,
        tournament.placings,
        tuple(
            Duel.objects.filter(tournament=tournament)
            .exclude(kind="group")
            .values_list("pk", "status")
            .order_by("pk")
        ),
        TieBreakDraw.objects.filter(tournament=tournament).count(),
    )


@transaction.atomic
def sync(tournament: Tournament) -> bool:
    """Take every step the stored results call for. Idempotent: returns whether it changed
    anything (and then bumps the standings version)."""
    tournament = lock(tournament)
    before = _fingerprint(tournament)
    if tournament.phase == Phase.GROUP_PHASE and tournament.group_phase_ended_at:
        tournament.tiebreak_seed = tournament.tiebreak_seed or fmt.new_seed()
        tournament.phase = Phase.TIE_BREAKS
        tournament.save(update_fields=["tiebreak_seed", "phase"])
        plan = tiebreak_plan(tournament)
        audit.record(
            tournament,
            None,
            "tiebreaks_planned",
            seed=tournament.tiebreak_seed,
            mode=tournament.tiebreak_mode,
            needed=plan.needed,
        )
    if tournament.phase == Phase.TIE_BREAKS:
        _sync_tiebreaks(tournament)
    elif tournament.phase in (Phase.PLAYOFFS, Phase.COMPLETE):
        _sync_playoffs(tournament)
    changed = _fingerprint(tournament) != before
    if changed:
        audit.bump_version(tournament)
    return changed


def playoffs_blocker(tournament: Tournament) -> str:
    """Read-only: why the playoffs cannot start now, in words (empty when they can). The
    overview asks before it offers the confirmation; `start_playoffs` asks again under its
    lock."""
    if tournament.phase in (Phase.PLAYOFFS, Phase.COMPLETE):
        return _("The playoffs have already started: nothing changed.")
    if tournament.phase != Phase.TIE_BREAKS:
        return _("The playoffs start after the group phase and its tie-breaks.")
    if lifecycle.due_group_replays(tournament).exists():
        return _(
            "A group-phase replay is still to be played: the tie-breaks wait "
            "for its result, and so do the playoffs."
        )
    plan = tiebreak_plan(tournament)
    if not plan.settled:
        left = len(plan.to_play)
        return ngettext(
            "Positions 1–4 are not settled yet: %(n)s tie-break duel to play first.",
            "Positions 1–4 are not settled yet: %(n)s tie-break duels to play first.",
            left,
        ) % {"n": left}
    return ""


@dataclass(frozen=True)
class PlayoffsPreview:
    """What starting the playoffs does, named before it is done: the seeding (Q1: 1 v 2,
    E1: 3 v 4) and the results that freeze (no correction or void after)."""

    seeding: list[int]
    frozen_group: int  # finished group-phase duels (rounds and replays)
    frozen_tiebreak: int  # finished tie-break duels
    version: int


def playoffs_preview(tournament: Tournament) -> PlayoffsPreview:
    """Read-only; call it only when `playoffs_blocker` is empty."""
    plan = tiebreak_plan(tournament)
    finished = Duel.objects.filter(tournament=tournament, status=DuelStatus.FINISHED)
    return PlayoffsPreview(
        seeding=list(fmt.seeding_from_positions(plan.positions)),
        frozen_group=finished.filter(kind__in=lifecycle.GROUP_KINDS).count(),
        frozen_tiebreak=finished.filter(kind=DuelKind.TIE_BREAK).count(),
        version=tournament.standings_version,
    )


@transaction.atomic
def start_playoffs(
    tournament: Tournament, actor, *, expected_version: int | None = None
) -> Tournament:
    """The organiser announces the bracket once positions 1–4 are settled: Q1 and E1 start.
    Group-phase and tie-break results freeze (TOURNAMENT.md "Corrections").

    `expected_version`: the standings version the confirmation was drawn from; if the
    tournament changed since, nothing is done and the organiser is asked again."""
    tournament = lock(tournament)
    if not can(actor, Action.START_PHASES, tournament):
        raise ServiceError(_("Only the organisers start the playoffs."), code="forbidden")
    blocker = playoffs_blocker(tournament)
    if blocker:
        done = tournament.phase in (Phase.PLAYOFFS, Phase.COMPLETE)
        raise ServiceError(blocker, code="done" if done else "refused")
    if expected_version is not None and expected_version != tournament.standings_version:
        raise ServiceError(
            _(
                "The tournament changed since you were asked: check again what starting the "
                "playoffs does now. Nothing was changed."
            ),
            code="stale",
        )
    plan = tiebreak_plan(tournament)
    tournament.playoff_seeding = list(fmt.seeding_from_positions(plan.positions))
    tournament.phase = Phase.PLAYOFFS
    tournament.save(update_fields=["playoff_seeding", "phase"])
    audit.record(tournament, actor, "playoffs_started", seeding=tournament.playoff_seeding)
    _sync_playoffs(tournament)
    audit.bump_version(tournament)
    from ..tasks import enqueue_on_commit, notify_playoffs

    enqueue_on_commit(notify_playoffs, tournament.pk)
    return tournament
