"""Reads for the public, player and live pages (issue 9): plain data in a fixed number of
queries, whatever the size of the tournament.

Only what TOURNAMENT.md makes public: no withdrawal reasons, no audit log, no pending gifts.
The read API's `read_models` serve the plain tables; what a page needs beyond them (duel
lines with their replay links, chart series, the live fingerprint) is read here.
"""

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Q

from . import charts, presentation, read_models
from . import format as fmt
from .models import (
    FINAL_PHASES,
    Entrant,
    EntrantStatus,
    Group,
    Phase,
    Round,
    RoundStatus,
    Tournament,
)

OPEN = ("pending", "ready", "running")
RECENT_RESULTS = 6
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
    part with the version *and* this digest.
    """
    from duels.models import Duel

    rows = list(
        Duel.objects.filter(tournament=tournament, status__in=OPEN)
        .order_by("pk")
        .values_list("pk", "status", "seq", "table", "called_at")
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
    counts: tuple[int, int] | None = None  # number cards left (A, B) in a running duel
    moves: int = 0
    started_at: datetime | None = None
    finished_at: datetime | None = None
    tournament_slug: str = ""
    tournament_name: str = ""

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


def _duel_queryset(**filters: Any):
    from duels.models import Duel

    return Duel.objects.filter(**filters).select_related(
        "round", "result", "seat_a", "seat_b", "group_a", "group_b", "result__winner"
    )


def duel_line(duel, tournament: Tournament | None = None) -> DuelLine:
    """A `Duel` read with `_duel_queryset` as a line (no query). Pass `tournament` for lines
    that leave their tournament's pages (the player's duels) and must name it."""
    result = None
    if duel.status in ("finished", "void"):
        result = getattr(duel, "result", None)
    counts = None
    if duel.status == "running" and duel.state:
        seats = duel.state.get("seats", {})
        counts = (seats.get("A", {}).get("number_cards"), seats.get("B", {}).get("number_cards"))
    return DuelLine(
        id=duel.pk,
        title=presentation.title_of(
            duel.kind, duel.stage, duel.round.number if duel.round_id else None
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
        winner=result.winner.name if result and result.winner_id else None,
        winner_id=result.winner_id if result else None,
        finish=result.finish if result else "",
        corrected=result.corrected if result else False,
        correction_reason=result.correction_reason if result else "",
        counts=counts,
        moves=duel.seq,
        started_at=duel.started_at,
        finished_at=duel.finished_at,
        tournament_slug=tournament.slug if tournament else "",
        tournament_name=tournament.name if tournament else "",
    )


def rank_label(rank: int | None, shared: bool, status: str) -> str:
    """Issue 9: a shared rank reads "T3"; an inactive player shows their status."""
    if rank is None:
        return status.capitalize()
    return f"T{rank}" if shared else str(rank)


# -- the tournament home ---------------------------------------------------------------------


def group_summaries(tournament: Tournament) -> list[dict[str, Any]]:
    """Both groups with their total and status, first-named first (one query)."""
    out = []
    for group in Group.objects.filter(tournament=tournament).select_related("total"):
        total = group.total if hasattr(group, "total") else None  # none before the start
        out.append(
            {
                "id": group.pk,
                "name": group.name,
                "order": group.order,
                "total": total.total if total else 0,
                "status": total.status if total else "active",
                "by_round": list(total.by_round) if total else [],
                "eliminated_at_round": group.eliminated_at_round,
            }
        )
    return out


def now_playing(tournament: Tournament, recent: int = RECENT_RESULTS) -> dict[str, Any]:
    """What is being played, what comes next, the last results (three queries)."""
    rounds = list(Round.objects.filter(tournament=tournament).values_list("number", "status"))
    open_round = next((n for n, s in rounds if s == RoundStatus.OPEN), None)
    open_duels = [
        duel_line(d) for d in _duel_queryset(tournament=tournament, status__in=OPEN).order_by("pk")
    ]
    # Round n + 1 opens with a decisive result; until a referee names its players it has no
    # duel, and spectators still want to know it is next.
    round_waiting = (
        open_round
        if tournament.phase == Phase.GROUP_PHASE
        and open_round
        and not any(d.group_phase for d in open_duels)
        else None
    )
    return {
        "open_round": open_round,
        "decided_rounds": sum(1 for _, s in rounds if s == RoundStatus.DECIDED),
        "rounds_total": len(rounds) or fmt.ROUNDS,
        "playing": [d for d in open_duels if d.status == "running"],
        "waiting": [d for d in open_duels if d.status != "running"],
        "round_waiting": round_waiting,
        "recent": [
            duel_line(d)
            for d in _duel_queryset(tournament=tournament, status="finished").order_by(
                "-finished_at", "-pk"
            )[:recent]
        ],
    }


def home(tournament: Tournament) -> dict[str, Any]:
    """Phase, now playing, next up, last results, leaders, groups, placings (six queries,
    one more in the playoffs, one more once placings are published)."""
    from duels.models import Duel

    leaders = [
        {**r, "rank_label": rank_label(r["rank"], r["shared"], r["status"])}
        for r in read_models.standings(tournament)[:TOP_PLAYERS]
    ]
    later = []
    if tournament.phase in (Phase.PLAYOFFS, Phase.COMPLETE):
        stages = set(
            Duel.objects.filter(tournament=tournament, kind="playoff")
            .exclude(status__in=["void", "abandoned"])
            .values_list("stage", flat=True)
        )
        later = [fmt.STAGE_NAMES[s] for s in fmt.STAGES if s not in stages]
    return {
        **now_playing(tournament),
        "groups": group_summaries(tournament),
        "leaders": leaders,
        "later_stages": later,
        "placings": placings(tournament),
    }


def placings(tournament: Tournament) -> list[dict[str, Any]]:
    """Placings 1–4 as published (one query once there are any, none before)."""
    if not tournament.placings:
        return []
    by_player = {int(k): v for k, v in tournament.placings.items()}
    names = dict(Entrant.objects.filter(pk__in=by_player).values_list("pk", "name"))
    return [
        {"place": place, "name": names.get(player)}
        for player, place in sorted(by_player.items(), key=lambda kv: kv[1])
    ]


# -- standings -------------------------------------------------------------------------------


def _plan_notes(tournament: Tournament, rows: list[dict[str, Any]]) -> tuple[dict, dict]:
    """What each player faces, beside their row, and the plan shown in the aside.

    Before the tie-breaks are planned: the "if it ended now" view. Once planned: the real
    plan's tiers (three queries more).
    """
    names = {r["player"]: r["name"] for r in rows}
    notes: dict[int, str] = {}
    if tournament.tiebreak_seed and tournament.phase in (
        Phase.TIE_BREAKS,
        Phase.PLAYOFFS,
        Phase.COMPLETE,
    ):
        from .services.progression import tiebreak_plan

        plan = tiebreak_plan(tournament)
        for tier in plan.tiers:
            for player in tier.players:
                notes[player] = _tier_note(tier)
        aside = {
            "planned": True,
            "settled": plan.settled,
            "knockouts": [
                {
                    "players": [names.get(p, "?") for p in k.line],
                    "positions": (k.first, k.last),
                    "points": k.points,
                    "state": k.state,
                    "sub": k.parent is not None,
                }
                for k in plan.knockouts
            ],
            "shared": [],
            "mode": plan.mode,
        }
        return notes, aside
    points = {r["player"]: r["points"] for r in rows if r["rank"] is not None}
    what_if = fmt.what_if_now(points, mode=tournament.tiebreak_mode)
    for tier in what_if.plan.tiers:
        for player in tier.players:
            notes[player] = _tier_note(tier)
    aside = {
        "planned": False,
        "settled": not what_if.needed,
        "knockouts": [
            {
                "players": sorted((names[p] for p in k.players), key=str.casefold),
                "positions": (k.first, k.last),
                "points": k.points,
                "byes": k.byes,
                "first_round_duels": k.first_round_duels,
                "rounds": k.rounds,
            }
            for k in what_if.knockouts
        ],
        "shared": [
            {"players": [names[p] for p in t.players], "positions": (t.first, t.last)}
            for t in what_if.shared
        ],
        "mode": tournament.tiebreak_mode,
    }
    return notes, aside


def _tier_note(tier: fmt.Tier) -> str:
    """The note beside a player's row: only positions 1–4 are ever separated."""
    if tier.first > 4:
        return ""
    if tier.state == "placed":
        return f"Position {tier.first}"
    if tier.state == "shared":
        return f"Shares positions {tier.first}–{tier.last}"
    return f"Tie-break: positions {tier.first}–{tier.last}"


