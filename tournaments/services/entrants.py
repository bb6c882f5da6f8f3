"""Registration (one, a pasted list, a CSV) and claim links."""

import csv
import hashlib
import io
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.permissions import Action, can
from core.errors import ServiceError
from core.names import name_key

from .. import presentation
from ..models import ENTRANT_NAME_MAX, AuditEntry, Entrant, EntrantStatus, Phase, Tournament
from . import audit
from .names import check_entrant_name_free, clean_entrant_name, collision_message
from .setup import lock

NAME_MAX = ENTRANT_NAME_MAX
# A list or a file registers at most 30 active players; these bounds leave room for notes,
# blank lines and mistakes, and refuse anything larger before a row is read or saved.
UPLOAD_MAX_BYTES = 256 * 1024
LINES_MAX = 500
MAX_ACTIVE_ENTRANTS = 30  # TOURNAMENT.md, "Phases": a 31st active entrant is refused
REGISTRATION_PHASES = (Phase.DRAFT, Phase.REGISTRATION)
#: One account, one entry a tournament: said whether the check or the database finds it.
ALREADY_LINKED = gettext_lazy("Your account is already linked to an entry in this tournament.")


def _check_open(tournament: Tournament) -> None:
    if tournament.phase not in REGISTRATION_PHASES:
        raise ServiceError(
            _("Registration is closed: no late entries once the group phase has started.")
        )


@transaction.atomic
def add_entrant(tournament: Tournament, name: str, actor=None) -> Entrant:
    tournament = lock(tournament)
    _check_open(tournament)
    name = clean_entrant_name(name)
    check_entrant_name_free(tournament, name)
    if tournament.entrants.filter(status=EntrantStatus.ACTIVE).count() >= MAX_ACTIVE_ENTRANTS:
        raise ServiceError(
            _("The tournament is full: %(max)s active players at most.")
            % {"max": MAX_ACTIVE_ENTRANTS}
        )
    entrant = Entrant.objects.create(tournament=tournament, name=name)
    audit.record(tournament, actor, "player_registered", entrant=entrant.pk, name=name)
    audit.bump_version(tournament)
    return entrant


NOT_REGISTERED = gettext_lazy("That player is not registered in this tournament.")
REMOVAL_CLOSED = gettext_lazy(
    "The group phase has started: a player can only be withdrawn now, not removed."
)


@dataclass(frozen=True)
class Removal:
    """What removing an entry would do, named before it is done: the entry, and the account
    it is linked to (that account loses it). A removal cannot be undone."""

    entrant: Entrant
    account: str  # the linked account's label, "" when none
    account_id: int  # what the confirmation carries: the linked account's id, 0 when none
    refusal: str  # why it would be refused, else ""


def removal_preview(tournament: Tournament, entrant: Entrant) -> Removal:
    """Read-only: what `remove_entrant` would do now to `entrant`."""
    user = entrant.user
    refusal = "" if tournament.phase in REGISTRATION_PHASES else str(REMOVAL_CLOSED)
    return Removal(entrant, user.staff_label if user else "", entrant.user_id or 0, refusal)


def _removed_before(tournament: Tournament, entrant_id: int) -> str:
    """The name of the entry `entrant_id` if it was removed from this tournament, else ""."""
    entry = (
        AuditEntry.objects.filter(
            tournament=tournament, action="player_removed", detail__removed=entrant_id
        )
        .order_by("-pk")
        .first()
    )
    return (entry.detail.get("names") or [""])[0] if entry else ""


@transaction.atomic
def remove_entrant(
    tournament: Tournament, actor, entrant_id: int, *, expected_account: int | None = None
) -> str:
    """Remove a player outright (a mistyped name, a no-show) before the group phase starts;
    after that a player can only be withdrawn. Returns the name removed.

    `expected_account`: the account (0: none) the confirmation named; if the entry was
    linked or unlinked since, nothing is done and the organiser is asked again. An entry
    already removed is told so ("done"), nothing changed."""
    tournament = lock(tournament)
    if not can(actor, Action.MANAGE_REGISTRATION, tournament):
        raise ServiceError(_("You may not remove players here."), code="forbidden")
    entrant = tournament.entrants.select_related("user").filter(pk=entrant_id).first()
    if entrant is None:
        gone = _removed_before(tournament, entrant_id)
        if gone:
            raise ServiceError(presentation.already_removed(gone), code="done")
        raise ServiceError(str(NOT_REGISTERED))
    if tournament.phase not in REGISTRATION_PHASES:
        raise ServiceError(str(REMOVAL_CLOSED))
    if expected_account is not None and expected_account != (entrant.user_id or 0):
        account = entrant.user.staff_label if entrant.user else ""
        raise ServiceError(presentation.removal_stale(entrant.name, account), code="stale")
    name = entrant.name
    entrant.delete()  # memberships go with it; nothing else refers to an entry this early
    # `removed`: the id a repeated confirmation names, so that it is told, not refused.
    audit.record(tournament, actor, "player_removed", names=[name], removed=entrant_id)
    audit.bump_version(tournament)
    return name


