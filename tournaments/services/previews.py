"""What a correction or a void will change, found by running the very service and rolling it
back (TOURNAMENT.md "Corrections": every preview names everything that will change, placings
and champion included).

The consequence comes from the code that will apply it, not from a second copy of the rules;
nothing is kept, and callbacks registered for after the commit are dropped with the savepoint.
"""

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from duels.models import Duel, DuelStatus

from .. import presentation
from ..models import GroupTotal, Phase, Round, RoundStatus, StandingRow, Tournament

PLACE_WORDS = {
    1: gettext_lazy("Champion"),
    2: gettext_lazy("2nd place"),
    3: gettext_lazy("3rd place"),
    4: gettext_lazy("4th place"),
}


class _Rollback(Exception):
    """Undoes a dry run."""


def snapshot(tournament: Tournament) -> dict[str, Any]:
    """What a ruling can change, in names: standings, totals, duels, rounds, phase, the
    tie-break plan's state, the playoff seeding and the placings."""
    row = Tournament.objects.values(
        "phase", "top_four_settled_at", "placings", "playoff_seeding"
    ).get(pk=tournament.pk)
    names = dict(tournament.entrants.values_list("pk", "name"))
    duels = Duel.objects.filter(tournament=tournament).select_related("round", "seat_a", "seat_b")
    vacant = pgettext("playoff seat", "vacant")
    return {
        "points": {
            name: (points, rank)
            for name, points, rank in StandingRow.objects.filter(tournament=tournament).values_list(
                "entrant__name", "points", "rank"
            )
        },
        "totals": dict(
            GroupTotal.objects.filter(group__tournament=tournament).values_list(
                "group__name", "total"
            )
        ),
        "duels": {
            d.pk: (
                d.status,
                _("%(duel)s: %(a)s v %(b)s")
                % {
                    "duel": presentation.duel_title(d),
                    "a": d.seat_a.name if d.seat_a else vacant,
                    "b": d.seat_b.name if d.seat_b else vacant,
                },
            )
            for d in duels
        },
        "rounds": dict(Round.objects.filter(tournament=tournament).values_list("number", "status")),
        "phase": row["phase"],
        "settled": row["top_four_settled_at"] is not None,
        "placings": {
            int(place): names.get(int(pk), "?") for pk, place in (row["placings"] or {}).items()
        },
        "seeding": [
            names.get(pk, vacant) if pk else vacant for pk in (row["playoff_seeding"] or [])
        ],
    }


def _rank(rank: int | None) -> str:
    return str(rank) if rank is not None else _("no rank")


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    out = []
    rank_only = []
    for name, (points, rank) in sorted(after["points"].items()):
        old_points, old_rank = before["points"].get(name, (0, None))
        if old_points != points:
            out.append(
                ngettext(
                    "%(name)s: %(old)s → %(n)s point, rank %(old_rank)s → %(rank)s.",
                    "%(name)s: %(old)s → %(n)s points, rank %(old_rank)s → %(rank)s.",
                    points,
                )
                % {
                    "name": name,
                    "old": old_points,
                    "n": points,
                    "old_rank": _rank(old_rank),
                    "rank": _rank(rank),
                }
            )
        elif old_rank != rank:
            rank_only.append(
                _("%(name)s (%(old_rank)s → %(rank)s)")
                % {"name": name, "old_rank": _rank(old_rank), "rank": _rank(rank)}
            )
    if rank_only:
        # Every player level on points moves with one result: a count reads better than 20
        # lines, and the names are given when they are few.
        n = len(rank_only)
        if n <= 5:
            out.append(
                ngettext(
                    "Ranks move for %(n)s other player whose points do not change: %(names)s.",
                    "Ranks move for %(n)s other players whose points do not change: %(names)s.",
                    n,
                )
                % {"n": n, "names": ", ".join(rank_only)}
            )
        else:
            out.append(
                ngettext(
                    "Ranks move for %(n)s other player whose points do not change.",
                    "Ranks move for %(n)s other players whose points do not change.",
                    n,
                )
                % {"n": n}
            )
    for name, total in after["totals"].items():
        if before["totals"].get(name) != total:
            out.append(
                _("Total of %(group)s: %(old)s → %(total)s.")
                % {"group": name, "old": before["totals"].get(name, 0), "total": total}
            )
    statuses = dict(DuelStatus.choices)
    for pk, (status, label) in after["duels"].items():
        old = before["duels"].get(pk)
        if old is None:
            out.append(_("New duel to play — %(duel)s.") % {"duel": label})
        elif old[0] != status:
            out.append(
                _("%(duel)s: %(old)s → %(new)s.")
                % {
                    "duel": label,
                    "old": str(statuses[old[0]]).lower(),
                    "new": str(statuses[status]).lower(),
                }
            )
    round_status = dict(RoundStatus.choices)
    for number, status in after["rounds"].items():
        if before["rounds"].get(number) != status:
            out.append(
                _("Group round %(number)s: %(old)s → %(new)s.")
                % {
                    "number": number,
                    "old": str(round_status[before["rounds"][number]]).lower(),
                    "new": str(round_status[status]).lower(),
                }
            )
    if before["phase"] != after["phase"]:
        phases = dict(Phase.choices)
        out.append(
            _("Phase: %(old)s → %(new)s.")
            % {"old": phases[before["phase"]], "new": phases[after["phase"]]}
        )
    if before["settled"] != after["settled"]:
        out.append(
            _("Positions 1–4 become settled.")
            if after["settled"]
            else _("Positions 1–4 are no longer settled: tie-breaks are planned again.")
        )
    if before["seeding"] != after["seeding"]:
        out.append(
            _("Playoff seeding: %(old)s → %(new)s.")
            % {"old": ", ".join(before["seeding"]), "new": ", ".join(after["seeding"])}
        )
    for place in sorted(set(before["placings"]) | set(after["placings"])):
        old, new = before["placings"].get(place), after["placings"].get(place)
        if old != new:
            out.append(
                _("%(place)s: %(old)s → %(new)s.")
                % {
                    "place": PLACE_WORDS.get(place) or _("Place %(number)s") % {"number": place},
                    "old": old or _("not decided"),
                    "new": new or _("not decided yet"),
                }
            )
    return out


def preview(tournament: Tournament, apply: Callable[[], Any]) -> list[str]:
    """The differences `apply` would make, with nothing kept."""
    before = snapshot(tournament)
    after: dict[str, Any] = {}
    try:
        with transaction.atomic():
            apply()
            after = snapshot(tournament)
            raise _Rollback
    except _Rollback:
        pass
    return differences(before, after)
