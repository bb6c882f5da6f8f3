"""A casual table's life, and the only writer of `CasualTable` and `CoReferee` rows
(docs/tables.md).

Opening a table checks its set-up with the engine (RULES.md sections 8 and 11) so that a table
is never stored that the engine would refuse, and starts its game in the table core (a
`play.Game` of kind `split_uno_refereed`, every seat held by the referee). Every move, undo
and ending goes through the core's one write path (`play.services`) with this product's
policy: the table's row locked first, its owner and co-referees only, the form's idempotency
key, the page's revision; a refused move stores nothing. Tokens (the record link, co-referee
invitations) are shown once and stored as SHA-256 hashes.
"""

import hashlib
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from core.errors import ServiceError
from core.text import clean_line
from duels.services import RECORD_FORMAT
from games.split_uno import PRESETS, VARIANTS, EngineError, resolve_rules
from games.split_uno import Duel as EngineDuel
from play import selectors as play_selectors
from play import services as play_services
from play.adapters.base import Command, Viewer
from play.adapters.split_uno_refereed import KIND, config_of
from play.errors import Hidden, Stale
from play.errors import Refused as Illegal
from play.models import GameStatus, HolderKind
from play.services import Actor, Holder, Outcome, Policy

from . import words
from .models import CasualTable, CoReferee

MIN_SEATS, MAX_SEATS = 2, 6
NAME_MAX = 40
#: A person keeps their latest tables; opening one more deletes the oldest.
KEEP_TABLES = 50
#: Live co-referee invitations and co-referees of one table.
MAX_CO_REFEREES = 10
MAX_STARTING_ACTION_CARDS = 5
MAX_STARTING_NUMBER_CARDS = 20
#: Seed 001 leaves 68 number cards in the deck after the deal (RULES.md 11.1, 11.13).
DECK_AFTER_DEAL = 68


#: The longest `intent` a form may carry (`intent_key`: a longer one is no key at all).
INTENT_MAX = 40


class Conflict(ServiceError):
    def __init__(self) -> None:
        super().__init__(gettext(words.CONFLICT), code="conflict")


#: A casual table's game as every referee sees it (nothing is hidden at a refereed table).
REFEREE = Viewer("referee")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _new_token() -> tuple[str, str]:
    token = secrets.token_urlsafe(24)
    return token, token_hash(token)


# Opening a table ------------------------------------------------------------------------------


def seat_names(raw: Sequence[str]) -> list[str]:
    """The seats' names, each on one line, non-empty, bounded and different from the others."""
    if not MIN_SEATS <= len(raw) <= MAX_SEATS:
        raise ServiceError(
            gettext("A table has %(min)s to %(max)s seats.") % {"min": MIN_SEATS, "max": MAX_SEATS}
        )
    names = []
    for i, text in enumerate(raw):
        letter = chr(ord("A") + i)
        name = clean_line(text, what=gettext("Seat %(letter)s's name") % {"letter": letter})
        if not name:
            raise ServiceError(gettext("Give seat %(letter)s a name.") % {"letter": letter})
        if len(name) > NAME_MAX:
            raise ServiceError(
                gettext("Seat %(letter)s's name is longer than %(max)s characters.")
                % {"letter": letter, "max": NAME_MAX}
            )
        if name.casefold() in (n.casefold() for n in names):
            raise ServiceError(
                gettext("Two seats are called %(name)s: give each seat its own name.")
                % {"name": name}
            )
        names.append(name)
    return names


def table_options(
    *,
    ruleset: str,
    variants: Sequence[str],
    seats: int,
    number_cards: int | None = None,
    action_cards: int = 0,
) -> dict[str, Any]:
    """The record's `options` for this set-up: more seats than the preset seats raise
    `max_seats` (RULES.md 11.1), and where the pool cannot deal every seat its cards,
    `number_pool` is set so that 68 stay in the deck after the deal (68 + 20 × seats with the
    usual 20 cards each; 11.1 and 11.13: the engine never scales a pool by itself)."""
    options: dict[str, Any] = {}
    base = resolve_rules(ruleset, list(variants), {})
    if seats > base.max_seats:
        options["max_seats"] = seats
    if number_cards is not None and number_cards != base.starting_number_cards:
        options["starting_number_cards"] = number_cards
    dealt = (number_cards or base.starting_number_cards) * seats
    if base.number_pool < dealt:
        options["number_pool"] = DECK_AFTER_DEAL + dealt
    if action_cards:
        options["starting_action_cards"] = {chr(ord("A") + i): action_cards for i in range(seats)}
    return options


