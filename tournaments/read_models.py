"""Reads for the public API and pages: plain dicts in a fixed number of queries.

Only what TOURNAMENT.md makes public: no withdrawal reasons, no audit log, no pending gifts.
"""

from typing import Any

from duels.models import DuelStatus
from duels.selectors import events_of as duel_log

from . import format as fmt
from . import presentation
from .models import Entrant, GroupTotal, Round, StandingRow, Tournament
from .selectors import membership_at, membership_rows, plan_provisional, round_state
from .services.lifecycle import OPEN


def _names(tournament: Tournament) -> dict[int, str]:
    return dict(Entrant.objects.filter(tournament=tournament).values_list("pk", "name"))


def summary(tournament: Tournament) -> dict[str, Any]:
    """The tournament at a glance (3 queries)."""
    totals = {g.group_id: g for g in GroupTotal.objects.filter(group__tournament=tournament)}
    groups = []
    for group in tournament.groups.order_by("order"):
        total = totals.get(group.pk)
        groups.append(
            {
                "id": group.pk,
                "name": group.name,
                "order": group.order,
                "total": total.total if total else 0,
                "status": total.status if total else "active",
            }
        )
    current = (
        Round.objects.filter(tournament=tournament, status="open")
        .values_list("number", flat=True)
        .first()
    )
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "phase": tournament.phase,
        "published": tournament.published,
        "version": tournament.standings_version,
        "settings": {
            "duel_preset": tournament.duel_preset,
            "variants": tournament.variants,
            "tiebreak_mode": tournament.tiebreak_mode,
            "shared_cards": tournament.shared_cards,
            "duel_time_limit_minutes": tournament.duel_time_limit_minutes,
            # ONLINE.md 6: duels played online by their players, and each seal's or
            # decision's seat clock (seconds) there.
            "online_duels": tournament.online_duels,
            "seat_clock_seconds": tournament.seat_clock,
        },
        "groups": groups,
        "current_round": current,
        "top_four_settled": tournament.top_four_settled_at is not None,
        "placings": {int(k): v for k, v in tournament.placings.items()},
    }


def standings(tournament: Tournament) -> list[dict[str, Any]]:
    """The individual table, in display order, ranks shared as TOURNAMENT.md says (1 query)."""
    rows = list(
        StandingRow.objects.filter(tournament=tournament).values_list(
            "entrant_id",
            "entrant__name",
            "entrant__status",
            "points",
            "played",
            "won",
            "lost",
            "rank",
            "position",
        )
    )
    ranks = [r[7] for r in rows]
    return [
        {
            "player": pk,
            "name": name,
            "status": status,
            "points": points,
            "played": played,
            "won": won,
            "lost": lost,
            "rank": rank,
            "shared": rank is not None and ranks.count(rank) > 1,
            "position": position,
        }
        for pk, name, status, points, played, won, lost, rank, position in rows
    ]


def group_table(tournament: Tournament) -> list[dict[str, Any]]:
    """Each group's total, progression round by round, status and members now (3 queries)."""
    totals = {g.group_id: g for g in GroupTotal.objects.filter(group__tournament=tournament)}
    members: dict[int, list[str]] = {}
    for group_id, name in (
        Entrant.objects.filter(tournament=tournament, status="active", group__isnull=False)
        .order_by("name")
        .values_list("group_id", "name")
    ):
        members.setdefault(group_id, []).append(name)
    out = []
    for group in tournament.groups.order_by("order"):
        total = totals.get(group.pk)
        out.append(
            {
                "id": group.pk,
                "name": group.name,
                "total": total.total if total else 0,
                "by_round": total.by_round if total else [],
                "status": total.status if total else "active",
                "eliminated_at_round": group.eliminated_at_round,
                "members": members.get(group.pk, []),
            }
        )
    return out


STATUS_LABELS = dict(DuelStatus.choices)


def _duel_row(duel, names: dict[int, str]) -> dict[str, Any]:
    result = getattr(duel, "result", None) if duel.status in ("finished", "void") else None
    # A voided duel's result no longer counts: no winner is named for it (results.csv, the
    # API), though its finish stays, as played.
    winner_id = result.winner_id if result and duel.status == "finished" else None
    return {
        "id": duel.pk,
        "kind": duel.kind,
        "stage": duel.stage,
        "table": duel.table,
        "round": duel.round.number if duel.round_id else None,
        "status": duel.status,
        "seat_a": names.get(duel.seat_a_id),
        "seat_b": names.get(duel.seat_b_id),
        "seat_a_id": duel.seat_a_id,
        "seat_b_id": duel.seat_b_id,
        "winner": names.get(winner_id) if winner_id else None,
        "finish": result.finish if result else None,
        "corrected": result.corrected if result else False,
        "correction_reason": result.correction_reason if result else "",
        # The words pages show for the keys above (tournaments/presentation.py).
        "title": presentation.title_of(
            duel.kind,
            duel.stage,
            duel.round.number if duel.round_id else None,
            replay=duel.replay_of_id is not None,
        ),
        "table_label": presentation.table_label(duel.table),
        "status_label": str(STATUS_LABELS.get(duel.status, duel.status)),
        "finish_label": presentation.finish_label(result.finish) if result else "",
    }


