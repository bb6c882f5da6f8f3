"""How every page names a tournament's duels, stages and results, and how the audit log reads:
one place, so the console, the organiser's pages, the public pages and the replay agree. A
duel's own words (how it finished, what a decision asks) come from duels/words.py.

No page shows an internal key (a tie-break key like "K513c…-r1-m1", a stage code like "Q1")
or a Python repr; the API and the CSV keep their keys and add `…_label` fields with these words.
"""

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from duels.words import finish_label

from . import format as fmt

__all__ = [
    "audit_text",
    "duel_title",
    "finish_label",
    "preset_label",
    "rules_text",
    "stage_label",
    "title_of",
    "variant_label",
]

_TIEBREAK_KEY = re.compile(r"-r(\d+)-m(\d+)$")
KIND_LABELS = {
    "group": "Group round",
    "replay": "Replay",
    "tie_break": "Tie-break",
    "playoff": "Playoff",
}


def stage_label(kind: str, stage: str) -> str:
    """A tie-break or playoff stage in words: "Tie-break round 1, match 2", "Qualifier 1"."""
    if kind == "playoff":
        return fmt.STAGE_NAMES.get(stage, "Playoff")
    if kind == "tie_break":
        found = _TIEBREAK_KEY.search(stage or "")
        return f"Tie-break round {found[1]}, match {found[2]}" if found else "Tie-break"
    return ""


def title_of(kind: str, stage: str, round_number: int | None) -> str:
    """ "Group round 9", "Group round 9 (replay)", "Tie-break round 1, match 2", "Qualifier 1".

    "Group round" tells a round of the group phase from a duel's own rounds of play."""
    if kind in ("group", "replay") and round_number:
        return f"Group round {round_number}" + (" (replay)" if kind == "replay" else "")
    return stage_label(kind, stage) or KIND_LABELS.get(kind, kind.replace("_", " ").capitalize())


def duel_title(duel: Any) -> str:
    """The title of a duel row (its round read through the foreign key, when it has one)."""
    number = duel.round.number if getattr(duel, "round_id", None) else None
    return title_of(duel.kind, duel.stage, number)


# A tournament's duel rules ------------------------------------------------------------------

PRESET_NAMES = {
    "tournament": "Tournament",
    "arbiter": "Arbiter",
    "paper": "Paper",
    "official": "Official",
}
PRESET_NOTES = {"tournament": "the arbiter rules without truth and dare"}
VARIANT_NAMES = {"speed": "Speed", "hardcore": "Hardcore"}
VARIANT_NOTES = {"speed": "15 starting number cards", "hardcore": "no challenges, no draw counters"}


def preset_label(preset: str, *, note: bool = False) -> str:
    """ "Tournament"; with `note`, "Tournament (the arbiter rules without truth and dare)"."""
    name = PRESET_NAMES.get(preset, preset.replace("_", " ").capitalize())
    return f"{name} ({PRESET_NOTES[preset]})" if note and preset in PRESET_NOTES else name


def variant_label(variant: str, *, note: bool = False) -> str:
    """ "Speed"; with `note`, "Speed: 15 starting number cards"."""
    name = VARIANT_NAMES.get(variant, variant.replace("_", " ").capitalize())
    return f"{name}: {VARIANT_NOTES[variant]}" if note and variant in VARIANT_NOTES else name


def rules_text(preset: str, variants: list[str] | tuple[str, ...] = ()) -> str:
    """ "Tournament", "Tournament + Speed, Hardcore"."""
    extra = ", ".join(variant_label(v) for v in variants or ())
    return f"{preset_label(preset)} + {extra}" if extra else preset_label(preset)


# The audit log --------------------------------------------------------------------------------