def standings(tournament: Tournament) -> dict[str, Any]:
    """The individual table with "T3" ranks, what each player faces beside it, or the final
    table once placings are published (one query; four while the tie-breaks are planned)."""
    rows = read_models.standings(tournament)
    place_of: dict[int, int] = {int(k): v for k, v in tournament.placings.items()}
    # Once placings are published the plan is history: the final table needs no notes.
    notes, aside = _plan_notes(tournament, rows) if not place_of else ({}, {})
    if place_of:
        # TOURNAMENT.md "Standings": the final table lists placings 1–4 first.
        table = fmt.final_table(
            [
                fmt.StandingRow(
                    r["player"],
                    r["name"],
                    r["status"],
                    r["points"],
                    r["played"],
                    r["won"],
                    r["lost"],
                    r["position"],
                    r["rank"],
                    r["shared"],
                )
                for r in rows
            ],
            {place: player for player, place in place_of.items()},
        )
        order = {line.player: line.line for line in table}
        rows = sorted(rows, key=lambda r: order[r["player"]])
    out = []
    for r in rows:
        out.append(
            {
                **r,
                "rank_label": rank_label(r["rank"], r["shared"], r["status"]),
                "placing": place_of.get(r["player"]),
                "note": notes.get(r["player"], ""),
            }
        )
    return {
        "rows": out,
        "aside": aside,
        "final": bool(place_of),
        "active": sum(1 for r in rows if r["rank"] is not None),
    }


