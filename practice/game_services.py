"""Writes for practice games of Trois and CPT-113 (docs/practice.md, "Other games"): start
one, play a move, and Trois's time limit. The game is a ``play.Game`` played through the
table core's one write path (``play.services.apply_command``): every event is stored, the bots'
included, so a stored game never depends on the bots' code; this module is the product around
it — whose game it is (the policy: the owner only, anyone else is told there is no such game),
the outcome for the lists, Trois's 25 minutes (a deadline of the game, kept by the core's one
clock, ``play.clock``: this module tells it whose game it is through ``clock_keeper``), and
the keep-50 policy."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from games.cpt113.state import default_names
from play import clock
from play import services as play
from play.adapters.base import Command
from play.models import Game

from .game import Refused, Unreplayable
from .models import Outcome, PracticeGame
from .seat import (
    ME,
    PERSON,
    Played,
    forget_beyond_kept,
    holders,
    owner_policy,
    person_view_with_facts,
    play_as_person,
)
from .words import NO_REVISION

#: Every seat but the person's is a heuristic bot's (the partner's too, in CPT-113).
BOT = "heuristic"
BOT_NAMES = ("Bot 1", "Bot 2", "Bot 3")
PARTNER = "Partner"
SEAT_LETTERS = "ABCDEFGH"
#: The seed's time limit; the server keeps the deadline (docs/games-trois.md, reading 5).
TIME_LIMIT_MINUTES = 25
#: How many of these games a person keeps: starting one more forgets the oldest beyond this.
KEPT_PER_PERSON = 50


def table_of(kind: str, groups: int, name: str) -> tuple[dict[str, Any], list[str]]:
    """The adapter's config and seat letters of a practice game: the person at the first seat
    (named as the log words them), heuristic bots elsewhere; CPT-113's A2 is "Partner".
    Refused for an unknown kind or number of groups, before anything is stored."""
    if kind == PracticeGame.Kind.TROIS:
        seats = list(SEAT_LETTERS[:4])
        names = [name, *BOT_NAMES]
        config: dict[str, Any] = {}
    elif kind == PracticeGame.Kind.CPT113:
        if groups not in (2, 3, 4):
            raise Refused(gettext("Choose 2, 3 or 4 groups."))
        seats = list(SEAT_LETTERS[: 2 * groups])
        names = list(default_names(groups))
        names[0], names[groups] = name, PARTNER
        config = {"groups": groups}
    else:
        raise Refused(gettext("Choose Trois or CPT-113."))
    config |= {"names": names, "bots": dict.fromkeys(seats[1:], BOT)}
    return config, seats


def start_game(user, kind: str, groups: int = 0) -> PracticeGame:
    """A new game of ``kind`` (and ``groups`` for CPT-113), dealt by the table core;
    Refused before anything is stored."""
    groups = groups if kind == PracticeGame.Kind.CPT113 else 0
    name = user.get_username()
    config, seats = table_of(kind, groups, name)
    deadline = None
    if kind == PracticeGame.Kind.TROIS:
        deadline = clock.now() + timedelta(minutes=TIME_LIMIT_MINUTES)
    with transaction.atomic():
        game = play.start_game(
            kind=kind,
            config=config,
            seats=seats,
            holders=holders(seats, user, BOT),
            deadline=deadline,
        )
        practice = PracticeGame.objects.create(
            user=user, kind=kind, game=game, groups=groups, name=name
        )
        forget_beyond_kept(PracticeGame, user, KEPT_PER_PERSON)
    return practice


def open_game(practice_id: int, user) -> tuple[PracticeGame, dict[str, Any]]:
    """The game as the person's seat sees it now (``adapter.view``), its time limit kept
    first if passed (``play.clock.check_on_request``: in eager mode nothing else does);
    DoesNotExist for someone else's, Unreplayable for a game the data migration could not
    convert (or whose stored events no longer restore)."""
    practice = PracticeGame.objects.select_related("game").get(pk=practice_id, user=user)
    if practice.game_id is None:
        raise Unreplayable(practice.pk)
    if _past_deadline(practice.game) and clock.check_on_request(practice.game_id):
        practice = PracticeGame.objects.select_related("game").get(pk=practice.pk)
    return practice, person_view_with_facts(practice.game_id)


def _policy(practice: PracticeGame) -> play.Policy:
    """The owner plays the person's seat; the clock sends only the dealer's time."""
    return owner_policy(practice, clock_command="time")


def _locked(practice_id: int, **owner) -> PracticeGame:
    """The binding's row, locked first (then the game's, in apply_command): every write to
    a practice game takes the two locks in this order."""
    return PracticeGame.objects.select_for_update().get(pk=practice_id, **owner)


def _past_deadline(game: Game) -> bool:
    """Whether the clock may have something to do (read from the row in hand, no query)."""
    return game.next_deadline is not None and game.next_deadline <= clock.now()


def clock_keeper(game_id: int) -> clock.Keeper | None:
    """Practice's part when the clock acts on one of its games (``play.clock.keep``, in
    PracticeConfig.ready): the binding's row locked first, as for every write to a practice
    game, the policy, and the outcome for the lists settled in the same transaction."""
    practice = PracticeGame.objects.filter(game_id=game_id).first()
    if practice is None:
        return None
    return clock.Keeper(
        policy=_policy(practice),
        lock_first=lambda: _locked(practice.pk),
        viewer=ME,
        settle=lambda outcome: _settle(practice, outcome),
    )


def command_of(move: dict[str, Any]) -> Command:
    """A parsed form's move (practice/game_forms.py) as the adapter's command of the
    person's seat."""
    args = {key: value for key, value in move.items() if key != "kind"}
    return Command(move["kind"], PERSON, args)


