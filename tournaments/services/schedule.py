"""The schedule (issue 16): the tournament's time zone and the optional start times of its
rounds and stages. Calling a duel to its table is `refereeing.call_duel`.

Issue 26 ("A schedule in a minute"): the time zones a person is offered (`zone_names`),
a whole evening planned from one time and an interval (`plan_schedule`), everything not yet
played shifted when the night runs late (`shift_schedule`). Each write carries the
schedule's state its page was drawn at (`schedule_state`) and its form's key (`intent`):
the same form sent twice changes the schedule once."""

import hashlib
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from zoneinfo import TZPATH, ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.permissions import Action, can
from core.errors import ServiceError

from .. import format as fmt
from .. import presentation
from ..models import FINAL_PHASES, AuditEntry, Phase, RoundStatus, StartTime, Tournament
from . import audit
from .setup import lock

# Every key a start time may have, in the order of an event.
START_KEYS: tuple[str, ...] = (
    *(f"round:{n}" for n in range(1, fmt.ROUNDS + 1)),
    "tie_breaks",
    *fmt.STAGE_NAMES,
)

# Bounds of the plan and the shift, in minutes (every input bounded; refused in words).
EVERY_MAX = 240  # four hours between two group rounds is already a long break
GAP_MAX = 240
SHIFT_MAX = 720  # twelve hours either way: a night moved, never a date typed by mistake


# The order parts of an event start in: Qualifier 1 and the Eliminator may run side by side.
_RANK = {key: n for n, key in enumerate(START_KEYS)} | {fmt.E1: START_KEYS.index(fmt.Q1)}


# Time zones ----------------------------------------------------------------------------------
# The list a person chooses from: zoneinfo's names, only the canonical "Area/City" ones. Left
# out: `localtime`, `posixrules`, `Factory`, the `US/Pacific`, `Canada/…`, `Etc/GMT+1`, `CET`
# and `GB`-style aliases (not under a geographic area), and the legacy names the tz database
# keeps only as links for old systems ("Asia/Calcutta", "Europe/Kiev", "Australia/NSW"): a
# link is kept only when zone.tab names it as a country's zone ("Europe/Oslo", whose rules
# are Berlin's since 2022 but which a Norwegian looks for). UTC is offered on its own.
_AREAS = frozenset(
    ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe")
    + ("Indian", "Pacific")
)
UTC_NAME = "UTC"
# The list is led by these (where this machine has them), then every zone in order.
COMMON_ZONES: tuple[str, ...] = (
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Madrid",
    "Europe/Rome",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Asia/Kolkata",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Pacific/Auckland",
    UTC_NAME,
)


def _tz_file(name: str) -> str:
    """A data file of the tz database beside the compiled zones ("" when there is none)."""
    for root in TZPATH:
        path = Path(root) / name
        if path.is_file():
            return path.read_text(encoding="utf-8", errors="replace")
    try:  # the `tzdata` package, where the system has no zone files
        from importlib.resources import files

        return (files("tzdata") / "zoneinfo" / name).read_text(encoding="utf-8")
    except (ImportError, ModuleNotFoundError, FileNotFoundError, OSError):
        return ""


@cache
def _links() -> dict[str, str]:
    """Link name → the zone it names, from tzdata.zi ("L Asia/Kolkata Asia/Calcutta")."""
    out = {}
    for line in _tz_file("tzdata.zi").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "L":
            out[parts[2]] = parts[1]
    return out


@cache
def zone_names() -> tuple[str, ...]:
    """Every time zone offered, sorted: canonical Area/City names, and UTC. Without the tz
    database's data files (tzdata.zi, zone.tab) only the Area/City rule applies."""
    links = _links()
    tab = {
        parts[2]
        for line in _tz_file("zone.tab").splitlines()
        if not line.startswith("#") and len(parts := line.split("\t")) >= 3
    }
    names = {
        name
        for name in available_timezones()
        if name.split("/", 1)[0] in _AREAS and "/" in name and (name not in links or name in tab)
    }
    return (*sorted(names), UTC_NAME) if UTC_NAME in available_timezones() else tuple(sorted(names))


@cache
def zone_aliases() -> dict[str, str]:
    """An old name a device may still report ("Asia/Calcutta", "Etc/UTC") → the name in the
    list ("Asia/Kolkata", "UTC"): the create page preselects the device's zone by it."""
    offered = set(zone_names())
    out = {"Etc/UTC": UTC_NAME, "Etc/GMT": UTC_NAME, "Etc/Universal": UTC_NAME, "GMT": UTC_NAME}
    for name, target in _links().items():
        target = _links().get(target, target)
        if name not in offered and target in offered:
            out[name] = target
    return {k: v for k, v in out.items() if v in offered}


