"""A casual table's life, and the only writer of `CasualTable`, `TableEvent` and `CoReferee`
rows (docs/tables.md).

Opening a table checks its set-up with the engine (RULES.md sections 8 and 11) so that a table
is never stored that the engine would refuse; every move is applied under the table's row lock
after comparing the page's revision, and a refused move stores nothing. Tokens (the record
link, co-referee invitations) are shown once and stored as SHA-256 hashes.
"""

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from core.errors import ServiceError
from core.text import clean_line
from duels.services import RECORD_FORMAT
from games.split_uno import PRESETS, VARIANTS, EngineError, resolve_rules
from games.split_uno import Duel as EngineDuel

from . import words
from .models import CasualTable, CoReferee, TableEvent, TableStatus

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


class Conflict(ServiceError):
    def __init__(self) -> None:
        super().__init__(
            "Someone else entered a move — here is the current state.", code="conflict"
        )


@dataclass(frozen=True)
class Outcome:
    lines: list[str]
    finished: bool


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _new_token() -> tuple[str, str]:
    token = secrets.token_urlsafe(24)
    return token, token_hash(token)


# Opening a table ------------------------------------------------------------------------------


def seat_names(raw: Sequence[str]) -> list[str]:
    """The seats' names, each on one line, non-empty, bounded and different from the others."""
    if not MIN_SEATS <= len(raw) <= MAX_SEATS:
        raise ServiceError(f"A table has {MIN_SEATS} to {MAX_SEATS} seats.")
    names = []
    for i, text in enumerate(raw):
        letter = chr(ord("A") + i)
        name = clean_line(text, what=f"Seat {letter}'s name")
        if not name:
            raise ServiceError(f"Give seat {letter} a name.")
        if len(name) > NAME_MAX:
            raise ServiceError(f"Seat {letter}'s name is longer than {NAME_MAX} characters.")
        if name.casefold() in (n.casefold() for n in names):
            raise ServiceError(f"Two seats are called {name}: give each seat its own name.")
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
        raise ServiceError("Choose one of the rulesets offered.")
    if len(set(variants)) != len(variants) or any(v not in VARIANTS for v in variants):
        raise ServiceError("Choose variants among those offered.")
    if ("team" in variants) != (teams is not None):
        raise ServiceError("Teams go with the team variant: choose both or neither.")
    if number_cards is not None and not 1 <= number_cards <= MAX_STARTING_NUMBER_CARDS:
        raise ServiceError(f"Each seat starts with 1 to {MAX_STARTING_NUMBER_CARDS} number cards.")
    if not 0 <= action_cards <= MAX_STARTING_ACTION_CARDS:
        raise ServiceError(f"Each seat starts with 0 to {MAX_STARTING_ACTION_CARDS} action cards.")


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
        raise ServiceError(f"The engine refuses this table: {err}.") from None
    # One opening at a time per person, so the bound holds under two quick clicks.
    User.objects.select_for_update().filter(pk=owner.pk).first()
    table = CasualTable.objects.create(
        owner=owner,
        ruleset=ruleset,
        variants=variants,
        options=options,
        seats=seats,
        teams=teams,
    )
    keep = CasualTable.objects.filter(owner=owner).order_by("-created_at", "-pk")[:KEEP_TABLES]
    CasualTable.objects.filter(owner=owner).exclude(
        pk__in=list(keep.values_list("pk", flat=True))
    ).delete()
    return table


# The record -----------------------------------------------------------------------------------


def record_of(table: CasualTable, events: list[dict] | None = None) -> dict[str, Any]:
    """The table's record (RULES.md section 8; `teams` per section 11.9): active moves only."""
    if events is None:
        events = list(
            table.events.filter(undone_at=None).order_by("seq").values_list("payload", flat=True)
        )
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": 1,
        "ruleset": table.ruleset,
        "variants": list(table.variants),
        "options": dict(table.options),
        "seats": table.names,
        "events": events,
    }
    if table.teams is not None:
        record["teams"] = [list(team) for team in table.teams]
    return record


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


def _lock(table_id: int, actor: Any, expected_revision: int | None) -> CasualTable:
    table = CasualTable.objects.select_for_update().filter(pk=table_id).first()
    if table is None or not may_referee(actor, table):
        raise ServiceError("You do not referee this table.", code="forbidden")
    if expected_revision is None or expected_revision != table.revision:
        raise Conflict()
    return table


def _only_owner(table: CasualTable, actor: Any) -> None:
    if table.owner_id != getattr(actor, "pk", None):
        raise ServiceError("Only the table's owner may do this.", code="forbidden")


# Moves ----------------------------------------------------------------------------------------


@transaction.atomic
def append_event(
    *, table_id: int, actor: Any, event: dict[str, Any], expected_revision: int | None
) -> Outcome:
    """Apply one move (a round, an action card, a decision or a referee ending)."""
    table = _lock(table_id, actor, expected_revision)
    if table.status == TableStatus.FINISHED:
        raise ServiceError("This game is over: it takes no more moves.", code="closed")
    engine = engine_of(table)
    try:
        effects = engine.apply(event)
    except EngineError as err:
        raise ServiceError(str(err), code="illegal") from None
    lines = engine.describe(effects) if effects else []
    table.seq += 1
    table.revision += 1
    TableEvent.objects.create(
        table=table,
        seq=table.seq,
        payload=engine.record()["events"][-1],
        summary=lines,
        created_by=actor,
    )
    if engine.finished:
        table.status = TableStatus.FINISHED
    table.save(update_fields=["seq", "revision", "status", "updated_at"])
    return Outcome(lines, engine.finished)


@transaction.atomic
def undo(*, table_id: int, actor: Any, expected_revision: int | None) -> None:
    """Take back the last move, the one that ended the game included (a casual table has no
    result to protect); its row stays, marked undone."""
    table = _lock(table_id, actor, expected_revision)
    if table.seq == 0:
        raise ServiceError("There is no move to undo.", code="closed")
    last = table.events.filter(undone_at=None, seq=table.seq).get()
    last.undone_at = timezone.now()
    last.undone_by = actor
    last.save(update_fields=["undone_at", "undone_by"])
    table.seq -= 1
    table.revision += 1
    table.status = TableStatus.PLAYING
    table.save(update_fields=["seq", "revision", "status", "updated_at"])


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
        raise ServiceError(words.NO_RECORD_LINK, code="closed")
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
            f"A table has at most {MAX_CO_REFEREES} co-referees and open invitations: "
            "revoke one first."
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
        raise ServiceError("That invitation is already revoked.", code="closed")
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
        raise ServiceError(words.INVITATION_GONE, code="closed")
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
        raise ServiceError("This is your own table: send the invitation to someone else.")
    if CoReferee.objects.filter(
        table=table, user=user, accepted_at__isnull=False, revoked_at=None
    ).exists():
        raise ServiceError("You already referee this table.")
    invite.user = user
    invite.accepted_at = timezone.now()
    invite.save(update_fields=["user", "accepted_at"])
    return table
