"""The one write path of every game being played (issue 27, DESIGN.md "Every write names what
it is for"), and the only writer of play's rows.

``apply_command`` runs in one transaction, in this order:

1. lock: the caller's ``lock_first`` (a tournament's row, where there is one: always locked
   before its game, as everywhere), then the game's row (``select_for_update``);
2. the product's ``policy(game, actor, command)``: raises ``Forbidden`` (403) or ``Hidden``
   (404, where the product hides the game);
3. the idempotency key, scoped to the game and the actor: a key already recorded returns its
   stored outcome with ``repeat=True`` and the game's current view, and applies nothing — so a
   409 always means that someone else moved;
4. the revision: the page's (``seen_revision``) must be the game's, or ``Stale`` (409);
5. the table restored from the stored events, the command applied by the adapter with every
   bot's answer until a person is asked (``Refused``, 422, changes nothing);
6. the events stored (public rows here, private parts through ``play.secrets``), the revision
   bumped, the status, what is awaited and the deadlines updated, the key stored with its
   outcome, and "this game changed" published at commit through ``core.publish``.

A product that changes more than the game (a duel's result, a tournament's standings) wraps
the call in its own ``transaction.atomic()`` and publishes its own topic there.

``undo_last`` takes back the last command (all its events, the bots' answers included) by the
same path: lock, the product's policy (which decides whether undo is allowed at all: it is
sent ``Command("undo")``), the key, the revision; the events are marked undone (never
deleted), the revision bumped and the status, what is awaited and the deadlines recomputed
from the events still active.
"""

from __future__ import annotations

import hashlib
import json
import secrets as random_source
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from core.publish import publish_at_commit
from play import secrets, selectors
from play.adapters.base import Await, Command, Event, Refused, Viewer
from play.clock import CLOCK, schedule_at_commit
from play.effect_words import refusal
from play.errors import Forbidden, Hidden, Stale
from play.errors import Refused as Illegal
from play.models import Game, GameEvent, GameStatus, HolderKind, Intent, Seat
from play.registry import adapter_for
from play.selectors import Restored, StoredEvent, events_of, in_words, restore, seen

from . import rows as sql
from . import words

#: The command a product's policy is asked about for an undo (``undo_last``).
UNDO = "undo"
#: Commands only the core sends, whatever a product's policy lets through: the clock's
#: (``timeout``, actor ``clock``) and a take-over (``hand_seat_to_bot``). A person's form
#: naming one is Forbidden.
RESERVED = frozenset({"timeout", "take_over"})
SEED_BYTES = 16  # 128 bits: a dealt game's least (issue 27)
_clock = timezone.now  # the seats' clocks start from it; a test moves it


@dataclass(frozen=True)
class Actor:
    """Who sends a command, as the product knows them: ``key`` scopes their idempotency keys
    ("user:12", "session:…", "clock"); ``user`` is the account, if any, for the policy."""

    key: str
    user: Any = None


@dataclass(frozen=True)
class Holder:
    """Who holds a seat at the start (``start_game``): a seat not named is open."""

    kind: str = HolderKind.OPEN
    account: Any = None
    bot_level: str = ""


@dataclass(frozen=True)
class Outcome:
    """What a command did. ``recorded`` is what was stored with its key when it was applied
    (the revision it made, the sequence numbers of its events, the status then); ``revision``
    and ``status`` are the game's now, which differ from the recorded ones on a repeat when
    others moved since. ``view`` is the game's current view for the caller's viewer, if one
    was named."""

    recorded: dict[str, Any]
    revision: int
    status: str
    repeat: bool = False
    view: dict[str, Any] | None = None
    # With ``with_log`` (a product that draws its answer itself: the tournament console):
    # every stored event as ``play.selectors.events_of`` reads them, the new ones included,
    # and the adapter's table after the command — so that nothing is read again.
    log: list[StoredEvent] | None = None
    table: Any = None
    # The game's table after the command, at its new revision (None on a repeat): a product
    # that settles its rows or draws its answer from it restores nothing again
    # (``play.selectors.seen_at``, ``persons_left``). Never given to ``adapter.apply``.
    restored: Restored | None = None

    @property
    def message(self) -> str:
        return str(words.REPEAT) if self.repeat else ""


