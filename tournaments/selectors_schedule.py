"""Reads of the schedule (issue 16): the venue clock, the duels called to their tables, what
comes next, and a person's next duel (a player's, a referee's). Times are shown in the
tournament's time zone."""

import math
import statistics
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from duels.services import UNSTARTED_STATUSES

from . import format as fmt
from . import presentation
from .models import Phase, StartTime, Tournament
from .selectors import round_states
from .selectors_public.coming import coming_next, playoff_stages_started
from .selectors_public.lines import DuelLine, duel_line, duel_queryset
from .services.lifecycle import OPEN
from .services.schedule import START_KEYS, zone_of

NEXT_STARTS = 3


def local(tournament: Tournament, when: datetime | None) -> datetime | None:
    return timezone.localtime(when, zone_of(tournament)) if when else None


def ahead(at: datetime | None, now: datetime) -> datetime | None:
    """A planned start as the room is shown it: only while it is ahead. Once passed it says
    nothing about what happens next (the event's state does), so no page shows it (the venue
    strip, `/me/` and the console alike)."""
    return at if at is not None and at >= now else None


def start_times(tournament: Tournament) -> dict[str, datetime]:
    """Key → start time, in the tournament's time zone (one query)."""
    return {
        key: local(tournament, at)
        for key, at in StartTime.objects.filter(tournament=tournament).values_list(
            "key", "starts_at"
        )
    }


@dataclass(frozen=True)
class Upcoming:
    """A duel as someone waits for it: called to a table, or planned for a time."""

    line: DuelLine
    called_at: datetime | None  # local time of the last call
    starts_at: datetime | None  # local planned start of its round or stage, while it is ahead
    tournament: Tournament
    planned_at: datetime | None = None  # the schedule's time, passed or not: only to order by

    @property
    def called(self) -> bool:
        return self.called_at is not None and self.line.status in UNSTARTED_STATUSES


def _upcoming(duel, tournament: Tournament, starts: dict[str, datetime], now: datetime) -> Upcoming:
    key = presentation.start_key_of(
        duel.kind, duel.stage, duel.round.number if duel.round_id else None
    )
    return Upcoming(
        line=duel_line(duel, tournament),
        called_at=local(tournament, duel.called_at),
        starts_at=ahead(starts.get(key), now),
        tournament=tournament,
        planned_at=starts.get(key),
    )


def _first(upcoming: list[Upcoming]) -> Upcoming | None:
    """Next: a running duel, else the latest called, else the earliest planned, else the
    oldest waiting."""
    if not upcoming:
        return None
    far = datetime.max.replace(tzinfo=UTC)
    return min(
        upcoming,
        key=lambda u: (
            u.line.status != "running",
            not u.called,
            -(u.called_at.timestamp() if u.called_at else 0),
            u.planned_at or far,
            u.line.id,
        ),
    )


def venue(tournament: Tournament, now: datetime | None = None) -> dict[str, Any]:
    """The big screen's strip: the clock's zone and time, the duels called to their tables
    (latest first), and what comes next (three queries, one more in the group phase and in
    the playoffs).

    "Next" is the event's state (`selectors_public.coming`): the duels waiting to start, the
    round waiting for its players, the stage after this one. A planned start is only the
    time shown beside one of these, and only while it is ahead: the schedule alone never
    makes a round "next" (it once said "Next: Group round 1 at 20:45" after the final)."""
    now = now or timezone.now()
    starts = start_times(tournament)
    duels = list(duel_queryset(tournament=tournament, status__in=OPEN).order_by("pk"))
    called = sorted(
        (
            _upcoming(d, tournament, starts, now)
            for d in duels
            if d.status in UNSTARTED_STATUSES and d.called_at is not None
        ),
        key=lambda u: (-u.called_at.timestamp(), -u.line.id),
    )
    local_now = local(tournament, now)
    shown = {u.line.id for u in called}  # a called duel is listed once, with its table
    coming = coming_next(
        tournament,
        # Only the group phase's "next" reads the rounds (the open round waiting for players).
        round_states(tournament) if tournament.phase == Phase.GROUP_PHASE else [],
        [duel_line(d) for d in duels],
        playoff_stages_started(tournament),
    )
    next_starts = []
    for c in coming:
        if c.duel is not None and c.duel.id in shown:
            continue
        next_starts.append({"label": c.label, "at": ahead(starts.get(c.key), now)})
    return {
        "zone": tournament.time_zone,
        "now": local_now,
        "called": called,
        "next_starts": next_starts[:NEXT_STARTS],
    }


def next_for_players(user, now: datetime | None = None) -> dict[int, Upcoming]:
    """Tournament id → the signed-in player's next duel there (two queries)."""
    duels = list(
        duel_queryset(status__in=OPEN)
        .filter(Q(seat_a__user=user) | Q(seat_b__user=user))
        .select_related("tournament")
    )
    return _next_by_tournament(duels, now or timezone.now())


def next_for_referee(
    user, tournament: Tournament, exclude: int | None = None, now: datetime | None = None
) -> Upcoming | None:
    """The referee's next duel in this tournament: assigned to them and not yet over, the
    duel on the page left out (two queries)."""
    duels = list(
        duel_queryset(tournament=tournament, referee=user, status__in=OPEN)
        .exclude(pk=exclude)
        .select_related("tournament")
    )
    return _next_by_tournament(duels, now or timezone.now()).get(tournament.pk)