def common_zones() -> tuple[str, ...]:
    offered = set(zone_names())
    return tuple(z for z in COMMON_ZONES if z in offered)


def default_zone() -> str:
    """The zone a new tournament starts with when the browser does not say (no JavaScript):
    the site's own (settings.TIME_ZONE) when it is in the list, else UTC."""
    return settings.TIME_ZONE if settings.TIME_ZONE in zone_names() else UTC_NAME


def zone_of(tournament: Tournament) -> ZoneInfo:
    """The tournament's time zone (UTC if a stored name is somehow unknown here)."""
    try:
        return ZoneInfo(tournament.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def check_time_zone(name: str, current: str = "") -> str:
    """A name from the list; or the tournament's `current` one, kept as it is (a tournament
    created before the list left out old names)."""
    name = (name or "").strip()
    if name not in zone_names() and not (name and name == current):
        raise ServiceError(presentation.not_a_time_zone(name))
    return name


# The slots -----------------------------------------------------------------------------------
# Elapsed time, not the wall clock: the next slot is `every` real minutes after the last, even
# across a daylight-saving change (at 02:30 CEST + 60 minutes on the last Sunday of October
# the wall clock reads 02:30 CET, and a night of play needs the hour it gets).


def after(at: datetime, minutes: int, zone: ZoneInfo) -> datetime:
    """`minutes` of elapsed time after `at`, read in `zone` (aware in, aware out)."""
    try:
        return (at.astimezone(UTC) + timedelta(minutes=minutes)).astimezone(zone)
    except OverflowError:
        raise ServiceError(presentation.SCHEDULE_TOO_FAR) from None


def _utc(at: datetime | None) -> datetime | None:
    """A start time in UTC, refused in words when it cannot be (the year 9999 typed in a zone
    behind UTC)."""
    try:
        return at.astimezone(UTC) if at is not None else None
    except (OverflowError, ValueError):
        raise ServiceError(presentation.SCHEDULE_TOO_FAR) from None


def plan_starts(
    first: datetime, *, every: int, before_tie_breaks: int, before_playoffs: int, zone: ZoneInfo
) -> dict[str, datetime]:
    """Every start time from the first group round's: round n at `every` × (n − 1) minutes
    after it; the tie-breaks one slot after round 15 plus `before_tie_breaks`; Qualifier 1 and
    the Eliminator side by side one slot after the tie-breaks plus `before_playoffs` (the
    tie-breaks counted as one slot: the gap is where more of them fit); Qualifier 2 and the
    Grand Final one slot each after that. Pure."""
    starts = {f"round:{n}": after(first, every * (n - 1), zone) for n in range(1, fmt.ROUNDS + 1)}
    starts["tie_breaks"] = after(starts[f"round:{fmt.ROUNDS}"], every + before_tie_breaks, zone)
    starts[fmt.Q1] = starts[fmt.E1] = after(starts["tie_breaks"], every + before_playoffs, zone)
    starts[fmt.Q2] = after(starts[fmt.Q1], every, zone)
    starts[fmt.GF] = after(starts[fmt.Q2], every, zone)
    return starts


def _check_order(starts: Mapping[str, datetime | None]) -> None:
    """Refuse start times out of the event's order (Group round 10 before round 9, the Grand
    Final before Qualifier 2): the big screen would announce them in that order."""
    # In UTC: two times of one zone compare as wall clocks, blind to a clock change (02:00
    # CET after 02:30 CEST on the last Sunday of October).
    starts = {k: _utc(t) for k, t in starts.items()}
    before: tuple[datetime, str] | None = None  # the latest start of the parts before
    for rank in sorted({_RANK[k] for k, t in starts.items() if t is not None}):
        group = sorted((t, k) for k, t in starts.items() if t is not None and _RANK[k] == rank)
        if before is not None and group[0][0] < before[0]:
            raise ServiceError(
                _(
                    "%(later)s would start before %(earlier)s: the parts of an event start in "
                    "order. Change either time."
                )
                % {
                    "later": presentation.start_key_label(group[0][1]),
                    "earlier": presentation.start_key_label(before[1]),
                }
            )
        before = max(before, group[-1]) if before is not None else group[-1]


def _bounded(value: object, low: int, high: int, words: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(words)
    return value


# What a form was drawn for -------------------------------------------------------------------


def schedule_state(tournament: Tournament, rows: Mapping[str, datetime] | None = None) -> str:
    """The schedule as a page shows it, in a short digest: its time zone and every start time.
    A form carries it; a write drawn on another state is refused (one query, none when the
    page's rows are given)."""
    if rows is None:
        rows = dict(StartTime.objects.filter(tournament=tournament).values_list("key", "starts_at"))
    text = tournament.time_zone + "".join(
        f"|{k}={rows[k].astimezone(UTC).isoformat()}" for k in sorted(rows)
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def played_keys(tournament: Tournament) -> set[str]:
    """The parts of the event that have started or are over: a round decided or not played, a
    round, the tie-breaks or a stage with a duel begun; every round once the group phase is
    over, the tie-breaks once the playoffs start (two queries). A shift leaves them alone."""
    from duels.models import Duel, DuelStatus

    played: set[str] = set()
    if tournament.phase not in (Phase.DRAFT, Phase.REGISTRATION, Phase.GROUP_PHASE):
        played |= {f"round:{n}" for n in range(1, fmt.ROUNDS + 1)}
    if tournament.phase in (Phase.PLAYOFFS, *FINAL_PHASES):
        played.add("tie_breaks")
    played |= {
        f"round:{n}"
        for n in tournament.rounds.filter(
            status__in=[RoundStatus.DECIDED, RoundStatus.NOT_PLAYED]
        ).values_list("number", flat=True)
    }
    for kind, stage, number in Duel.objects.filter(
        tournament=tournament,
        status__in=[DuelStatus.RUNNING, DuelStatus.FINISHED, DuelStatus.ABANDONED],
    ).values_list("kind", "stage", "round__number"):
        played.add(presentation.start_key_of(kind, stage, number))
    played.discard("")
    return played


def _check_drawn(tournament: Tournament, actor, *, drawn: str | None, intent: str) -> None:
    """DESIGN.md's order after the lock and who may: the form's key (this form sent again:
    its stored outcome, code "repeat"), then the state the page was drawn at (another change
    since: refused, code "stale"). `drawn=None` (a caller without a page) skips the check."""
    entries = AuditEntry.objects.filter(
        tournament=tournament, action="schedule_changed"
    ).select_related("actor")
    if intent:
        done = entries.filter(actor=actor, detail__intent=intent).order_by("-pk").first()
        if done is not None:
            raise ServiceError(
                presentation.schedule_already_changed(
                    presentation.person_label(done.actor),
                    presentation.clock_time(done.created_at.astimezone(zone_of(tournament))),
                    shifted_by=done.detail.get("shifted_by"),
                ),
                code="repeat",
            )
    if drawn is not None and drawn != schedule_state(tournament):
        last = entries.order_by("-pk").first()
        raise ServiceError(
            presentation.schedule_stale(
                presentation.person_label(last.actor) if last else "",
                presentation.clock_time(last.created_at.astimezone(zone_of(tournament)))
                if last
                else "",
            ),
            code="stale",
        )


# The writes ----------------------------------------------------------------------------------


def _begin(tournament: Tournament, actor) -> Tournament:
    tournament = lock(tournament)
    if not can(actor, Action.MANAGE_SETTINGS, tournament):
        raise ServiceError(_("Only organisers set the schedule."), code="forbidden")
    if tournament.phase in FINAL_PHASES:
        raise ServiceError(_("This tournament is over: its schedule can no longer change."))
    return tournament


def _apply(
    tournament: Tournament,
    actor,
    *,
    time_zone: str,
    starts: Mapping[str, datetime | None],
    current: dict[str, StartTime],
    **detail,
) -> dict[str, list]:
    """Write the time zone and the start times given (None clears one); audit and bump the
    version when anything changed. The changes, key → [before, after]. Times are compared
    and stored in UTC: an ambiguous time of one zone (the hour a clock goes back) is never
    equal to anything of another zone, so it would read as a change each time."""
    starts = {k: _utc(t) for k, t in starts.items()}
    _check_order({**{k: row.starts_at for k, row in current.items()}, **starts})
    changes: dict[str, list] = {}
    if time_zone != tournament.time_zone:
        changes["time_zone"] = [tournament.time_zone, time_zone]
        tournament.time_zone = time_zone
        tournament.save(update_fields=["time_zone"])
    for key, when in starts.items():
        row = current.get(key)
        if when is None:
            if row is not None:
                row.delete()
                changes[key] = [row.starts_at.isoformat(), None]
        elif row is None:
            StartTime.objects.create(tournament=tournament, key=key, starts_at=when)
            changes[key] = [None, when.isoformat()]
        elif row.starts_at != when:
            changes[key] = [row.starts_at.isoformat(), when.isoformat()]
            row.starts_at = when
            row.save(update_fields=["starts_at"])
    if changes:
        detail = {k: v for k, v in detail.items() if v not in ("", None)}
        audit.record(tournament, actor, "schedule_changed", changes=changes, **detail)
        audit.bump_version(tournament)  # the big screen and the players' pages show it
    return changes


def _current(tournament: Tournament) -> dict[str, StartTime]:
    return {s.key: s for s in StartTime.objects.filter(tournament=tournament)}


@transaction.atomic
def set_schedule(
    tournament: Tournament,
    actor,
    *,
    time_zone: str,
    starts: Mapping[str, datetime | None],
    drawn: str | None = None,
    intent: str = "",
) -> Tournament:
    """Set the time zone and the start times (aware datetimes; None clears one). Only the keys
    given change. Organisers and co-organisers (a setting: "everything a tournament needs").
    `drawn`: the schedule's state the page showed (`schedule_state`); `intent`: its key."""
    tournament = _begin(tournament, actor)
    _check_drawn(tournament, actor, drawn=drawn, intent=intent)
    time_zone = check_time_zone(time_zone, tournament.time_zone)
    unknown = sorted(set(starts) - set(START_KEYS))
    if unknown:
        raise ServiceError(
            _("Unknown part of the event: %(parts)s.") % {"parts": ", ".join(unknown)[:80]}
        )
    for when in starts.values():
        if when is not None and when.tzinfo is None:
            raise ServiceError(_("A start time needs its time zone."))
    _apply(
        tournament,
        actor,
        time_zone=time_zone,
        starts=starts,
        current=_current(tournament),
        intent=intent,
    )
    return tournament


@transaction.atomic
def plan_schedule(
    tournament: Tournament,
    actor,
    *,
    first: datetime,
    every: int,
    before_tie_breaks: int = 0,
    before_playoffs: int = 0,
    replace: bool = False,
    drawn: str | None = None,
    intent: str = "",
) -> dict[str, datetime]:
    """Fill every start time from the first group round's and an interval (`plan_starts`, in
    the tournament's zone). Times already set that it would change need `replace=True`: without
    it nothing is written and the refusal (code "confirm") names them. The times planned."""
    tournament = _begin(tournament, actor)
    _check_drawn(tournament, actor, drawn=drawn, intent=intent)
    every = _bounded(every, 1, EVERY_MAX, presentation.minutes_between(1, EVERY_MAX))
    before_tie_breaks = _bounded(before_tie_breaks, 0, GAP_MAX, presentation.gap_between(GAP_MAX))
    before_playoffs = _bounded(before_playoffs, 0, GAP_MAX, presentation.gap_between(GAP_MAX))
    if not isinstance(first, datetime) or first.tzinfo is None:
        raise ServiceError(_("A start time needs its time zone."))
    zone = zone_of(tournament)
    starts = plan_starts(
        first,
        every=every,
        before_tie_breaks=before_tie_breaks,
        before_playoffs=before_playoffs,
        zone=zone,
    )
    current = _current(tournament)
    overwritten = [
        k
        for k in START_KEYS
        if k in current and current[k].starts_at.astimezone(UTC) != starts[k].astimezone(UTC)
    ]
    if overwritten and not replace:
        raise ServiceError(presentation.plan_replaces(len(overwritten)), code="confirm")
    _apply(
        tournament,
        actor,
        time_zone=tournament.time_zone,
        starts=starts,
        current=current,
        intent=intent,
        every=every,
    )
    return starts


@transaction.atomic
def shift_schedule(
    tournament: Tournament,
    actor,
    *,
    minutes: int,
    drawn: str | None = None,
    intent: str = "",
) -> dict[str, datetime]:
    """Move every start time of a part not yet played (`played_keys`) by `minutes` of elapsed
    time (negative: earlier), bounded by ±SHIFT_MAX. The times moved, key → new time."""
    tournament = _begin(tournament, actor)
    _check_drawn(tournament, actor, drawn=drawn, intent=intent)
    minutes = _bounded(minutes, -SHIFT_MAX, SHIFT_MAX, presentation.shift_between(SHIFT_MAX))
    if minutes == 0:
        raise ServiceError(presentation.shift_between(SHIFT_MAX))
    current = _current(tournament)
    played = played_keys(tournament)
    zone = zone_of(tournament)
    starts = {
        key: after(row.starts_at, minutes, zone)
        for key, row in current.items()
        if key not in played
    }
    if not starts:
        raise ServiceError(presentation.NOTHING_TO_SHIFT)
    _apply(
        tournament,
        actor,
        time_zone=tournament.time_zone,
        starts=starts,
        current=current,
        intent=intent,
        shifted_by=minutes,
    )
    return starts