def play_move(
    practice_id: int, user, move: dict[str, Any], *, revision: int | None, intent: str
) -> Played[PracticeGame]:
    """Apply the person's ``move`` through the write path. ``revision`` is the game's revision
    the page was drawn at (a move without it is refused: it would skip the stale-page check);
    ``intent`` the form's idempotency key (the same form sent again is answered as a repeat).
    Past Trois's deadline the dealer's time is called instead and the move is not made
    (``Played.late``: the page says so).
    Raises PracticeGame.DoesNotExist (or Hidden) for someone else's game, Unreplayable,
    Refused / play.errors.Refused for a refused move and play.errors.Stale for a page another
    tab overtook (nothing stored)."""
    if revision is None:
        raise Refused(gettext(NO_REVISION))
    with transaction.atomic():
        practice = _locked(practice_id, user=user)
        if practice.game_id is None:
            raise Unreplayable(practice.pk)
        if clock.act_if_due(practice.game_id):
            practice.refresh_from_db()
            return Played(practice, late=True)
        return play_as_person(
            practice,
            user,
            command_of(move),
            revision=revision,
            intent=intent,
            policy=_policy(practice),
            settle=lambda outcome: _settle(practice, outcome),
        )


def _settle(practice: PracticeGame, outcome: play.Outcome) -> None:
    """The binding's outcome for the lists, from the person's view of the game."""
    view = outcome.view or {}
    practice.finished = bool(view.get("finished"))
    if practice.finished:
        # Trois's winners are seats, CPT-113's groups: the person's is A either way.
        winners = view.get("winners") or []
        practice.outcome = (
            Outcome.LOST
            if PERSON not in winners
            else Outcome.WON
            if len(winners) == 1
            else Outcome.DRAWN
        )
    practice.save(update_fields=["finished", "outcome", "updated_at"])


def may_follow_game(request: Any, key: str) -> bool:
    """May this viewer follow game `key`'s news (push, issue 28)? Its player only."""
    user = request.user
    return (
        user.is_authenticated and PracticeGame.objects.filter(game_id=int(key), user=user).exists()
    )
