"""The Page playoff as a bracket: seeds, routes, results, placings and the champion."""

from typing import Any

from django.utils.translation import pgettext_lazy

from .. import format as fmt
from .. import presentation
from ..models import Entrant, Tournament
from .lines import replays_of_voided

# Each stage: where its two seats come from, where its winner and its loser go (the context is
# written out in each call: makemessages reads only literal strings).
ROUTES = {
    "Q1": (
        pgettext_lazy("playoff route", "Seed 1"),
        pgettext_lazy("playoff route", "Seed 2"),
        pgettext_lazy("playoff route", "Grand Final"),
        pgettext_lazy("playoff route", "Qualifier 2"),
    ),
    "E1": (
        pgettext_lazy("playoff route", "Seed 3"),
        pgettext_lazy("playoff route", "Seed 4"),
        pgettext_lazy("playoff route", "Qualifier 2"),
        pgettext_lazy("playoff route", "4th place"),
    ),
    "Q2": (
        pgettext_lazy("playoff route", "Loser of Qualifier 1"),
        pgettext_lazy("playoff route", "Winner of the Eliminator"),
        pgettext_lazy("playoff route", "Grand Final"),
        pgettext_lazy("playoff route", "3rd place"),
    ),
    "GF": (
        pgettext_lazy("playoff route", "Winner of Qualifier 1"),
        pgettext_lazy("playoff route", "Winner of Qualifier 2"),
        pgettext_lazy("playoff route", "Champion"),
        pgettext_lazy("playoff route", "2nd place"),
    ),
}


def bracket(tournament: Tournament) -> dict[str, Any]:
    """The Page playoff as a bracket: seeds, the four stages, placings (six queries once
    started, none before)."""
    from duels.models import Duel

    from ..services.progression import playoff_bracket

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
    info: dict[int, tuple[str, str, int]] = {}
    replays: set[int] = set()  # rematches of a drawn playoff duel
    rows = []  # (pk, stage, status, winner): what took a voided duel's place
    for pk, stage, status, table, seq, replay_of, winner in Duel.objects.filter(
        tournament=tournament, kind="playoff"
    ).values_list("pk", "stage", "status", "table", "seq", "replay_of_id", "result__winner_id"):
        info[pk] = (status, table, seq)
        rows.append((pk, stage, status, winner))
        if replay_of is not None:
            replays.add(pk)
    replaced = replays_of_voided(rows, names)
    void = [
        {
            "id": pk,
            "title": presentation.title_of("playoff", stage, None, replay=pk in replays),
            "seat_a": names.get(a),
            "seat_b": names.get(b),
            "moves": info.get(pk, ("", "", 0))[2],
            "replay": replaced.get(pk, ""),
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
                "name": presentation.stage_label("playoff", m.stage),
                "replay": m.ref in replays,
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