@dataclass(frozen=True)
class Unlinking:
    """What unlinking an entry from its account would do, named before it is done."""

    entrant: Entrant
    account: str  # the linked account's label
    account_id: int  # what the confirmation carries: the linked account's id
    refusal: str  # why it would be refused, else ""


def _unlink_refusal(tournament: Tournament, entrant: Entrant) -> str:
    from duels.models import Duel, DuelStatus

    if entrant.user_id is None:
        return _("%(name)s's entry is not linked to an account.") % {"name": entrant.name}
    playing = Duel.objects.filter(
        tournament=tournament, online=True, status=DuelStatus.RUNNING
    ).filter(models.Q(seat_a=entrant) | models.Q(seat_b=entrant))
    if playing.exists():
        return _(
            "%(name)s is playing an online duel now: unlink their entry once it has ended."
        ) % {"name": entrant.name}
    return ""


def unlink_preview(tournament: Tournament, entrant: Entrant) -> Unlinking:
    """Read-only: what `unlink_entry` would do now to `entrant`."""
    user = entrant.user
    return Unlinking(
        entrant,
        user.staff_label if user else "",
        entrant.user_id or 0,
        _unlink_refusal(tournament, entrant),
    )


@transaction.atomic
def unlink_entry(
    tournament: Tournament, actor, entrant_id: int, *, expected_account: int | None = None
) -> Entrant:
    """ONLINE.md 6: the organiser unlinks an entry from the account that claimed it (a wrong
    person, a lost account). The account keeps its own data; the entry keeps its results and
    may be claimed again through a new claim link (its old one stays dead). Audited.
    `expected_account`: the account the confirmation named; linked to another since, nothing
    is done and the organiser is asked again; already unlinked, they are told ("done")."""
    tournament = lock(tournament)
    if not can(actor, Action.MANAGE_REGISTRATION, tournament):
        raise ServiceError(_("You may not unlink entries here."), code="forbidden")
    entrant = tournament.entrants.select_related("user").filter(pk=entrant_id).first()
    if entrant is None:
        raise ServiceError(str(NOT_REGISTERED))
    if entrant.user_id is None and expected_account:
        raise ServiceError(
            _("%(name)s's entry is already unlinked: nothing changed.") % {"name": entrant.name},
            code="done",
        )
    if expected_account is not None and expected_account != (entrant.user_id or 0):
        raise ServiceError(
            _("%(name)s's entry was claimed by another account since the page was drawn.")
            % {"name": entrant.name},
            code="stale",
        )
    refusal = _unlink_refusal(tournament, entrant)
    if refusal:
        raise ServiceError(refusal)
    account = entrant.user.username
    entrant.user = None
    # The old link dies with the link to the account: only a new claim link claims it again.
    entrant.claim_token_hash = ""
    entrant.claim_expires_at = None
    entrant.save(update_fields=["user", "claim_token_hash", "claim_expires_at"])
    audit.record(tournament, actor, "entry_unlinked", entrant=entrant.pk, account=account)
    audit.bump_version(tournament)
    return entrant


@dataclass(frozen=True)
class LineReport:
    line: int
    text: str
    added: bool
    message: str


