"""How every page names a tournament's duels, stages and results, and how the audit log reads:
one place, so the console, the organiser's pages, the public pages and a duel's record agree. A
duel's own words (how it finished, what a decision asks) come from duels/words.py.

No page shows an internal key (a tie-break key like "K513c…-r1-m1", a stage code like "Q1")
or a Python repr; the API and the CSV keep their keys and add `…_label` fields with these words.
"""

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, tzinfo
from typing import Any

from django.utils.translation import ngettext

from duels.words import PAGE_OUT_OF_DATE, finish_label

from . import format as fmt

__all__ = [
    "audit_text",
    "duel_title",
    "finish_label",
    "preset_label",
    "round_state_label",
    "rules_text",
    "stage_label",
    "table_label",
    "title_of",
    "variant_label",
]

_TIEBREAK_KEY = re.compile(r"-r(\d+)-m(\d+)$")
# "Replay" means one thing only: the rematch of a duel that ended without a winner. The page
# that steps through a played duel is its "Record" (templates: "Record", "Watch the record").
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


def title_of(kind: str, stage: str, round_number: int | None, *, replay: bool = False) -> str:
    """ "Group round 9", "Group round 9 (replay)", "Tie-break round 1, match 2", "Qualifier 1",
    "Qualifier 1 (replay)".

    "Group round" tells a round of the group phase from a duel's own rounds of play. A group
    replay has its own kind; a drawn tie-break or playoff duel's rematch keeps its kind and
    stage and is told by `replay` (the duel's `replay_of`), so the room sees it is a rematch."""
    if kind in ("group", "replay") and round_number:
        return f"Group round {round_number}" + (" (replay)" if kind == "replay" else "")
    title = stage_label(kind, stage) or KIND_LABELS.get(kind, kind.replace("_", " ").capitalize())
    return f"{title} (replay)" if replay and kind in ("tie_break", "playoff") else title


def duel_title(duel: Any) -> str:
    """The title of a duel row (its round read through the foreign key, when it has one)."""
    number = duel.round.number if getattr(duel, "round_id", None) else None
    return title_of(
        duel.kind, duel.stage, number, replay=getattr(duel, "replay_of_id", None) is not None
    )


# A duel's table ---------------------------------------------------------------------------------

_TABLE_WORD = re.compile(r"table\b[\s:#.\-]*(.*)", re.IGNORECASE)


def table_label(table: str | None) -> str:
    """A duel's table as every page, e-mail and API label names it: "Table 3" whether the
    organiser typed "3", "table 3" or "Table 3" (the form's own example); a place with a
    name ("Main stage") as typed; "" when none was given.

    Stored as typed: the label is made where it is shown, so a table typed either way reads
    the same on the big screen, the live page, /me/ and in e-mails."""
    name = " ".join((table or "").split())
    if not name:
        return ""
    found = _TABLE_WORD.fullmatch(name)
    if found:
        return f"Table {found[1]}" if found[1] else "Table"
    # A bare number or a short code ("3", "12b", "A") is a table's number.
    if name[0].isdigit() or (len(name) <= 2 and " " not in name):
        return f"Table {name}"
    return name


# A group round's state (`selectors.round_state`): a round whose result was voided is not
# "decided", whatever its row says, until its replay is played.
ROUND_STATE_LABELS = {
    "pending": "Not yet open",
    "open": "Open",
    "decided": "Decided",
    "not_played": "Not played",
    "replay_due": "Voided: replay due",
    "voided": "Voided",
}


def round_state_label(state: str) -> str:
    return ROUND_STATE_LABELS.get(state, state.replace("_", " ").capitalize())


def voided_replay_text(state: str, winner: str | None = None) -> str:
    """What became of a voided tie-break or playoff duel's match, beside it in the list of
    voided duels (`selectors_public.lines.replays_of_voided`): "Replay due" while the duel
    that took its place is not over, then "Replayed: Ada won"."""
    if state == "due":
        return "Replay due"
    return f"Replayed: {winner} won" if winner else "Replayed"


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
    "duel_taken": "Duel taken from its referee",
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
    "shifted_by": "shifted by",
    "every": "planned every",
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
    "previous": "taken from",
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
    zone: tzinfo = UTC,
) -> str:
    """An audit entry's detail in words: names for ids, titles for duels, no raw data; a time
    ("called at", a deadline, a start time) as the venue's clock reads it (`zone`: the
    tournament's time zone, which the page names)."""

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
                f"{_setting(k, old, zone)} → {_setting(k, new, zone)}"
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
        elif key in ("intent", "removed"):
            # A form's idempotency key, a removed entry's id: how a repeat is told, nothing
            # to read (the removed entry's name is beside it).
            continue
        elif key in ("referee", "previous"):
            words = users.get(_int(value), "someone") if value is not None else "nobody"
        elif key in ("shifted_by", "every") and isinstance(value, int):
            words = minutes_text(value, signed=key == "shifted_by")
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
            words = when_text(value, zone) or str(value)
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