def _next_by_tournament(duels: list, now: datetime) -> dict[int, Upcoming]:
    tournaments = {d.tournament_id: d.tournament for d in duels}
    starts: dict[int, dict[str, datetime]] = {pk: {} for pk in tournaments}
    for key, at, pk in StartTime.objects.filter(tournament__in=list(tournaments)).values_list(
        "key", "starts_at", "tournament_id"
    ):
        starts[pk][key] = local(tournaments[pk], at)
    out: dict[int, Upcoming] = {}
    for pk, t in tournaments.items():
        mine = [_upcoming(d, t, starts[pk], now) for d in duels if d.tournament_id == pk]
        first = _first(mine)
        if first is not None:
            out[pk] = first
    return out


# A referee's desk (`selectors_referee`) orders their duels the same way.
upcoming_of = _upcoming
first_upcoming = _first


# The evening's length (issue 26) -------------------------------------------------------------
# Until a tournament has duels of its own played to the end, a duel is assumed: the club
# nights' duels ran 85 to 110 moves (64 to 71 duel rounds); the middle, 100 moves, at about
# 8 seconds a move (the players play, the referee taps it in) is 13 min 20 s, and a minute
# more calls the next players to the table: about 14 minutes a duel.
TYPICAL_MOVES = 100
SECONDS_PER_MOVE = 8
CALL_SECONDS = 60
DEFAULT_DUEL_SECONDS = TYPICAL_MOVES * SECONDS_PER_MOVE + CALL_SECONDS
# Endings played out at the table: a forfeit, a walkover or a paper result (adjudicated)
# says nothing about how long a duel takes.
PLAYED_OUT = ("shed_all", "double_zero", "time_limit", "dare_refused")
# The duels of an evening one after another: 15 group rounds, the tie-breaks counted as one,
# Qualifier 1 beside the Eliminator, Qualifier 2, the Grand Final.
DUELS_IN_A_ROW = fmt.ROUNDS + 1 + 3
GAP_BEFORE_TIE_BREAKS = 10  # the plan's suggestions, minutes
GAP_BEFORE_PLAYOFFS = 15


def duel_length(tournament: Tournament) -> tuple[float, int]:
    """Seconds a duel takes here, and from how many duels: the median of the duels played to
    the end (start to finish) plus the call; with none yet, the assumption (one query)."""
    from duels.models import Duel, DuelStatus

    lengths = [
        (end - start).total_seconds()
        for start, end in Duel.objects.filter(
            tournament=tournament,
            status=DuelStatus.FINISHED,
            started_at__isnull=False,
            finished_at__isnull=False,
            result__table_finish__in=PLAYED_OUT,
        ).values_list("started_at", "finished_at")
        if end > start
    ]
    if not lengths:
        return float(DEFAULT_DUEL_SECONDS), 0
    return statistics.median(lengths) + CALL_SECONDS, len(lengths)


def suggested_every(duel_seconds: float) -> int:
    """The plan's interval to start from: a duel, rounded up to five minutes."""
    return max(5, 5 * math.ceil(duel_seconds / 300))


@dataclass(frozen=True)
class Estimate:
    """The schedule page's estimate, in words: how long a duel takes and where that comes
    from, how long the evening is, and what will make it run late."""

    duel_seconds: float
    measured: int
    typical: str
    evening: str
    warnings: list[str]
    suggested_every: int


def estimate(
    tournament: Tournament,
    *,
    every: int | None = None,
    gaps: int = GAP_BEFORE_TIE_BREAKS + GAP_BEFORE_PLAYOFFS,
    starts: dict[str, datetime] | None = None,
) -> Estimate:
    """The evening at `every` minutes a slot (None: the suggested interval) with `gaps`
    minutes of breaks, and the warnings: a slot shorter than a duel, and in the schedule as
    set (`starts`, local), the shortest step between two parts shorter than a duel (one
    query)."""
    duel, measured = duel_length(tournament)
    suggested = suggested_every(duel)
    slot = (every or suggested) * 60
    evening = (DUELS_IN_A_ROW - 1) * max(slot, duel) + gaps * 60 + duel
    warnings = []
    if every is not None and slot < duel:
        warnings.append(presentation.short_slots_text(every, duel))
    if starts:
        # In UTC: two times of one zone subtract as wall clocks, blind to a clock change.
        at = {k: t.astimezone(UTC) for k, t in starts.items() if k != fmt.E1}  # E1 beside Q1
        keys = [k for k in START_KEYS if k in at]
        steps = [
            (at[b] - at[a], a, b) for a, b in zip(keys, keys[1:], strict=False) if at[b] > at[a]
        ]
        if steps:
            step, a, b = min(steps, key=lambda s: s[0])  # the first of the shortest
            if step.total_seconds() < duel:
                warnings.append(
                    presentation.short_gap_text(
                        presentation.start_key_label(a),
                        presentation.start_key_label(b),
                        round(step.total_seconds() / 60),
                        duel,
                    )
                )
    return Estimate(
        duel_seconds=duel,
        measured=measured,
        typical=presentation.typical_duel_text(
            duel, measured, moves=TYPICAL_MOVES, per_move=SECONDS_PER_MOVE
        ),
        evening=presentation.evening_text(evening, DUELS_IN_A_ROW, max(slot, duel)),
        warnings=warnings,
        suggested_every=suggested,
    )