def _register_names(
    tournament: Tournament, rows: list[tuple[int, str]], actor, source: str
) -> list[LineReport]:
    """Register each (line, name); good rows are added, each bad row reported by its line."""
    tournament = lock(tournament)
    _check_open(tournament)
    # key → the name as registered (earlier in the database or earlier in this list)
    taken = dict(tournament.entrants.values_list("name_key", "name"))
    room = MAX_ACTIVE_ENTRANTS - tournament.entrants.filter(status=EntrantStatus.ACTIVE).count()
    reports, new = [], []
    for line, raw in rows:
        try:
            name = clean_entrant_name(raw)
        except ServiceError as err:
            reports.append(LineReport(line, raw, False, err.message))
            continue
        key = name_key(name)
        if key in taken:
            reports.append(
                LineReport(line, raw, False, collision_message(name, taken[key], "registered"))
            )
            continue
        if room <= 0:
            reports.append(
                LineReport(
                    line,
                    raw,
                    False,
                    _("The tournament is full: %(max)s active players at most.")
                    % {"max": MAX_ACTIVE_ENTRANTS},
                )
            )
            continue
        taken[key] = name
        room -= 1
        new.append(Entrant(tournament=tournament, name=name, name_key=key))
        reports.append(LineReport(line, name, True, "registered"))
    if new:
        Entrant.objects.bulk_create(new)
        audit.record(
            tournament, actor, "players_registered", source=source, names=[e.name for e in new]
        )
        audit.bump_version(tournament)
    return reports