ACTION_TEXT = {
    "tournament_created": "Tournament created",
    "settings_changed": "Settings changed",
    "registration_opened": "Registration opened",
    "published": "Published",
    "unpublished": "Unpublished",
    "cancelled": "Tournament cancelled",
    "entrant_added": "Player registered",
    "player_registered": "Player registered",
    "players_registered": "Players registered",
    "claim_link_issued": "Claim link issued",
    "entry_claimed": "Entry claimed",
    "claim_links_reissued": "Claim links reissued for printing",
    "invitation_issued": "Invitation issued",
    "invitation_revoked": "Invitation withdrawn",
    "invitation_accepted": "Invitation accepted",
    "invitations_reissued": "Invitations reissued for printing",
    "player_checked_in": "Player checked in",
    "no_shows_withdrawn": "No-shows withdrawn",
    "player_removed": "Player removed",
    "groups_named": "Groups named",
    "groups_split": "Groups split",
    "group_phase_started": "Group phase started",
    "representatives_named": "Representatives named",
    "referee_assigned": "Referee or table assigned",
    "membership_changed": "Group membership changed",
    "group_eliminated": "Group eliminated",
    "player_withdrawn": "Player withdrawn",
    "withdrawal_undone": "Withdrawal undone",
    "check_in_undone": "Check-in undone",
    "shared_card_recorded": "Shared card recorded",
    "duel_finished": "Duel finished",
    "paper_result": "Result played on paper recorded",
    "duel_called": "Duel called to its table",
    "schedule_changed": "Schedule changed",
    "result_corrected": "Result corrected",
    "result_voided": "Result voided",
    "time_limit_warning": "Time-limit warning",
    "tiebreaks_planned": "Tie-breaks planned",
    "tiebreak_duels_voided": "Tie-break duels no longer needed",
    "top_four_settled": "Positions 1–4 settled",
    "playoffs_started": "Playoffs started",
    "playoff_duels_voided": "Playoff duels no longer needed",
    "tournament_complete": "Tournament complete",
    "tournament_reopened": "Tournament reopened",
    "stale_duels_closed": "Duels nobody could play closed",
    "name_changed_by_upgrade": "Name changed by an upgrade (names must look different)",
}
# Which detail keys hold what, so that ids become names and codes become words.
_ENTRANT_KEYS = {"entrant", "giver", "receiver", "winner", "seat_a", "seat_b"}
_ENTRANT_LISTS = {"players", "seeding"}
_DUEL_KEYS = {"duel", "from_duel"}
_DUEL_LISTS = {"duels", "duels_abandoned", "duels_voided"}
_PLACES = {1: "champion", 2: "2nd", 3: "3rd", 4: "4th"}
_SPLIT_WORDS = {"hand": "by hand", "alternating": "alternately", "random": "at random"}
_KEY_WORDS = {
    "after_round": "after round",
    "needed": "tie-breaks needed",
    "mode": "mode",
    "seed": "seed",
    "sizes": "group sizes",
    "method": "split",
    "seat_a": "seat A",
    "seat_b": "seat B",
    "names": "names",
    "round": "round",
    "table": "table",
    "referee": "referee",
    "kind": "kind",
    "finish": "finish",
    "replay": "replayed",
    "deadline": "deadline",
    "moves": "moves",
    "positions": "positions",
    "placings": "placings",
    "was": "was",
    "now": "now",
    "why": "why",
    "duels": "duels",
    "duels_voided": "duels voided",
}


# Withdrawals and their undo -------------------------------------------------------------------


def forfeit_text(name: str, title: str, winner: str, walkover: bool) -> str:
    """What a withdrawal does to one of the player's duels, in words."""
    if walkover:
        return f"{title} is not played: {winner or 'the other player'} goes through (a walkover)."
    if winner:
        return f"{name} forfeits {title}: {winner} wins it (+3, {name} −2)."
    return f"{name} forfeits {title}."


def withdrawn_text(name: str, forfeits: list[tuple[str, str, bool]]) -> str:
    """After a withdrawal: what it did (the forfeit the referee's log calls "absent")."""
    done = " ".join(forfeit_text(name, *f) for f in forfeits)
    return f"{name} is withdrawn. {done}".strip() + (
        " A mistake can be undone below while nothing else has happened."
    )


def undone_text(name: str, group: str) -> str:
    back = f"active again in {group}" if group else "active again"
    return f"{name}'s withdrawal is undone: {name} is {back}, and any duel it forfeited goes on."


def frozen_text(group: int, tiebreak: int) -> str:
    """What starting the playoffs freezes, counted."""

    def duels(n: int, what: str) -> str:
        return f"{n} {what} result{'s' if n != 1 else ''}"

    return (
        f"{duels(group, 'group-phase')} and {duels(tiebreak, 'tie-break')} freeze: from then on "
        "they can no longer be corrected or voided (playoff results stay correctable)."
    )


def action_text(action: str) -> str:
    return ACTION_TEXT.get(action, action.replace("_", " ").capitalize())


