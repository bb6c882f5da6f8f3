"""Online tournament duels, the players' side (ONLINE.md 6): each player opens the duel on
their own device, says they are ready, and once both are the app deals the game (the dealt
adapter, each seat held by the entrant's account, the tournament's seat clock); each plays
their own seat; the result flows into the tournament exactly as a refereed result does
(`lifecycle.after_result`, in the same transaction). The organiser's side (the setting, the
per-duel switch, no-shows) is `online_rulings`.

Lock order, as everywhere: the tournament row, then the duel row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError
from duels import services as duels
from duels.models import Duel, DuelKind, DuelStatus
from duels.services import SEATS
from play import clock, presence
from play import services as play
from play.adapters.base import Command
from play.adapters.split_uno_dealt import ADJUDICATE, FORFEIT, TIMEOUT
from play.errors import Forbidden, Hidden, Stale
from play.models import Game
from play.selectors import only_seals_since

from ..models import Tournament
from . import audit, lifecycle
from .refereeing import check_referee, check_start
from .setup import lock
from .shared_cards import deal_gifts

#: What a player may send for their own seat (the card table's forms).
SEAT_COMMANDS = frozenset({"seal", "play", "answer", "choose", "resign"})
#: Of those, what a page overtaken only by the other seat's seal may still send (ONLINE.md 2:
#: a seal changes nothing the other seat may do).
SEALED_BIDS = frozenset({"seal", "play"})


@dataclass(frozen=True)
class Played:
    """What a player's command did: ``repeat`` when the same form was already recorded."""

    duel: Duel
    repeat: bool = False
    finished: bool = False


def seat_of(duel: Duel, user: Any) -> str | None:
    """The seat ``user`` plays in ``duel`` (their claimed entry's), or None."""
    pk = getattr(user, "pk", None)
    if pk is None:
        return None
    for seat, entrant in (("A", duel.seat_a), ("B", duel.seat_b)):
        if entrant is not None and entrant.user_id == pk:
            return seat
    return None


def _locked(duel_id: int) -> tuple[Tournament, Duel]:
    found = Duel.objects.select_related("tournament").get(pk=duel_id)
    tournament = lock(found.tournament)
    duel = duels.lock(found)
    duel.tournament = tournament
    return tournament, duel


def _player(duel: Duel, user: Any) -> str:
    seat = seat_of(duel, user)
    if seat is None or not duel.online:
        raise Hidden()  # 404: whose duels are played online is not said to others
    return seat


def ready(*, duel_id: int, user: Any) -> Duel:
    """The player says they are ready; when both are, the duel starts: its game is dealt
    (the shared action cards of a group duel dealt as real cards to their receivers) and the
    seat clocks run from now. Saying it twice is once; a duel already started is left as it
    is. A duel that may not start yet (its round not open, a player no longer active) keeps
    the readiness and says why (the readiness is committed before the start is tried)."""
    with transaction.atomic():
        tournament, duel = _locked(duel_id)
        seat = _player(duel, user)
        if duel.game_id is not None or duel.status not in (DuelStatus.READY,):
            return duel
        field = f"ready_{seat.lower()}"
        if getattr(duel, field) is None:
            setattr(duel, field, timezone.now())
            Duel.objects.filter(pk=duel.pk).update(**{field: getattr(duel, field)})
            audit.bump_version(tournament)
        if duel.ready_a is None or duel.ready_b is None:
            return duel
    return start_when_ready(duel_id=duel_id, user=user)


@transaction.atomic
def start_when_ready(*, duel_id: int, user: Any) -> Duel:
    """Both players are ready: the duel starts, unless it started meanwhile (both said it at
    once) or may not start yet (ServiceError, in words; the readiness stays). Tried again by
    the players' pages while they wait (a round that opens later starts its duel then)."""
    tournament, duel = _locked(duel_id)
    if duel.game_id is not None or duel.status not in (DuelStatus.READY,):
        return duel
    if duel.ready_a is None or duel.ready_b is None:
        return duel  # a readiness taken back meanwhile (new players named)
    now = timezone.now()
    check_start(tournament, duel)
    gifts = deal_gifts(duel) if tournament.shared_cards and duel.kind == DuelKind.GROUP else {}
    duels.deal_online(
        duel,
        accounts={"A": duel.seat_a.user, "B": duel.seat_b.user},
        seat_clock=tournament.seat_clock,
        starting_action_cards=gifts,
        now=now,
    )
    audit.record(tournament, user, "online_duel_started", duel=duel.pk)
    for seat in SEATS:
        presence.beat(duel.game_id, seat)  # both were on the ready screen a moment ago
    return duel


