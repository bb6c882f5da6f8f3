"""A tournament's life: create, configure, open registration, publish, cancel."""

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import ServiceError
from games.split_uno import PRESETS

from ..models import FINAL_PHASES, AuditEntry, Phase, TieBreakMode, Tournament
from . import audit
from .names import clean_tournament_name

# A tournament duel is always a two-seat duel without truth and dare (TOURNAMENT.md, 002 §5.2).
TOURNAMENT_PRESETS = ("tournament", "arbiter", "paper", "official")
TOURNAMENT_VARIANTS = ("speed", "hardcore")
MAX_TIME_LIMIT_MINUTES = 240
# ONLINE.md 3: the seconds of each pending seal or decision of an online duel.
SEAT_CLOCK_MIN, SEAT_CLOCK_MAX = 10, 120
# The settings that lock when the group phase starts (TOURNAMENT.md "Phases"; ONLINE.md 3, 6:
# how duels are played and the seat clock lock with the other duel settings).
DUEL_SETTINGS = ("duel_preset", "variants", "shared_cards", "duel_time_limit_minutes")
ONLINE_SETTINGS = ("online_duels", "seat_clock")
# The groups' first names, in the creating organiser's language (then they are names, kept).
GROUP_NAMES = (gettext_lazy("Group 1"), gettext_lazy("Group 2"))


def lock(tournament: Tournament) -> Tournament:
    """Lock the tournament row: every change of tournament state is serialised through it.

    Lock order, everywhere: tournament first, then any duel.
    """
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def lock_key(tournament: Tournament) -> None:
    """Lock the tournament row, as `lock`, without reading it: for a caller that holds the row
    as read moments ago and needs none of its fields fresh (an ordinary move of the referee
    console), and reads it again under the lock (`refresh_from_db`) as soon as it does. Its
    SQL is written out: compiled by the ORM on every move it cost ten times the query."""
    if not connection.features.has_select_for_update:
        return  # SQLite: its IMMEDIATE transactions already serialise every writer
    qn, meta = connection.ops.quote_name, Tournament._meta
    with connection.cursor() as cursor:  # the model's own table and column names, no input
        cursor.execute(
            f"SELECT 1 FROM {qn(meta.db_table)} WHERE {qn(meta.pk.column)} = %s FOR UPDATE",  # noqa: S608
            [tournament.pk],
        )


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "tournament"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def create_tournament(
    *, name: str, created_by, time_zone: str | None = None, intent: str = "", **settings
) -> Tournament:
    """A new tournament, its two groups and its settings. `time_zone`: the venue's, asked on
    the create page (a name of `schedule.zone_names`); UTC when not given."""
    from .schedule import check_time_zone

    name = clean_tournament_name(name)
    zone = check_time_zone(time_zone) if time_zone is not None else "UTC"
    for _attempt in range(3):
        try:
            with transaction.atomic():
                tournament = Tournament.objects.create(
                    name=name, slug=_unique_slug(name), created_by=created_by, time_zone=zone
                )
            break
        except IntegrityError:
            continue  # another request took the same slug between the check and the insert
    else:
        raise ServiceError(_("Could not find a free address for this name; try another name."))
    for order, group_name in enumerate(GROUP_NAMES, start=1):
        tournament.groups.create(name=str(group_name), order=order)
    extra = {"intent": intent} if intent else {}
    audit.record(tournament, created_by, "tournament_created", name=name, **extra)
    if settings:
        tournament = configure(tournament, created_by, **settings)
    return tournament


def create_tournament_once(
    *, name: str, created_by, intent: str, time_zone: str | None = None, **settings
) -> tuple[Tournament, bool]:
    """``create_tournament`` for the create page: its form's key ``intent`` makes a second
    post of the same form (Back, then the button again) lead to the tournament the first one
    created, and create nothing. Returns the tournament and whether it was such a repeat.
    The person's row is locked while the key is looked up, so two posts at the same instant
    create one tournament."""
    from django.contrib.auth import get_user_model

    if not intent:
        return create_tournament(
            name=name, created_by=created_by, time_zone=time_zone, **settings
        ), False
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=created_by.pk).first()
        made = (
            AuditEntry.objects.filter(
                actor=created_by, action="tournament_created", detail__intent=intent
            )
            .select_related("tournament")
            .first()
        )
        if made is not None:
            return made.tournament, True
        tournament = create_tournament(
            name=name, created_by=created_by, time_zone=time_zone, intent=intent, **settings
        )
        return tournament, False


