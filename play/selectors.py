"""Reads of a game being played: the table restored from its stored events, and what a viewer
sees of it (the adapter's ``view``, the only way out of a table)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

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


def restore(game: Game, stored: Sequence[StoredEvent] | None = None) -> Restored:
    """Rebuilds ``game``'s table from its stored events, public and private parts (three
    queries; two given ``stored``, the game's ``events_of`` read by the caller for its log;
    one fewer each for an adapter that hides nothing).
    The adapter's ``restore`` never calls a bot nor draws at random: a stored game never
    depends on the bots' code."""
    adapter, seed, events = _stored(game, stored)
    table = adapter.restore(game.config, list(game.seats), seed, events)
    return Restored(
        adapter=adapter, table=table, last_seq=len(events), game_id=game.pk, revision=game.revision
    )


def _stored(
    game: Game, stored: Sequence[StoredEvent] | None = None
) -> tuple[Adapter, bytes, list[Event]]:
    """The game's adapter, seed and active events with their private parts (as ``restore``
    reads them)."""
    adapter = adapter_for(game.kind)
    if stored is None:
        rows = list(
            GameEvent.objects.filter(game_id=game.pk, undone_at=None)
            .order_by("seq")
            .values_list("pk", "by", "public")
        )
    else:
        active = sorted((e for e in stored if e[6] is None), key=lambda e: e[1])
        rows = [(pk, by, public) for pk, _, _, by, public, _, _ in active]
    # A game that hides nothing has no private part and no seed that matters: two reads fewer.
    private = secrets.private_parts(game.pk) if hides(adapter) else {}
    seed = secrets.seed_of(game.pk) if hides(adapter) else b""
    events = [Event(by=by, public=public, private=private.get(pk, {})) for pk, by, public in rows]
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
    return dict(
        Seat.objects.filter(game_id=game_id, deadline__isnull=False).values_list(
            "letter", "deadline"
        )
    )
