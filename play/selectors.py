"""Reads of a game being played: the table restored from its stored events, and what a viewer
sees of it (the adapter's ``view``, the only way out of a table)."""

from __future__ import annotations

import json
import marshal
import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction

from play import secrets
from play.adapters.base import Adapter, Event, Viewer, hides
from play.effect_words import Person, language_key, localised_event, localised_view
from play.errors import Hidden
from play.models import Game, GameEvent, GameStatus, HolderKind, Seat
from play.registry import adapter_for

from . import rows

#: A stored event as ``events_of`` reads it: (pk, seq, revision, by, public, created_at,
#: undone_at).
StoredEvent = tuple[int, int, int, str, dict[str, Any], datetime, datetime | None]


@dataclass(frozen=True)
class Restored:
    """A game's table rebuilt from its log, with its adapter and how many events are active
    (the last active sequence number); ``game_id`` and ``revision`` say which game's table it
    is and at which revision (``seen_at``: a request that restored the game, or applied a
    command to it, draws its page from the same table rather than restoring it again)."""

    adapter: Adapter
    table: Any
    last_seq: int
    game_id: int | None = None
    revision: int | None = None
    # What it was rebuilt from (``_Kept``): the game's seed and active events then.
    seed: bytes = b""
    events: tuple[Event, ...] | None = None


def restore(game: Game, stored: Sequence[StoredEvent] | None = None) -> Restored:
    """Rebuilds ``game``'s table from its stored events, public and private parts (three
    queries; two given ``stored``, the game's ``events_of`` read by the caller for its log;
    one fewer each for an adapter that hides nothing; none when this process read or wrote
    the game at this revision last: ``_Kept``).
    The adapter's ``restore`` never calls a bot nor draws at random: a stored game never
    depends on the bots' code."""
    adapter, seed, events = _stored(game, stored)
    table = adapter.restore(game.config, list(game.seats), seed, events)
    return Restored(
        adapter=adapter,
        table=table,
        last_seq=len(events),
        game_id=game.pk,
        revision=game.revision,
        seed=seed,
        # Only events as stored are kept (``stored`` has its log lines in the reader's words).
        events=tuple(events) if stored is None else None,
    )


class _Kept:
    """The events a game was last restored from in this process, at its revision (issue 31's
    capacity: every page of a game being played restores it, its move and each page that
    fetches the move; reading its events and their private parts cost more than replaying
    them). One entry a game, the latest revision read or written, for the most recent
    ``SIZE`` games; kept in this process's memory only, as the tables a request restores are
    (never in a shared cache: the private parts have one reader, ``play.secrets``), and
    packed (marshal, then zlib): a game of 120 moves is about 480 kB as live objects, 5 kB
    packed, and unpacked in about 2 ms where its three reads cost 5-10.

    An entry is exactly the game's committed events at that revision: kept after a read only
    when the last active event read is of the revision the game's row said (a move committed
    between the two reads is not kept under the older revision), after a command with its new
    events as the database gives them back (through JSON), and either only once the
    transaction commits (what a transaction rolled back wrote or read of its own is never
    kept). Every change of a game's events makes a new revision (a command, an undo), so an
    entry is never out of date for its revision; a test's database, rolled back, may reuse a
    game's key: tests empty it (``forget``)."""

    SIZE = 1024

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: OrderedDict[int, tuple[int, str, bytes, bytes]] = OrderedDict()

    def get(self, game: Game) -> tuple[bytes, list[Event]] | None:
        with self._lock:
            found = self._games.get(game.pk)
            if found is None or found[0] != game.revision or found[1] != game.kind:
                return None
            self._games.move_to_end(game.pk)
            seed, packed = found[2], found[3]
        unpacked = marshal.loads(zlib.decompress(packed))  # noqa: S302 - this process's own bytes
        return seed, [
            Event(by=by, public=public, private=private) for by, public, private in unpacked
        ]

    def put(
        self, game_id: int, revision: int, kind: str, seed: bytes, events: Sequence[Event]
    ) -> None:
        with self._lock:
            kept = self._games.get(game_id)
            if kept is not None and kept[0] >= revision:
                return  # kept already, or a later revision (another thread's)
        try:
            raw = [(e.by, e.public, e.private) for e in events]
            packed = zlib.compress(marshal.dumps(raw), 1)
        except ValueError:  # not plain JSON data: not kept
            return
        with self._lock:
            kept = self._games.get(game_id)
            if kept is not None and kept[0] >= revision:
                return
            self._games[game_id] = (revision, kind, bytes(seed), packed)
            self._games.move_to_end(game_id)
            while len(self._games) > self.SIZE:
                self._games.popitem(last=False)

    def forget(self) -> None:
        with self._lock:
            self._games.clear()


