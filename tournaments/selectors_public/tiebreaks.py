"""The tie-breaks: the planned knockouts with draws, seeds and results, or before they are
planned what the standings would need."""

from typing import Any

from .. import presentation, read_models
from ..models import Entrant, Phase, Tournament
from ..selectors import plan_provisional
from .lines import replays_of_voided
from .standings import knockout_state, mode_name, plan_notes


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
        _, aside = plan_notes(tournament, rows)
        return {
            "planned": False,
            "what_if": aside,
            "mode": tournament.tiebreak_mode,
            "mode_label": mode_name(tournament.tiebreak_mode),
        }
    from ..services.progression import tiebreak_plan

    plan = tiebreak_plan(tournament)
    provisional = plan_provisional(tournament)
    names = dict(Entrant.objects.filter(tournament=tournament).values_list("pk", "name"))
    rows = list(
        Duel.objects.filter(tournament=tournament, kind="tie_break").values_list(
            "pk", "stage", "status", "table", "seq", "replay_of_id", "result__winner_id"
        )
    )
    duels = {pk: (status, table, seq) for pk, _, status, table, seq, _, _ in rows}
    replaced = replays_of_voided([(pk, stage, st, w) for pk, stage, st, _, _, _, w in rows], names)
    rematches = {pk for pk, *_, replay_of, _ in rows if replay_of is not None}
    void = [
        {
            "id": pk,
            "title": presentation.title_of("tie_break", stage, None, replay=pk in rematches),
            "seat_a": names.get(a),
            "seat_b": names.get(b),
            "moves": seq,
            "replay": replaced.get(pk, ""),
        }
        for pk, stage, a, b, seq in Duel.objects.filter(
            tournament=tournament, kind="tie_break", status="void"
        )
        .order_by("pk")
        .values_list("pk", "stage", "seat_a_id", "seat_b_id", "seq")
    ]
    # The knockout a knockout of losers comes from, by its positions (first, last).
    spans = {k.key: (k.first, k.last) for k in plan.knockouts}
    knockouts = []
    for k in plan.knockouts:
        knockouts.append(
            {
                "key": k.key,
                "seed": k.seed,
                "points": k.points,
                "positions": (k.first, k.last),
                "state": k.state,
                "state_label": knockout_state(k.state),
                "parent": spans.get(k.parent) if k.parent else None,
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
        "mode_label": mode_name(plan.mode),
        "master_seed": plan.master_seed,
        # A group replay still due: the plan may change with its result (TOURNAMENT.md).
        "settled": plan.settled and not provisional,
        "provisional": provisional,
        "knockouts": knockouts,
        "tiers": tiers,
        "void": void,
    }
