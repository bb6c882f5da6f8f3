"""A referee's desk (issue 26, "The referee's path"): the duel assigned to them that is running
or next; when none is, a duel open to any referee; when none is either, what they are waiting
for, in words. With the two addresses a referee needs: the duel's console and the paper form
that records it (one tap each from where the desk is shown: the dashboard, the tournament's
page, the end of a finished duel's console)."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils import timezone

from accounts.permissions import Action, Who, can, roles_of
from duels.services import UNSTARTED_STATUSES

from . import presentation
from .models import FINAL_PHASES, Phase, Tournament
from .selectors import round_states
from .selectors_public.coming import coming_next, playoff_stages_started
from .selectors_public.lines import duel_line, duel_queryset
from .selectors_schedule import Upcoming, first_upcoming, start_times, upcoming_of
from .services.lifecycle import OPEN


@dataclass(frozen=True)
class Desk:
    """What a referee sees first: one duel and its two addresses, or what they wait for."""

    tournament: Tournament
    mine: Upcoming | None  # assigned to them: running, else the next (selectors_schedule order)
    free: Upcoming | None  # none assigned: a duel open to any referee (their first move takes it)
    waiting: str  # neither: what they wait for, in words
    console: str  # the console of `mine` or `free` ("" without a duel)
    paper: str  # the paper form that records it, or the open round ("" when none may be)
    paper_title: str = ""  # without a duel: the round the paper form records

    @property
    def upcoming(self) -> Upcoming | None:
        return self.mine or self.free


def desk(
    user: Any,
    tournament: Tournament,
    *,
    exclude: int | None = None,
    always: bool = False,
    now: datetime | None = None,
) -> Desk | None:
    """The signed-in person's desk in `tournament` (the duel `exclude` left out: the one on the
    page), or None: for anyone who may not referee there, and — unless `always` — for an
    organiser with no duel of their own (their pages are the organiser's). Three queries,
    two more when no duel is waiting for them."""
    if user is None or not user.is_authenticated or not can(user, Action.REFEREE_DUELS, tournament):
        return None
    # Never a duel they play in (TOURNAMENT.md: nobody referees their own duel).
    duels = [
        d
        for d in duel_queryset(tournament=tournament, status__in=OPEN).exclude(pk=exclude or 0)
        if user.pk not in {s.user_id for s in (d.seat_a, d.seat_b) if s is not None}
    ]
    starts = start_times(tournament)
    now = now or timezone.now()
    mine = first_upcoming(
        [upcoming_of(d, tournament, starts, now) for d in duels if d.referee_id == user.pk]
    )
    if mine is None and not always and Who.REFEREE not in roles_of(user, tournament):
        return None
    free = None
    if mine is None:
        free = first_upcoming(
            [
                upcoming_of(d, tournament, starts, now)
                for d in duels
                if d.referee_id is None and d.seat_a_id and d.seat_b_id
            ]
        )
    chosen = mine or free
    row = next((d for d in duels if chosen and d.pk == chosen.line.id), None)
    rounds = reverse("organiser:rounds", args=[tournament.slug])
    if row is not None:
        return Desk(
            tournament=tournament,
            mine=mine,
            free=free,
            waiting="",
            console=reverse("duels:console", args=[tournament.slug, row.pk]),
            paper=_paper_address(row, rounds),
        )
    waiting, paper, title = _waiting(tournament, duels, rounds)
    # At the end of a duel (the one on the page left out): "no *other* duel".
    none = presentation.DESK_NO_OTHER if exclude else presentation.DESK_NONE_ASSIGNED
    return Desk(tournament, None, None, f"{none} {waiting}", "", paper, title)


def _paper_address(duel: Any, rounds: str) -> str:
    """Where a duel not started on the console is recorded from paper: its round's sheet (a
    group duel: the players are named on it) or its own sheet, opened (any other duel)."""
    if duel.seq != 0 or duel.status not in UNSTARTED_STATUSES:
        return ""  # started on the console: finished there
    if not (duel.seat_a_id and duel.seat_b_id):
        return ""
    if duel.kind == "group":
        return f"{rounds}#paper-form"
    return f"{rounds}?paper={duel.pk}#paper-{duel.pk}"


def _waiting(tournament: Tournament, duels: list, rounds: str) -> tuple[str, str, str]:
    """No duel for this referee: what comes next in the event, and — a group round whose
    players are not named yet — its paper sheet (the players are chosen on it) and title."""
    if tournament.phase in FINAL_PHASES:
        return presentation.DESK_OVER, "", ""
    group_phase = tournament.phase == Phase.GROUP_PHASE
    coming = coming_next(
        tournament,
        round_states(tournament) if group_phase else [],
        [duel_line(d) for d in duels],
        playoff_stages_started(tournament),
    )
    for c in coming:
        if c.duel is None:
            paper = f"{rounds}#paper-form" if group_phase and c.key.startswith("round:") else ""
            return presentation.desk_waiting(c.label, c.note), paper, c.label if paper else ""
    words = presentation.DESK_ALL_TAKEN if duels else presentation.DESK_NOTHING_WAITING
    return words, "", ""


def desks(user: Any, rows: list) -> list[Desk]:
    """The dashboard's desks: one for each tournament of `rows` (`tournaments_for_user`) the
    person runs or referees and that is not over."""
    out = []
    for row in rows:
        t = row.tournament
        if t.phase in FINAL_PHASES or not set(row.roles) & {"organiser", "co_organiser", "referee"}:
            continue
        found = desk(user, t)
        if found is not None:
            out.append(found)
    return out