Policy = Callable[[Game, Actor, Command], None]


def start_game(
    *,
    kind: str,
    config: Mapping[str, Any],
    seats: Sequence[str],
    holders: Mapping[str, Holder],
    seed: bytes | None = None,
    deadline: datetime | None = None,
) -> Game:
    """Deals a new game of ``kind`` (its adapter's ``start``) and stores it with its opening
    events. ``seed`` is fresh random bytes (128 bits) unless given, for a test or a migrated
    game; it is stored apart (play.secrets) and never shown. ``deadline`` is the game's own
    (Trois's 25 minutes, set by its product), kept by the clock (``play.clock``) with the
    seats'."""
    if unknown := set(holders) - set(seats):
        raise ValueError(f"holders of no seat: {sorted(unknown)}")
    seed = random_source.token_bytes(SEED_BYTES) if seed is None else bytes(seed)
    if len(seed) < SEED_BYTES:
        raise ValueError(f"a seed has at least {SEED_BYTES} bytes")
    adapter = adapter_for(kind)
    table, events = adapter.start(config, list(seats), seed)
    open_seat = any(holders.get(s, Holder()).kind == HolderKind.OPEN for s in seats)
    if adapter.finished(table):
        status = GameStatus.FINISHED
    else:
        status = GameStatus.OPEN if open_seat else GameStatus.PLAYING
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind, config=dict(config), seats=list(seats), status=status, deadline=deadline
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                letter=letter,
                holder=holders.get(letter, Holder()).kind,
                account=holders.get(letter, Holder()).account,
                bot_level=holders.get(letter, Holder()).bot_level,
            )
            for letter in seats
        )
        _store_events(game, events, first_seq=1)
        secrets.keep_game(game.pk, seed=seed, deal=[event.private for event in events])
        _set_awaited(game, adapter.awaiting(table), previous=[], mover=None)
        game.save(update_fields=["awaited", "next_deadline"])
        publish_at_commit(f"game:{game.pk}", game.revision)
        schedule_at_commit(game)
    return game


def apply_command(
    *,
    game_id: int,
    actor: Actor,
    command: Command,
    key: str,
    seen_revision: int,
    policy: Policy,
    lock_first: Callable[[], object] | None = None,
    viewer: Viewer | None = None,
    with_log: bool = False,
    takes_moves: Callable[[], None] | None = None,
    savepoint: bool = True,
) -> Outcome:
    """Applies ``command`` to the game, in the order the module names. ``key`` is the
    command's idempotency key (a token per rendered form); an empty key (the automation's)
    records nothing. ``lock_first`` may return the game itself, read under a lock of the
    product's that serialises every write of it (a duel's row): then it is not read again.
    ``takes_moves`` is the product's own "does it take moves now" (a duel its tournament
    closed), asked after the key and the revision — so a form sent again after the move that
    closed it is still answered as a repeat. Raises ``Hidden``, ``Forbidden``, ``Stale`` or
    ``play.errors.Refused``; each leaves everything as it was. Inside a caller's transaction
    the command has its own savepoint, so that a refusal leaves the caller's work usable;
    ``savepoint=False`` for a caller that gives up its whole transaction on any refusal (the
    tournament console: two round trips fewer a move). The core's own commands (``RESERVED``)
    are Forbidden to any actor but the clock, whatever ``policy`` says."""
    if command.name in RESERVED and actor.key != CLOCK and policy is not _decided:
        raise Forbidden()  # the clock's, or hand_seat_to_bot's (its policy is _decided)
    with transaction.atomic(savepoint=savepoint):
        game, digest, repeat = _checked(
            game_id, actor, command, key, seen_revision, policy, lock_first, viewer
        )
        if repeat is not None:
            return repeat
        if takes_moves is not None:
            takes_moves()
        log = events_of(game.pk) if with_log else None
        restored = restore(game, log)
        try:
            events = restored.adapter.apply(restored.table, command)
        except Refused as err:
            raise Illegal(refusal(err)) from None
        game.revision += 1
        first = restored.last_seq + 1
        stored = _store_events(game, events, first_seq=first, actor=actor.key)
        _hand_to_bots(game, restored.adapter, events)
        if log is not None:
            log = in_words([*log, *stored])
        if restored.adapter.finished(restored.table):
            game.status = GameStatus.FINISHED
        _set_awaited(
            game, restored.adapter.awaiting(restored.table), game.awaited, mover=command.seat
        )
        sql.save_game(game, _clock())
        recorded = {
            "revision": game.revision,
            "seqs": [first, first + len(events) - 1] if events else [],
            "status": game.status,
        }
        if key:
            _keep_key(game, actor, key, digest, recorded)
        publish_at_commit(f"game:{game.pk}", game.revision)
        schedule_at_commit(game)
        selectors.keep_at_commit(game, restored, events)
        view = seen(restored, viewer) if viewer is not None else None
        return Outcome(
            recorded=recorded,
            revision=game.revision,
            status=game.status,
            view=view,
            log=log,
            table=restored.table if with_log else None,
            restored=replace(restored, last_seq=first + len(events) - 1, revision=game.revision),
        )


