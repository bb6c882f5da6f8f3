"""The names of a tournament's things: the one place a tournament, group or player name is
cleaned and checked before it is stored (core.names says how names are cleaned and compared).

Every service that creates or renames a tournament, a group or an entrant calls these: the
organiser pages, the pasted list and the CSV import, set-up, the simulation and the demo.
Tournament names are not unique (the address, the slug, tells tournaments apart); a group's
name is unique within its tournament, and so is a player's, by `core.names.name_key`.
"""

from collections.abc import Iterable

from core.errors import ServiceError
from core.names import clean_name, name_key

from ..models import ENTRANT_NAME_MAX, GROUP_NAME_MAX, TOURNAMENT_NAME_MAX, Tournament

SAME_NAME_RULE = "names that differ only in capitals, character width or invisible characters"


def clean_tournament_name(name: str | None) -> str:
    return clean_name(
        name,
        what="A tournament's name",
        max_length=TOURNAMENT_NAME_MAX,
        missing="Give the tournament a name.",
    )


def clean_group_name(name: str | None) -> str:
    return clean_name(
        name,
        what="A group's name",
        max_length=GROUP_NAME_MAX,
        missing="Give the two groups two different names.",
    )


def clean_entrant_name(name: str | None) -> str:
    return clean_name(
        name, what="A player's name", max_length=ENTRANT_NAME_MAX, missing="A player needs a name."
    )


def collision_message(name: str, existing: str, where: str) -> str:
    """In words: `name` is taken, and by which spelling when it looks different."""
    if existing == name:
        return f"“{name}” is already {where}."
    return f"“{name}” is already {where} as “{existing}”: {SAME_NAME_RULE} are the same name."


def check_entrant_name_free(
    tournament: Tournament, name: str, *, exclude_pk: int | None = None
) -> None:
    """Refuse `name` when a player of `tournament` has a name with the same key."""
    clash = tournament.entrants.filter(name_key=name_key(name))
    if exclude_pk is not None:
        clash = clash.exclude(pk=exclude_pk)
    existing = clash.values_list("name", flat=True).first()
    if existing is not None:
        raise ServiceError(collision_message(name, existing, "registered in this tournament"))


def check_group_names(names: Iterable[str]) -> list[str]:
    """Clean the two groups' names and refuse two that look alike."""
    cleaned = [clean_group_name(n) for n in names]
    if len({name_key(n) for n in cleaned}) < len(cleaned):
        raise ServiceError(
            f"Give the two groups two different names: {SAME_NAME_RULE} are the same name."
        )
    return cleaned