def when_text(value: Any, zone: tzinfo = UTC) -> str:
    """An ISO time an audit entry keeps ("2026-11-26T20:38:52.905223+00:00") as the venue
    reads it: "26 Nov 2026 21:38" in `zone`; "" for anything that is not a time with a zone."""
    if not isinstance(value, str) or "T" not in value:
        return ""
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return ""
    if when.tzinfo is None:
        return ""
    when = when.astimezone(zone)
    return f"{when.day} {when:%b %Y %H:%M}"


def _setting(key: str, value: Any, zone: tzinfo = UTC) -> str:
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
    # A start time: in the tournament's zone now, one zone for every entry, whatever each
    # was typed in.
    return when_text(value, zone) or str(value)


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


# A schedule in a minute (issue 26) -----------------------------------------------------------


def zone_label(name: str) -> str:
    """A time zone as the list shows it: "America/New York" for "America/New_York"."""
    return name.replace("_", " ")


COMMON_ZONES_LABEL = "Common time zones"
ALL_ZONES_LABEL = "Every time zone"
KEPT_ZONE_LABEL = "Kept from before"


def not_a_time_zone(name: str) -> str:
    return f"“{name[:64]}” is not a time zone of the list: choose one, such as Europe/Paris."


SCHEDULE_TOO_FAR = "That time is too far in the future to plan: check the date."
NOTHING_TO_SHIFT = (
    "Nothing to shift: no start time is set for a part of the event not yet played. "
    "Nothing was changed."
)
ONE_AT_A_TIME = (
    "Group duels are played one at a time: round 2 starts when round 1 has a winner, so "
    "15 rounds take 15 duel lengths, whatever the number of players or tables. Only "
    "Qualifier 1 and the Eliminator may be played side by side."
)


def minutes_text(minutes: int, *, signed: bool = False) -> str:
    """ "15 minutes", "1 minute"; signed: "+15 minutes", "−10 minutes"."""
    unit = "minute" if abs(minutes) == 1 else "minutes"
    sign = ("+" if minutes > 0 else "−" if minutes < 0 else "") if signed else ""
    return f"{sign}{abs(minutes) if signed else minutes} {unit}"


def duration_text(seconds: float) -> str:
    """A length of time as a plan reads it: "about 14 minutes", "about 3 h 10 min"."""
    minutes = max(1, round(seconds / 60))
    if minutes < 60:
        return f"about {minutes_text(minutes)}"
    hours, rest = divmod(minutes, 60)
    return f"about {hours} h {rest} min" if rest else f"about {hours} h"


def minutes_between(low: int, high: int) -> str:
    return f"The interval is {low} to {high} minutes."


def gap_between(high: int) -> str:
    return f"A gap is 0 to {high} minutes."


def shift_between(high: int) -> str:
    return (
        f"Shift by 1 to {high} minutes, or −1 to −{high} to bring everything earlier. "
        "Nothing was changed."
    )


def plan_replaces(count: int) -> str:
    times = "start time" if count == 1 else "start times"
    return (
        f"This plan replaces {count} {times} already set (each shown below with its new "
        "time). Nothing is changed until you confirm."
    )


def plan_done(count: int, first: datetime, last: datetime) -> str:
    return (
        f"Every start time is planned ({count} parts): Group round 1 at {clock_time(first)}, "
        f"the Grand Final at {clock_time(last)}."
    )


def shift_done(minutes: int, count: int) -> str:
    times = "start time" if count == 1 else "start times"
    return (
        f"Shifted by {minutes_text(minutes, signed=True)}: {count} {times} of the parts not "
        "yet played."
    )


def schedule_already_changed(who: str, at: str, *, shifted_by: Any = None) -> str:
    """The same schedule form sent again (its key): what the first send did, nothing more."""
    what = (
        f"This shift ({minutes_text(shifted_by, signed=True)}) was already made"
        if isinstance(shifted_by, int)
        else "This schedule was already saved"
    )
    return f"{what} by {who} at {at}. Nothing changed."