def _hand_to_bots(game: Game, adapter: Any, events: Sequence[Event]) -> None:
    """The seats the new events hand to a bot (a take-over, an abandonment: the adapter's
    ``taken_over``) are bot seats from now on: their holder and the bot's level."""
    taken_over = getattr(adapter, "taken_over", None)
    for letter, level in (taken_over(events, game.config) if taken_over else {}).items():
        Seat.objects.filter(game=game, letter=letter).update(holder=HolderKind.BOT, bot_level=level)


def hand_seat_to_bot(*, game_id: int, seat: str, actor: Actor) -> bool:
    """A bot of the table's level takes ``seat`` for the rest of the game (ONLINE.md 4: a
    person who resigns at a table of more sides, or leaves it): every seal goes back to its
    owner, the log says so to all, and the seat's holder becomes the bot. The product has
    decided (no policy, no key); ``actor`` is recorded as the command's. Idempotent: a seat a
    bot holds already, or a game over, is left as it is. Returns whether a person still holds
    a seat in play — when none does, the table ends without a result as its product decides
    (``abandon_game``): the bots wait, they do not play on (ONLINE.md 4). Raises ``Hidden``
    (no such game) or ``play.errors.Refused`` (a seat out of play, an adapter without
    take-overs); each leaves everything as it was."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise Hidden()
        holder = Seat.objects.filter(game=game, letter=seat).values_list("holder", flat=True)
        if not holder.exists():
            raise Illegal(words.NO_SEAT)
        going_on = game.status in (GameStatus.OPEN, GameStatus.PLAYING)
        if going_on and holder.get() != HolderKind.BOT:
            apply_command(
                game_id=game_id,
                actor=actor,
                command=Command("take_over", seat),
                key="",
                seen_revision=game.revision,
                policy=_decided,
                lock_first=lambda: game,
            )
        return selectors.persons_left(game)


def _decided(game: Game, actor: Actor, command: Command) -> None:
    """The policy of a write its product has already decided on."""


def _checked(
    game_id: int,
    actor: Actor,
    command: Command,
    key: str,
    seen_revision: int,
    policy: Policy,
    lock_first: Callable[[], object] | None,
    viewer: Viewer | None,
) -> tuple[Game, str, Outcome | None]:
    """Steps 1 to 4 of every write, inside its transaction: the locks, the policy, the key
    and the revision. Returns the locked game, the command's digest and, for a repeat, the
    stored outcome to answer with (nothing to apply); raises Hidden, Forbidden, Stale or
    Refused (a stopped game)."""
    locked = lock_first() if lock_first is not None else None
    if isinstance(locked, Game) and locked.pk == game_id:
        game: Game | None = locked
    else:
        game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise Hidden()
    policy(game, actor, command)
    digest = command_digest(command)
    # A key is drawn per rendered form: a command applied with it moved the game past the
    # revision that form showed, so a page at the game's revision cannot have sent it before
    # and its key is not looked for (the hot path of every fresh page, one query fewer).
    if key and seen_revision != game.revision:
        stored = Intent.objects.filter(game=game, actor=actor.key, key=key).first()
        if stored is not None and stored.command not in ("", digest):
            raise Stale()  # this page moved already, with another command: out of date
        if stored is not None:
            repeat = Outcome(
                recorded=stored.outcome,
                revision=game.revision,
                status=game.status,
                repeat=True,
                view=_view(game, viewer),
            )
            return game, digest, repeat
    if seen_revision != game.revision:
        raise Stale()
    if game.status == GameStatus.ABANDONED:
        raise Illegal(words.ABANDONED)
    return game, digest, None


def command_digest(command: Command) -> str:
    """What a command asks, as a short digest: its name, seat and arguments, in a canonical
    JSON (keys sorted), so that the same form posted twice gives the same digest."""
    text = json.dumps(
        {"name": command.name, "seat": command.seat, "args": command.args},
        sort_keys=True,
        default=str,
        separators=(",", ":"),
    )
    return hashlib.sha256(text.encode()).hexdigest()


def undo_last(
    *,
    game_id: int,
    actor: Actor,
    key: str,
    seen_revision: int,
    policy: Policy,
    lock_first: Callable[[], object] | None = None,
    viewer: Viewer | None = None,
    takes_moves: Callable[[], None] | None = None,
) -> Outcome:
    """Takes back the last command still standing: its events (the rows of the highest
    revision among the active ones; never the opening deal) are marked undone. In the order
    of ``apply_command``; the policy receives ``Command("undo")`` and decides whether this
    product allows an undo now (refereed duels while running, casual tables even at the end,
    a dealt game never). The recorded outcome names the undone sequence numbers. Raises
    ``Hidden``, ``Forbidden``, ``Stale`` or ``play.errors.Refused`` (nothing to undo, a
    stopped game); each leaves everything as it was."""
    with transaction.atomic():
        game, digest, repeat = _checked(
            game_id, actor, Command(UNDO), key, seen_revision, policy, lock_first, viewer
        )
        if repeat is not None:
            return repeat
        if takes_moves is not None:
            takes_moves()
        active = GameEvent.objects.filter(game=game, undone_at=None)
        last = active.order_by("-revision").values_list("revision", flat=True).first()
        if not last:  # no event, or only the opening deal (revision 0)
            raise Illegal(words.NOTHING_TO_UNDO)
        undone = sorted(active.filter(revision=last).values_list("seq", flat=True))
        active.filter(revision=last).update(undone_at=timezone.now(), undone_by=actor.key)
        restored = _after_undo(game)
        recorded = {"revision": game.revision, "undone": undone, "status": game.status}
        if key:
            _keep_key(game, actor, key, digest, recorded)
        publish_at_commit(f"game:{game.pk}", game.revision)
        schedule_at_commit(game)
        view = seen(restored, viewer) if viewer is not None else None
        return Outcome(recorded=recorded, revision=game.revision, status=game.status, view=view)


def _after_undo(game: Game) -> Any:
    """The game after some of its events were marked undone: its revision bumped, its status,
    what is awaited and the deadlines recomputed from the events still active."""
    game.revision += 1
    restored = restore(game)
    if restored.adapter.finished(restored.table):
        game.status = GameStatus.FINISHED
    elif Seat.objects.filter(game=game, holder=HolderKind.OPEN).exists():
        game.status = GameStatus.OPEN
    else:
        game.status = GameStatus.PLAYING
    _set_awaited(game, restored.adapter.awaiting(restored.table), game.awaited, mover=None)
    game.save(update_fields=["revision", "status", "awaited", "next_deadline", "updated_at"])
    return restored


def undo_after(*, game_id: int, seq: int, by: str) -> tuple[list[int], int]:
    """Marks undone every active event after ``seq`` (the opening is never undone): not a
    person's undo but a product's correction (a tournament taking back a forfeit that a
    mistaken withdrawal caused), so no policy and no key — the caller holds its product's
    locks and decided. ``by`` is its mark (``GameEvent.undone_by``). Returns the undone
    sequence numbers (none: nothing changed) and the game's revision."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise Hidden()
        later = GameEvent.objects.filter(game=game, undone_at=None, seq__gt=max(seq, 1))
        undone = sorted(later.values_list("seq", flat=True))
        if not undone:
            return [], game.revision
        later.update(undone_at=timezone.now(), undone_by=by)
        _after_undo(game)
        publish_at_commit(f"game:{game.pk}", game.revision)
        schedule_at_commit(game)
        return undone, game.revision


