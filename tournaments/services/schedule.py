"""The schedule (issue 16): the tournament's time zone and the optional start times of its
rounds and stages. Calling a duel to its table is `refereeing.call_duel`."""

from collections.abc import Mapping
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.db import transaction

from accounts.permissions import Action, can
from core.errors import ServiceError

from .. import format as fmt
from .. import presentation
from ..models import FINAL_PHASES, StartTime, Tournament
from . import audit
from .setup import lock

# Every key a start time may have, in the order of an event.
START_KEYS: tuple[str, ...] = (
    *(f"round:{n}" for n in range(1, fmt.ROUNDS + 1)),
    "tie_breaks",
    *fmt.STAGE_NAMES,
)


# The order parts of an event start in: Qualifier 1 and the Eliminator may run side by side.
_RANK = {key: n for n, key in enumerate(START_KEYS)} | {fmt.E1: START_KEYS.index(fmt.Q1)}


def _check_order(starts: Mapping[str, datetime | None]) -> None:
    """Refuse start times out of the event's order (Group round 10 before round 9, the Grand
    Final before Qualifier 2): the big screen would announce them in that order."""
    before: tuple[datetime, str] | None = None  # the latest start of the parts before
    for rank in sorted({_RANK[k] for k, t in starts.items() if t is not None}):
        group = sorted((t, k) for k, t in starts.items() if t is not None and _RANK[k] == rank)
        if before is not None and group[0][0] < before[0]:
            raise ServiceError(
                f"{presentation.start_key_label(group[0][1])} would start before "
                f"{presentation.start_key_label(before[1])}: the parts of an event start in "
                "order. Change either time."
            )
        before = max(before, group[-1]) if before is not None else group[-1]


def zone_of(tournament: Tournament) -> ZoneInfo:
    """The tournament's time zone (UTC if a stored name is somehow unknown here)."""
    try:
        return ZoneInfo(tournament.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def check_time_zone(name: str) -> str:
    name = (name or "").strip()
    if name not in available_timezones():
        raise ServiceError(f"“{name[:64]}” is not a time zone: use a name such as Europe/Paris.")
    return name


@transaction.atomic
def set_schedule(
    tournament: Tournament,
    actor,
    *,
    time_zone: str,
    starts: Mapping[str, datetime | None],
) -> Tournament:
    """Set the time zone and the start times (aware datetimes; None clears one). Only the keys
    given change. Organisers and co-organisers (a setting: "everything a tournament needs")."""
    tournament = lock(tournament)
    if not can(actor, Action.MANAGE_SETTINGS, tournament):
        raise ServiceError("Only organisers set the schedule.", code="forbidden")
    if tournament.phase in FINAL_PHASES:
        raise ServiceError("This tournament is over: its schedule can no longer change.")
    time_zone = check_time_zone(time_zone)
    unknown = sorted(set(starts) - set(START_KEYS))
    if unknown:
        raise ServiceError(f"Unknown part of the event: {', '.join(unknown)[:80]}.")
    for when in starts.values():
        if when is not None and when.tzinfo is None:
            raise ServiceError("A start time needs its time zone.")
    current = {s.key: s for s in StartTime.objects.filter(tournament=tournament)}
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
        audit.record(tournament, actor, "schedule_changed", changes=changes)
        audit.bump_version(tournament)  # the big screen and the players' pages show it
    return tournament