# -- groups and their charts -----------------------------------------------------------------


def groups(tournament: Tournament) -> dict[str, Any]:
    """Group totals, members now, and the two charts (four queries)."""
    from .services.standings import group_duels

    summaries = group_summaries(tournament)
    members: dict[int, list[str]] = {}
    for group_id, name in (
        Entrant.objects.filter(
            tournament=tournament, status=EntrantStatus.ACTIVE, group__isnull=False
        )
        .order_by("name")
        .values_list("group_id", "name")
    ):
        members.setdefault(group_id, []).append(name)
    duels = group_duels(tournament)
    played = max((d.round for d in duels if d.winner is not None), default=0)
    group_chart = charts.line_chart(
        [(g["name"], g["by_round"][:played]) for g in summaries],
        rounds=fmt.ROUNDS,
        title="Group totals after each round",
        series_prefix="group",
    )
    rows = read_models.standings(tournament)
    top = [r for r in rows if r["rank"] is not None][:TOP_PLAYERS]
    progress = player_progress(duels, [r["player"] for r in top], played)
    player_chart = charts.line_chart(
        [(r["name"], progress[r["player"]]) for r in top],
        rounds=fmt.ROUNDS,
        title=f"Points of the top {len(top)} players after each round",
    )
    for g in summaries:
        g["members"] = members.get(g["id"], [])
    return {
        "groups": summaries,
        "played": played,
        "group_chart": group_chart,
        "player_chart": player_chart,
    }


def player_progress(
    duels: list[fmt.GroupDuel], players: list[int], played: int
) -> dict[int, list[int]]:
    """Each player's points after rounds 1..`played` (+3 a win, −2 a loss, as it counts)."""
    gained = {p: [0] * played for p in players}
    for duel in duels:
        if duel.winner is None or duel.round > played:
            continue
        for player, points in fmt.duel_points(duel).items():
            if player in gained:
                gained[player][duel.round - 1] += points
    out = {}
    for player, steps in gained.items():
        total, series = 0, []
        for step in steps:
            total += step
            series.append(total)
        out[player] = series
    return out


# -- rounds ----------------------------------------------------------------------------------


def rounds(tournament: Tournament) -> dict[str, Any]:
    """The 15 rounds, their duels and each group's members at that round (five queries)."""
    groups_ = list(Group.objects.filter(tournament=tournament).values_list("pk", "name"))
    out = []
    for row in read_models.rounds(tournament):
        out.append(
            {
                "number": row["number"],
                "status": row["status"],
                "duels": [_row_line(d) for d in row["duels"]],
                "members": [
                    {"group": name, "players": row["members"].get(str(pk), [])}
                    for pk, name in groups_
                ],
            }
        )
    return {"rounds": out, "groups": [name for _, name in groups_]}