def reconfigure(*, game_id: int, config: Mapping[str, Any]) -> None:
    """Gives a game that has not begun (nothing active but its opening) another config: a
    duel taken back to before its first move starts again with the options of its new start
    (its shared cards). The adapter checks the config as it would at a start (Refused)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise Hidden()
        if GameEvent.objects.filter(game=game, undone_at=None, seq__gt=1).exists():
            raise Illegal(words.BEGUN)
        game.config = dict(config)
        try:
            restore(game)  # the adapter checks the new config against the opening
        except Refused as err:
            raise Illegal(refusal(err)) from None
        # The revision counts the log's changes (a page compares it): a set-up is not one.
        game.save(update_fields=["config", "updated_at"])
        publish_at_commit(f"game:{game.pk}", game.revision)


def set_deadline(*, game_id: int, deadline: datetime | None) -> None:
    """Gives a game its own deadline (None: none) after its start: a tournament duel's time
    limit is set when its first move starts it, and a duel started again after a take-back
    has its new one, or none while it waits to start again. Not a change of the log, so the
    revision stays; ``next_deadline`` follows, and a near deadline is scheduled at commit."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise Hidden()
        game.deadline = deadline
        own = deadline if game.status in (GameStatus.OPEN, GameStatus.PLAYING) else None
        seats = Seat.objects.filter(game=game, deadline__isnull=False).values_list(
            "deadline", flat=True
        )
        game.next_deadline = min((d for d in [own, *seats] if d is not None), default=None)
        game.save(update_fields=["deadline", "next_deadline", "updated_at"])
        publish_at_commit(f"game:{game.pk}", game.revision)
        schedule_at_commit(game)


