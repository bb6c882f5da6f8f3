"""The individual table with what each player faces beside it, and the big screen's board."""

from typing import Any

from django.utils.translation import gettext, pgettext, pgettext_lazy

from .. import format as fmt
from .. import presentation, read_models
from ..models import Phase, Tournament
from ..selectors import plan_provisional
from .lines import rank_label

# A knockout's state and a tie-break mode, as the pages name them (the keys stay the engine's).
KNOCKOUT_STATES = {
    "playing": pgettext_lazy("a tie-break knockout", "playing"),
    "finished": pgettext_lazy("a tie-break knockout", "finished"),
    "stopped": pgettext_lazy("a tie-break knockout", "stopped"),
}
MODE_NAMES = {
    "full": pgettext_lazy("tie-break mode", "full"),
    "minimal": pgettext_lazy("tie-break mode", "minimal"),
}


def knockout_state(state: str) -> str:
    return str(KNOCKOUT_STATES.get(state, state))


def mode_name(mode: str) -> str:
    return str(MODE_NAMES.get(mode, mode))


def and_list(names: list[str]) -> str:
    """ "Ada", "Ada and Bo", "Ada, Bo and Cy", in the page's language."""
    if len(names) < 2:
        return "".join(names)
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def plan_notes(tournament: Tournament, rows: list[dict[str, Any]]) -> tuple[dict, dict]:
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
        from ..services.progression import tiebreak_plan

        plan = tiebreak_plan(tournament)
        provisional = plan_provisional(tournament)
        for tier in plan.tiers:
            for player in tier.players:
                notes[player] = _tier_note(tier)
        aside = {
            "planned": True,
            # A group replay still due: the plan may change with its result (TOURNAMENT.md).
            "settled": plan.settled and not provisional,
            "provisional": provisional,
            "knockouts": [
                {
                    "players": [names.get(p, "?") for p in k.line],
                    "positions": (k.first, k.last),
                    "points": k.points,
                    "state": k.state,
                    "state_label": knockout_state(k.state),
                    "sub": k.parent is not None,
                }
                for k in plan.knockouts
            ],
            "shared": [],
            "mode": plan.mode,
            "mode_label": mode_name(plan.mode),
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
            {
                "players": [names[p] for p in t.players],
                "players_text": and_list([names[p] for p in t.players]),
                "positions": (t.first, t.last),
            }
            for t in what_if.shared
        ],
        "mode": tournament.tiebreak_mode,
        "mode_label": mode_name(tournament.tiebreak_mode),
    }
    return notes, aside


def _tier_note(tier: fmt.Tier) -> str:
    """The note beside a player's row: only positions 1–4 are ever separated."""
    if tier.first > 4:
        return ""
    if tier.state == "placed":
        return pgettext("beside a player's row", "Position %(n)s") % {"n": tier.first}
    if tier.state == "shared":
        return gettext("Shares positions %(first)s–%(last)s") % {
            "first": tier.first,
            "last": tier.last,
        }
    return gettext("Tie-break: positions %(first)s–%(last)s") % {
        "first": tier.first,
        "last": tier.last,
    }


def placings_of(tournament: Tournament) -> dict[int, int]:
    """Player → placing 1–4, once published (no query: the tournament's row holds them)."""
    return {int(k): v for k, v in (tournament.placings or {}).items()}


def in_final_order(
    rows: list[dict[str, Any]],
    place_of: dict[int, int],
    still_in: dict[int, tuple[int, ...]] | None = None,
) -> list[dict[str, Any]]:
    """`read_models.standings` rows in the final table's order (TOURNAMENT.md "Standings":
    placings 1–4 first, then everyone else by group-phase rank, inactive players last); while
    the playoffs run, the qualifiers by the places still open to them (`fmt.final_table`)."""
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
        still_in,
    )
    order = {line.player: line.line for line in table}
    return sorted(rows, key=lambda r: order[r["player"]])


def playoff_places(tournament: Tournament) -> tuple[dict[int, int], dict[int, tuple[int, ...]]]:
    """While the playoffs run: the places given so far (player → place, as the bracket has
    them) and the places still open to each qualifier still in (three queries). Otherwise
    the published placings and nothing open (no query)."""
    if tournament.phase != Phase.PLAYOFFS or not tournament.playoff_seeding:
        return placings_of(tournament), {}
    from ..services.progression import playoff_bracket

    current = playoff_bracket(tournament)
    place_of = {p: place for place, p in current.placings.items() if p is not None}
    return place_of, fmt.places_open(current)


def standings(tournament: Tournament) -> dict[str, Any]:
    """The individual table with "T3" ranks, what each player faces beside it; while the
    playoffs run, the playoff table (the qualifiers by the places still open to them); the
    final table once the placings are published (one query; four while the tie-breaks are
    planned or the playoffs run)."""
    rows = read_models.standings(tournament)
    place_of, still_in = playoff_places(tournament)
    kind = "playoffs" if still_in else "final" if place_of else "standings"
    placed = kind != "standings"
    # Once the playoffs run the plan is history: the playoff and final tables need no notes.
    notes, aside = plan_notes(tournament, rows) if not placed else ({}, {})
    if placed:
        rows = in_final_order(rows, place_of, still_in)
    out = []
    for r in rows:
        placing = place_of.get(r["player"])
        out.append(
            {
                **r,
                "rank_label": rank_label(r["rank"], r["shared"], r["status"]),
                "placing": placing,
                "place_label": presentation.place_label(placing, still_in.get(r["player"], ())),
                "note": notes.get(r["player"], ""),
            }
        )
    return {
        "rows": out,
        "aside": aside,
        # A table of places (final, or the playoffs so far): a Place column, no notes.
        "final": placed,
        "heading": presentation.table_heading(kind),
        "caption": presentation.table_caption(kind),
        "active": sum(1 for r in rows if r["rank"] is not None),
    }


SCREEN_ROWS = 16  # two columns of eight lines stay readable from the back of a room


def screen_standings(tournament: Tournament) -> dict[str, Any]:
    """The top of the table for the projector (one query; five with the plan)."""
    data = standings(tournament)
    rows = [r for r in data["rows"] if r["rank"] is not None or r["place_label"]][:SCREEN_ROWS]
    half = (len(rows) + 1) // 2
    return {
        "columns": [rows[:half], rows[half:]] if len(rows) > 8 else [rows],
        "final": data["final"],
        "heading": data["heading"],
        "more": max(0, data["active"] - len(rows)),
    }