def _row_line(row: dict[str, Any]) -> dict[str, Any]:
    return {
        **row,
        "title": presentation.title_of(row["kind"], row["stage"], row["round"]),
        "finish_text": presentation.finish_label(row["finish"]),
        "loser": (row["seat_b"] if row["winner"] == row["seat_a"] else row["seat_a"])
        if row["winner"]
        else None,
    }


# -- tie-breaks ------------------------------------------------------------------------------


def tiebreaks(tournament: Tournament) -> dict[str, Any]:
    """The planned knockouts with draws, seeds and results, or the "if it ended now" view
    before they are planned (six queries once planned, two before)."""
    from duels.models import Duel

    if not tournament.tiebreak_seed or tournament.phase in (
        Phase.DRAFT,
        Phase.REGISTRATION,
        Phase.GROUP_PHASE,
    ):
        rows = read_models.standings(tournament)
        _, aside = _plan_notes(tournament, rows)
        return {"planned": False, "what_if": aside, "mode": tournament.tiebreak_mode}
    from .services.progression import tiebreak_plan

    plan = tiebreak_plan(tournament)
    names = dict(Entrant.objects.filter(tournament=tournament).values_list("pk", "name"))
    duels = {
        pk: (status, table, seq)
        for pk, status, table, seq in Duel.objects.filter(
            tournament=tournament, kind="tie_break"
        ).values_list("pk", "status", "table", "seq")
    }
    void = [
        {
            "id": pk,
            "title": presentation.title_of("tie_break", stage, None),
            "seat_a": names.get(a),
            "seat_b": names.get(b),
            "moves": seq,
        }
        for pk, stage, a, b, seq in Duel.objects.filter(
            tournament=tournament, kind="tie_break", status="void"
        )
        .order_by("pk")
        .values_list("pk", "stage", "seat_a_id", "seat_b_id", "seq")
    ]
    titles = {k.key: f"positions {k.first}–{k.last}" for k in plan.knockouts}
    knockouts = []
    for k in plan.knockouts:
        knockouts.append(
            {
                "key": k.key,
                "seed": k.seed,
                "points": k.points,
                "positions": (k.first, k.last),
                "state": k.state,
                "parent": titles.get(k.parent) if k.parent else None,
                "draw": [names.get(p, "?") for p in k.line],
                "rounds": [
                    {
                        "number": r.number,
                        "byes": [names.get(p, "?") for p in r.byes],
                        "matches": [
                            {
                                "number": m.number,
                                "seat_a": names.get(m.seat_a, "?"),
                                "seat_b": names.get(m.seat_b, "?"),
                                "winner": names.get(m.winner),
                                "walkover": m.walkover,
                                "id": m.ref,
                                "status": duels.get(m.ref, ("to be created",))[0],
                                "table": duels.get(m.ref, ("", ""))[1] if m.ref else "",
                                "moves": duels.get(m.ref, ("", "", 0))[2] if m.ref else 0,
                            }
                            for m in r.matches
                        ],
                    }
                    for r in k.rounds
                ],
            }
        )
    tiers = [
        {
            "positions": (t.first, t.last),
            "players": [names.get(p, "?") for p in t.players],
            "points": t.points,
            "state": t.state,
        }
        for t in plan.tiers
        if t.first <= 4
    ]
    return {
        "planned": True,
        "mode": plan.mode,
        "master_seed": plan.master_seed,
        "settled": plan.settled,
        "knockouts": knockouts,
        "tiers": tiers,
        "void": void,
    }


# -- the Page playoff ------------------------------------------------------------------------

# Where each stage's players come from and where they go (TOURNAMENT.md "Playoffs").
ROUTES = {
    "Q1": ("Seed 1", "Seed 2", "Grand Final", "Qualifier 2"),
    "E1": ("Seed 3", "Seed 4", "Qualifier 2", "4th place"),
    "Q2": ("Loser of Qualifier 1", "Winner of the Eliminator", "Grand Final", "3rd place"),
    "GF": ("Winner of Qualifier 1", "Winner of Qualifier 2", "Champion", "2nd place"),
}