def _check_setup(
    ruleset: str,
    variants: list[str],
    names: list[str],
    teams: list[list[str]] | None,
    number_cards: int | None,
    action_cards: int,
) -> None:
    if ruleset not in PRESETS:
        raise ServiceError(gettext("Choose one of the rulesets offered."))
    if len(set(variants)) != len(variants) or any(v not in VARIANTS for v in variants):
        raise ServiceError(gettext("Choose variants among those offered."))
    if ("team" in variants) != (teams is not None):
        raise ServiceError(gettext("Teams go with the team variant: choose both or neither."))
    if number_cards is not None and not 1 <= number_cards <= MAX_STARTING_NUMBER_CARDS:
        raise ServiceError(
            gettext("Each seat starts with 1 to %(max)s number cards.")
            % {"max": MAX_STARTING_NUMBER_CARDS}
        )
    if not 0 <= action_cards <= MAX_STARTING_ACTION_CARDS:
        raise ServiceError(
            gettext("Each seat starts with 0 to %(max)s action cards.")
            % {"max": MAX_STARTING_ACTION_CARDS}
        )


@transaction.atomic
def open_table(
    *,
    owner: User,
    ruleset: str,
    names: Sequence[str],
    variants: Sequence[str] = (),
    teams: list[list[str]] | None = None,
    number_cards: int | None = None,
    action_cards: int = 0,
) -> CasualTable:
    """A new table with no move yet. The person keeps their latest KEEP_TABLES tables: the
    oldest beyond them are deleted with their moves."""
    seats = seat_names(names)
    variants = list(variants)
    _check_setup(ruleset, variants, seats, teams, number_cards, action_cards)
    options = table_options(
        ruleset=ruleset,
        variants=variants,
        seats=len(seats),
        number_cards=number_cards,
        action_cards=action_cards,
    )
    letters = [chr(ord("A") + i) for i in range(len(seats))]
    try:
        EngineDuel.new(ruleset, dict(zip(letters, seats, strict=True)), variants, options, teams)
    except EngineError as err:
        # Translators: the engine's own reason follows (in English: the engine's words).
        raise ServiceError(
            gettext("The engine refuses this table: %(reason)s.") % {"reason": err}
        ) from None
    # One opening at a time per person, so the bound holds under two quick clicks.
    User.objects.select_for_update().filter(pk=owner.pk).first()
    header: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": 1,
        "ruleset": ruleset,
        "variants": variants,
        "options": options,
        "seats": dict(zip(letters, seats, strict=True)),
    }
    if teams is not None:
        header["teams"] = [list(team) for team in teams]
    config, letters = config_of(header)
    game = play_services.start_game(
        kind=KIND,
        config=config,
        seats=letters,
        holders={letter: Holder(HolderKind.REFEREE) for letter in letters},
    )
    table = CasualTable.objects.create(
        owner=owner,
        game=game,
        ruleset=ruleset,
        variants=variants,
        options=options,
        seats=seats,
        teams=teams,
    )
    keep = CasualTable.objects.filter(owner=owner).order_by("-created_at", "-pk")[:KEEP_TABLES]
    # Each table's game goes with it (tables.signals).
    CasualTable.objects.filter(owner=owner).exclude(
        pk__in=list(keep.values_list("pk", flat=True))
    ).delete()
    return table


# The record -----------------------------------------------------------------------------------


def record_of(table: CasualTable) -> dict[str, Any]:
    """The table's record (RULES.md section 8; `teams` per section 11.9): the header the game
    opened with and its active moves, in order (one query). What `python -m duels.engine
    replay` reads; written from the stored events, so a record the engine no longer replays
    is still given as it was stored."""
    header: dict[str, Any] = {}
    events = []
    for _, _, _, _, public, _, undone in play_selectors.events_of(table.game_id):
        if "header" in public:
            header = dict(public["header"])
        elif undone is None:
            events.append(public["event"])
    return {**header, "events": events}


def engine_of(table: CasualTable) -> EngineDuel:
    return EngineDuel.from_record(record_of(table))


# Who may do what ------------------------------------------------------------------------------


