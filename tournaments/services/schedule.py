"""The schedule (issue 16): the tournament's time zone and the optional start times of its
rounds and stages. Calling a duel to its table is `refereeing.call_duel`."""

from collections.abc import Mapping
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.db import transaction

from accounts.permissions import Action, can
from core.errors import ServiceError

from .. import format as fmt
from ..models import FINAL_PHASES, StartTime, Tournament
from . import audit
from .setup import lock

# Every key a start time may have, in the order of an event.
START_KEYS: tuple[str, ...] = (
    *(f"round:{n}" for n in range(1, fmt.ROUNDS + 1)),
    "tie_breaks",
    *fmt.STAGE_NAMES,
)


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
    changes: dict[str, list] = {}
    if time_zone != tournament.time_zone:
        changes["time_zone"] = [tournament.time_zone, time_zone]
        tournament.time_zone = time_zone
        tournament.save(update_fields=["time_zone"])
    current = {s.key: s for s in StartTime.objects.filter(tournament=tournament)}
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