def bracket(tournament: Tournament) -> dict[str, Any]:
    """The Page playoff as a bracket: seeds, the four stages, placings (six queries once
    started, none before)."""
    from duels.models import Duel

    from .services.progression import playoff_bracket

    if not tournament.playoff_seeding:
        return {
            "started": False,
            "stages": [],
            "placings": [],
            "complete": False,
            "champion": None,
            "void": [],
        }
    current = playoff_bracket(tournament)
    names = dict(Entrant.objects.filter(tournament=tournament).values_list("pk", "name"))
    seed_of = {p: i for i, p in enumerate(current.seeding, start=1) if p is not None}
    info = {
        pk: (status, table, seq)
        for pk, status, table, seq in Duel.objects.filter(
            tournament=tournament, kind="playoff"
        ).values_list("pk", "status", "table", "seq")
    }
    void = [
        {
            "id": pk,
            "title": fmt.STAGE_NAMES.get(stage, stage),
            "seat_a": names.get(a),
            "seat_b": names.get(b),
            "moves": info.get(pk, ("", "", 0))[2],
        }
        for pk, stage, a, b in Duel.objects.filter(
            tournament=tournament, kind="playoff", status="void"
        )
        .order_by("pk")
        .values_list("pk", "stage", "seat_a_id", "seat_b_id")
    ]
    stages = []
    for m in current.matches:
        came_a, came_b, win_to, lose_to = ROUTES[m.stage]
        status, table, moves = info.get(m.ref, ("", "", 0)) if m.ref else ("", "", 0)
        stages.append(
            {
                "stage": m.stage,
                "name": fmt.STAGE_NAMES[m.stage],
                "known": m.known,
                "seats": [
                    _seat(m.seat_a, m, names, seed_of, came_a),
                    _seat(m.seat_b, m, names, seed_of, came_b),
                ],
                "decided": m.decided,
                "walkover": m.walkover,
                "id": m.ref,
                "status": status or ("decided" if m.decided else "waiting"),
                "table": table,
                "moves": moves,
                "winner_to": win_to,
                "loser_to": lose_to,
            }
        )
    places = [
        {"place": place, "name": names.get(p) if p is not None else None}
        for place, p in sorted(current.placings.items())
    ]
    champion = next((p["name"] for p in places if p["place"] == 1), None)
    return {
        "started": True,
        "stages": stages,
        "placings": places,
        "complete": current.complete,
        "champion": champion,
        "void": void,
        "seeding": [
            {"seed": i, "name": names.get(p) if p is not None else None}
            for i, p in enumerate(current.seeding, start=1)
        ],
    }


def _seat(
    player: int | None,
    match: fmt.PlayoffMatch,
    names: dict[int, str],
    seed_of: dict[int, int],
    came_from: str,
) -> dict[str, Any]:
    return {
        "name": names.get(player) if player is not None else None,
        "seed": seed_of.get(player) if player is not None else None,
        "from": came_from,
        "vacant": match.known and player is None,
        "winner": match.decided and player is not None and match.winner == player,
        "loser": match.decided and player is not None and match.loser == player,
    }


# -- the big screen --------------------------------------------------------------------------

SCREEN_ROWS = 16  # two columns of eight lines stay readable from the back of a room


def screen_standings(tournament: Tournament) -> dict[str, Any]:
    """The top of the table for the projector (one query; five with the plan)."""
    data = standings(tournament)
    rows = [r for r in data["rows"] if r["rank"] is not None or r["placing"]][:SCREEN_ROWS]
    half = (len(rows) + 1) // 2
    return {
        "columns": [rows[:half], rows[half:]] if len(rows) > 8 else [rows],
        "final": data["final"],
        "more": max(0, data["active"] - len(rows)),
    }


# -- a referee's score sheet -----------------------------------------------------------------

SHEET_LINES = 26  # with the header and the signatures: one A4 page


def sheet(tournament: Tournament, duel_id: int):
    """The duel a score sheet is printed for, as a line (one query), or None."""
    duel = _duel_queryset(tournament=tournament, pk=duel_id).first()
    return duel_line(duel) if duel else None


# -- the player's pages ----------------------------------------------------------------------


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

    from .models import StandingRow

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
        _duel_queryset()
        .filter(Q(seat_a__user=user) | Q(seat_b__user=user))
        .select_related("tournament")
    )


@dataclass(frozen=True)
class MyDuel:
    """A duel from the player's side: who they play, and how it went for them."""

    line: DuelLine
    me: str
    opponent: str | None
    outcome: str  # "won", "lost", "no result", "void", "" (not played yet)
    points: int | None  # +3 / −2 in the group phase


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