@transaction.atomic
def register_list(tournament: Tournament, text: str, actor=None) -> list[LineReport]:
    """A pasted list: one name a line; blank lines are skipped."""
    if len((text or "").encode()) > UPLOAD_MAX_BYTES:
        raise ServiceError(
            _("The list is too long: at most %(kib)s KiB. Nothing was registered.")
            % {"kib": UPLOAD_MAX_BYTES // 1024}
        )
    rows = [(n, line) for n, line in enumerate((text or "").splitlines(), start=1) if line.strip()]
    if not rows:
        raise ServiceError(_("Paste at least one name, one per line."))
    if len(rows) > LINES_MAX:
        raise ServiceError(
            _("The list has %(n)s lines: at most %(max)s. Nothing was registered.")
            % {"n": len(rows), "max": LINES_MAX}
        )
    return _register_names(tournament, rows, actor, "list")


@transaction.atomic
def register_csv(tournament: Tournament, data: bytes | str, actor=None) -> list[LineReport]:
    """A CSV whose first column is the name; a first row reading `name` is a header."""
    if len(data if isinstance(data, bytes) else data.encode()) > UPLOAD_MAX_BYTES:
        raise ServiceError(
            _("The file is too large: at most %(kib)s KiB. Nothing was registered.")
            % {"kib": UPLOAD_MAX_BYTES // 1024}
        )
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ServiceError(_("The file is not UTF-8 text: save it as CSV (UTF-8).")) from None
    try:
        parsed = list(csv.reader(io.StringIO(data)))
    except csv.Error as err:
        raise ServiceError(_("The file is not valid CSV: %(err)s.") % {"err": err}) from None
    rows: list[tuple[int, str]] = []
    for n, cells in enumerate(parsed, start=1):
        if not any(cell.strip() for cell in cells):
            continue
        if n == 1 and cells[0].strip().casefold() in {"name", "player", "player name"}:
            continue
        rows.append((n, cells[0]))
    if not rows:
        raise ServiceError(_("The file holds no names: put one name per row, in the first column."))
    if len(rows) > LINES_MAX:
        raise ServiceError(
            _("The file has %(n)s rows: at most %(max)s. Nothing was registered.")
            % {"n": len(rows), "max": LINES_MAX}
        )
    return _register_names(tournament, rows, actor, "csv")


def hash_claim_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def issue_claim_link(entrant: Entrant, actor=None, *, record: bool = True) -> str:
    """A new claim token for `entrant`; any earlier link stops working. Returns the token.

    `record=False`: the caller records one audit entry for many links (a printed batch)."""
    entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
    if entrant.user_id is not None:
        raise ServiceError(
            _("%(name)s's entry is already linked to an account.") % {"name": entrant.name}
        )
    if entrant.status == EntrantStatus.WITHDRAWN:
        raise ServiceError(
            _("%(name)s is withdrawn: a withdrawn entry takes no claim link.")
            % {"name": entrant.name}
        )
    token = secrets.token_urlsafe(24)
    entrant.claim_token_hash = hash_claim_token(token)
    entrant.claim_expires_at = timezone.now() + timedelta(days=settings.CLAIM_LINK_DAYS)
    entrant.save(update_fields=["claim_token_hash", "claim_expires_at"])
    if record:
        audit.record(entrant.tournament, actor, "claim_link_issued", entrant=entrant.pk)
    return token


def find_claimable(tournament: Tournament, token: str) -> Entrant:
    """The entrant a live claim token points at, or a ServiceError saying why not."""
    entrant = (
        tournament.entrants.filter(claim_token_hash=hash_claim_token(token)).first()
        if token
        else None
    )
    if entrant is None:
        if token and _replaced_by_a_sheet(tournament, hash_claim_token(token)):
            raise ServiceError(presentation.CLAIM_LINK_REPLACED, code="replaced")
        raise ServiceError(
            _("This claim link is not valid. Ask the organiser for a new one."), code="unknown"
        )
    if entrant.user_id is not None:
        # The hash stays after a claim so that a second use says what happened.
        raise ServiceError(
            _("This claim link has already been used: %(name)s's entry is already claimed.")
            % {"name": entrant.name},
            code="used",
        )
    if entrant.status == EntrantStatus.WITHDRAWN:
        # A withdrawn entry takes no new account: the link is dead while the withdrawal
        # stands (an undone withdrawal makes it work again until it expires).
        raise ServiceError(
            _(
                "%(name)s is withdrawn from this tournament: this claim link no longer works. Ask "
                "the organiser if that is a mistake."
            )
            % {"name": entrant.name},
            code="withdrawn",
        )
    if entrant.claim_expires_at is None or entrant.claim_expires_at <= timezone.now():
        raise ServiceError(_("This claim link has expired. Ask the organiser for a new one."))
    return entrant


def _replaced_by_a_sheet(tournament: Tournament, token_hash: str) -> bool:
    """Was this link replaced by a printed sheet (`invitations.reissue_player_sheets` keeps
    the hashes it replaced)? A tournament prints a handful of times: read them all, and only
    for a link that is no longer live."""
    printings = AuditEntry.objects.filter(
        tournament=tournament, action="claim_links_reissued"
    ).values_list("detail", flat=True)
    return any(token_hash in (detail.get("replaced") or []) for detail in printings)


def holds_an_entry(tournament: Tournament, user) -> bool:
    return tournament.entrants.filter(user=user).exists()


@transaction.atomic
def claim_entry(tournament: Tournament, token: str, user) -> Entrant:
    """Link `user` to the entry the token names. The token works once.

    The tournament row is locked first (the lock order everywhere: the tournament, then its
    rows): two claim links of one tournament used at once by one account are taken one after
    the other, and the second finds the first's entry and is refused in words. Should the
    database's one-entry-per-account constraint still refuse the link (a writer that did not
    take the lock), the refusal is the same words, not a 500: the write is made in a savepoint
    so that on PostgreSQL the transaction stays usable after the error."""
    lock(tournament)
    entrant = find_claimable(tournament, token)
    entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
    if entrant.user_id is not None or entrant.claim_token_hash != hash_claim_token(token):
        raise ServiceError(_("This claim link has already been used."))
    if entrant.status == EntrantStatus.WITHDRAWN:  # withdrawn between the read and the lock
        raise ServiceError(
            _("%(name)s is withdrawn: this claim link no longer works.") % {"name": entrant.name}
        )
    if holds_an_entry(tournament, user):
        raise ServiceError(str(ALREADY_LINKED))
    entrant.user = user
    try:
        with transaction.atomic():
            entrant.save(update_fields=["user"])
    except IntegrityError:
        raise ServiceError(str(ALREADY_LINKED)) from None
    audit.record(tournament, user, "entry_claimed", entrant=entrant.pk)
    _wait_from_now(entrant)
    return entrant


def _wait_from_now(entrant: Entrant) -> None:
    """ONLINE.md 6: a duel cannot be played online before both its entries are held, and
    nobody is a no-show for it meanwhile; once this one is claimed, the 5 minutes of its
    unstarted online duels with both players named start now."""
    from django.db.models import Q

    from duels.models import Duel
    from duels.services import READY_WAIT, UNSTARTED_STATUSES

    Duel.objects.filter(
        Q(seat_a=entrant) | Q(seat_b=entrant),
        online=True,
        status__in=UNSTARTED_STATUSES,
        game__isnull=True,
        ready_by__isnull=False,
    ).update(ready_by=timezone.now() + READY_WAIT)


def expire_claim_links(now=None) -> int:
    """Clear claim tokens past their expiry; returns how many were cleared."""
    now = now or timezone.now()
    return (
        Entrant.objects.filter(claim_expires_at__lte=now, user__isnull=True)
        .exclude(claim_token_hash="")
        .update(claim_token_hash="", claim_expires_at=None)
    )
