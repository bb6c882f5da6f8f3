"""The one permission helper every view uses (TOURNAMENT.md, "Who does what").

`roles_of` says who a person is in a tournament; `can` says whether they may do something.
Views use `tournaments.access.tournament_view`, which loads the tournament and enforces an
action. This module takes a tournament as any object with `pk`, `created_by_id`, `published`
and `entrants`: `accounts` imports neither `tournaments` nor `duels`.
"""

import functools
from collections.abc import Iterable
from enum import StrEnum
from typing import Any

from django.db import connection

from .models import TournamentRole


class Who(StrEnum):
    ORGANISER = "organiser"
    CO_ORGANISER = "co_organiser"
    REFEREE = "referee"
    PLAYER = "player"


class Action(StrEnum):
    VIEW_PUBLIC = "view_public"  # standings, rounds, records, bracket, placings
    VIEW_OWN_ENTRY = "view_own_entry"  # a player's own entry, group and duels
    MANAGE_SETTINGS = "manage_settings"
    MANAGE_REGISTRATION = "manage_registration"  # entrants and their claim links
    MANAGE_GROUPS = "manage_groups"  # splits and transfers
    WITHDRAW_PLAYERS = "withdraw_players"
    MANAGE_REFEREES = "manage_referees"
    PUBLISH = "publish"
    START_PHASES = "start_phases"
    CORRECT_RESULTS = "correct_results"
    VIEW_AUDIT_LOG = "view_audit_log"  # and withdrawal reasons
    MANAGE_CO_ORGANISERS = "manage_co_organisers"
    CANCEL = "cancel"
    NAME_REPRESENTATIVES = "name_representatives"  # and give the duel a table
    REFEREE_DUELS = "referee_duels"  # moves, undo, forfeit, time limit, adjudication
    RECORD_SHARED_CARD = "record_shared_card"
    CHECK_IN_PLAYERS = "check_in_players"  # on the day; a player may also check themselves in


_REFEREE = {
    Action.NAME_REPRESENTATIVES,
    Action.REFEREE_DUELS,
    Action.RECORD_SHARED_CARD,
    Action.CHECK_IN_PLAYERS,
}
_CO_ORGANISER = _REFEREE | {
    Action.MANAGE_SETTINGS,
    Action.MANAGE_REGISTRATION,
    Action.MANAGE_GROUPS,
    Action.WITHDRAW_PLAYERS,
    Action.MANAGE_REFEREES,
    Action.PUBLISH,
    Action.START_PHASES,
    Action.CORRECT_RESULTS,
    Action.VIEW_AUDIT_LOG,
}
_ORGANISER = _CO_ORGANISER | {Action.MANAGE_CO_ORGANISERS, Action.CANCEL}

GRANTS: dict[Who, frozenset[Action]] = {
    Who.ORGANISER: frozenset(_ORGANISER),
    Who.CO_ORGANISER: frozenset(_CO_ORGANISER),
    Who.REFEREE: frozenset(_REFEREE),
    Who.PLAYER: frozenset({Action.VIEW_OWN_ENTRY}),
}
STAFF = frozenset({Who.ORGANISER, Who.CO_ORGANISER, Who.REFEREE})
# Acting on a duel's result is never open to someone who plays in it.
_CONFLICTED = {Action.REFEREE_DUELS, Action.CORRECT_RESULTS, Action.RECORD_SHARED_CARD}


@functools.cache
def _roles_sql(vendor: str, entrant_model: Any, entrant_tournament: Any) -> str:
    """The roles `user` was granted in a tournament, then "player" once per entry they hold
    (parameters: tournament, user, tournament, user). The entrants' table comes from the
    tournament's relation: `accounts` does not import `tournaments`. `vendor` keys the cache:
    names are quoted the database's way."""
    qn = connection.ops.quote_name
    role, entrant = TournamentRole._meta, entrant_model._meta
    # Built from the models' own table and column names only, never from input.
    return (
        f"SELECT {qn(role.get_field('role').column)} FROM {qn(role.db_table)}"  # noqa: S608
        f" WHERE {qn(role.get_field('tournament').column)} = %s"
        f" AND {qn(role.get_field('user').column)} = %s"
        f" UNION ALL SELECT '{Who.PLAYER.value}' FROM {qn(entrant.db_table)}"
        f" WHERE {qn(entrant_tournament.column)} = %s"
        f" AND {qn(entrant.get_field('user').column)} = %s"
    )


def roles_of(user: Any, tournament: Any) -> frozenset[Who]:
    """Who `user` is in `tournament`: one query for the roles and the entry, once a request."""
    if user is None or not user.is_authenticated:
        return frozenset()
    cache = getattr(user, "_tournament_roles", None)
    if cache is None:
        cache = user._tournament_roles = {}
    if tournament.pk in cache:
        return cache[tournament.pk]
    who: set[Who] = set()
    if tournament.created_by_id == user.pk:
        who.add(Who.ORGANISER)
    # One query for both (every staff page asks on every request): the roles granted, and
    # "player" once if the user holds an entry. Read afresh on every request (a revoked role
    # takes effect at once); its SQL is written once, not compiled by the ORM each time,
    # which cost more than the query itself (docs/performance.md, "Referee console").
    entrants = tournament.entrants
    with connection.cursor() as cursor:
        cursor.execute(
            _roles_sql(connection.vendor, entrants.model, entrants.field),
            [tournament.pk, user.pk, tournament.pk, user.pk],
        )
        for (role,) in cursor.fetchall():
            who.add(Who(role))
    cache[tournament.pk] = frozenset(who)
    return cache[tournament.pk]


def can_view(user: Any, tournament: Any) -> bool:
    return tournament.published or bool(roles_of(user, tournament))


def can(user: Any, action: Action, tournament: Any, *, players: Iterable[int] = ()) -> bool:
    """May `user` do `action` in `tournament`?

    `players` are the user ids playing in the duel concerned, if any: nobody referees, records
    for or corrects a duel they play in.
    """
    if action == Action.VIEW_PUBLIC:
        return can_view(user, tournament)
    who = roles_of(user, tournament)
    if not any(action in GRANTS[role] for role in who):
        return False
    return not (action in _CONFLICTED and user.pk in set(players))
