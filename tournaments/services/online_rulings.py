"""Online tournament duels, the organiser's side (ONLINE.md 6): switching a duel between a
table and online before it starts, the no-show rule and its wait, and the rulings on a duel
neither player was ready for or both abandoned (a forfeit of one seat, an adjudication or a
void; never a draw).

The players' side (the ready screen, the dealt game, its moves) is `online`'s. Every write
here locks the tournament row first, then the duel's (as everywhere), one transaction per
duel; each is audited. An organiser or co-organiser who plays in a duel has no organiser
action on it (ONLINE.md 6, "Organisers who play"): another organiser rules, or a referee
(a forfeit), and where nobody else can, the app does.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import TournamentRole
from accounts.permissions import Action, can
from core.errors import ServiceError
from duels import services as duels
from duels import words as duel_words
from duels.models import Duel, DuelStatus
from duels.selectors import player_ids
from play import services as play
from play.models import Game

from .. import presentation
from ..models import Tournament
from . import audit, lifecycle
from .refereeing import check_start, venue_time
from .setup import lock
from .standings import recompute_standings

#: How long an organiser's "Extend the wait" adds to a duel's no-show deadline.
EXTEND_BY = timedelta(minutes=5)
#: The most a wait may be extended to, from now: a deadline nobody will reach is no wait.
EXTEND_MAX = timedelta(hours=2)
#: Why the app closed a duel nobody could rule on (duels.words.CLOSED_REASONS).
NOBODY_READY = "nobody_ready"
#: Why a duel an organiser voided by a ruling has no result.
RULED_VOID = "ruled_void"
#: The rulings on a duel that stopped (ONLINE.md 6: "a forfeit of one seat, an adjudication
#: or a void").
RULINGS = ("forfeit_A", "forfeit_B", "adjudicate_A", "adjudicate_B", "void")
#: The reason an adjudication on the ruling form is recorded with (the duel's record keeps
#: it; the audit log says who ruled).
ADJUDICATED_UNREADY = "ruled: neither player was ready"
ADJUDICATED_ABANDONED = "ruled: both players abandoned"


def not_started(duel: Duel) -> bool:
    """A duel that has not started: no game dealt, no move, waiting or ready."""
    return duel.status in duels.UNSTARTED_STATUSES and duel.game_id is None and duel.seq == 0


def _locked(duel: Duel) -> tuple[Tournament, Duel]:
    tournament = lock(duel.tournament)
    locked = duels.lock(duel)
    locked.tournament = tournament
    return tournament, locked


def _check_organiser(tournament: Tournament, duel: Duel, actor: Any) -> None:
    """Organisers and co-organisers only, and never one who plays in the duel."""
    players = player_ids(duel)
    if actor is None or not can(actor, Action.CORRECT_RESULTS, tournament):
        raise ServiceError(
            _("Only the tournament's organisers rule on online duels."), code="forbidden"
        )
    if actor.pk in players:
        raise ServiceError(
            _("You play in this duel: another organiser must rule on it."), code="forbidden"
        )


def unclaimed(duel: Duel) -> list[str]:
    """The names of the duel's players whose entry no account holds (it cannot be played
    online until they claim it)."""
    return [e.name for e in (duel.seat_a, duel.seat_b) if e is not None and e.user_id is None]


def unclaimed_words(names: list[str]) -> str:
    return _(
        "%(name)s has not claimed their entry: an online duel is played by the accounts that "
        "claimed its two entries. Give them their claim link (Players page), or keep this "
        "duel at a table."
    ) % {"name": names[0]}


# The switch -----------------------------------------------------------------------------------


@transaction.atomic
def switch_duel(duel: Duel, actor: Any, *, online: bool) -> Duel:
    """A duel not started is played online, or at a table (ONLINE.md 6: "a single duel may be
    switched before it starts", e.g. a player who cannot come). Asking for what it already is
    changes nothing."""
    tournament, duel = _locked(duel)
    _check_organiser(tournament, duel, actor)
    if not not_started(duel):
        raise ServiceError(
            _("%(duel)s has started: it is played as it began.")
            % {"duel": presentation.duel_title(duel)},
            code="conflict",
        )
    if duel.online == online:
        return duel
    if online and (names := unclaimed(duel)):
        raise ServiceError(unclaimed_words(names))
    duel.online = online
    duel.ready_a = duel.ready_b = None
    # A table duel has no ready screen: its wait goes. Switched online with both players
    # named, its wait starts now, as when they are named (`duels.services.name_seats`).
    named = duel.seat_a_id is not None and duel.seat_b_id is not None
    duel.ready_by = timezone.now() + duels.READY_WAIT if online and named else None
    fields = ["online", "ready_a", "ready_b", "ready_by"]
    duel.save(update_fields=fields)
    audit.record(tournament, actor, "duel_switched", duel=duel.pk, online=online)
    audit.bump_version(tournament)  # the players' pages say where the duel is played
    return duel


# The wait -------------------------------------------------------------------------------------


@transaction.atomic
def extend_wait(
    duel: Duel, actor: Any, *, seen: datetime | None = None, now: datetime | None = None
) -> Duel:
    """An organiser adds five minutes to an online duel's no-show deadline (from now, when it
    has passed). `seen` is the deadline the organiser's page showed: when it has moved since
    (the same button pressed twice, another organiser), nothing changes and they are told."""
    now = now or timezone.now()
    tournament, duel = _locked(duel)
    _check_organiser(tournament, duel, actor)
    if not duel.online or not not_started(duel):
        raise ServiceError(
            _("Only an online duel that has not started waits for its players."),
            code="conflict",
        )
    if duel.ready_by is None:
        raise ServiceError(
            _(
                "The wait has not begun: it starts when the duel is called or both players "
                "are named."
            )
        )
    if seen is not None and seen != duel.ready_by:
        raise ServiceError(
            _("The wait was already changed: the players now have until %(time)s.")
            % {"time": venue_time(tournament, duel.ready_by)},
            code="done",
        )
    duel.ready_by = min(max(duel.ready_by, now) + EXTEND_BY, now + EXTEND_MAX)
    duel.save(update_fields=["ready_by"])
    audit.record(
        tournament, actor, "no_show_wait_extended", duel=duel.pk, ready_by=duel.ready_by.isoformat()
    )
    audit.bump_version(tournament)  # the ready screens show the new deadline
    return duel


# No-shows -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NoShow:
    """What the no-show rule did to one duel: "forfeit" (the seat not ready), "void" (nobody
    could rule), "waiting" (neither was ready: the organisers rule) or "" (nothing due)."""

    done: str
    seat: str = ""


def _due(duel: Duel, now: datetime) -> bool:
    """The duel's wait has run out. Not while an entry is unclaimed: such a duel cannot be
    played online (ONLINE.md 6), so nobody is a no-show for it; its wait starts again when
    the entry is claimed (``entrants.claim_entry``), or the organiser switches it to a table."""
    return (
        duel.online
        and duel.ready_by is not None
        and duel.ready_by <= now
        and not_started(duel)
        and duel.seat_a_id is not None
        and duel.seat_b_id is not None
        and duel.seat_a.user_id is not None
        and duel.seat_b.user_id is not None
    )


def ready_seats(duel: Duel) -> set[str]:
    return {seat for seat, at in (("A", duel.ready_a), ("B", duel.ready_b)) if at is not None}


def _start_refusal(tournament: Tournament, duel: Duel) -> str:
    """Why the duel could not start now ("" when it could): the checks of a refereed duel's
    first move (its phase, its round open, its players active). A no-show forfeits only a
    duel that could have been played, never decides a round out of its order."""
    try:
        check_start(tournament, duel)
    except ServiceError as err:
        return err.message
    return ""


def rulers(tournament: Tournament, duel: Duel) -> set[int]:
    """Who may rule on the duel: the organiser, co-organisers and referees who do not play
    in it (ONLINE.md 6: "another organiser or a referee rules")."""
    staff = set(
        TournamentRole.objects.filter(tournament=tournament).values_list("user_id", flat=True)
    )
    staff.add(tournament.created_by_id)
    return staff - set(player_ids(duel))


def rule_no_shows_for(duel: Duel, now: datetime | None = None) -> NoShow:
    """ONLINE.md 6 "Starting", for one duel, once its no-show deadline has passed: exactly
    one player ready, the other forfeits (reason `no_show`, scored as any forfeit); neither
    ready, it waits for the organisers' ruling — unless nobody but its own players could
    rule, and then a group-phase duel is voided without a result. Safe to repeat, and to call
    on any page load: nothing is locked unless something is due."""
    now = now or timezone.now()
    if not _due(duel, now):
        return NoShow("")
    with transaction.atomic():
        tournament, duel = _locked(duel)
        if not _due(duel, now):
            return NoShow("")
        ready = ready_seats(duel)
        if len(ready) == 2:
            return NoShow("")  # both ready: the players' side deals the game
        if len(ready) == 1:
            if _start_refusal(tournament, duel):
                return NoShow("")
            absent = "B" if "A" in ready else "A"
            entrant = duel.seat_a if absent == "A" else duel.seat_b
            audit.record(tournament, None, "no_show_forfeit", duel=duel.pk, entrant=entrant.pk)
            lifecycle.forfeit(tournament, None, duel, absent, reason="no_show")
            return NoShow("forfeit", absent)
        if rulers(tournament, duel):
            return NoShow("waiting")
        _void(tournament, duel, None, now, NOBODY_READY)
        return NoShow("void")


def rule_no_shows(
    now: datetime | None = None, tournament: Tournament | None = None
) -> dict[str, int]:
    """The beat's pass over every online duel whose no-show deadline has passed (and the
    sweep's; with ``tournament``, the organiser's Rounds page's over its own, so that a wait
    that ran out shows ruled there even where no worker runs): each in its own transaction
    (`rule_no_shows_for`). Returns what it did."""
    now = now or timezone.now()
    done = {"forfeit": 0, "void": 0, "waiting": 0}
    candidates = (
        Duel.objects.filter(
            online=True,
            status__in=duels.UNSTARTED_STATUSES,
            game__isnull=True,
            ready_by__lte=now,
        )
        .select_related("tournament", "seat_a", "seat_b")
        .order_by("ready_by", "pk")
    )
    if tournament is not None:
        candidates = candidates.filter(tournament=tournament)
    for duel in candidates:
        outcome = rule_no_shows_for(duel, now)
        if outcome.done:
            done[outcome.done] += 1
    return done


def both_abandoned(duel: Duel) -> bool:
    """Both players abandoned the running duel: it stopped, waiting for a ruling."""
    return duel.online and duels.is_stopped(duel)


def waiting_for_ruling(duel: Duel, now: datetime | None = None) -> bool:
    """Neither player was ready in time, or both abandoned: the Rounds page asks the
    organisers to rule."""
    if both_abandoned(duel):
        return True
    return _due(duel, now or timezone.now()) and not ready_seats(duel)


def _void(tournament: Tournament, duel: Duel, actor: Any, now: datetime, why: str) -> None:
    """A duel neither player was ready for, or both abandoned, is voided without a result
    (`why`: a key of duels.words.CLOSED_REASONS). A group-phase duel's round is then "not
    played" (TOURNAMENT.md's "no result for that round") and the rounds go on. A tie-break or
    playoff duel has no round to leave without a result — its knockout needs a winner — so,
    as TOURNAMENT.md has every tie-break or playoff duel without a winner, it is replayed by
    the same players on the same seats (a new ready screen, a new deal, its 5 minutes from
    now). A stopped game is abandoned (its events kept)."""
    stopped = duel.game_id is not None and duels.is_dealt(duel)
    fields: dict[str, Any] = {}
    if stopped:
        play.abandon_game(game_id=duel.game_id)
        # The row keeps its game's revision (the pages' poll compares it).
        fields["revision"] = Game.objects.values_list("revision", flat=True).get(pk=duel.game_id)
    Duel.objects.filter(pk=duel.pk).update(
        status=DuelStatus.VOID,
        finished_at=now,
        closed_reason=duel_words.closed_reason_stored({"key": why}),
        **fields,
    )
    duel.status = DuelStatus.VOID
    replay = None
    if duel.kind in lifecycle.GROUP_KINDS:
        lifecycle.round_not_played(tournament, duel.round)
    else:
        replay = lifecycle.replay_due(tournament, duel, actor)
    audit.record(
        tournament,
        actor,
        "abandoned_duel_voided" if stopped else "unplayed_duel_voided",
        duel=duel.pk,
        **({"replay_duel": replay.pk} if replay is not None else {}),
    )
    recompute_standings(tournament)
    audit.bump_version(tournament)
    from ..tasks import advance_tournament, enqueue_on_commit

    enqueue_on_commit(advance_tournament, tournament.pk)


def after_stop(tournament: Tournament, duel: Duel, now: datetime | None = None) -> bool:
    """Called under the locks when a duel's game stopped because both players abandoned
    (the clock keeper's settle): it waits on the Rounds page for a ruling, unless nobody but
    its own players could rule (ONLINE.md 6, "Organisers who play"), and then the app voids
    it. Returns whether it did."""
    if not both_abandoned(duel):
        return False
    audit.record(tournament, None, "online_duel_stopped", duel=duel.pk)
    audit.bump_version(tournament)  # the Rounds page asks for a ruling
    if rulers(tournament, duel):
        return False
    _void(tournament, duel, None, now or timezone.now(), duels.BOTH_ABANDONED)
    return True


@transaction.atomic
def rule_unready(duel: Duel, actor: Any, ruling: str, now: datetime | None = None) -> Duel:
    """The staff's ruling on an online duel neither player was ready for, or both abandoned
    (ONLINE.md 6: "a forfeit of one seat, an adjudication or a void"; never a draw):
    `forfeit_A`/`forfeit_B` (reason `no_show`, or `abandoned` for a duel both abandoned;
    scored as any forfeit) or `adjudicate_A`/`adjudicate_B` (that seat wins, RULES.md 7's
    adjudication) by an organiser or a referee — TOURNAMENT.md lets a referee record both —,
    or `void` by an organiser (`_void`: a group round without a result, a tie-break or
    playoff duel replayed). Nobody who plays in it. Safe to repeat: a duel already ruled on
    is told so, nothing applied twice."""
    now = now or timezone.now()
    if ruling not in RULINGS:
        raise ServiceError(_("Choose a forfeit of one seat, an adjudication or a void."))
    tournament, duel = _locked(duel)
    players = player_ids(duel)
    if actor is not None and actor.pk in players:
        raise ServiceError(
            _("You play in this duel: another organiser must rule on it."), code="forbidden"
        )
    action = Action.CORRECT_RESULTS if ruling == "void" else Action.REFEREE_DUELS
    if actor is None or not can(actor, action, tournament, players=players):
        raise ServiceError(
            _("Only the tournament's organisers void a duel.")
            if ruling == "void"
            else _("Only the tournament's referees and organisers rule on a duel."),
            code="forbidden",
        )
    if duel.status in (DuelStatus.FINISHED, DuelStatus.VOID, DuelStatus.ABANDONED):
        raise ServiceError(
            presentation.not_open_words(presentation.duel_title(duel), duel.get_status_display()),
            code="done",
        )
    if not waiting_for_ruling(duel, now):
        raise ServiceError(
            _(
                "This duel is not waiting for a ruling: its players still have time, or one "
                "of them was ready."
            ),
            code="conflict",
        )
    abandoned = both_abandoned(duel)
    if ruling == "void":
        _void(tournament, duel, actor, now, RULED_VOID)
        return duel
    if not abandoned and (refusal := _start_refusal(tournament, duel)):
        raise ServiceError(refusal)
    seat = ruling[-1]
    entrant = duel.seat_a if seat == "A" else duel.seat_b
    if ruling.startswith("adjudicate"):
        reason = ADJUDICATED_ABANDONED if abandoned else ADJUDICATED_UNREADY
        audit.record(tournament, actor, "stopped_duel_adjudicated", duel=duel.pk, winner=entrant.pk)
        duel = duels.lock(duel)
        duel.tournament = tournament
        duels.adjudicate(duel, actor, seat, reason)
        lifecycle.after_result(tournament, duel, actor)
        return duel
    audit.record(
        tournament,
        actor,
        "abandoned_duel_forfeit" if abandoned else "no_show_forfeit",
        duel=duel.pk,
        entrant=entrant.pk,
    )
    return lifecycle.forfeit(
        tournament, actor, duel, seat, reason="abandoned" if abandoned else "no_show"
    )