def _check_settings(tournament: Tournament, changes: dict) -> dict:
    clean = {}
    duel_rules_locked = tournament.phase not in (Phase.DRAFT, Phase.REGISTRATION)
    for key, value in changes.items():
        if key == "name":
            clean["name"] = clean_tournament_name(value)
            continue
        if key in DUEL_SETTINGS and duel_rules_locked:
            raise ServiceError(
                _(
                    "The duel rules, shared cards and time limit are locked once the "
                    "group phase has started."
                )
            )
        if key in ONLINE_SETTINGS and duel_rules_locked and value != getattr(tournament, key):
            raise ServiceError(
                _(
                    "How duels are played (at a table or online) and the seat clock are locked "
                    "once the group phase has started; a single duel may still be switched "
                    "on the Rounds page before it starts."
                )
            )
        if key == "duel_preset":
            if value not in TOURNAMENT_PRESETS or value not in PRESETS:
                raise ServiceError(
                    _("Unknown duel preset “%(value)s”. Choose one of: %(choices)s.")
                    % {"value": value, "choices": ", ".join(TOURNAMENT_PRESETS)}
                )
        elif key == "variants":
            value = list(dict.fromkeys(value or []))
            bad = [v for v in value if v not in TOURNAMENT_VARIANTS]
            if bad:
                raise ServiceError(
                    _("Unknown variant “%(value)s”. Tournament duels allow: %(choices)s.")
                    % {"value": bad[0], "choices": ", ".join(TOURNAMENT_VARIANTS)}
                )
        elif key == "tiebreak_mode":
            if value not in TieBreakMode.values:
                raise ServiceError(_("The tie-break mode is “full” or “minimal”."))
            if tournament.tiebreak_seed:
                raise ServiceError(
                    _("The tie-break mode is locked once the tie-breaks are planned.")
                )
        elif key == "shared_cards":
            value = bool(value)
        elif key == "online_duels":
            if not isinstance(value, bool):
                raise ServiceError(_("Duels are played at a table or online."))
        elif key == "seat_clock":
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not SEAT_CLOCK_MIN <= value <= SEAT_CLOCK_MAX
            ):
                raise ServiceError(
                    _("The seat clock is %(min)s to %(max)s seconds.")
                    % {"min": SEAT_CLOCK_MIN, "max": SEAT_CLOCK_MAX}
                )
        elif key == "language":
            # Issue 29: a language of settings.LANGUAGES, or "" for each viewer's own.
            if value not in {"", *(code for code, _name in settings.LANGUAGES)}:
                raise ServiceError(_("Choose one of the offered languages."))
        elif key == "duel_time_limit_minutes":
            if value in ("", None, 0):
                value = None
            elif not isinstance(value, int) or not 1 <= value <= MAX_TIME_LIMIT_MINUTES:
                raise ServiceError(
                    _("A duel time limit is 1 to %(max)s minutes, or none.")
                    % {"max": MAX_TIME_LIMIT_MINUTES}
                )
        else:
            raise ServiceError(_("“%(key)s” is not a tournament setting.") % {"key": key})
        clean[key] = value
    return clean


@transaction.atomic
def configure(tournament: Tournament, actor, **changes) -> Tournament:
    tournament = lock(tournament)
    if tournament.phase in FINAL_PHASES:
        raise ServiceError(_("This tournament is over: its settings can no longer change."))
    clean = _check_settings(tournament, changes)
    before = {key: getattr(tournament, key) for key in clean}
    for key, value in clean.items():
        setattr(tournament, key, value)
    tournament.save(update_fields=list(clean))
    changed = {k: [before[k], v] for k, v in clean.items() if before[k] != v}
    if changed:
        audit.record(tournament, actor, "settings_changed", changes=changed)
        audit.bump_version(tournament)
    return tournament


@transaction.atomic
def open_registration(tournament: Tournament, actor) -> Tournament:
    tournament = lock(tournament)
    if tournament.phase != Phase.DRAFT:
        raise ServiceError(_("Registration can only be opened from the draft."))
    tournament.phase = Phase.REGISTRATION
    tournament.save(update_fields=["phase"])
    audit.record(tournament, actor, "registration_opened")
    audit.bump_version(tournament)
    return tournament


@transaction.atomic
def set_published(tournament: Tournament, published: bool, actor=None) -> Tournament:
    tournament = lock(tournament)
    if tournament.published != published:
        tournament.published = published
        tournament.save(update_fields=["published"])
        audit.record(tournament, actor, "published" if published else "unpublished")
        audit.bump_version(tournament)
    return tournament


@transaction.atomic
def cancel(tournament: Tournament, actor, reason: str) -> Tournament:
    """Cancel from any phase before `complete`: running duels close as abandoned, no result."""
    from .lifecycle import cancel_duels

    tournament = lock(tournament)
    if tournament.phase in FINAL_PHASES:
        raise ServiceError(
            _("This tournament is already complete.")
            if tournament.phase == Phase.COMPLETE
            else _("This tournament is already cancelled.")
        )
    if not (reason or "").strip():
        raise ServiceError(_("Say why the tournament is cancelled."))
    closed = cancel_duels(tournament, "The tournament was cancelled: this duel has no result.")
    tournament.phase = Phase.CANCELLED
    tournament.save(update_fields=["phase"])
    audit.record(tournament, actor, "cancelled", reason=reason.strip(), duels_abandoned=closed)
    audit.bump_version(tournament)
    return tournament