def seat_policy(duel: Duel, seat: str) -> play.Policy:
    """The player acts for their own seat with the card table's commands only; the seat clock
    sends its own."""

    def policy(game: Game, actor: play.Actor, command: Command) -> None:
        if game.pk != duel.game_id:
            raise Hidden()
        if actor.key == clock.CLOCK:
            if command.name != TIMEOUT:
                raise Forbidden()
            return
        if command.seat != seat or command.name not in SEAT_COMMANDS:
            raise Forbidden()

    return policy


def play_move(
    *, duel_id: int, user: Any, command: Command, revision: int | None, intent: str
) -> Played:
    """The player's ``command`` for their own seat (the seat of the form is ignored) through
    the table core's write path, with the page's ``revision`` and the form's key ``intent``
    (a repeat is answered as one; an older page is Stale, except a seal or an action card
    from a page overtaken only by the other seat's seal). When it ends the duel, the result
    is applied to the tournament in the same transaction."""
    if revision is None:
        raise ServiceError(_("This move did not say which table it was played on."))
    with transaction.atomic():
        tournament, duel = _locked(duel_id)
        seat = _player(duel, user)
        if not duels.is_dealt(duel):
            raise ServiceError(_("This duel has not started yet."))
        command = Command(command.name, seat, dict(command.args))
        policy = seat_policy(duel, seat)

        def send(seen: int) -> bool:
            return duels.apply_dealt(
                duel, user, command, intent=intent, seen_revision=seen, policy=policy
            )

        try:
            try:
                finished = send(revision)
            except Stale:
                if command.name not in SEALED_BIDS or not only_seals_since(
                    duel.game_id, revision, seat
                ):
                    raise
                finished = send(Game.objects.get(pk=duel.game_id).revision)
        except duels.Repeated:
            return Played(duel, repeat=True)
        if finished:
            tournament.refresh_from_db()
            lifecycle.after_result(tournament, duel, user)
        return Played(duel, finished=finished)


def check_clock(duel: Duel) -> bool:
    """Before a page of a running online duel is drawn: a seat whose clock ran out is played
    for now (ONLINE.md 3), as the beat's sweep would (with no worker, the only way). True if
    the clock acted (the duel row in hand is then out of date)."""
    if duel.game_id is not None and duel.status == DuelStatus.RUNNING:
        # The game's row came with the duel's (its deadline): read again only when due.
        return clock.may_be_due(duel.game) and clock.check_on_request(duel.game_id)  # type: ignore[arg-type]
    return False


def state_key(duel: Duel) -> str:
    """What a player's page was drawn from, beside the game's revision: the duel's status and
    who is ready (the poll answers 204 while it is unchanged)."""
    return "".join(
        (
            duel.status[:2],
            "a" if duel.ready_a else "-",
            "b" if duel.ready_b else "-",
            str(duel.revision),
            str(int(duel.ready_by.timestamp())) if duel.ready_by else "",
        )
    )


#: The endings a referee may give an online duel (ONLINE.md 6: those RULES.md gives a
#: referee; no time limit: the seat clock bounds an online duel), by the console's names.
ENDINGS = {
    "forfeit_A": (FORFEIT, "A"),
    "forfeit_B": (FORFEIT, "B"),
    "adjudicate_A": (ADJUDICATE, "A"),
    "adjudicate_B": (ADJUDICATE, "B"),
}


@transaction.atomic
def end_duel(*, duel_id: int, user: Any, ending: str, reason: str) -> Duel:
    """A referee (or an organiser) ends a running online duel with a reason: a forfeit or an
    adjudication, applied to its dealt game and then to the tournament, as any result. Never
    by one of its players (``check_referee``: an organiser who plays rules nothing of it)."""
    tournament, duel = _locked(duel_id)
    check_referee(tournament, duel, user)
    if ending not in ENDINGS:
        raise ServiceError(_("Choose how the duel ends."))
    if not duels.is_dealt(duel) or duel.status != DuelStatus.RUNNING:
        raise ServiceError(_("Only an online duel under way can be ended here."), code="conflict")
    name, seat = ENDINGS[ending]
    finished = duels.apply_dealt(
        duel,
        user,
        Command(name, seat, {"reason": reason}),
        intent="",
        seen_revision=None,
        policy=lambda game, actor, command: None,  # checked above: the referee's ruling
    )
    audit.record(tournament, user, "online_duel_ended", duel=duel.pk, ending=ending, reason=reason)
    if finished:
        tournament.refresh_from_db()
        lifecycle.after_result(tournament, duel, user)
    return duel
