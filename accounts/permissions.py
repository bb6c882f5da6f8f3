"""The one permission helper every view uses (TOURNAMENT.md, "Who does what").

`roles_of` says who a person is in a tournament; `can` says whether they may do something.
Views use `tournament_view`, which answers 404 where the tournament is not visible to the
person (unpublished pages are 404 to the public) and 403 where it is visible but the action
is not theirs.
"""

from collections.abc import Callable, Iterable
from enum import StrEnum
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

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


_REFEREE = {Action.NAME_REPRESENTATIVES, Action.REFEREE_DUELS, Action.RECORD_SHARED_CARD}
_CO_ORGANISER = _REFEREE | {
    Action.MANAGE_SETTINGS, Action.MANAGE_REGISTRATION, Action.MANAGE_GROUPS,
    Action.WITHDRAW_PLAYERS, Action.MANAGE_REFEREES, Action.PUBLISH, Action.START_PHASES,
    Action.CORRECT_RESULTS, Action.VIEW_AUDIT_LOG,
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


def roles_of(user: Any, tournament: Any) -> frozenset[Who]:
    """Who `user` is in `tournament`: at most one query for roles and one for the entry."""
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
    for role in TournamentRole.objects.filter(tournament=tournament, user=user).values_list(
        "role", flat=True
    ):
        who.add(Who(role))
    if tournament.entrants.filter(user=user).exists():
        who.add(Who.PLAYER)
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


def tournament_view(action: Action) -> Callable:
    """Decorate a view taking `slug`: loads the tournament and enforces `action`.

    The view receives `tournament` instead of `slug`.
    """

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            from tournaments.models import Tournament

            tournament = get_object_or_404(Tournament.objects.select_related("created_by"),
                                           slug=slug)
            if not can_view(request.user, tournament):
                # 404, not a sign-in prompt: an unpublished tournament's existence is private.
                raise Http404("No such tournament.")
            if not can(request.user, action, tournament):
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                raise PermissionDenied(
                    "Your role in this tournament does not allow this."
                )
            return view(request, *args, tournament=tournament, **kwargs)

        return wrapped

    return decorator