def schedule_stale(who: str, at: str) -> str:
    since = f" ({who} changed it at {at})" if who and at else ""
    return (
        f"The schedule changed since this page was drawn{since}: nothing was changed. "
        "Look at the times below, then send again if it is still what you want."
    )


def typical_duel_text(seconds: float, measured: int, *, moves: int, per_move: int) -> str:
    """Where the length of a duel comes from: this tournament's own duels, or the assumption."""
    if measured:
        duels = "duel" if measured == 1 else "duels"
        return (
            f"A duel takes {duration_text(seconds)}: the median of the {measured} {duels} "
            "played to the end here, plus a minute to call the next players."
        )
    return (
        f"A duel takes {duration_text(seconds)} (an assumption until duels are played "
        f"here: club duels run 85 to 110 moves; {moves} moves at about {per_move} seconds "
        "each to play and enter, plus a minute to call the next players)."
    )


def evening_text(seconds: float, duels: int, slot_seconds: float) -> str:
    return (
        f"The evening takes {duration_text(seconds)} from the first group round to the end "
        f"of the Grand Final: {duels} duels one after another at {duration_text(slot_seconds)} "
        "each, counting the tie-breaks as one and Qualifier 1 beside the Eliminator, with "
        "the gaps."
    )


def short_slots_text(slot_minutes: int, duel_seconds: float) -> str:
    return (
        f"Slots of {minutes_text(slot_minutes)} are shorter than a typical duel "
        f"({duration_text(duel_seconds)}): the evening will run late. Plan at least "
        f"{minutes_text(max(1, round(duel_seconds / 60)))} a slot."
    )


def short_gap_text(earlier: str, later: str, minutes: int, duel_seconds: float) -> str:
    return (
        f"{later} starts {minutes_text(minutes)} after {earlier}, less than a typical duel "
        f"({duration_text(duel_seconds)}): the evening will run late."
    )


# What comes next (`selectors_public.coming`): a round or stage with no duel yet, and why.
PLAYOFFS_LABEL = "Playoffs"
WAITING_NOTES = {
    "start": "when the group phase starts",
    "round": "each group names its player for this round",
    "tie_breaks": "the next tie-break duels are being drawn",
    "playoffs": "Qualifier 1 and the Eliminator, once the organisers start the playoffs",
    "stage": "its players come from the duels before it",
}


# Repeats, races and taken duels (issue "Trust on the night") ---------------------------------
# A form sent again, or a second referee's copy of a sheet already entered, is answered with
# what was recorded and by whom, and that nothing changed; a move that lost a race is told
# which move counted. One place for these words, like every other word about duels.


def person_label(user: Any) -> str:
    """A person in a referee's sentence: the name they chose, else their username;
    "the automation" for nobody (a time limit, a withdrawal's forfeit)."""
    return str(user) if user is not None else "the automation"


def outcome_text(winner_name: str | None, finish: str = "") -> str:
    """ "Ada won", or "no winner (a replay is due)"."""
    if winner_name:
        return f"{winner_name} won"
    return "no winner (a replay is due)" if finish != "void" else "no result (void)"


def already_recorded(title: str, who: str, at: str, outcome: str) -> str:
    """ "Group round 9 was already recorded by Olga at 21:14: Ada won. Nothing changed." """
    return f"{title} was already recorded by {who} at {at}: {outcome}. Nothing changed."


def already_entered(seq: int, move: str) -> str:
    """The same move form sent again (a retry after a lost answer): the stored outcome."""
    return (
        f"Already entered: move {seq}, {move.rstrip('.')}. Nothing changed: "
        "this is the duel as it is now."
    )


def already_undone(seq: int, move: str) -> str:
    """The same undo sent again: nothing is undone twice."""
    return (
        f"Already undone: move {seq}, {move.rstrip('.')}. Nothing changed: "
        "this is the duel as it is now."
    )


def move_counted_first(who: str, move: str) -> str:
    """A move that lost a race, told which one counted (after the conflict's own words)."""
    return (
        "Someone else entered a move — here is the current state. "
        f"{who} entered “{move.rstrip('.')}” first; your move was not entered."
    )


def page_out_of_date() -> str:
    """A form that guards a write came without what it was drawn for (a revision, the
    tournament's version): refused, nothing changed."""
    return PAGE_OUT_OF_DATE