def _duels(tournament: Tournament, **filters):
    from duels.models import Duel

    return (
        Duel.objects.filter(tournament=tournament, **filters)
        .select_related("round", "result")
        .order_by("pk")
    )


def rounds(tournament: Tournament) -> list[dict[str, Any]]:
    """The 15 rounds with their duels and each group's membership at that round (4 queries)."""
    names = _names(tournament)
    by_round: dict[int, list] = {}
    for duel in _duels(tournament, round__isnull=False):
        by_round.setdefault(duel.round.number, []).append(_duel_row(duel, names))
    changes = membership_rows(tournament)
    out = []
    for number, status in Round.objects.filter(tournament=tournament).values_list(
        "number", "status"
    ):
        members = {
            str(group): sorted(names[e] for e in entrants)
            for group, entrants in membership_at(changes, number).items()
        }
        duels = by_round.get(number, [])
        state = round_state(
            status,
            decisive=any(d["status"] == "finished" and d["winner"] for d in duels),
            replay_due=any(d["status"] in OPEN for d in duels),
        )
        out.append(
            {
                "number": number,
                "status": status,
                "state": state,
                "state_label": presentation.round_state_label(state),
                "duels": duels,
                "members": members,
            }
        )
    return out


def duel_detail(tournament: Tournament, duel) -> dict[str, Any]:
    """One duel with its state and its log, undone moves included and marked (2 queries)."""
    names = _names(tournament)
    row = _duel_row(duel, names)
    row["state"] = duel.state
    row["log"] = [
        {"seq": seq, "event": payload, "summary": summary, "undone": undone is not None}
        for _, seq, payload, summary, _, undone in duel_log(duel)
    ]
    return row


def tiebreaks(tournament: Tournament) -> dict[str, Any]:
    """The tie-break plan with its draws and seeds, and the "if it ended now" view."""
    from .services.progression import tiebreak_plan

    names = _names(tournament)
    rows = standings(tournament)
    points = {r["player"]: r["points"] for r in rows if r["rank"] is not None}
    what_if = fmt.what_if_now(points, mode=tournament.tiebreak_mode)
    out: dict[str, Any] = {
        "mode": tournament.tiebreak_mode,
        "if_it_ended_now": {
            "knockouts": [
                {
                    "players": [names[p] for p in k.players],
                    "points": k.points,
                    "positions": [k.first, k.last],
                    "byes": k.byes,
                    "first_round_duels": k.first_round_duels,
                    "rounds": k.rounds,
                }
                for k in what_if.knockouts
            ],
            "shared": [
                {"players": [names[p] for p in t.players], "positions": [t.first, t.last]}
                for t in what_if.shared
            ],
        },
        "planned": None,
    }
    if tournament.tiebreak_seed:
        plan = tiebreak_plan(tournament)
        provisional = plan_provisional(tournament)
        out["planned"] = {
            "master_seed": plan.master_seed,
            # A group replay still due makes the plan provisional: nothing is settled yet.
            "settled": plan.settled and not provisional,
            "provisional": provisional,
            "positions": {str(k): [names[p] for p in v] for k, v in plan.positions.items()},
            "knockouts": [
                {
                    "key": k.key,
                    "seed": k.seed,
                    "draw": [names[p] for p in k.line],
                    "positions": [k.first, k.last],
                    "points": k.points,
                    "state": k.state,
                    "rounds": [
                        {
                            "number": r.number,
                            "byes": [names[p] for p in r.byes],
                            "matches": [
                                {
                                    "key": m.key,
                                    "seat_a": names[m.seat_a],
                                    "seat_b": names[m.seat_b],
                                    "winner": names.get(m.winner),
                                    "walkover": m.walkover,
                                }
                                for m in r.matches
                            ],
                        }
                        for r in k.rounds
                    ],
                }
                for k in plan.knockouts
            ],
        }
    return out


def bracket(tournament: Tournament) -> dict[str, Any]:
    """The Page playoff as it stands, with the placings once known."""
    from .services.progression import playoff_bracket

    names = _names(tournament)
    if not tournament.playoff_seeding:
        return {"started": False, "seeding": [], "matches": [], "placings": {}}
    current = playoff_bracket(tournament)
    return {
        "started": True,
        "seeding": [names.get(p) for p in current.seeding],
        "matches": [
            {
                "stage": m.stage,
                "name": presentation.stage_name(m.stage, m.stage),
                "known": m.known,
                "seat_a": names.get(m.seat_a),
                "seat_b": names.get(m.seat_b),
                "winner": names.get(m.winner),
                "decided": m.decided,
                "walkover": m.walkover,
            }
            for m in current.matches
        ],
        "complete": current.complete,
        "placings": {str(place): names.get(p) for place, p in current.placings.items()},
    }