kept = _Kept()


def keep_at_commit(game: Game, restored: Restored, new: Sequence[Event]) -> None:
    """After a command applied to ``restored`` (the game's table before it) made ``new``
    events and ``game``'s revision: its events kept for the next restore of that revision
    in this process, once the command commits."""
    if restored.events is None or restored.game_id != game.pk:
        return
    # As a restore reads them back: JSON (lists, not tuples), public and private (no private
    # part for an adapter that hides nothing, as ``_stored`` reads none).
    private = hides(restored.adapter)
    events = (*restored.events, *(_as_stored(e, private) for e in new))
    revision, kind, seed = game.revision, game.kind, restored.seed
    transaction.on_commit(lambda: kept.put(game.pk, revision, kind, seed, events))


def _as_stored(event: Event, private: bool) -> Event:
    parts = {k: dict(v) for k, v in event.private.items()} if private else {}
    return Event(
        by=event.by,
        public=json.loads(json.dumps(dict(event.public))),
        private=json.loads(json.dumps(parts)),
    )


def _stored(
    game: Game, stored: Sequence[StoredEvent] | None = None
) -> tuple[Adapter, bytes, list[Event]]:
    """The game's adapter, seed and active events with their private parts (as ``restore``
    reads them)."""
    adapter = adapter_for(game.kind)
    if stored is None and (hit := kept.get(game)) is not None:
        return adapter, hit[0], hit[1]
    if stored is None:
        read = rows.active_events(game.pk)
        last_revision = read[-1][3] if read else None
        found = [(pk, by, public) for pk, by, public, _ in read]
    else:
        last_revision = None
        active = sorted((e for e in stored if e[6] is None), key=lambda e: e[1])
        found = [(pk, by, public) for pk, _, _, by, public, _, _ in active]
    # A game that hides nothing has no private part and no seed that matters: two reads fewer.
    private = secrets.private_parts(game.pk) if hides(adapter) else {}
    seed = secrets.seed_of(game.pk) if hides(adapter) else b""
    events = [Event(by=by, public=public, private=private.get(pk, {})) for pk, by, public in found]
    if last_revision is not None and last_revision == game.revision:
        # At commit: what this transaction wrote itself is kept only if it commits.
        revision, kind = game.revision, game.kind
        transaction.on_commit(lambda: kept.put(game.pk, revision, kind, seed, events))
    return adapter, seed, events


@dataclass(frozen=True)
class WholeDeal:
    """A finished dealt game at one step of its replay (ONLINE.md 5, "after the end": every
    seat sees the whole deal). ``step`` events applied (1: the deal) of ``total``; ``view``
    the public view at that step (counts, face-up cards, its log in words); ``deal`` every
    seat's hand, the cards sealed and the decks then (the adapter's ``whole_deal``); ``log``
    the whole game's log with every seat's private facts, in words."""

    step: int
    total: int
    view: dict[str, Any]
    deal: dict[str, Any]
    log: list[dict[str, Any]]


def whole_deal(game: Game, step: int | None) -> WholeDeal:
    """The replay of ``game`` after ``step`` of its events (None: the last), hands and all.
    ``Hidden`` unless the game has ended with a result (a game stopped before its end, a
    table given up, shows no hands) and its adapter deals cards: the one place the table core
    lets anyone see every hand, and only after the end. Which people may ask is the product's
    decision (its seats; a tournament's organisers)."""
    adapter = adapter_for(game.kind)
    if game.status != GameStatus.FINISHED or not hasattr(adapter, "whole_deal"):
        raise Hidden()
    adapter, seed, events = _stored(game)
    config, seats = game.config, list(game.seats)
    final = adapter.restore(config, seats, seed, events)
    if not events or not adapter.finished(final):
        raise Hidden()
    total = len(events)
    step = total if step is None else max(1, min(step, total))
    at = adapter.restore(config, seats, seed, events[:step])
    log = localised_view(adapter.view(final, Viewer(kind="owner")))
    view = localised_view(adapter.view(at, Viewer(kind="public")))
    assert log is not None and view is not None
    return WholeDeal(step, total, view, adapter.whole_deal(at), log["log"])


def game_or_hidden(game_id: int) -> Game:
    try:
        return Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise Hidden() from None


