"""The person's seat at a practice table over the table core: what the Split UNO duel
(practice/services.py) and Trois and CPT-113 (practice/game_services.py) share — the seat, who
holds the others, forgetting the oldest tables, the owner's policy and one move through the
write path."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import models

from play import clock
from play import services as play
from play.adapters.base import Command, Viewer
from play.adapters.base import Refused as Unrestorable
from play.effect_words import localised_view, refusal
from play.errors import Forbidden, Hidden
from play.models import Game, HolderKind
from play.selectors import Restored, game_or_hidden, restore, seen_at, view_of

from .game import Unreplayable

#: The person's seat; every other seat is a bot's.
PERSON = "A"
#: The person's seat, as the pages see the table.
ME = Viewer("seat", PERSON)


@dataclass(frozen=True)
class Played[P: models.Model]:
    """What a move did: ``repeat`` when the same form had already been recorded (nothing
    changed this time)."""

    practice: P
    repeat: bool = False
    #: The game's time ran out before the move: the clock ended it and the move was not made
    #: (Trois's 25 minutes); the page says so.
    late: bool = False
    #: The game's table the move left (``play.services.Outcome.restored``), for the answer's
    #: page: drawn from it while no one moved since (``person_view``'s ``restored``).
    restored: Restored | None = None


def holders(seats: list[str], user: Any, bot_level: str) -> dict[str, play.Holder]:
    """The person's account at ``PERSON``, a bot of ``bot_level`` at every other seat."""
    return {
        seat: play.Holder(HolderKind.ACCOUNT, account=user)
        if seat == PERSON
        else play.Holder(HolderKind.BOT, bot_level=bot_level)
        for seat in seats
    }


def forget_beyond_kept(model: type[models.Model], user: Any, kept: int) -> None:
    """Bounded storage whatever a person (or a script) starts: the oldest of ``model`` beyond
    the ``kept`` latest are forgotten, their play.Game with them (in the caller's
    transaction)."""
    oldest = list(
        model.objects.filter(user=user)
        .order_by("-created_at", "-pk")
        .values_list("pk", "game_id")[kept:]
    )
    play.forget_games([game_id for _, game_id in oldest if game_id is not None])
    model.objects.filter(pk__in=[pk for pk, _ in oldest]).delete()


#: The actor of the bots' moves made in the worker (a table whose bots think there).
BOTS = "bots"


def owner_policy(
    practice: Any, *, clock_command: str | None = None, bots_command: str | None = None
) -> play.Policy:
    """Practice's policy: the owner plays the person's seat; anyone else is told there is no
    such game (404, Hidden). ``clock_command`` is the one command the clock may send (Trois's
    "time"), without a seat; a table without a clock has none. ``bots_command`` likewise the
    one command of the worker that moves the bots (``BOTS``), where they think there."""

    def policy(game: Game, actor: play.Actor, command: Command) -> None:
        if game.pk != practice.game_id:
            raise Hidden()
        if bots_command is not None and actor.key == BOTS:
            if command.name != bots_command or command.seat is not None:
                raise Forbidden()
            return
        if clock_command is not None and actor.key == clock.CLOCK:
            if command.name != clock_command or command.seat is not None:
                raise Forbidden()
            return
        if actor.user is None or actor.user.pk != practice.user_id:
            raise Hidden()
        if command.seat != PERSON:
            raise Forbidden()

    return policy


def play_as_person(
    practice: Any,
    user: Any,
    command: Command,
    *,
    revision: int,
    intent: str,
    policy: play.Policy,
    settle: Callable[[play.Outcome], None],
    seat: str = PERSON,
    view: bool = True,
) -> Played[Any]:
    """The person's ``command`` through the write path, the binding's row already locked (the
    caller's, first: every write to a practice table takes the two locks in this order); the
    binding settled from the outcome unless it was a repeat. ``view``: the outcome carries the
    seat's view (a settle that reads it); without, the table the move left. A game whose
    stored events no longer restore is Unreplayable."""
    try:
        outcome = play.apply_command(
            game_id=practice.game_id,
            actor=play.Actor(f"user:{user.pk}", user),
            command=command,
            key=intent,
            seen_revision=revision,
            policy=policy,
            viewer=Viewer("seat", seat) if view else None,
        )
    except Unrestorable as err:
        raise Unreplayable(refusal(err)) from err
    if not outcome.repeat:
        settle(outcome)
    return Played(practice, repeat=outcome.repeat, restored=outcome.restored)


def person_view(
    game_id: int, seat: str = PERSON, *, game: Game | None = None, restored: Restored | None = None
) -> dict[str, Any]:
    """The person's seat's view of the game (``adapter.view``); Unreplayable when its stored
    events no longer restore. ``game``: its row as the caller read it (not read again), and
    ``restored`` the table this request's move left, drawn from while it is the row's
    revision (``play.selectors.seen_at``)."""
    try:
        # The log calls the person "You" (issue 30): their seat said in the second person.
        if game is not None:
            return seen_at(game, Viewer("seat", seat), seat, restored)
        return view_of(game_id, Viewer("seat", seat), person=seat)
    except Unrestorable as err:
        raise Unreplayable(refusal(err)) from err


def watcher_view(
    game_id: int, seat: str | None = None, *, game: Game | None = None
) -> dict[str, Any]:
    """What a person whose seat a bot took, or a spectator holding the watch link, sees of
    the game: the public view (counts, face-up cards, sealed yes/no; ONLINE.md 5), never the
    bot's hand nor its sealed card, which they could tell a person still playing. Its log in
    the public words, every seat by its name: the old seat's moves are the bot's now ("bo has
    sealed a card", never "You have sealed a card" for the bot's seal). ``seat`` is unused
    (kept for callers); ``game`` as ``person_view``'s. Unreplayable as ``person_view``."""
    try:
        if game is not None:
            return seen_at(game, Viewer("public"))
        return view_of(game_id, Viewer("public"))
    except Unrestorable as err:
        raise Unreplayable(refusal(err)) from err


def person_view_with_facts(game_id: int) -> dict[str, Any]:
    """``person_view``, and under ``facts`` the same log as stored (each line the data its
    words are said from: the kind, the seat by index, the cards), from which a card table
    reads each seat's last play (practice/game_table.py). Both are the person's seat's."""
    try:
        restored = restore(game_or_hidden(game_id))
        facts = restored.adapter.view(restored.table, ME)
    except Unrestorable as err:
        raise Unreplayable(refusal(err)) from err
    view = localised_view(facts, PERSON)
    assert view is not None
    return {**view, "facts": facts["log"]}
