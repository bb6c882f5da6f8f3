"""The one clock of every game being played (issue 27): deadlines per game (``Game.deadline``,
set by the product at the start: Trois's 25 minutes, a tournament duel's time limit) and per
seat (``Seat.deadline``, from the adapter's ``Await.seconds``), their earliest in
``Game.next_deadline``.

When a deadline passes, what happens is the adapter's: ``on_deadline(table, seat)`` returns the
command the clock sends (``seat`` None for the game's own deadline), or None for nothing. An
adapter may define that method; the adapters written before the clock (play/adapters/base.py
is shared and fixed) are answered by ``ON_DEADLINE`` here: Trois and the refereed Split UNO
adapter (a tournament duel's time limit) call time at the game's own deadline; their seats and
CPT-113 have no clock. The dealt Split UNO adapter has its own (issue 31): a table whose config
names a ``seat_clock`` gives each pending seal or decision of a person's seat that many seconds,
and at a seat's deadline the clock sends ``timeout``, the move ONLINE.md section 3 prescribes
(three in a row abandon the seat: ``on_abandon``). ``timeout`` and ``take_over`` are the core's
own commands: ``play.services.apply_command`` takes them from the clock only (a take-over from
``play.services.hand_seat_to_bot``).

The clock acts through the one write path (``play.services.apply_command``, actor ``clock``,
no idempotency key), in one transaction, and only if the deadline has passed and — for a task
scheduled at a revision — that revision is still the game's: ``act_if_due`` is idempotent, so
the ETA task, the sweep and a page load may all try.

Three ways in, one act:

- an ETA task (``play.tasks.deadline``) sent at commit for the earliest deadline, only when it
  is nearer than the broker's visibility timeout (Redis hands a task waiting longer out again)
  and never in eager mode (Celery would run it at once, before the deadline);
- the sweep (``play.tasks.sweep_deadlines``, beat every few seconds): every due game, so the
  long deadlines and any lost task are kept;
- ``check_on_request``, which a product calls when its page loads: in eager mode (the
  embedded default: no worker, no beat) the only way, and in any mode the page never shows a
  game past its deadline as going on.

A product that keeps something of its own about a game (practice's outcome for the lists, a
duel's result and its tournament's round; a lock to take first) registers a ``Keeper`` finder
(``keep``), asked for each act.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from play.adapters.base import Command, Refused, Viewer
from play.errors import Refused as Illegal
from play.errors import Stale
from play.models import Game, GameStatus, Seat
from play.registry import adapter_for

if TYPE_CHECKING:
    from play.services import Actor, Outcome

logger = logging.getLogger(__name__)

#: The actor key of the clock's commands (``play.services.Actor``): no idempotency key.
CLOCK = "clock"
#: Redis's visibility timeout when the settings name none (kombu's default: an hour).
DEFAULT_VISIBILITY_TIMEOUT = 3600
#: How many due games one sweep acts on at most (the next sweep takes the rest).
SWEEP_BATCH = 200

_now = timezone.now  # a test moves it (the one knob: ``now`` and every act read it)

OnDeadline = Callable[[Any, str | None], Command | None]


def _game_time(table: Any, seat: str | None) -> Command | None:
    # The game's own deadline calls time: Trois's 25 minutes (docs/games-trois.md, reading
    # 5: the fewest cards wins), a refereed duel's time limit (TOURNAMENT.md "No winner": the
    # engine's time_limit, "Time is up."). Neither has a seat clock.
    return Command("time") if seat is None else None


#: What the clock sends when a deadline passes, per kind, for adapters without their own
#: ``on_deadline``. Not listed: "split_uno_dealt" (its own ``on_deadline``: seat clocks),
#: "cpt113" (no time limit).
ON_DEADLINE: dict[str, OnDeadline] = {"trois": _game_time, "split_uno_refereed": _game_time}


def now() -> datetime:
    """The clock's time: a product starts its games' deadlines from it and counts the time
    left by it, so that a test moving ``_now`` moves them with the clock's acts."""
    return _now()


def on_deadline(kind: str) -> OnDeadline | None:
    """What the clock does for a game of ``kind``: the adapter's ``on_deadline`` if it has
    one, else ``ON_DEADLINE``'s; None when the clock never acts on that kind."""
    try:
        adapter = adapter_for(kind)
    except LookupError:
        return None
    return getattr(adapter, "on_deadline", None) or ON_DEADLINE.get(kind)


@dataclass(frozen=True)
class Keeper:
    """A product's part in the clock's act on one of its games: its ``policy`` (as for any
    command), the lock it takes first (``lock_first``), the ``viewer`` whose view ``settle``
    reads, and ``settle``, which updates the product's rows in the same transaction."""

    policy: Callable[[Game, Actor, Command], None]
    lock_first: Callable[[], object] | None = None
    viewer: Viewer | None = None
    settle: Callable[[Outcome], None] | None = None


KeeperFinder = Callable[[int], Keeper | None]
_finders: list[KeeperFinder] = []


def keep(finder: KeeperFinder) -> Callable[[], None]:
    """Registers ``finder`` (a product's, in its AppConfig.ready): given a game's id, its
    Keeper if the game is the product's, else None. Returns what unregisters it."""
    _finders.append(finder)
    return lambda: _finders.remove(finder)


def _keeper(game_id: int) -> Keeper:
    for finder in list(_finders):
        found = finder(game_id)
        if found is not None:
            return found
    return Keeper(policy=_only_the_clock)


def _only_the_clock(game: Game, actor: Actor, command: Command) -> None:
    """A game no product claims takes the clock's command only (it is the adapter's own)."""


