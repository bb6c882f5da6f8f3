"""The signed-in player's pages (`/me/`): their entries and their duels."""

from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.translation import pgettext_lazy

from .. import format as fmt
from ..models import FINAL_PHASES, Entrant, EntrantStatus, Tournament
from ..services.lifecycle import OPEN
from .lines import DuelLine, duel_line, duel_queryset, rank_label


@dataclass
class Entry:
    """A player's entry in one tournament, with where they stand and what comes next."""

    tournament: Tournament
    name: str
    status: str
    group: str | None
    points: int | None
    rank_label: str
    placing: int | None
    next_duel: DuelLine | None = None
    played: int = 0
    won: int = 0
    lost: int = 0
    roles: tuple[str, ...] = field(default_factory=tuple)
    checked_in: bool = False

    @property
    def check_in_open(self) -> bool:
        """Whether check-in means anything for this entry now (the rules are
        `services.checkin.check_in`'s): an active player of a tournament not over."""
        return self.status == EntrantStatus.ACTIVE and self.tournament.phase not in FINAL_PHASES


def my_entries(user) -> list[Entry]:
    """The signed-in player's entries, newest tournament first (two queries).

    Players see their own entry even before publishing (TOURNAMENT.md "Who does what").
    """
    entrants = list(
        Entrant.objects.filter(user=user)
        .select_related("tournament", "group", "standing")
        .order_by("-tournament__created_at")
    )
    shared = _shared_ranks(entrants)
    upcoming: dict[int, DuelLine] = {}
    for duel in my_duel_queryset(user).filter(status__in=OPEN).order_by("pk"):
        upcoming.setdefault(duel.tournament_id, duel_line(duel, duel.tournament))
    out = []
    for e in entrants:
        standing = e.standing if hasattr(e, "standing") else None  # none before the start
        out.append(
            Entry(
                tournament=e.tournament,
                name=e.name,
                status=e.status,
                group=e.group.name if e.group_id else None,
                points=standing.points if standing else None,
                rank_label=rank_label(standing.rank, shared.get(e.pk, False), e.status)
                if standing
                else "",
                placing=(e.tournament.placings or {}).get(str(e.pk)),
                next_duel=upcoming.get(e.tournament_id),
                played=standing.played if standing else 0,
                won=standing.won if standing else 0,
                lost=standing.lost if standing else 0,
                checked_in=e.checked_in_at is not None,
            )
        )
    return out


def _shared_ranks(entrants: list[Entrant]) -> dict[int, bool]:
    """Whether each entry's rank is shared: one query over the standings of their
    tournaments (not one per tournament)."""
    from django.db.models import Count

    from ..models import StandingRow

    wanted = {
        (e.tournament_id, e.standing.rank)
        for e in entrants
        if hasattr(e, "standing") and e.standing and e.standing.rank is not None
    }
    if not wanted:
        return {}
    counts = {
        (t, r): n
        for t, r, n in StandingRow.objects.filter(
            tournament_id__in={t for t, _ in wanted}, rank__isnull=False
        )
        .values_list("tournament_id", "rank")
        .annotate(n=Count("pk"))
        .values_list("tournament_id", "rank", "n")
    }
    return {
        e.pk: counts.get((e.tournament_id, e.standing.rank), 0) > 1
        for e in entrants
        if hasattr(e, "standing") and e.standing and e.standing.rank is not None
    }


def my_duel_queryset(user):
    """Every duel in which one of the user's entries sits (seat A or B)."""
    return (
        duel_queryset()
        .filter(Q(seat_a__user=user) | Q(seat_b__user=user))
        .select_related("tournament")
    )


# How a played duel went for the player, as /me/ names it (the key stays `MyDuel.outcome`).
OUTCOMES = {
    "won": pgettext_lazy("a duel's outcome for the player", "Won"),
    "lost": pgettext_lazy("a duel's outcome for the player", "Lost"),
    "no result": pgettext_lazy("a duel's outcome for the player", "No result"),
    "void": pgettext_lazy("a duel's outcome for the player", "Void"),
    "abandoned": pgettext_lazy("a duel's outcome for the player", "Abandoned"),
}


@dataclass(frozen=True)
class MyDuel:
    """A duel from the player's side: who they play, and how it went for them."""

    line: DuelLine
    me: str
    opponent: str | None
    outcome: str  # "won", "lost", "no result", "void", "" (not played yet)
    points: int | None  # +3 / −2 in the group phase

    @property
    def outcome_label(self) -> str:
        found = OUTCOMES.get(self.outcome)
        return str(found) if found is not None else self.outcome.capitalize()


def my_duels(user) -> dict[str, list[MyDuel]]:
    """Upcoming duels (with table) and played ones (with results): two queries."""
    mine = set(Entrant.objects.filter(user=user).values_list("pk", flat=True))
    upcoming, played = [], []
    for duel in my_duel_queryset(user).order_by("-created_at", "-pk"):
        line = duel_line(duel, duel.tournament)
        me_a = line.seat_a_id in mine
        me, opponent = (line.seat_a, line.seat_b) if me_a else (line.seat_b, line.seat_a)
        my_id = line.seat_a_id if me_a else line.seat_b_id
        if line.status in OPEN:
            upcoming.append(MyDuel(line, me or "", opponent, "", None))
            continue
        if line.status == "finished" and line.winner_id is not None:
            won = line.winner_id == my_id
            outcome = "won" if won else "lost"
            points = (fmt.WIN_POINTS if won else fmt.LOSS_POINTS) if line.group_phase else None
        elif line.status == "finished":
            outcome, points = "no result", None
        else:
            outcome, points = line.status, None
        played.append(MyDuel(line, me or "", opponent, outcome, points))
    upcoming.reverse()  # the next duel first: the oldest open one
    return {"upcoming": upcoming, "played": played}