def view_of(game_id: int, viewer: Viewer, person: Person = None) -> dict[str, Any]:
    """What ``viewer`` may see of the game (``Hidden`` if there is no such game). The product
    has already decided that this person is this viewer. ``person``: as ``seen``."""
    return seen(restore(game_or_hidden(game_id)), viewer, person)


def seen_at(
    game: Game, viewer: Viewer, person: Person = None, restored: Restored | None = None
) -> dict[str, Any]:
    """``view_of`` for a game row the caller has read: ``restored`` (the table a command of
    this request left, ``Outcome.restored``) is used when it is this game's at the row's
    revision, else the game is restored from its events. Never the table of another
    revision: a move made since is shown."""
    if restored is None or restored.game_id != game.pk or restored.revision != game.revision:
        restored = restore(game)
    return seen(restored, viewer, person)


def seen(restored: Restored, viewer: Viewer, person: Person = None) -> dict[str, Any]:
    """The adapter's view of a restored table for ``viewer``, its log in words in the
    reader's language (``play.effect_words``): what a page reads of a game. A product that
    calls ``adapter.view`` itself puts it through ``play.effect_words.localised_view``.
    ``person``: the reader's own seat letter, whose log lines say "you" ("You reveal 7");
    None (the default): every seat by its name."""
    view = localised_view(restored.adapter.view(restored.table, viewer), person)
    assert view is not None
    return view


def log_since(game_id: int, revision: int) -> list[dict[str, Any]]:
    """The public parts of the active events applied after ``revision`` (a page's), in order:
    what a console at that revision has not drawn yet."""
    rows = GameEvent.objects.filter(game_id=game_id, undone_at=None, revision__gt=revision)
    return [
        {"seq": seq, "revision": rev, "by": by, "public": public}
        for seq, rev, by, public in rows.order_by("seq").values_list(
            "seq", "revision", "by", "public"
        )
    ]


def events_of(game_id: int) -> list[StoredEvent]:
    """Every stored event of the game, undone ones too, in the order they were stored: (pk,
    seq, revision, by, public, created_at, undone_at). For a product's log, which strikes an
    undone move through rather than leave it out (one query, its SQL written once:
    play/rows.py). Each ``public["log"]`` is in words, in the reader's language (``in_words``);
    the rest of the part is as stored."""
    return in_words(rows.events_of(game_id))


def in_words(stored: Sequence[StoredEvent]) -> list[StoredEvent]:
    """Stored events with their log lines in words (``play.effect_words.say``), the seats
    named as the game's opening names them (a refereed game's header: the names the table
    had when it opened; a game without one names seats by their letters)."""
    names: dict[str, str] = {}
    for event in stored:
        header = event[4].get("header") if isinstance(event[4], dict) else None
        if isinstance(header, dict) and isinstance(header.get("seats"), dict):
            names = header["seats"]
            break
    language = language_key()
    return [
        (
            pk,
            seq,
            revision,
            by,
            localised_event((pk, created), public, names, language),
            created,
            undone,
        )  # type: ignore[misc]
        for pk, seq, revision, by, public, created, undone in stored
    ]


def persons_left(game: Game, restored: Restored | None = None) -> bool:
    """Whether a person still holds a seat in play: the adapter's ``persons_in_play`` where
    it has one, else any seat not a bot's. A product asks after the clock's act (an
    abandonment that handed the last person's seat to a bot): none left, the table ends
    without a result (ONLINE.md 4), as the product decides. ``restored``: the table the
    command just left (``Outcome.restored``), used when it is at the game's revision."""
    if restored is None or restored.game_id != game.pk or restored.revision != game.revision:
        restored = restore(game)
    in_play = getattr(restored.adapter, "persons_in_play", None)
    if in_play is not None:
        return bool(in_play(restored.table))
    return Seat.objects.filter(game=game).exclude(holder=HolderKind.BOT).exists()


def only_seals_since(game_id: int, revision: int, seat: str) -> bool:
    """Whether every event after ``revision`` is another seat's seal (and there was one): a
    page overtaken only by others' seals is not out of date for a seal or an action card
    (ONLINE.md 2: a seal changes nothing another seat may do), in any product that seats
    people at a dealt game."""
    since = log_since(game_id, revision)
    return bool(since) and all(
        e["public"].get("type") == "seal" and e["public"].get("seat") != seat for e in since
    )


def seat_deadlines(game_id: int) -> dict[str, datetime]:
    """Each seat's clock deadline while it is asked something (ONLINE.md 3: the clock shows on
    every device), by letter: public, a page of any viewer may show it."""
    return dict(rows.seat_deadlines(game_id))