def may_referee(user: Any, table: CasualTable) -> bool:
    """The owner and the accepted co-referees whose invitation is not revoked."""
    if not getattr(user, "is_authenticated", False):
        return False
    if table.owner_id == user.pk:
        return True
    return CoReferee.objects.filter(
        table=table, user=user, accepted_at__isnull=False, revoked_at=None
    ).exists()


def _only_owner(table: CasualTable, actor: Any) -> None:
    if table.owner_id != getattr(actor, "pk", None):
        raise ServiceError(gettext("Only the table's owner may do this."), code="forbidden")


# Moves: through the table core's one write path ----------------------------------------------


def new_intent() -> str:
    """A fresh idempotency key for one rendered console (its forms' hidden `intent`)."""
    return secrets.token_urlsafe(16)


def intent_key(intent: str) -> str:
    """The command's idempotency key: the page's `intent`, bounded; empty (nothing kept) for a
    post without one. The same form sent twice (a double tap, a retry) is answered "already
    recorded"; another form of the same page is a move of its own, stale if the first landed —
    the core tells them apart by the command the key came with (`play.models.Intent.command`)."""
    if not intent or len(intent) > INTENT_MAX:
        return ""
    return intent


def _actor(user: Any) -> Actor:
    return Actor(key=f"user:{getattr(user, 'pk', None)}", user=user)


def _table_policy(table_id: int) -> tuple[Callable[[], object], Policy]:
    """The table's row locked first (the product's row, as a tournament's is before its duel),
    and the product's policy: its owner and co-referees enter every move, an undo — even of
    the move that ended the game, a casual table has no result to protect — and an ending;
    to anyone else the table does not exist (404)."""
    locked: list[CasualTable | None] = []

    def lock() -> None:
        locked.append(CasualTable.objects.select_for_update().filter(pk=table_id).first())

    def policy(game: Any, actor: Actor, command: Command) -> None:
        table = locked[0] if locked else None
        if table is None or table.game_id != game.pk or not may_referee(actor.user, table):
            raise Hidden(gettext(words.NOT_YOURS))

    return lock, policy


