"""Writes for practice duels (docs/practice.md): start one, play a move, read it.

A duel is a ``play.Game`` of kind ``split_uno_dealt`` (ONLINE.md: sealed bids, real cards only,
the owner of a hand chooses which card goes, the bots seal at once), played through the table
core's one write path (``play.services.apply_command``): every event is stored, the bots' and
the dealer's included, so a stored duel never depends on the bots' code. This module is the
product around it — whose duel it is (the policy: the owner only, anyone else is told there is
no such duel), the outcome for the lists, and the keep-50 policy."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext

from cardtable.confirm import NeedsConfirmation, ending
from core import redis_guard
from play import services as play
from play.adapters.base import Command
from play.adapters.base import Refused as Unrestorable
from play.adapters.split_uno_dealt import BOTS_COMMAND
from play.effect_words import refusal
from play.models import GameStatus
from play.selectors import view_of

from .game import Refused, Unreplayable, bot_name
from .models import Outcome, PracticeDuel, PracticeRecord
from .seat import (
    ME,
    PERSON,
    Played,
    bots_move,
    forget_beyond_kept,
    holders,
    owner_policy,
    person_view,
    play_as_person,
)
from .seating import Seating, SeatingRefused, choose
from .words import NO_REVISION, bot_level_label

#: The dealt adapter of the table core, and the bot that holds every seat but the person's
#: unless the person chooses another level (the engine's bots: games.split_uno.BOTS).
KIND = "split_uno_dealt"
BOT = "heuristic"
BOT_LEVELS = ("random", "heuristic", "expert")
#: The levels whose bots think in the worker, never inside a web request (a searching bot
#: takes up to a second a move): the page learns of their moves by its poll.
WORKER_LEVELS: frozenset[str] = frozenset({"expert"})
#: How many unfinished duels against bots thinking in the worker a person may have at once.
MAX_WORKER_DUELS = 3
#: How many practice duels a person keeps: starting one more forgets the oldest beyond this.
KEPT_PER_PERSON = 50


def config_of(ruleset: str, name: str, seating: Seating, bot: str = BOT) -> dict[str, Any]:
    """The dealt adapter's config of a practice table: the person at A (named as the log
    words them), heuristic bots elsewhere ("Bot" alone facing the person, else "Bot B", …)."""
    letters = seating.letters
    return {
        "ruleset": ruleset,
        "variants": list(seating.variants),
        "options": dict(seating.options),
        "teams": [list(team) for team in seating.teams],
        "bots": list(letters[1:]),
        "bot": bot,
        "bots_in_worker": bot in WORKER_LEVELS,
        "names": {PERSON: name} | {s: bot_name(s, seating.seats) for s in letters[1:]},
    }


def start_practice(
    user,
    ruleset: str,
    seats: int = 2,
    variants: tuple[str, ...] = (),
    layout: str = "",
    bot: str = BOT,
) -> PracticeDuel:
    """A new duel against ``seats - 1`` bots of level ``bot`` under ``ruleset`` with
    ``variants`` and the team ``layout`` (practice/seating.py), dealt by the table core;
    Refused for a table the rules do not offer, before anything is stored."""
    if bot not in BOT_LEVELS:
        raise Refused(
            gettext("Choose the bots' level from: %(levels)s.")
            % {"levels": ", ".join(bot_level_label(b) for b in BOT_LEVELS)}
        )
    if bot in WORKER_LEVELS:
        busy = PracticeDuel.objects.filter(user=user, bot__in=WORKER_LEVELS, finished=False)
        if busy.filter(game__isnull=False).count() >= MAX_WORKER_DUELS:
            raise Refused(
                gettext(
                    "You have %(n)s unfinished duels against %(level)s bots: finish or resign "
                    "one first."
                )
                % {"n": MAX_WORKER_DUELS, "level": bot_level_label(bot)}
            )
    name = user.get_username()
    try:
        seating = choose(ruleset, seats, variants, layout)
    except SeatingRefused as err:
        raise Refused(str(err)) from None
    letters = list(seating.letters)
    with transaction.atomic():
        try:
            game = play.start_game(
                kind=KIND,
                config=config_of(ruleset, name, seating, bot),
                seats=letters,
                holders=holders(letters, user, bot),
            )
        except Unrestorable as err:
            raise Refused(refusal(err)) from None
        practice = PracticeDuel.objects.create(
            user=user,
            ruleset=ruleset,
            game=game,
            name=name,
            seats=seating.seats,
            variants=list(seating.variants),
            options=seating.options,
            teams=[list(team) for team in seating.teams],
            bot=bot,
        )
        _settle_from(practice, game.status, None)
        forget_beyond_kept(PracticeDuel, user, KEPT_PER_PERSON)
        if bot in WORKER_LEVELS:
            wake_the_bots(practice)
    return practice


def wake_the_bots(practice: PracticeDuel) -> None:
    """At commit, the worker moves the bots of a table whose bots think there (a repeated or
    needless wake changes nothing: the worker's command is refused when no bot is asked)."""
    from . import tasks

    redis_guard.send_on_commit(tasks.bots_turn, practice.pk)


def bots_awaited(view: dict[str, Any]) -> bool:
    """Whether the game waits for a bot (at a table whose bots think in the worker)."""
    bots = set(view.get("bots", ()))
    return any(a["seat"] in bots for a in view.get("awaiting", ()))


def play_bots(practice_id: int) -> bool:
    """The worker's move: one bot decision at the practice duel, through the write path, the
    binding settled as after a person's move. Whether the bots have more to do."""
    with transaction.atomic():
        practice = (
            PracticeDuel.objects.select_for_update(of=("self",))
            .select_related("game")
            .get(pk=practice_id)
        )
        if practice.game_id is None or practice.finished:
            return False
        revision = practice.game.revision
        outcome = bots_move(
            practice.game_id,
            revision,
            owner_policy(practice, bots_command=BOTS_COMMAND),
            viewer=ME,
        )
        if outcome is None:
            return False  # another wake moved them first, or nothing is asked of them
        _settle_from(practice, outcome.status, outcome.view)
        return outcome.view is not None and bots_awaited(outcome.view)


def open_duel(practice_id: int, user) -> tuple[PracticeDuel, dict[str, Any] | None]:
    """The duel and the person's seat's view of it (``adapter.view``); the view is None for a
    finished duel stored the old way (its ``archive`` is shown). DoesNotExist for someone
    else's duel, Unreplayable for one that cannot be set out (an unfinished old duel, or
    stored events that no longer restore)."""
    practice = PracticeDuel.objects.select_related("game").get(pk=practice_id, user=user)
    if practice.game_id is None:
        if practice.archive:
            return practice, None
        raise Unreplayable(practice.pk)
    return practice, person_view(practice.game_id)


def person_won(seating: Seating, winner: str | None) -> bool:
    """Whether the winning seat is the person's side (in a team game the state's winner is
    the winning team's first seat, RULES.md 11.9)."""
    return winner is not None and PERSON in seating.team_of(winner)


def play_move(
    practice_id: int,
    user,
    command: Command,
    *,
    revision: int | None,
    intent: str,
    confirmed: bool = False,
) -> Played[PracticeDuel]:
    """Apply the person's ``command`` (seat A's) through the write path. ``revision`` is the
    game's revision the page was drawn at (a move without it is refused: it would skip the
    stale-page check); ``intent`` the form's idempotency key (the same form sent again is
    answered as a repeat). Raises PracticeDuel.DoesNotExist (or Hidden) for someone else's
    duel, Unreplayable, Refused / play.errors.Refused for a refused move and
    play.errors.Stale for a page another tab overtook (nothing stored)."""
    if revision is None:
        raise Refused(gettext(NO_REVISION))
    if not confirmed and command.name == "answer":
        # Read before the write; the write then checks the page's revision, so the state
        # asked about here is the state the move would be applied to (else it is stale).
        practice, view = open_duel(practice_id, user)
        why = None if view is None else ending(practice, view, command, PERSON)
        if why is not None:
            raise NeedsConfirmation(why)
    with transaction.atomic():
        # The binding's row first, then the game's (in apply_command): every write to a
        # practice duel takes the two locks in this order.
        practice = PracticeDuel.objects.select_for_update().get(pk=practice_id, user=user)
        if practice.game_id is None:
            if practice.archive:
                raise Refused(gettext("This duel is over: start a new one."))
            raise Unreplayable(practice.pk)
        played = play_as_person(
            practice,
            user,
            command,
            revision=revision,
            intent=intent,
            policy=owner_policy(practice),
            settle=lambda outcome: _settle_from(practice, outcome.status, outcome.view),
        )
        if practice.bot in WORKER_LEVELS and not played.repeat:
            wake_the_bots(practice)
        return played


def _settle_from(practice: PracticeDuel, status: str, view: dict[str, Any] | None) -> None:
    """The binding's outcome for the lists, from the game's status and the engine's winner
    (for the person's side: teams included)."""
    was_finished = practice.finished
    practice.finished = status == GameStatus.FINISHED
    if practice.finished:
        if view is None:
            view = view_of(practice.game_id, ME)
        winner = view["state"]["winner"]
        practice.outcome = (
            Outcome.DRAWN
            if winner is None
            else Outcome.WON
            if person_won(practice.seating, winner)
            else Outcome.LOST
        )
    practice.save(update_fields=["finished", "outcome", "updated_at"])
    if practice.finished and not was_finished:
        assert view is not None
        # Once per duel: the moment it finishes (in the move's transaction, under the
        # binding's lock, so two racing moves cannot both count it).
        _count_in_record(practice, view["state"]["rounds"])


def _count_in_record(practice: PracticeDuel, rounds: int) -> None:
    """A finished duel into its person's record for its kind of table (PracticeRecord)."""
    record, _ = PracticeRecord.objects.select_for_update().get_or_create(
        user_id=practice.user_id, ruleset=practice.ruleset, seats=practice.seats, bot=practice.bot
    )
    record.played = F("played") + 1
    record.won = F("won") + (1 if practice.outcome == Outcome.WON else 0)
    record.drawn = F("drawn") + (1 if practice.outcome == Outcome.DRAWN else 0)
    record.rounds = F("rounds") + rounds
    record.save(update_fields=["played", "won", "drawn", "rounds"])