class _NotDue(Exception):
    """Under the lock, the deadline has not passed, or the revision moved: nothing to do."""


def _due(game: Game, scheduled_revision: int | None, now: datetime) -> bool:
    return (
        game.status in (GameStatus.OPEN, GameStatus.PLAYING)
        and game.next_deadline is not None
        and game.next_deadline <= now
        and (scheduled_revision is None or game.revision == scheduled_revision)
    )


def _command(game: Game, table: Any, act: OnDeadline, now: datetime) -> Command | None:
    """The command for the earliest passed deadline that has one: the game's, then the seats'
    in the order their deadlines passed."""
    due: list[tuple[datetime, str | None]] = []
    if game.deadline is not None and game.deadline <= now:
        due.append((game.deadline, None))
    due += [
        (deadline, letter)
        for letter, deadline in Seat.objects.filter(game=game, deadline__lte=now).values_list(
            "letter", "deadline"
        )
    ]
    for _, seat in sorted(due, key=lambda pair: (pair[0], pair[1] or "")):
        command = act(table, seat)
        if command is not None:
            return command
    return None


def act_if_due(
    game_id: int, scheduled_revision: int | None = None, now: datetime | None = None
) -> bool:
    """Sends the adapter's command for the game's passed deadline, through the write path as
    the clock, in one transaction; only if a deadline has passed (at ``now``) and, when
    ``scheduled_revision`` is given, the game is still at it. Idempotent: False when there is
    nothing to do (not due, moved on, already over, no command, another act first)."""
    from play import services
    from play.selectors import restore

    now = _now() if now is None else now
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not _due(game, scheduled_revision, now):
        return False
    act = on_deadline(game.kind)
    if act is None:
        return False
    with transaction.atomic():
        try:
            command = _command(game, restore(game).table, act, now)
        except Refused:
            logger.warning("game %s does not restore: its clock stops", game_id)
            services.stop_clock(game_id=game_id)
            return False
        if command is None:
            return False
        keeper = _keeper(game_id)

        def policy(locked: Game, actor: Actor, sent: Command) -> None:
            if not _due(locked, scheduled_revision, now):
                raise _NotDue()
            keeper.policy(locked, actor, sent)

        try:
            # The table was read at this revision: if another command came since, Stale.
            outcome = services.apply_command(
                game_id=game_id,
                actor=services.Actor(CLOCK),
                command=command,
                key="",
                seen_revision=game.revision,
                policy=policy,
                lock_first=keeper.lock_first,
                viewer=keeper.viewer,
            )
        except (_NotDue, Stale):
            return False
        except Illegal as err:
            logger.warning("game %s refused the clock (%s): its clock stops", game_id, err)
            services.stop_clock(game_id=game_id)
            return False
        if keeper.settle is not None:
            keeper.settle(outcome)
    return True


#: The most acts one page load makes: a seat clock each (six seats at most) and the game's.
_ACTS_ON_REQUEST = 7


def may_be_due(game: Game) -> bool:
    """Whether the clock may have something to do for a game row the caller has just read
    (no query): a product asks before ``check_on_request``, which reads the row again, so
    that a page's usual path (nothing due) costs nothing."""
    return game.next_deadline is not None and game.next_deadline <= _now()


def check_on_request(game_id: int, now: datetime | None = None) -> bool:
    """For a product's page, before it reads the game: a game past its deadline is acted on
    now (eager mode has no worker to do it; with one, a page never waits for the sweep) —
    every deadline that has passed, one act each (two seats of a dealt game both away: both
    clocks play). One small query when nothing is due. True if the clock acted."""
    acted = False
    for _ in range(_ACTS_ON_REQUEST):
        if not act_if_due(game_id, now=now):
            break
        acted = True
    return acted


def sweep(now: datetime | None = None) -> int:
    """Every game past a deadline the clock acts on, acted on now (at most ``SWEEP_BATCH``,
    the earliest first); how many were. A game that fails is logged and left to the next
    sweep, never stopping the others."""
    now = _now() if now is None else now
    due = Game.objects.filter(
        next_deadline__lte=now, status__in=[GameStatus.OPEN, GameStatus.PLAYING]
    )
    kinds = [kind for kind in due.values_list("kind", flat=True).distinct() if on_deadline(kind)]
    if not kinds:
        return 0
    ids = list(
        due.filter(kind__in=kinds)
        .order_by("next_deadline")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    acted = 0
    for game_id in ids:
        try:
            acted += act_if_due(game_id, now=now)
        except Exception:
            logger.exception("the clock failed on game %s", game_id)
    return acted


def visibility_timeout() -> float:
    """The broker's visibility timeout, in seconds: a task held longer (an ETA further off)
    would be handed out again."""
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
    return float(options.get("visibility_timeout", DEFAULT_VISIBILITY_TIMEOUT))


def schedule_at_commit(game: Game) -> None:
    """Once the write commits, one ETA task for the game's earliest deadline at its new
    revision — unless there is none, it is as far as the broker's visibility timeout (the
    sweep keeps it), or tasks run eagerly (no worker: ``check_on_request`` keeps it)."""
    deadline = game.next_deadline
    if deadline is None or deadline - _now() >= timedelta(seconds=visibility_timeout()):
        return
    from core import redis_guard
    from play.tasks import deadline as task

    if task.app.conf.task_always_eager:
        return  # Celery would run it at once, long before the deadline
    redis_guard.send_on_commit(task, game.pk, game.revision, eta=deadline)