def audit_text(
    detail: Mapping[str, Any],
    *,
    entrants: Mapping[int, str],
    groups: Mapping[int, str],
    duels: Mapping[int, str],
    users: Mapping[int, str],
) -> str:
    """An audit entry's detail in words: names for ids, titles for duels, no raw data."""

    def entrant(pk: Any) -> str:
        return entrants.get(_int(pk), "a player") if pk is not None else "nobody"

    def group(pk: Any) -> str:
        return groups.get(_int(pk), "a group") if pk is not None else "no group"

    def duel(pk: Any) -> str:
        return duels.get(_int(pk), "a duel")

    parts = []
    for key, value in detail.items():
        if key == "changes" and isinstance(value, Mapping):
            parts += [
                f"{_SETTING_WORDS.get(k) or start_key_label(k).replace('_', ' ')}: "
                f"{_setting(k, old)} → {_setting(k, new)}"
                for k, (old, new) in value.items()
            ]
            continue
        if key in _ENTRANT_KEYS:
            words = entrant(value)
        elif key in _ENTRANT_LISTS:
            words = ", ".join(entrant(v) for v in value) or "nobody"
        elif key in _DUEL_KEYS:
            words = duel(value)
        elif key in _DUEL_LISTS:
            words = ", ".join(duel(v) for v in value) if isinstance(value, list) else str(value)
        elif key == "group":
            words = group(value)
        elif key == "referee":
            words = users.get(_int(value), "someone") if value is not None else "nobody"
        elif key == "kind":
            words = KIND_LABELS.get(value, str(value))
        elif key == "finish":
            words = finish_label(value)
        elif key == "moves":
            words = "; ".join(
                f"{entrant(p)}: {group(src)} → {group(dst) if dst is not None else 'withdrawn'}"
                for p, src, dst in value
            )
        elif key == "sizes":
            words = ", ".join(f"{groups.get(_int(k), k)} {v}" for k, v in value.items())
        elif key == "positions":
            words = "; ".join(
                f"{_ordinal(int(k))}: {', '.join(entrant(p) for p in ps)}"
                for k, ps in sorted(value.items(), key=lambda kv: int(kv[0]))
            )
        elif key == "placings":
            words = "; ".join(
                f"{_PLACES.get(place, _ordinal(place))}: {entrant(p)}"
                for p, place in sorted(value.items(), key=lambda kv: kv[1])
            )
        elif key == "method":
            words = _SPLIT_WORDS.get(value, str(value).replace("_", " "))
        elif key == "names":
            words = _and([str(v) for v in value])
        elif key == "replay" or isinstance(value, bool):
            words = "yes" if value else "no"
        elif isinstance(value, list | dict):
            continue  # nothing a person needs that the other parts do not say
        else:
            words = str(value)
        if words != "":
            parts.append(f"{_KEY_WORDS.get(key, key.replace('_', ' '))}: {words}")
    return "; ".join(parts)


_SETTING_WORDS = {
    "duel_preset": "duel rules",
    "variants": "variants",
    "tiebreak_mode": "tie-breaks",
    "shared_cards": "shared cards",
    "duel_time_limit_minutes": "time limit",
    "time_zone": "time zone",
}


def _setting(key: str, value: Any) -> str:
    """A tournament setting's value in words, for the audit log's "Settings changed"."""
    if key == "duel_preset":
        return preset_label(str(value))
    if key == "variants":
        return ", ".join(variant_label(v) for v in value) if value else "none"
    if key == "shared_cards":
        return "on" if value else "off"
    if key == "duel_time_limit_minutes":
        return f"{value} minutes" if value else "none"
    if value is None:
        return "not set"  # a start time added or removed (the schedule)
    if isinstance(value, str) and "T" in value:
        try:
            when = datetime.fromisoformat(value)
        except ValueError:
            return value
        if when.tzinfo is not None:
            when = when.astimezone(UTC)  # one zone for every entry, whatever each was typed in
        return f"{when.day} {when:%b %Y %H:%M} UTC"
    return str(value)


def _and(items: list[str]) -> str:
    """ "Ada and Bao"; "Ada, Bao and Cleo"."""
    return (
        " and ".join([", ".join(items[:-1]), items[-1]]) if len(items) > 2 else " and ".join(items)
    )


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# The schedule (issue 16) ---------------------------------------------------------------------


def start_key_label(key: str) -> str:
    """A start time's key in words: "round:3" → "Group round 3", "tie_breaks" → "Tie-breaks",
    "Q1" → "Qualifier 1"."""
    if key.startswith("round:"):
        return f"Group round {key.removeprefix('round:')}"
    if key == "tie_breaks":
        return "Tie-breaks"
    return fmt.STAGE_NAMES.get(key, key)


def start_key_of(kind: str, stage: str, round_number: int | None) -> str:
    """The schedule key a duel's start time is read from."""
    if kind in ("group", "replay") and round_number:
        return f"round:{round_number}"
    if kind == "tie_break":
        return "tie_breaks"
    return stage if kind == "playoff" else ""
