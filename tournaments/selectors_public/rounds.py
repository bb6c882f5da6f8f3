"""The 15 group rounds, their duels and each group's members at that round."""

from typing import Any

from .. import presentation, read_models
from ..models import Group, Tournament


def rounds(tournament: Tournament) -> dict[str, Any]:
    """The 15 rounds, their duels and each group's members at that round (five queries)."""
    groups_ = list(Group.objects.filter(tournament=tournament).values_list("pk", "name"))
    out = []
    for row in read_models.rounds(tournament):
        out.append(
            {
                "number": row["number"],
                "status": row["status"],
                "state": row["state"],
                "state_label": row["state_label"],
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