def clock_time(at: datetime) -> str:
    """A time of the night as the venue reads it: "21:14" (`at` already in the venue's zone)."""
    return at.strftime("%H:%M")


def paper_moves_since(title: str) -> str:
    """A duel's paper sheet drawn before moves were entered on the console."""
    return (
        f"{title} has moves entered on the console since this page was drawn: nothing was "
        "recorded. Finish it there."
    )


def paper_started_on_console() -> str:
    return (
        "This duel has started on the console: finish it there (an adjudication with a "
        "reason is one of its endings)."
    )


def paper_duel_not_here() -> str:
    return "That duel is not in this tournament."


def paper_duel_not_of_round(number: int) -> str:
    return f"That duel is not group round {number}'s: reload the page."


def not_open_words(title: str, status_label: str) -> str:
    """A sheet for a round or a duel that is no longer open (not played, voided)."""
    return f"{title} is {status_label.lower()}: nothing was recorded. Reload the page."


def ruling_stale() -> str:
    return (
        "The tournament changed since this preview was drawn: nothing was recorded. "
        "Show what will be recomputed again, then record the ruling."
    )


def ruling_already_recorded(title: str, who: str, at: str, ruling: str) -> str:
    return (
        f"{title}: this ruling was already recorded by {who} at {at} ({ruling}). Nothing changed."
    )


def duel_taken_words(who: str, at: str) -> str:
    """What the referee whose duel was taken reads on its console."""
    return f"{who} took this duel from you at {at}: your console follows along, read-only."


def take_needs_confirm(title: str, previous: str) -> str:
    return (
        f"{title} is running with {previous} as its referee: tick the confirmation to take "
        f"it from them (their console turns read-only and says who took it)."
    )


# Confirmations (issue "Trust on the night") ------------------------------------------------

CONFIRM_OUT_OF_DATE = "This page is out of date: look again, then confirm. Nothing was changed."


def removed_text(name: str) -> str:
    return f"{name} is removed."


def already_removed(name: str) -> str:
    return f"{name} was already removed: nothing changed."


def removal_stale(name: str, account: str) -> str:
    """The entry's account changed between the confirmation and the press."""
    now = f"it is linked to {account} now" if account else "it is linked to no account now"
    return (
        f"{name}'s entry changed since you were asked ({now}): check again what removing "
        f"{name} does. Nothing was changed."
    )


# Printed sheets: a tick per person whose link is replaced, none by default.
TICK_PLAYERS = (
    "Tick whose links to replace: a link already handed out keeps working unless you tick it."
)
SHEETS_ALREADY_REPLACED = (
    "The ticked links were already replaced by a newer sheet: nothing changed."
)
CLAIM_LINK_REPLACED = (
    "This claim link was replaced by a newer sheet: use the link on the newest sheet, or ask "
    "the organiser for it."
)


def not_active_text(name: str) -> str:
    return f"{name} is not active in this tournament."


PLAYOFFS_STARTED = (
    "The playoffs have started: the bracket is announced, and group-phase and tie-break "
    "results are frozen."
)


def no_shows_question(count: int, *, removes: bool) -> str:
    """The confirmation's heading: "Withdraw this no-show?", "Remove these 3 no-shows?"."""
    verb = "Remove" if removes else "Withdraw"
    these = ngettext("this no-show", "these %(n)d no-shows", count) % {"n": count}
    return f"{verb} {these}?"


def sheets_ready(count: int, noun: str) -> str:
    """The printed sheets' status line: "1 sheet ready: … The earlier link of this referee no
    longer works. This link is shown only now." (`noun`: "player" or "referee")."""
    sheets = ngettext("%(n)d sheet ready", "%(n)d sheets ready", count) % {"n": count}
    earlier = ngettext(
        "The earlier link of this %(noun)s no longer works. This link is shown only now.",
        "The earlier links of these %(n)d %(noun)ss no longer work. These links are shown only "
        "now.",
        count,
    ) % {"n": count, "noun": noun}
    return f"{sheets}: print this page (Ctrl+P). {earlier}"


def no_shows_done(names: list[str], *, removed: bool) -> str:
    """ "2 no-shows removed: Oli, Uma." """
    verb = "removed" if removed else "withdrawn"
    return f"{len(names)} no-show{'s' if len(names) != 1 else ''} {verb}: {', '.join(names)}."


# Why an undo or a correction is no longer possible (services ask; these are their words) ----


