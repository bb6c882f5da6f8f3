"""Writes for practice games of Trois and CPT-113: start one, play a move, enforce Trois's
time limit (one transaction each, the row locked)."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from django.db import transaction

from . import game_clock
from .cpt113_table import Cpt113Table
from .cpt113_table import replay as replay_cpt113
from .game import Refused, Unreplayable
from .models import Outcome, PracticeGame
from .trois_table import TIME_LIMIT_MINUTES, TroisTable
from .trois_table import replay as replay_trois
from .words import GAME_MOVED_ON, NO_REVISION

logger = logging.getLogger(__name__)

Table = TroisTable | Cpt113Table
#: A guard on one game's stored moves (a game ends long before).
MAX_MOVES = 1000
#: How many of these games a person keeps: starting one more forgets the oldest beyond this.
KEPT_PER_PERSON = 50
TIME = {"kind": "time"}


def start_game(user, kind: str, groups: int = 0) -> PracticeGame:
    """A new game of ``kind`` (and ``groups`` for CPT-113); Refused before anything is stored."""
    seed = secrets.randbits(48)
    name = user.get_username()
    deadline = None
    if kind == PracticeGame.Kind.TROIS:
        groups = 0
        deadline = game_clock.now() + timedelta(minutes=TIME_LIMIT_MINUTES)
        TroisTable(seed, name)
    elif kind == PracticeGame.Kind.CPT113:
        Cpt113Table(seed, groups, name)  # refuses a bad number of groups
    else:
        raise Refused("Choose Trois or CPT-113.")
    game = PracticeGame.objects.create(
        user=user, kind=kind, seed=seed, groups=groups, name=name, deadline=deadline
    )
    # Bounded storage whatever a person (or a script) starts: the oldest are forgotten.
    oldest = (
        PracticeGame.objects.filter(user=user)
        .order_by("-created_at", "-pk")
        .values_list("pk", flat=True)[KEPT_PER_PERSON:]
    )
    PracticeGame.objects.filter(pk__in=list(oldest)).delete()
    return game


def load(game: PracticeGame) -> Table:
    """The game played again; Unreplayable when today's code refuses a stored move."""
    try:
        if game.kind == PracticeGame.Kind.TROIS:
            return replay_trois(game.seed, game.name, game.moves)
        return replay_cpt113(game.seed, game.groups, game.name, game.moves)
    except Refused as err:
        raise Unreplayable(str(err)) from err


def time_is_up(game: PracticeGame) -> bool:
    return not game.finished and game.deadline is not None and game_clock.now() >= game.deadline


def open_game(game_id: int, user) -> tuple[PracticeGame, Table]:
    """The game as it is now, its time limit enforced first if passed; DoesNotExist for
    someone else's."""
    game = PracticeGame.objects.get(pk=game_id, user=user)
    if time_is_up(game):
        enforce_deadline(game.pk)
        game.refresh_from_db()
    return game, load(game)


@transaction.atomic
def enforce_deadline(game_id: int) -> bool:
    """The dealer calls time on a Trois game past its deadline; False when there is nothing
    to do (idempotent: the sweep and a request may both try)."""
    game = PracticeGame.objects.select_for_update().filter(pk=game_id).first()
    if game is None or not time_is_up(game):
        return False
    try:
        table = load(game)
    except Unreplayable:
        # Nothing can be ended that cannot be set out: the sweep stops asking (the page says
        # the game cannot be replayed), instead of failing on it at every beat.
        logger.warning("practice game %s cannot be replayed: its time limit dropped", game.pk)
        game.deadline = None
        game.save(update_fields=["deadline"])
        return False
    table.play(TIME)
    game.moves.append(TIME)
    _settle(game, table)
    game.save()
    return True


def sweep() -> int:
    """Beat: every unfinished Trois game past its deadline ends now."""
    due = PracticeGame.objects.filter(finished=False, deadline__lte=game_clock.now()).values_list(
        "pk", flat=True
    )
    return sum(enforce_deadline(pk) for pk in list(due))


@transaction.atomic
def play(game_id: int, user, move: dict, *, seen: int | None) -> tuple[PracticeGame, Table]:
    """Apply the person's ``move``. ``seen`` is the number of moves the page showed (another
    tab's move in between is refused); a move without it is refused as well (it would skip
    that check: the same post twice, played twice). Past Trois's deadline the time limit is
    enforced instead and the move is not made. Raises PracticeGame.DoesNotExist for someone
    else's game, Refused for a refused move (nothing stored)."""
    game = PracticeGame.objects.select_for_update().get(pk=game_id, user=user)
    if seen is None:
        raise Refused(NO_REVISION)
    if seen != len(game.moves):
        raise Refused(GAME_MOVED_ON)
    if len(game.moves) >= MAX_MOVES:
        raise Refused("This game has gone on too long: start a new one.")
    table = load(game)
    if time_is_up(game):
        move = TIME
    table.play(move)
    game.moves.append(move)
    _settle(game, table)
    game.save()
    return game, table


def _settle(game: PracticeGame, table: Table) -> None:
    game.finished = table.finished
    if table.finished:
        winners = table.state.winners
        game.outcome = (
            Outcome.LOST
            if 0 not in winners
            else Outcome.WON
            if len(winners) == 1
            else Outcome.DRAWN
        )
