"""The names of a tournament's things: the one place a tournament, group or player name is
cleaned and checked before it is stored (core.names says how names are cleaned and compared).

Every service that creates or renames a tournament, a group or an entrant calls these: the
organiser pages, the pasted list and the CSV import, set-up, the simulation and the demo.
Tournament names are not unique (the address, the slug, tells tournaments apart); a group's
name is unique within its tournament, and so is a player's, by `core.names.name_key`.
"""

from collections.abc import Iterable

from django.utils.translation import gettext as _

from core.errors import ServiceError
from core.names import clean_name, name_key

from ..models import ENTRANT_NAME_MAX, GROUP_NAME_MAX, TOURNAMENT_NAME_MAX, Tournament


def clean_tournament_name(name: str | None) -> str:
    return clean_name(
        name,
        what=_("A tournament's name"),
        max_length=TOURNAMENT_NAME_MAX,
        missing=_("Give the tournament a name."),
    )


def clean_group_name(name: str | None) -> str:
    return clean_name(
        name,
        what=_("A group's name"),
        max_length=GROUP_NAME_MAX,
        missing=_("Give the two groups two different names."),
    )


def clean_entrant_name(name: str | None) -> str:
    return clean_name(
        name,
        what=_("A player's name"),
        max_length=ENTRANT_NAME_MAX,
        missing=_("A player needs a name."),
    )


def collision_message(name: str, existing: str, where: str) -> str:
    """In words: `name` is taken, and by which spelling when it looks different. `where`:
    "registered" (an earlier line of the same list) or "tournament" (a player already in)."""
    words = {"name": name, "existing": existing}
    if where == "registered":
        if existing == name:
            return _("“%(name)s” is already registered.") % words
        return (
            _(
                "“%(name)s” is already registered as “%(existing)s”: names that differ only "
                "in capitals, character width or invisible characters are the same name."
            )
            % words
        )
    if existing == name:
        return _("“%(name)s” is already registered in this tournament.") % words
    return (
        _(
            "“%(name)s” is already registered in this tournament as “%(existing)s”: names "
            "that differ only in capitals, character width or invisible characters are the "
            "same name."
        )
        % words
    )


def check_entrant_name_free(
    tournament: Tournament, name: str, *, exclude_pk: int | None = None
) -> None:
    """Refuse `name` when a player of `tournament` has a name with the same key."""
    clash = tournament.entrants.filter(name_key=name_key(name))
    if exclude_pk is not None:
        clash = clash.exclude(pk=exclude_pk)
    existing = clash.values_list("name", flat=True).first()
    if existing is not None:
        raise ServiceError(collision_message(name, existing, "tournament"))


def check_group_names(names: Iterable[str]) -> list[str]:
    """Clean the two groups' names and refuse two that look alike."""
    cleaned = [clean_group_name(n) for n in names]
    if len({name_key(n) for n in cleaned}) < len(cleaned):
        raise ServiceError(
            _(
                "Give the two groups two different names: names that differ only in "
                "capitals, character width or invisible characters are the same name."
            )
        )
    return cleaned