def withdrawal_final(name: str) -> str:
    return f"{name}'s withdrawal is final now (no re-entry)."


def withdrawal_undo_blocker(name: str, why: str, *, detail: str = "") -> str:
    """Why `name`'s withdrawal cannot be undone: `why` is "undone", "eliminated",
    "cancelled", "later" (someone did something else: `detail` names the action), "moved"
    (a duel moved on: `detail` is its title) or "active"."""
    final = withdrawal_final(name)
    if why == "undone":
        return f"{name}'s withdrawal was already undone: nothing changed."
    if why == "eliminated":
        return f"{name}'s withdrawal eliminated a group: an elimination cannot be undone. {final}"
    if why == "cancelled":
        return f"The tournament is cancelled. {final}"
    if why == "later":
        return f"Since the withdrawal, someone did something else ({detail.lower()}). {final}"
    if why == "moved":
        return f"Since the withdrawal, {detail} has moved on. {final}"
    return f"{name} is not withdrawn now."


def check_in_undo_blocker(name: str, why: str) -> str:
    """Why `name`'s check-in cannot be undone: "not_checked_in", or the phase it was for has
    started ("group_phase", "playoffs")."""
    if why == "not_checked_in":
        return f"{name} is not checked in: nothing changed."
    if why == "group_phase":
        return f"{name} was checked in for the group phase, which has started: the check-in stands."
    return f"{name} was checked in for the playoffs, which have started: the check-in stands."


NO_SHOWS_NOBODY = "Everybody is checked in: nobody to withdraw."
NO_SHOWS_TOO_LATE = "No-shows are withdrawn before the group phase or the playoffs start."
NO_SHOWS_BOTH_GROUPS = (
    "Withdrawing all of them at once would leave both groups below 5: withdraw them one at a "
    "time from the players page, or check some in."
)

FROZEN_PLAYOFF = "Playoff results are corrected while the playoffs run or after."
FROZEN_CANCELLED = "The tournament is cancelled: its results stand as they are."
FROZEN_BY_PLAYOFFS = (
    "Group-phase and tie-break results froze when the playoffs started: this result can no "
    "longer be corrected or voided."
)

VACANT_SEAT = "a vacant seat"


def pairing_text(first: str, second: str) -> str:
    """ "Ada v Bao": a playoff duel the confirmation announces."""
    return f"{first} v {second}"


# The overview's checklist before the group phase (issue 26): what is in place, as it is.


def players_text(count: int) -> str:
    """ "1 player", "0 players"."""
    return ngettext("%(n)d player", "%(n)d players", count) % {"n": count}


def group_sizes_text(sizes: list[tuple[str, int]]) -> str:
    """ "Group 1: 0 players, Group 2: 1 player" (it read "Group 1 0, Group 2 0")."""
    return ", ".join(f"{name}: {players_text(n)}" for name, n in sizes) or "none yet"


def staff_text(referees: list[str], co_organisers: list[str], waiting_links: int) -> str:
    """Who helps run it, however they joined (by username or by an invitation link)."""
    if not referees and not co_organisers:
        text = "none yet: add them by username, or give each an invitation link"
    else:
        text = (
            f"referees: {_and(referees) or 'none yet'}; "
            f"co-organisers: {_and(co_organisers) or 'none yet'}"
        )
    if waiting_links:
        text += "; " + ngettext(
            "%(n)d invitation link not used yet",
            "%(n)d invitation links not used yet",
            waiting_links,
        ) % {"n": waiting_links}
    return text + "."


def schedule_text(starts: Mapping[str, datetime], zone: str) -> str:
    """The schedule: not set (it is optional), or its first start and how many there are."""
    if not starts:
        return (
            "not set (optional: start times tell the players and the big screen when each "
            "round starts)."
        )
    key, first = min(starts.items(), key=lambda kv: kv[1])
    count = ngettext("%(n)d start time", "%(n)d start times", len(starts)) % {"n": len(starts)}
    return f"{count} set; first, {start_key_label(key)} at {first.day} {first:%b %H:%M} ({zone})."


def check_in_text(checked_in: int, active: int) -> str:
    """ "3 of 12 players checked in." """
    if not checked_in:
        return f"nobody checked in yet (0 of {players_text(active)})."
    return f"{checked_in} of {players_text(active)} checked in."


OPEN_REGISTRATION_HELP = (
    "Opening registration only tells the public page that registration is open; players are "
    "added, and the group phase starts, without it."
)


