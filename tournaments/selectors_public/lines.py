"""A duel as pages show it, the tag of every live part, the open duels' digest and what took
a voided duel's place."""

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import pgettext

from .. import presentation
from ..models import Tournament
from ..services.lifecycle import OPEN

TOP_PLAYERS = 5  # the players drawn in the points chart: the race for the top four and one


# -- the version every live part is tagged with ---------------------------------------------


def etag(tournament: Tournament, extra: str = "") -> str:
    """The tag of a page's live part. The standings version changes with every change of
    tournament state (DESIGN.md), so it alone tags standings, groups, rounds and brackets."""
    return f'"t{tournament.pk}-v{tournament.standings_version}{"-" + extra if extra else ""}"'


def live_fingerprint(tournament: Tournament) -> str:
    """A short digest of the open duels (one query).

    A duel's first move (ready → running) and each move after it do not bump the standings
    version, yet "now playing" shows them: the home page and the big screen tag their live
    part with the version *and* this digest. The revision, not only the number of moves: an
    undo followed by another move brings `seq` back where it was, with another table
    (issue 28: the room sees every move); the revision grows with every move and every undo.
    """
    from duels.models import Duel

    rows = list(
        Duel.objects.filter(tournament=tournament, status__in=OPEN)
        .order_by("pk")
        .values_list("pk", "status", "seq", "revision", "table", "called_at")
    )
    return hashlib.blake2s(repr(rows).encode(), digest_size=5).hexdigest()


# -- duels as pages show them ----------------------------------------------------------------


@dataclass(frozen=True)
class DuelLine:
    """One duel as a line on a public page."""

    id: int
    title: str
    kind: str
    status: str
    table: str
    seat_a: str | None
    seat_b: str | None
    seat_a_id: int | None
    seat_b_id: int | None
    group_a: str | None
    group_b: str | None
    winner: str | None = None
    winner_id: int | None = None
    finish: str = ""
    corrected: bool = False
    correction_reason: str = ""
    moves: int = 0
    started_at: datetime | None = None
    finished_at: datetime | None = None
    tournament_slug: str = ""
    tournament_name: str = ""
    replay: bool = False  # the rematch of a duel that ended without a winner
    round_number: int | None = None  # a group duel's round
    stage: str = ""  # a tie-break's key or a playoff stage (Q1, E1, Q2, GF)
    online: bool = False  # played online by its players (ONLINE.md 6)

    @property
    def table_label(self) -> str:
        return presentation.table_label(self.table)

    @property
    def start_key(self) -> str:
        """The schedule key its planned start is read from ("round:5", "tie_breaks", "Q2")."""
        return presentation.start_key_of(self.kind, self.stage, self.round_number)

    @property
    def has_record(self) -> bool:
        """A replay exists once a move was made (the replay page needs both players)."""
        return self.moves > 0 and self.seat_a_id is not None and self.seat_b_id is not None

    @property
    def group_phase(self) -> bool:
        return self.kind in ("group", "replay")

    @property
    def finish_text(self) -> str:
        return presentation.finish_label(self.finish)

    @property
    def loser(self) -> str | None:
        if self.winner_id is None:
            return None
        return self.seat_b if self.winner_id == self.seat_a_id else self.seat_a


def duel_queryset(**filters: Any):
    from duels.models import Duel

    return Duel.objects.filter(**filters).select_related(
        "round", "result", "seat_a", "seat_b", "group_a", "group_b", "result__winner"
    )


def duel_line(duel, tournament: Tournament | None = None) -> DuelLine:
    """A `Duel` read with `duel_queryset` as a line (no query). Pass `tournament` for lines
    that leave their tournament's pages (the player's duels) and must name it."""
    result = None
    void = duel.status == "void"
    if duel.status in ("finished", "void"):
        result = getattr(duel, "result", None)
    return DuelLine(
        online=duel.online,
        id=duel.pk,
        title=presentation.title_of(
            duel.kind,
            duel.stage,
            duel.round.number if duel.round_id else None,
            replay=duel.replay_of_id is not None,
        ),
        kind=duel.kind,
        status=duel.status,
        table=duel.table,
        seat_a=duel.seat_a.name if duel.seat_a_id else None,
        seat_b=duel.seat_b.name if duel.seat_b_id else None,
        seat_a_id=duel.seat_a_id,
        seat_b_id=duel.seat_b_id,
        group_a=duel.group_a.name if duel.group_a_id else None,
        group_b=duel.group_b.name if duel.group_b_id else None,
        # A voided duel names no winner: its result no longer counts.
        winner=result.winner.name if result and result.winner_id and not void else None,
        winner_id=result.winner_id if result and not void else None,
        finish=result.finish if result else "",
        corrected=result.corrected if result else False,
        correction_reason=result.correction_reason if result else "",
        moves=duel.seq,
        started_at=duel.started_at,
        finished_at=duel.finished_at,
        tournament_slug=tournament.slug if tournament else "",
        tournament_name=tournament.name if tournament else "",
        replay=duel.replay_of_id is not None,
        round_number=duel.round.number if duel.round_id else None,
        stage=duel.stage,
    )


def rank_label(rank: int | None, shared: bool, status: str) -> str:
    """Issue 9: a shared rank reads "T3"; an inactive player shows their status."""
    if rank is None:
        from ..templatetags.public_frame import entrant_status

        return entrant_status(status)
    # Translators: a rank shared by several players, "T3" ("tied third").
    return pgettext("a shared rank", "T%(rank)s") % {"rank": rank} if shared else str(rank)


# -- voided duels and what took their place --------------------------------------------------


def replays_of_voided(
    rows: Iterable[tuple[int, str, str, int | None]], names: dict[int, str]
) -> dict[int, str]:
    """Each voided duel whose match is played again, in words, from the rows `(pk, stage,
    status, winner id)` of one kind of duel (tie-break or playoff; no query): pk → "Replay
    due" while the duel that took its place is not over, "Replayed: Ada won" once it is.

    A correction voids the later duels that no longer follow, and the automation makes a new
    duel for the same stage (a playoff stage, a tie-break match's key) once it is known; a
    drawn duel's rematch keeps its stage too. What took a voided duel's place is the first
    later duel of its stage neither voided nor abandoned; none yet (or never, for a match the
    plan no longer calls for): no entry."""
    by_stage: dict[str, list[tuple[int, str, int | None]]] = {}
    for pk, stage, status, winner in sorted(rows):
        by_stage.setdefault(stage, []).append((pk, status, winner))
    out: dict[int, str] = {}
    for duels in by_stage.values():
        for i, (pk, status, _) in enumerate(duels):
            if status != "void":
                continue
            after = next(
                ((st, w) for _, st, w in duels[i + 1 :] if st not in ("void", "abandoned")), None
            )
            if after is None:
                continue
            state, winner = after
            out[pk] = presentation.voided_replay_text(
                "due" if state in OPEN else "played", names.get(winner) if winner else None
            )
    return out


# -- a referee's score sheet -----------------------------------------------------------------

SHEET_LINES = 26  # with the header and the signatures: one A4 page


def sheet(tournament: Tournament, duel_id: int):
    """The duel a score sheet is printed for, as a line (one query), or None."""
    duel = duel_queryset(tournament=tournament, pk=duel_id).first()
    return duel_line(duel) if duel else None