def _game_id(table_id: int, game_id: int | None) -> int:
    """The table's game (given by a caller that has read the table: no query)."""
    if game_id is None:
        game_id = CasualTable.objects.filter(pk=table_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise Hidden(gettext(words.NOT_YOURS))
    return game_id


def _command(event: Mapping[str, Any] | Command) -> Command:
    """A parsed post (`Command`), or an engine event as the record writes it (a dict: the
    tests', the benchmark's)."""
    if isinstance(event, Command):
        return event
    args = {k: v for k, v in event.items() if k != "type"}
    return Command(str(event.get("type", "")), None, args)


def append_event(
    *,
    table_id: int,
    actor: Any,
    event: Mapping[str, Any] | Command,
    expected_revision: int | None,
    key: str = "",
    game_id: int | None = None,
) -> Outcome:
    """Apply one move (a round, an action card, a decision or a referee ending) through
    `play.services.apply_command`: the table's policy, the key, the page's revision. The
    outcome: `repeat` when the same form was already recorded (nothing changed), the game's
    revision and status, and its view for the referee."""
    game_id = _game_id(table_id, game_id)
    lock, policy = _table_policy(table_id)
    try:
        return play_services.apply_command(
            game_id=game_id,
            actor=_actor(actor),
            command=_command(event),
            key=key,
            seen_revision=-1 if expected_revision is None else expected_revision,
            policy=policy,
            lock_first=lock,
            viewer=REFEREE,
        )
    except Stale:
        raise Conflict() from None
    except Illegal as err:
        if play_selectors.game_or_hidden(game_id).status == GameStatus.FINISHED:
            raise ServiceError(gettext(words.GAME_OVER), code="closed") from None
        raise ServiceError(err.message, code="illegal") from None


def undo(
    *,
    table_id: int,
    actor: Any,
    expected_revision: int | None,
    key: str = "",
    game_id: int | None = None,
) -> Outcome:
    """Take back the last move, the one that ended the game included (a casual table has no
    result to protect), through `play.services.undo_last`; its event stays, marked undone.
    The outcome as `append_event`'s."""
    lock, policy = _table_policy(table_id)
    try:
        return play_services.undo_last(
            game_id=_game_id(table_id, game_id),
            actor=_actor(actor),
            key=key,
            seen_revision=-1 if expected_revision is None else expected_revision,
            policy=policy,
            lock_first=lock,
            viewer=REFEREE,
        )
    except Stale:
        raise Conflict() from None
    except Illegal as err:
        raise ServiceError(err.message, code="closed") from None


# The public record link ----------------------------------------------------------------------


@transaction.atomic
def make_replay_link(*, table_id: int, actor: Any) -> str:
    """A new public record link (the token, shown once); an earlier link stops working."""
    table = CasualTable.objects.select_for_update().get(pk=table_id)
    _only_owner(table, actor)
    token, digest = _new_token()
    table.replay_token_hash = digest
    table.save(update_fields=["replay_token_hash"])
    return token


@transaction.atomic
def revoke_replay_link(*, table_id: int, actor: Any) -> None:
    table = CasualTable.objects.select_for_update().get(pk=table_id)
    _only_owner(table, actor)
    if not table.replay_token_hash:
        raise ServiceError(gettext(words.NO_RECORD_LINK), code="closed")
    table.replay_token_hash = ""
    table.save(update_fields=["replay_token_hash"])


def table_for_replay(token: str) -> CasualTable | None:
    if not token or len(token) > 64:
        return None
    return CasualTable.objects.filter(replay_token_hash=token_hash(token)).first()


# Co-referees ---------------------------------------------------------------------------------


def _counted(table: CasualTable) -> QuerySet[CoReferee]:
    """Co-referees and invitations still open: an expired invitation no longer counts."""
    return table.co_referees.filter(revoked_at=None).filter(
        Q(accepted_at__isnull=False) | Q(expires_at__gt=timezone.now())
    )


@transaction.atomic
def invite_co_referee(*, table_id: int, actor: Any) -> str:
    """A one-use invitation link (the token, shown once), valid for
    `settings.TABLE_INVITATION_DAYS`: a link that travels must not open the table for ever."""
    table = CasualTable.objects.select_for_update().get(pk=table_id)
    _only_owner(table, actor)
    if _counted(table).count() >= MAX_CO_REFEREES:
        raise ServiceError(
            gettext(
                "A table has at most %(max)s co-referees and open invitations: revoke one first."
            )
            % {"max": MAX_CO_REFEREES}
        )
    token, digest = _new_token()
    expires_at = timezone.now() + timedelta(days=settings.TABLE_INVITATION_DAYS)
    CoReferee.objects.create(table=table, token_hash=digest, expires_at=expires_at)
    return token


@transaction.atomic
def revoke_co_referee(*, table_id: int, actor: Any, invite_id: int) -> None:
    table = CasualTable.objects.select_for_update().get(pk=table_id)
    _only_owner(table, actor)
    invite = table.co_referees.filter(pk=invite_id, revoked_at=None).first()
    if invite is None:
        raise ServiceError(gettext("That invitation is already revoked."), code="closed")
    invite.revoked_at = timezone.now()
    invite.save(update_fields=["revoked_at"])


def _open_invitation(token: str, *, lock: bool = False) -> CoReferee:
    """The unused, unrevoked, unexpired invitation of this token; a ServiceError otherwise:
    "closed" for a token that names nothing open (the page answers 404, as for a guess),
    "expired" for one that ran out (the page says when, 410)."""
    rows = CoReferee.objects.select_related("table", "table__owner")
    if lock:
        rows = rows.select_for_update(of=("self",))
    invite = (
        rows.filter(token_hash=token_hash(token), revoked_at=None, accepted_at=None).first()
        if token and len(token) <= 64
        else None
    )
    if invite is None:
        raise ServiceError(gettext(words.INVITATION_GONE), code="closed")
    if invite.expired:
        raise ServiceError(words.invitation_expired(invite.expires_at), code="expired")
    return invite


def invitation(token: str) -> CoReferee:
    """The open invitation of this token (read, not used up); ServiceError as
    `_open_invitation` says."""
    return _open_invitation(token)


@transaction.atomic
def accept_invitation(*, token: str, user: User) -> CasualTable:
    """The signed-in person becomes a co-referee; the link is used up."""
    invite = _open_invitation(token, lock=True)
    table = invite.table
    if table.owner_id == user.pk:
        raise ServiceError(gettext("This is your own table: send the invitation to someone else."))
    if CoReferee.objects.filter(
        table=table, user=user, accepted_at__isnull=False, revoked_at=None
    ).exists():
        raise ServiceError(gettext("You already referee this table."))
    invite.user = user
    invite.accepted_at = timezone.now()
    invite.save(update_fields=["user", "accepted_at"])
    return table