# The e-mails a withdrawal's undo sends (tasks.notify_withdrawal_undone).


def withdrawal_undone_mail(tournament: str, who: str, title: str, link: str) -> tuple[str, str]:
    """To the referee and players of a duel the withdrawal had forfeited: (subject, body);
    `link` is the duel's console for its referee, the player's duels for a player."""
    return (
        f"{tournament}: {who}'s withdrawal was undone",
        f"{who}'s withdrawal was a mistake and has been undone: the forfeit of {title} "
        f"is taken back, and the duel goes on where it stood.\n\n{title}: {link}\n",
    )


def duel_off_mail(tournament: str, player: str, who: str, title: str, me: str) -> tuple[str, str]:
    """To a player named for a duel the automation created after the withdrawal."""
    return (
        f"{tournament}: {title} is off",
        f"{player}, {who}'s withdrawal was undone, so {title} is no longer called for: you do "
        f"not play it.\n\nYour duels, live: {me}\n",
    )


# The referee's path (issue 26) -----------------------------------------------------------------
# A referee's desk (`selectors_referee`): their duel, or what they wait for; the breadcrumb of
# the staff pages; the paper form's winners, by name once the players are known.

STAFF_CRUMB_ORGANISER = "Organiser"
STAFF_CRUMB_REFEREE = "Referee"
DESK_NONE_ASSIGNED = "No duel is assigned to you yet."
DESK_NO_OTHER = "No other duel is assigned to you yet."
DESK_NOTHING_WAITING = "Nothing is waiting for a referee now."
DESK_ALL_TAKEN = "Nothing is waiting for you now: every open duel has its referee."
DESK_OVER = "This tournament is over: no duel is left to referee."


def staff_crumb(organiser: bool) -> str:
    """The last word of a staff page's breadcrumb: whose pages these are."""
    return STAFF_CRUMB_ORGANISER if organiser else STAFF_CRUMB_REFEREE


def desk_waiting(label: str, note: str) -> str:
    """What a referee with no duel waits for: "Next: Group round 5 — each group names its
    player for this round." """
    return f"Next: {label} — {note}." if note else f"Next: {label}."


def paper_winner(name: str) -> str:
    """A paper sheet's winner, once the players are known: "Ada won"."""
    return f"{name} won"


def paper_winner_chosen(group: str) -> str:
    """A paper sheet's winner while the players are chosen on the same form."""
    return f"The player chosen for {group} won"


# The standings' table by what it lists (selectors_public/standings.py): the group phase's
# standings, the playoffs so far (the qualifiers by the places still open to them), the end.
TABLE_HEADINGS = {
    "standings": "Standings",
    "playoffs": "Playoff table",
    "final": "Final table",
}
TABLE_CAPTIONS = {
    "standings": (
        "Individual standings of the group phase, by points. “T3”: tied for third; the order "
        "inside a tie is alphabetical and means nothing."
    ),
    "playoffs": (
        "Playoff table: the four qualifiers first, in the order of the places still open to "
        "them (“1–2”: playing for 1st or 2nd), then everyone else by group-phase rank."
    ),
    "final": "Final table: placings 1–4, then everyone else by group-phase rank.",
}


def table_heading(kind: str) -> str:
    """ "Standings", "Playoff table" (while the playoffs run) or "Final table"."""
    return TABLE_HEADINGS[kind]


def table_caption(kind: str) -> str:
    return TABLE_CAPTIONS[kind]


def place_label(placing: int | None, open_places: Sequence[int] = ()) -> str:
    """The Place column: "3" for a place given; for a qualifier still playing, the places
    still open to them ("1–2", "1–3": the playoffs give places from the bottom, so they are
    always the best ones, `fmt.places_open`); "" for everyone else."""
    if placing:
        return str(placing)
    if not open_places:
        return ""
    first, last = min(open_places), max(open_places)
    return str(first) if first == last else f"{first}–{last}"


# The running duel shown to the room (issue 28) --------------------------------------------------


def round_outcome_text(round_label: str, winner: str | None, tie: int | None = None) -> str:
    """How the duel's last round went (`round_label`: "Duel round 3", duels.words):
    "Duel round 3: Ada won it", "Duel round 3: a tie on 5", or, every seat blocked,
    "Duel round 3: both were blocked, no one won it"."""
    if winner:
        return f"{round_label}: {winner} won it"
    if tie is not None:
        return f"{round_label}: a tie on {tie}"
    return f"{round_label}: both were blocked, no one won it"