#: How long a command's idempotency key is kept: far beyond any retry of a phone on venue Wi-Fi
#: or a tab reopened the next morning; a form older than that is stale anyway (its revision).
INTENT_DAYS = 2


def forget_old_intents(*, now: datetime | None = None) -> int:
    """Deletes the idempotency keys older than ``INTENT_DAYS`` (beat, daily): one row per
    command would otherwise grow without bound. A form that old sent again is answered by
    its revision (Stale), not as a repeat. Returns how many went."""
    cutoff = (now or _clock()) - timedelta(days=INTENT_DAYS)
    deleted, _ = Intent.objects.filter(created_at__lt=cutoff).delete()
    return deleted


def abandon_game(*, game_id: int) -> None:
    """Stops a game before its end (its product's decision: a voided duel, a table given up):
    nothing is awaited any more and no clock runs. The events stay."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise Hidden()
        if game.status in (GameStatus.FINISHED, GameStatus.ABANDONED):
            return
        game.status, game.revision = GameStatus.ABANDONED, game.revision + 1
        _set_awaited(game, [], game.awaited, mover=None)
        game.save(update_fields=["revision", "status", "awaited", "next_deadline", "updated_at"])
        publish_at_commit(f"game:{game.pk}", game.revision)


def stop_clock(*, game_id: int) -> None:
    """Drops every deadline of a game whose clock cannot act (its stored events no longer
    restore, or its adapter refuses the clock's command): the sweep stops asking, and the
    game stays as it is for its product to show."""
    with transaction.atomic():
        Game.objects.filter(pk=game_id).update(deadline=None, next_deadline=None)
        Seat.objects.filter(game_id=game_id).update(deadline=None)


def forget_games(game_ids: Sequence[int]) -> None:
    """Deletes games with everything of theirs (seats, events, keys, secrets): their product
    let them go (practice keeps a person's latest 50; a casual table deleted), never an undo."""
    Game.objects.filter(pk__in=list(game_ids)).delete()


def _keep_key(game: Game, actor: Actor, key: str, digest: str, recorded: dict[str, Any]) -> None:
    """Stores a command's key with its outcome. A key already kept (a product that sent one
    key with two fresh commands, which `_checked` no longer looks for) keeps its first
    outcome rather than failing the command."""
    Intent.objects.bulk_create(
        [Intent(game=game, actor=actor.key, key=key, command=digest, outcome=recorded)],
        ignore_conflicts=True,
    )


def _view(game: Game, viewer: Viewer | None) -> dict[str, Any] | None:
    if viewer is None:
        return None
    return seen(restore(game), viewer)


def _store_events(
    game: Game, events: Sequence[Event], *, first_seq: int, actor: str = ""
) -> list[StoredEvent]:
    """Stores a command's events (public rows; private parts through play.secrets), as the
    log reads them back."""
    now = timezone.now()
    values = [
        (first_seq + i, game.revision, ev.by, dict(ev.public), actor) for i, ev in enumerate(events)
    ]
    keys = sql.insert_events(game.pk, values, now)
    secrets.keep_private(
        (pk, ev.private) for pk, ev in zip(keys, events, strict=True) if ev.private
    )
    return [
        (pk, seq, revision, by, public, now, None)
        for pk, (seq, revision, by, public, _) in zip(keys, values, strict=True)
    ]


def _set_awaited(
    game: Game,
    awaited: Sequence[Await],
    previous: Sequence[Mapping[str, Any]],
    *,
    mover: str | None,
) -> None:
    """Stores who is asked what, and each seat's deadline: a seat's clock starts when it is
    newly asked (or asked something else), or again after its own command; a seat still asked
    the same while others moved keeps its running clock (sealing at once in a dealt game).
    ``next_deadline`` is the earliest, the game's own included while it goes on, for the
    clock to find (``play.clock``)."""
    game.awaited = [asdict(ask) for ask in awaited]
    own = game.deadline if game.status in (GameStatus.OPEN, GameStatus.PLAYING) else None
    if all(ask.seconds is None for ask in awaited) and all(
        entry.get("seconds") is None for entry in previous
    ):
        game.next_deadline = own
        return  # no seat's clock ran, none starts: no seat to read
    now = _clock()
    before = {entry["seat"]: entry for entry in previous}
    seats = {seat.letter: seat for seat in Seat.objects.filter(game=game)}
    deadlines: dict[str, datetime | None] = {}
    for ask in awaited:
        seat = seats.get(ask.seat)
        if ask.seconds is None or seat is None:
            deadlines[ask.seat] = None
            continue
        kept = before.get(ask.seat, {}).get("what") == ask.what and ask.seat != mover
        if kept and seat.deadline is not None:
            deadlines[ask.seat] = seat.deadline
        else:
            deadlines[ask.seat] = now + timedelta(seconds=ask.seconds)
    changed = [seat for letter, seat in seats.items() if seat.deadline != deadlines.get(letter)]
    for seat in changed:
        seat.deadline = deadlines.get(seat.letter)
    if changed:
        Seat.objects.bulk_update(changed, ["deadline"])
    game.next_deadline = min((d for d in [own, *deadlines.values()] if d is not None), default=None)
