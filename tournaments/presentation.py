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

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

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
    "stage_name",
    "table_label",
    "title_of",
    "variant_label",
]

_TIEBREAK_KEY = re.compile(r"-r(\d+)-m(\d+)$")
# "Replay" means one thing only: the rematch of a duel that ended without a winner. The page
# that steps through a played duel is its "Record" (templates: "Record", "Watch the record").
KIND_LABELS = {
    "group": gettext_lazy("Group round"),
    "replay": gettext_lazy("Replay"),
    "tie_break": gettext_lazy("Tie-break"),
    "playoff": gettext_lazy("Playoff"),
}
# The playoff stages' names (tournaments.format keeps their English names for its own use: it
# imports nothing of Django); every page names them through `stage_name`.
STAGE_LABELS = {
    fmt.Q1: gettext_lazy("Qualifier 1"),
    fmt.E1: gettext_lazy("Eliminator"),
    fmt.Q2: gettext_lazy("Qualifier 2"),
    fmt.GF: gettext_lazy("Grand Final"),
}


def stage_name(stage: str, default: str = "") -> str:
    """A playoff stage's name in the reader's language: "Qualifier 1" for "Q1"."""
    label = STAGE_LABELS.get(stage)
    return str(label) if label is not None else default


def stage_label(kind: str, stage: str) -> str:
    """A tie-break or playoff stage in words: "Tie-break round 1, match 2", "Qualifier 1"."""
    if kind == "playoff":
        return stage_name(stage, _("Playoff"))
    if kind == "tie_break":
        found = _TIEBREAK_KEY.search(stage or "")
        if not found:
            return _("Tie-break")
        return _("Tie-break round %(round)s, match %(match)s") % {
            "round": found[1],
            "match": found[2],
        }
    return ""


def title_of(kind: str, stage: str, round_number: int | None, *, replay: bool = False) -> str:
    """ "Group round 9", "Group round 9 (replay)", "Tie-break round 1, match 2", "Qualifier 1",
    "Qualifier 1 (replay)".

    "Group round" tells a round of the group phase from a duel's own rounds of play. A group
    replay has its own kind; a drawn tie-break or playoff duel's rematch keeps its kind and
    stage and is told by `replay` (the duel's `replay_of`), so the room sees it is a rematch."""
    if kind in ("group", "replay") and round_number:
        if kind == "replay":
            return _("Group round %(number)s (replay)") % {"number": round_number}
        return _("Group round %(number)s") % {"number": round_number}
    label = KIND_LABELS.get(kind)
    title = stage_label(kind, stage) or (
        str(label) if label is not None else kind.replace("_", " ").capitalize()
    )
    if replay and kind in ("tie_break", "playoff"):
        # Translators: a drawn tie-break or playoff duel's rematch, e.g. "Qualifier 1 (replay)".
        return _("%(title)s (replay)") % {"title": title}
    return title


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
        if not found[1]:
            return pgettext("a playing table", "Table")
        return pgettext("a playing table", "Table %(number)s") % {"number": found[1]}
    # A bare number or a short code ("3", "12b", "A") is a table's number.
    if name[0].isdigit() or (len(name) <= 2 and " " not in name):
        return pgettext("a playing table", "Table %(number)s") % {"number": name}
    return name


# A group round's state (`selectors.round_state`): a round whose result was voided is not
# "decided", whatever its row says, until its replay is played.
ROUND_STATE_LABELS = {
    "pending": pgettext_lazy("a group round", "Not yet open"),
    "open": pgettext_lazy("a group round", "Open"),
    "decided": pgettext_lazy("a group round", "Decided"),
    "not_played": pgettext_lazy("a group round", "Not played"),
    "replay_due": pgettext_lazy("a group round", "Voided: replay due"),
    "voided": pgettext_lazy("a group round", "Voided"),
}


def round_state_label(state: str) -> str:
    label = ROUND_STATE_LABELS.get(state)
    return str(label) if label is not None else state.replace("_", " ").capitalize()


def voided_replay_text(state: str, winner: str | None = None) -> str:
    """What became of a voided tie-break or playoff duel's match, beside it in the list of
    voided duels (`selectors_public.lines.replays_of_voided`): "Replay due" while the duel
    that took its place is not over, then "Replayed: Ada won"."""
    if state == "due":
        return _("Replay due")
    return _("Replayed: %(name)s won") % {"name": winner} if winner else _("Replayed")


# A tournament's duel rules ------------------------------------------------------------------

PRESET_NAMES = {
    "tournament": pgettext_lazy("duel rules", "Tournament"),
    "arbiter": pgettext_lazy("duel rules", "Arbiter"),
    "paper": pgettext_lazy("duel rules", "Paper"),
    "official": pgettext_lazy("duel rules", "Official"),
}
PRESET_NOTES = {"tournament": gettext_lazy("the arbiter rules without truth and dare")}
VARIANT_NAMES = {
    "speed": pgettext_lazy("duel variant", "Speed"),
    "hardcore": pgettext_lazy("duel variant", "Hardcore"),
}
VARIANT_NOTES = {
    "speed": gettext_lazy("15 starting number cards"),
    "hardcore": gettext_lazy("no challenges, no draw counters"),
}


# The tie-break modes (tournaments.models.TieBreakMode), as the settings form offers them.
TIEBREAK_MODES = {
    "full": gettext_lazy("Full: separate every position 1–4"),
    "minimal": gettext_lazy("Minimal: only who qualifies and who meets whom"),
}


def preset_label(preset: str, *, note: bool = False) -> str:
    """ "Tournament"; with `note`, "Tournament (the arbiter rules without truth and dare)"."""
    known = PRESET_NAMES.get(preset)
    name = str(known) if known is not None else preset.replace("_", " ").capitalize()
    if note and preset in PRESET_NOTES:
        # Translators: a duel rule set and what it means, e.g. "Tournament (the arbiter …)".
        return _("%(name)s (%(note)s)") % {"name": name, "note": PRESET_NOTES[preset]}
    return name


def variant_label(variant: str, *, note: bool = False) -> str:
    """ "Speed"; with `note`, "Speed: 15 starting number cards"."""
    known = VARIANT_NAMES.get(variant)
    name = str(known) if known is not None else variant.replace("_", " ").capitalize()
    if note and variant in VARIANT_NOTES:
        # Translators: a duel variant and what it changes, e.g. "Speed: 15 starting number cards".
        return _("%(name)s: %(note)s") % {"name": name, "note": VARIANT_NOTES[variant]}
    return name


def rules_text(preset: str, variants: list[str] | tuple[str, ...] = ()) -> str:
    """ "Tournament", "Tournament + Speed, Hardcore"."""
    extra = ", ".join(variant_label(v) for v in variants or ())
    if not extra:
        return preset_label(preset)
    # Translators: duel rules and their variants, e.g. "Tournament + Speed, Hardcore".
    return _("%(rules)s + %(variants)s") % {"rules": preset_label(preset), "variants": extra}


# The audit log --------------------------------------------------------------------------------

ACTION_TEXT = {
    "tournament_created": gettext_lazy("Tournament created"),
    "settings_changed": gettext_lazy("Settings changed"),
    "registration_opened": gettext_lazy("Registration opened"),
    "published": gettext_lazy("Published"),
    "unpublished": gettext_lazy("Unpublished"),
    "cancelled": gettext_lazy("Tournament cancelled"),
    "entrant_added": gettext_lazy("Player registered"),
    "player_registered": gettext_lazy("Player registered"),
    "players_registered": gettext_lazy("Players registered"),
    "claim_link_issued": gettext_lazy("Claim link issued"),
    "entry_claimed": gettext_lazy("Entry claimed"),
    "claim_links_reissued": gettext_lazy("Claim links reissued for printing"),
    "invitation_issued": gettext_lazy("Invitation issued"),
    "invitation_revoked": gettext_lazy("Invitation withdrawn"),
    "invitation_accepted": gettext_lazy("Invitation accepted"),
    "invitations_reissued": gettext_lazy("Invitations reissued for printing"),
    "player_checked_in": gettext_lazy("Player checked in"),
    "no_shows_withdrawn": gettext_lazy("No-shows withdrawn"),
    "player_removed": gettext_lazy("Player removed"),
    "groups_named": gettext_lazy("Groups named"),
    "groups_split": gettext_lazy("Groups split"),
    "group_phase_started": gettext_lazy("Group phase started"),
    "representatives_named": gettext_lazy("Representatives named"),
    "referee_assigned": gettext_lazy("Referee or table assigned"),
    "duel_taken": gettext_lazy("Duel taken from its referee"),
    "membership_changed": gettext_lazy("Group membership changed"),
    "group_eliminated": gettext_lazy("Group eliminated"),
    "player_withdrawn": gettext_lazy("Player withdrawn"),
    "withdrawal_undone": gettext_lazy("Withdrawal undone"),
    "check_in_undone": gettext_lazy("Check-in undone"),
    "shared_card_recorded": gettext_lazy("Shared card recorded"),
    "duel_finished": gettext_lazy("Duel finished"),
    "paper_result": gettext_lazy("Result played on paper recorded"),
    "online_duel_started": gettext_lazy("Online duel started: both players ready"),
    "online_duel_ended": gettext_lazy("Online duel ended by a referee"),
    "duel_called": gettext_lazy("Duel called to its table"),
    "schedule_changed": gettext_lazy("Schedule changed"),
    "result_corrected": gettext_lazy("Result corrected"),
    "result_voided": gettext_lazy("Result voided"),
    "time_limit_warning": gettext_lazy("Time-limit warning"),
    "tiebreaks_planned": gettext_lazy("Tie-breaks planned"),
    "tiebreak_duels_voided": gettext_lazy("Tie-break duels no longer needed"),
    "top_four_settled": gettext_lazy("Positions 1–4 settled"),
    "playoffs_started": gettext_lazy("Playoffs started"),
    "playoff_duels_voided": gettext_lazy("Playoff duels no longer needed"),
    "tournament_complete": gettext_lazy("Tournament complete"),
    "tournament_reopened": gettext_lazy("Tournament reopened"),
    "stale_duels_closed": gettext_lazy("Duels nobody could play closed"),
    "duel_switched": gettext_lazy("Duel switched between a table and online"),
    "no_show_wait_extended": gettext_lazy("Wait for an online duel's players extended"),
    "no_show_forfeit": gettext_lazy("No-show: online duel forfeited"),
    "unplayed_duel_voided": gettext_lazy("Online duel voided: neither player was ready"),
    "online_duel_stopped": gettext_lazy("Online duel stopped: both players abandoned"),
    "abandoned_duel_forfeit": gettext_lazy("Online duel both players abandoned: forfeit ruled"),
    "stopped_duel_adjudicated": gettext_lazy("Online duel adjudicated by a ruling"),
    "abandoned_duel_voided": gettext_lazy("Online duel voided: both players abandoned"),
    "entry_unlinked": gettext_lazy("Entry unlinked from its account"),
    "name_changed_by_upgrade": gettext_lazy(
        "Name changed by an upgrade (names must look different)"
    ),
}
# Which detail keys hold what, so that ids become names and codes become words.
_ENTRANT_KEYS = {"entrant", "giver", "receiver", "winner", "seat_a", "seat_b"}
_ENTRANT_LISTS = {"players", "seeding"}
_DUEL_KEYS = {"duel", "from_duel", "replay_duel"}
_DUEL_LISTS = {"duels", "duels_abandoned", "duels_voided"}
_PLACES = {1: gettext_lazy("champion")}

_SPLIT_WORDS = {
    "hand": gettext_lazy("by hand"),
    "alternating": gettext_lazy("alternately"),
    "random": gettext_lazy("at random"),
}
_KEY_WORDS = {
    "after_round": pgettext_lazy("audit detail", "after round"),
    "shifted_by": pgettext_lazy("audit detail", "shifted by"),
    "every": pgettext_lazy("audit detail", "planned every"),
    "needed": pgettext_lazy("audit detail", "tie-breaks needed"),
    "mode": pgettext_lazy("audit detail", "mode"),
    "seed": pgettext_lazy("audit detail", "seed"),
    "sizes": pgettext_lazy("audit detail", "group sizes"),
    "method": pgettext_lazy("audit detail", "split"),
    "seat_a": pgettext_lazy("audit detail", "seat A"),
    "seat_b": pgettext_lazy("audit detail", "seat B"),
    "names": pgettext_lazy("audit detail", "names"),
    "round": pgettext_lazy("audit detail", "round"),
    "table": pgettext_lazy("audit detail", "table"),
    "referee": pgettext_lazy("audit detail", "referee"),
    "previous": pgettext_lazy("audit detail", "taken from"),
    "kind": pgettext_lazy("audit detail", "kind"),
    "finish": pgettext_lazy("audit detail", "finish"),
    "replay": pgettext_lazy("audit detail", "replayed"),
    "replay_duel": pgettext_lazy("audit detail", "replayed as"),
    "deadline": pgettext_lazy("audit detail", "deadline"),
    "moves": pgettext_lazy("audit detail", "moves"),
    "positions": pgettext_lazy("audit detail", "positions"),
    "placings": pgettext_lazy("audit detail", "placings"),
    "was": pgettext_lazy("audit detail", "was"),
    "online": pgettext_lazy("audit detail", "played online"),
    "ready_by": pgettext_lazy("audit detail", "no-show deadline"),
    "account": pgettext_lazy("audit detail", "account"),
    "now": pgettext_lazy("audit detail", "now"),
    "why": pgettext_lazy("audit detail", "why"),
    "duels": pgettext_lazy("audit detail", "duels"),
    "duels_voided": pgettext_lazy("audit detail", "duels voided"),
    "duels_abandoned": pgettext_lazy("audit detail", "duels closed without result"),
    "entrant": pgettext_lazy("audit detail", "player"),
    "players": pgettext_lazy("audit detail", "players"),
    "winner": pgettext_lazy("audit detail", "winner"),
    "seeding": pgettext_lazy("audit detail", "seeding"),
    "giver": pgettext_lazy("audit detail", "given by"),
    "receiver": pgettext_lazy("audit detail", "given to"),
    "duel": pgettext_lazy("audit detail", "duel"),
    "from_duel": pgettext_lazy("audit detail", "from"),
    "group": pgettext_lazy("audit detail", "group"),
    "reason": pgettext_lazy("audit detail", "why"),
    "count": pgettext_lazy("audit detail", "how many"),
    "role": pgettext_lazy("audit detail", "role"),
    "name": pgettext_lazy("audit detail", "name"),
    "starting_action_cards": pgettext_lazy("audit detail", "starting action cards"),
    "replaced": pgettext_lazy("audit detail", "replaced"),
    "tournament": pgettext_lazy("audit detail", "tournament"),
    "source": pgettext_lazy("audit detail", "from"),
}
# Values some audit details hold as keys (the tie-break mode, a role).
_VALUE_WORDS = {
    "mode": {
        "full": pgettext_lazy("tie-break mode", "full"),
        "minimal": pgettext_lazy("tie-break mode", "minimal"),
    },
    "source": {
        "list": pgettext_lazy("players registered from", "a typed list"),
        "csv": pgettext_lazy("players registered from", "a CSV file"),
    },
    "role": {
        "organiser": pgettext_lazy("a role", "organiser"),
        "co_organiser": pgettext_lazy("a role", "co-organiser"),
        "referee": pgettext_lazy("a role", "referee"),
    },
}


# Withdrawals and their undo -------------------------------------------------------------------


def forfeit_text(name: str, title: str, winner: str, walkover: bool) -> str:
    """What a withdrawal does to one of the player's duels, in words."""
    if walkover:
        if winner:
            return _("%(title)s is not played: %(winner)s goes through (a walkover).") % {
                "title": title,
                "winner": winner,
            }
        return _("%(title)s is not played: the other player goes through (a walkover).") % {
            "title": title
        }
    if winner:
        return _("%(name)s forfeits %(title)s: %(winner)s wins it (+3, %(name)s −2).") % {
            "name": name,
            "title": title,
            "winner": winner,
        }
    return _("%(name)s forfeits %(title)s.") % {"name": name, "title": title}


def withdrawn_text(name: str, forfeits: list[tuple[str, str, bool]]) -> str:
    """After a withdrawal: what it did (the forfeit the referee's log calls "absent")."""
    parts = [_("%(name)s is withdrawn.") % {"name": name}]
    parts += [forfeit_text(name, *f) for f in forfeits]
    parts.append(_("A mistake can be undone below while nothing else has happened."))
    return " ".join(parts)


def undone_text(name: str, group: str) -> str:
    if group:
        return _(
            "%(name)s's withdrawal is undone: %(name)s is active again in %(group)s, and any "
            "duel it forfeited goes on."
        ) % {"name": name, "group": group}
    return _(
        "%(name)s's withdrawal is undone: %(name)s is active again, and any duel it forfeited "
        "goes on."
    ) % {"name": name}


def frozen_text(group: int, tiebreak: int) -> str:
    """What starting the playoffs freezes, counted."""
    groups = ngettext("%(n)s group-phase result", "%(n)s group-phase results", group) % {"n": group}
    tiebreaks = ngettext("%(n)s tie-break result", "%(n)s tie-break results", tiebreak) % {
        "n": tiebreak
    }
    return _(
        "%(group_results)s and %(tiebreak_results)s freeze: from then on they can no longer be "
        "corrected or voided (playoff results stay correctable)."
    ) % {"group_results": groups, "tiebreak_results": tiebreaks}


def action_text(action: str) -> str:
    label = ACTION_TEXT.get(action)
    return str(label) if label is not None else action.replace("_", " ").capitalize()


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
        return entrants.get(_int(pk), _("a player")) if pk is not None else _("nobody")

    def group(pk: Any) -> str:
        return groups.get(_int(pk), _("a group")) if pk is not None else _("no group")

    def duel(pk: Any) -> str:
        return duels.get(_int(pk), _("a duel"))

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
            words = ", ".join(entrant(v) for v in value) or _("nobody")
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
            words = users.get(_int(value), _("someone")) if value is not None else _("nobody")
        elif key in ("shifted_by", "every") and isinstance(value, int):
            words = minutes_text(value, signed=key == "shifted_by")
        elif key == "kind":
            words = str(KIND_LABELS.get(value, value))
        elif key == "finish":
            words = finish_label(value)
        elif key == "moves":
            # (Not inside the f-string: makemessages would not find it there.)
            gone = pgettext("a player", "withdrawn")
            words = "; ".join(
                f"{entrant(p)}: {group(src)} → {group(dst) if dst is not None else gone}"
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
                f"{_PLACES.get(place) or _ordinal(place)}: {entrant(p)}"
                for p, place in sorted(value.items(), key=lambda kv: kv[1])
            )
        elif key == "method":
            words = str(_SPLIT_WORDS.get(value, str(value).replace("_", " ")))
        elif key in _VALUE_WORDS and isinstance(value, str):
            words = str(_VALUE_WORDS[key].get(value, value.replace("_", " ")))
        elif key == "names":
            words = _and([str(v) for v in value])
        elif key == "replay" or isinstance(value, bool):
            words = _("yes") if value else _("no")
        elif isinstance(value, list | dict):
            continue  # nothing a person needs that the other parts do not say
        else:
            words = when_text(value, zone) or str(value)
        if words != "":
            parts.append(f"{_KEY_WORDS.get(key, key.replace('_', ' '))}: {words}")
    return "; ".join(parts)


_SETTING_WORDS = {
    "duel_preset": gettext_lazy("duel rules"),
    "variants": gettext_lazy("variants"),
    "tiebreak_mode": gettext_lazy("tie-breaks"),
    "shared_cards": gettext_lazy("shared cards"),
    "duel_time_limit_minutes": gettext_lazy("time limit"),
    "time_zone": gettext_lazy("time zone"),
    "online_duels": gettext_lazy("duels are played"),
    "seat_clock": gettext_lazy("seat clock"),
}


def played_text(online: bool) -> str:
    """How a tournament's (or a duel's) duels are played, in two words."""
    return pgettext("duels are played", "online") if online else _("at a table")


def seconds_text(value: Any) -> str:
    """ "30 s": a seat clock."""
    # Translators: a number of seconds, short: "30 s".
    return _("%(n)s s") % {"n": value}


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
    # Month names in the reader's language ("26 Nov 2026 21:38").
    return date_format(when, "j M Y H:i")


def _setting(key: str, value: Any, zone: tzinfo = UTC) -> str:
    """A tournament setting's value in words, for the audit log's "Settings changed"."""
    if key == "duel_preset":
        return preset_label(str(value))
    if key == "variants":
        return ", ".join(variant_label(v) for v in value) if value else _("none")
    if key == "tiebreak_mode":
        return str(_VALUE_WORDS["mode"].get(str(value), value))
    if key == "shared_cards":
        return pgettext("a setting", "on") if value else pgettext("a setting", "off")
    if key == "duel_time_limit_minutes":
        return minutes_text(value) if value else _("none")
    if key == "online_duels":
        return played_text(bool(value))
    if key == "seat_clock":
        return seconds_text(value)
    if value is None:
        return _("not set")  # a start time added or removed (the schedule)
    # A start time: in the tournament's zone now, one zone for every entry, whatever each
    # was typed in.
    return when_text(value, zone) or str(value)


def _and(items: list[str]) -> str:
    """ "Ada and Bao"; "Ada, Bao and Cleo"."""
    if len(items) < 2:
        return "".join(items)
    # Translators: the end of a list of names, e.g. "Ada, Bao and Cleo".
    return _("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _ordinal(n: int) -> str:
    """ "1st", "2nd", "13th": a place in the table."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        # Translators: an ordinal number, a place in the table: "5th", "12th".
        return pgettext("ordinal", "%(n)sth") % {"n": n}
    if n % 10 == 1:
        # Translators: an ordinal number ending in 1 (not 11), a place in the table: "1st", "21st".
        return pgettext("ordinal", "%(n)sst") % {"n": n}
    if n % 10 == 2:
        # Translators: an ordinal number ending in 2 (not 12), a place in the table: "2nd".
        return pgettext("ordinal", "%(n)snd") % {"n": n}
    # Translators: an ordinal number ending in 3 (not 13), a place in the table: "3rd", "23rd".
    return pgettext("ordinal", "%(n)srd") % {"n": n}


# The schedule (issue 16) ---------------------------------------------------------------------


def start_key_label(key: str) -> str:
    """A start time's key in words: "round:3" → "Group round 3", "tie_breaks" → "Tie-breaks",
    "Q1" → "Qualifier 1"."""
    if key.startswith("round:"):
        return _("Group round %(number)s") % {"number": key.removeprefix("round:")}
    if key == "tie_breaks":
        return _("Tie-breaks")
    return stage_name(key, key)


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


COMMON_ZONES_LABEL = gettext_lazy("Common time zones")
ALL_ZONES_LABEL = gettext_lazy("Every time zone")
KEPT_ZONE_LABEL = gettext_lazy("Kept from before")


def not_a_time_zone(name: str) -> str:
    return _("“%(name)s” is not a time zone of the list: choose one, such as Europe/Paris.") % {
        "name": name[:64]
    }


SCHEDULE_TOO_FAR = gettext_lazy("That time is too far in the future to plan: check the date.")
NOTHING_TO_SHIFT = gettext_lazy(
    "Nothing to shift: no start time is set for a part of the event not yet played. "
    "Nothing was changed."
)
ONE_AT_A_TIME = gettext_lazy(
    "Group duels are played one at a time: round 2 starts when round 1 has a winner, so "
    "15 rounds take 15 duel lengths, whatever the number of players or tables. Only "
    "Qualifier 1 and the Eliminator may be played side by side."
)


def minutes_text(minutes: int, *, signed: bool = False) -> str:
    """ "15 minutes", "1 minute"; signed: "+15 minutes", "−10 minutes"."""
    if not signed:
        return ngettext("%(n)s minute", "%(n)s minutes", abs(minutes)) % {"n": minutes}
    sign = "+" if minutes > 0 else "−" if minutes < 0 else ""
    # Translators: a signed length, e.g. "+15 minutes", "−10 minutes" (%(sign)s is + or −).
    return ngettext("%(sign)s%(n)s minute", "%(sign)s%(n)s minutes", abs(minutes)) % {
        "sign": sign,
        "n": abs(minutes),
    }


def duration_text(seconds: float) -> str:
    """A length of time as a plan reads it: "about 14 minutes", "about 3 h 10 min"."""
    minutes = max(1, round(seconds / 60))
    if minutes < 60:
        return _("about %(minutes)s") % {"minutes": minutes_text(minutes)}
    hours, rest = divmod(minutes, 60)
    if rest:
        return _("about %(hours)s h %(minutes)s min") % {"hours": hours, "minutes": rest}
    return _("about %(hours)s h") % {"hours": hours}


def minutes_between(low: int, high: int) -> str:
    return _("The interval is %(low)s to %(high)s minutes.") % {"low": low, "high": high}


def gap_between(high: int) -> str:
    return _("A gap is 0 to %(high)s minutes.") % {"high": high}


def shift_between(high: int) -> str:
    return _(
        "Shift by 1 to %(high)s minutes, or −1 to −%(high)s to bring everything earlier. "
        "Nothing was changed."
    ) % {"high": high}


def plan_replaces(count: int) -> str:
    return ngettext(
        "This plan replaces %(n)s start time already set (each shown below with its new "
        "time). Nothing is changed until you confirm.",
        "This plan replaces %(n)s start times already set (each shown below with its new "
        "time). Nothing is changed until you confirm.",
        count,
    ) % {"n": count}


def plan_done(count: int, first: datetime, last: datetime) -> str:
    return ngettext(
        "Every start time is planned (%(n)s part): Group round 1 at %(first)s, the Grand "
        "Final at %(last)s.",
        "Every start time is planned (%(n)s parts): Group round 1 at %(first)s, the Grand "
        "Final at %(last)s.",
        count,
    ) % {"n": count, "first": clock_time(first), "last": clock_time(last)}


def shift_done(minutes: int, count: int) -> str:
    return ngettext(
        "Shifted by %(minutes)s: %(n)s start time of the parts not yet played.",
        "Shifted by %(minutes)s: %(n)s start times of the parts not yet played.",
        count,
    ) % {"minutes": minutes_text(minutes, signed=True), "n": count}


def schedule_already_changed(who: str, at: str, *, shifted_by: Any = None) -> str:
    """The same schedule form sent again (its key): what the first send did, nothing more."""
    if isinstance(shifted_by, int):
        return _(
            "This shift (%(minutes)s) was already made by %(who)s at %(at)s. Nothing changed."
        ) % {"minutes": minutes_text(shifted_by, signed=True), "who": who, "at": at}
    return _("This schedule was already saved by %(who)s at %(at)s. Nothing changed.") % {
        "who": who,
        "at": at,
    }


def schedule_stale(who: str, at: str) -> str:
    if who and at:
        return _(
            "The schedule changed since this page was drawn (%(who)s changed it at %(at)s): "
            "nothing was changed. Look at the times below, then send again if it is still what "
            "you want."
        ) % {"who": who, "at": at}
    return _(
        "The schedule changed since this page was drawn: nothing was changed. Look at the "
        "times below, then send again if it is still what you want."
    )


def typical_duel_text(seconds: float, measured: int, *, moves: int, per_move: int) -> str:
    """Where the length of a duel comes from: this tournament's own duels, or the assumption."""
    if measured:
        return ngettext(
            "A duel takes %(length)s: the median of the %(n)s duel played to the end here, "
            "plus a minute to call the next players.",
            "A duel takes %(length)s: the median of the %(n)s duels played to the end here, "
            "plus a minute to call the next players.",
            measured,
        ) % {"length": duration_text(seconds), "n": measured}
    return _(
        "A duel takes %(length)s (an assumption until duels are played here: club duels run "
        "85 to 110 moves; %(moves)s moves at about %(per_move)s seconds each to play and "
        "enter, plus a minute to call the next players)."
    ) % {"length": duration_text(seconds), "moves": moves, "per_move": per_move}


def evening_text(seconds: float, duels: int, slot_seconds: float) -> str:
    return _(
        "The evening takes %(length)s from the first group round to the end of the Grand "
        "Final: %(duels)s duels one after another at %(slot)s each, counting the tie-breaks "
        "as one and Qualifier 1 beside the Eliminator, with the gaps."
    ) % {"length": duration_text(seconds), "duels": duels, "slot": duration_text(slot_seconds)}


def short_slots_text(slot_minutes: int, duel_seconds: float) -> str:
    return _(
        "Slots of %(slot)s are shorter than a typical duel (%(duel)s): the evening will run "
        "late. Plan at least %(least)s a slot."
    ) % {
        "slot": minutes_text(slot_minutes),
        "duel": duration_text(duel_seconds),
        "least": minutes_text(max(1, round(duel_seconds / 60))),
    }


def short_gap_text(earlier: str, later: str, minutes: int, duel_seconds: float) -> str:
    return _(
        "%(later)s starts %(minutes)s after %(earlier)s, less than a typical duel "
        "(%(duel)s): the evening will run late."
    ) % {
        "later": later,
        "minutes": minutes_text(minutes),
        "earlier": earlier,
        "duel": duration_text(duel_seconds),
    }


# What comes next (`selectors_public.coming`): a round or stage with no duel yet, and why.
PLAYOFFS_LABEL = gettext_lazy("Playoffs")
WAITING_NOTES = {
    "start": gettext_lazy("when the group phase starts"),
    "round": gettext_lazy("each group names its player for this round"),
    "tie_breaks": gettext_lazy("the next tie-break duels are being drawn"),
    "playoffs": gettext_lazy(
        "Qualifier 1 and the Eliminator, once the organisers start the playoffs"
    ),
    "stage": gettext_lazy("its players come from the duels before it"),
}


# Repeats, races and taken duels (issue "Trust on the night") ---------------------------------
# A form sent again, or a second referee's copy of a sheet already entered, is answered with
# what was recorded and by whom, and that nothing changed; a move that lost a race is told
# which move counted. One place for these words, like every other word about duels.


def person_label(user: Any) -> str:
    """A person in a referee's sentence: the name they chose, else their username;
    "the automation" for nobody (a time limit, a withdrawal's forfeit)."""
    return str(user) if user is not None else _("the automation")


def outcome_text(winner_name: str | None, finish: str = "") -> str:
    """ "Ada won", or "no winner (a replay is due)"."""
    if winner_name:
        return _("%(name)s won") % {"name": winner_name}
    return _("no winner (a replay is due)") if finish != "void" else _("no result (void)")


def already_recorded(title: str, who: str, at: str, outcome: str) -> str:
    """ "Group round 9 was already recorded by Olga at 21:14: Ada won. Nothing changed." """
    return _(
        "%(title)s was already recorded by %(who)s at %(at)s: %(outcome)s. Nothing changed."
    ) % {
        "title": title,
        "who": who,
        "at": at,
        "outcome": outcome,
    }


def already_entered(seq: int, move: str) -> str:
    """The same move form sent again (a retry after a lost answer): the stored outcome."""
    return _(
        "Already entered: move %(seq)s, %(move)s. Nothing changed: this is the duel as it is now."
    ) % {"seq": seq, "move": move.rstrip(".")}


def already_undone(seq: int, move: str) -> str:
    """The same undo sent again: nothing is undone twice."""
    return _(
        "Already undone: move %(seq)s, %(move)s. Nothing changed: this is the duel as it is now."
    ) % {"seq": seq, "move": move.rstrip(".")}


def move_counted_first(who: str, move: str) -> str:
    """A move that lost a race, told which one counted (after the conflict's own words)."""
    return _(
        "Someone else entered a move — here is the current state. %(who)s entered "
        "“%(move)s” first; your move was not entered."
    ) % {"who": who, "move": move.rstrip(".")}


def page_out_of_date() -> str:
    """A form that guards a write came without what it was drawn for (a revision, the
    tournament's version): refused, nothing changed."""
    return str(PAGE_OUT_OF_DATE)


def clock_time(at: datetime) -> str:
    """A time of the night as the venue reads it, in the reader's way: "21:14", "9:14 ptg"
    (`at` already in the venue's zone)."""
    return date_format(at, "TIME_FORMAT")


def paper_moves_since(title: str) -> str:
    """A duel's paper sheet drawn before moves were entered on the console."""
    return _(
        "%(title)s has moves entered on the console since this page was drawn: nothing was "
        "recorded. Finish it there."
    ) % {"title": title}


def paper_started_on_console() -> str:
    return _(
        "This duel has started on the console: finish it there (an adjudication with a "
        "reason is one of its endings)."
    )


def paper_duel_not_here() -> str:
    return _("That duel is not in this tournament.")


def paper_duel_not_of_round(number: int) -> str:
    return _("That duel is not group round %(number)s's: reload the page.") % {"number": number}


def not_open_words(title: str, status_label: str) -> str:
    """A sheet for a round or a duel that is no longer open (not played, voided)."""
    return _("%(title)s is %(status)s: nothing was recorded. Reload the page.") % {
        "title": title,
        "status": status_label.lower(),
    }


def ruling_stale() -> str:
    return _(
        "The tournament changed since this preview was drawn: nothing was recorded. "
        "Show what will be recomputed again, then record the ruling."
    )


def ruling_already_recorded(title: str, who: str, at: str, ruling: str) -> str:
    return _(
        "%(title)s: this ruling was already recorded by %(who)s at %(at)s (%(ruling)s). "
        "Nothing changed."
    ) % {"title": title, "who": who, "at": at, "ruling": ruling}


def duel_taken_words(who: str, at: str) -> str:
    """What the referee whose duel was taken reads on its console."""
    return _(
        "%(who)s took this duel from you at %(at)s: your console follows along, read-only."
    ) % {
        "who": who,
        "at": at,
    }


def take_needs_confirm(title: str, previous: str) -> str:
    return _(
        "%(title)s is running with %(previous)s as its referee: tick the confirmation to take "
        "it from them (their console turns read-only and says who took it)."
    ) % {"title": title, "previous": previous}


# Confirmations (issue "Trust on the night") ------------------------------------------------

CONFIRM_OUT_OF_DATE = gettext_lazy(
    "This page is out of date: look again, then confirm. Nothing was changed."
)


def removed_text(name: str) -> str:
    return _("%(name)s is removed.") % {"name": name}


def already_removed(name: str) -> str:
    return _("%(name)s was already removed: nothing changed.") % {"name": name}


def removal_stale(name: str, account: str) -> str:
    """The entry's account changed between the confirmation and the press."""
    if account:
        return _(
            "%(name)s's entry changed since you were asked (it is linked to %(account)s now): "
            "check again what removing %(name)s does. Nothing was changed."
        ) % {"name": name, "account": account}
    return _(
        "%(name)s's entry changed since you were asked (it is linked to no account now): "
        "check again what removing %(name)s does. Nothing was changed."
    ) % {"name": name}


# Printed sheets: a tick per person whose link is replaced, none by default.
TICK_PLAYERS = gettext_lazy(
    "Tick whose links to replace: a link already handed out keeps working unless you tick it."
)
SHEETS_ALREADY_REPLACED = gettext_lazy(
    "The ticked links were already replaced by a newer sheet: nothing changed."
)
CLAIM_LINK_REPLACED = gettext_lazy(
    "This claim link was replaced by a newer sheet: use the link on the newest sheet, or ask "
    "the organiser for it."
)


def not_active_text(name: str) -> str:
    return _("%(name)s is not active in this tournament.") % {"name": name}


PLAYOFFS_STARTED = gettext_lazy(
    "The playoffs have started: the bracket is announced, and group-phase and tie-break "
    "results are frozen."
)


def no_shows_question(count: int, *, removes: bool) -> str:
    """The confirmation's heading: "Withdraw this no-show?", "Remove these 3 no-shows?"."""
    if removes:
        return ngettext("Remove this no-show?", "Remove these %(n)d no-shows?", count) % {
            "n": count
        }
    return ngettext("Withdraw this no-show?", "Withdraw these %(n)d no-shows?", count) % {
        "n": count
    }


def sheets_ready(count: int, noun: str) -> str:
    """The printed sheets' status line: "1 sheet ready: … The earlier link of this referee no
    longer works. This link is shown only now." (`noun`: "player" or "referee")."""
    sheets = ngettext("%(n)d sheet ready", "%(n)d sheets ready", count) % {"n": count}
    if noun == "referee":
        earlier = ngettext(
            "The earlier link of this referee no longer works. This link is shown only now.",
            "The earlier links of these %(n)d referees no longer work. These links are shown "
            "only now.",
            count,
        ) % {"n": count}
    else:
        earlier = ngettext(
            "The earlier link of this player no longer works. This link is shown only now.",
            "The earlier links of these %(n)d players no longer work. These links are shown "
            "only now.",
            count,
        ) % {"n": count}
    return _("%(sheets)s: print this page (Ctrl+P). %(earlier)s") % {
        "sheets": sheets,
        "earlier": earlier,
    }


def no_shows_done(names: list[str], *, removed: bool) -> str:
    """ "2 no-shows removed: Oli, Uma." """
    values = {"n": len(names), "names": ", ".join(names)}
    if removed:
        return (
            ngettext(
                "%(n)s no-show removed: %(names)s.",
                "%(n)s no-shows removed: %(names)s.",
                len(names),
            )
            % values
        )
    return (
        ngettext(
            "%(n)s no-show withdrawn: %(names)s.",
            "%(n)s no-shows withdrawn: %(names)s.",
            len(names),
        )
        % values
    )


# Why an undo or a correction is no longer possible (services ask; these are their words) ----


def withdrawal_final(name: str) -> str:
    return _("%(name)s's withdrawal is final now (no re-entry).") % {"name": name}


def withdrawal_undo_blocker(name: str, why: str, *, detail: str = "") -> str:
    """Why `name`'s withdrawal cannot be undone: `why` is "undone", "eliminated",
    "cancelled", "later" (someone did something else: `detail` names the action), "moved"
    (a duel moved on: `detail` is its title) or "active"."""
    values = {"name": name, "final": withdrawal_final(name), "detail": detail}
    if why == "undone":
        return _("%(name)s's withdrawal was already undone: nothing changed.") % values
    if why == "eliminated":
        return (
            _(
                "%(name)s's withdrawal eliminated a group: an elimination cannot be undone. "
                "%(final)s"
            )
            % values
        )
    if why == "cancelled":
        return _("The tournament is cancelled. %(final)s") % values
    if why == "later":
        values["detail"] = detail.lower()
        return _("Since the withdrawal, someone did something else (%(detail)s). %(final)s") % (
            values
        )
    if why == "moved":
        return _("Since the withdrawal, %(detail)s has moved on. %(final)s") % values
    return _("%(name)s is not withdrawn now.") % values


def check_in_undo_blocker(name: str, why: str) -> str:
    """Why `name`'s check-in cannot be undone: "not_checked_in", or the phase it was for has
    started ("group_phase", "playoffs")."""
    if why == "not_checked_in":
        return _("%(name)s is not checked in: nothing changed.") % {"name": name}
    if why == "group_phase":
        return _(
            "%(name)s was checked in for the group phase, which has started: the check-in stands."
        ) % {"name": name}
    return _(
        "%(name)s was checked in for the playoffs, which have started: the check-in stands."
    ) % {"name": name}


NO_SHOWS_NOBODY = gettext_lazy("Everybody is checked in: nobody to withdraw.")
NO_SHOWS_TOO_LATE = gettext_lazy(
    "No-shows are withdrawn before the group phase or the playoffs start."
)
NO_SHOWS_BOTH_GROUPS = gettext_lazy(
    "Withdrawing all of them at once would leave both groups below 5: withdraw them one at a "
    "time from the players page, or check some in."
)

FROZEN_PLAYOFF = gettext_lazy("Playoff results are corrected while the playoffs run or after.")
FROZEN_CANCELLED = gettext_lazy("The tournament is cancelled: its results stand as they are.")
FROZEN_BY_PLAYOFFS = gettext_lazy(
    "Group-phase and tie-break results froze when the playoffs started: this result can no "
    "longer be corrected or voided."
)

VACANT_SEAT = gettext_lazy("a vacant seat")


def pairing_text(first: str, second: str) -> str:
    """ "Ada v Bao": a playoff duel the confirmation announces."""
    # Translators: two players facing each other in a duel, "Ada v Bao".
    return _("%(first)s v %(second)s") % {"first": first, "second": second}


# The overview's checklist before the group phase (issue 26): what is in place, as it is.


def players_text(count: int) -> str:
    """ "1 player", "0 players"."""
    return ngettext("%(n)d player", "%(n)d players", count) % {"n": count}


def group_sizes_text(sizes: list[tuple[str, int]]) -> str:
    """ "Group 1: 0 players, Group 2: 1 player" (it read "Group 1 0, Group 2 0")."""
    return ", ".join(f"{name}: {players_text(n)}" for name, n in sizes) or _("none yet")


def staff_text(referees: list[str], co_organisers: list[str], waiting_links: int) -> str:
    """Who helps run it, however they joined (by username or by an invitation link)."""
    if not referees and not co_organisers:
        text = _("none yet: add them by username, or give each an invitation link")
    else:
        text = _("referees: %(referees)s; co-organisers: %(co_organisers)s") % {
            "referees": _and(referees) or _("none yet"),
            "co_organisers": _and(co_organisers) or _("none yet"),
        }
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
        return _(
            "not set (optional: start times tell the players and the big screen when each "
            "round starts)."
        )
    key, first = min(starts.items(), key=lambda kv: kv[1])
    return ngettext(
        "%(n)d start time set; first, %(part)s at %(when)s (%(zone)s).",
        "%(n)d start times set; first, %(part)s at %(when)s (%(zone)s).",
        len(starts),
    ) % {
        "n": len(starts),
        "part": start_key_label(key),
        "when": date_format(first, "j M H:i"),
        "zone": zone,
    }


def check_in_text(checked_in: int, active: int) -> str:
    """ "3 of 12 players checked in." """
    if not checked_in:
        return ngettext(
            "nobody checked in yet (0 of %(n)d player).",
            "nobody checked in yet (0 of %(n)d players).",
            active,
        ) % {"n": active}
    return ngettext(
        "%(checked)d of %(n)d player checked in.",
        "%(checked)d of %(n)d players checked in.",
        active,
    ) % {"checked": checked_in, "n": active}


OPEN_REGISTRATION_HELP = gettext_lazy(
    "Opening registration only tells the public page that registration is open; players are "
    "added, and the group phase starts, without it."
)


# The e-mails a withdrawal's undo sends (tasks.notify_withdrawal_undone).


def withdrawal_undone_mail(tournament: str, who: str, title: str, link: str) -> tuple[str, str]:
    """To the referee and players of a duel the withdrawal had forfeited: (subject, body);
    `link` is the duel's console for its referee, the player's duels for a player."""
    values = {"tournament": tournament, "who": who, "title": title, "link": link}
    return (
        _("%(tournament)s: %(who)s's withdrawal was undone") % values,
        _(
            "%(who)s's withdrawal was a mistake and has been undone: the forfeit of %(title)s "
            "is taken back, and the duel goes on where it stood.\n\n%(title)s: %(link)s\n"
        )
        % values,
    )


def duel_off_mail(tournament: str, player: str, who: str, title: str, me: str) -> tuple[str, str]:
    """To a player named for a duel the automation created after the withdrawal."""
    values = {"tournament": tournament, "player": player, "who": who, "title": title, "me": me}
    return (
        _("%(tournament)s: %(title)s is off") % values,
        _(
            "%(player)s, %(who)s's withdrawal was undone, so %(title)s is no longer called "
            "for: you do not play it.\n\nYour duels, live: %(me)s\n"
        )
        % values,
    )


# Reasons the automation gives in its own words (stored as they are, in English: a person's
# typed reason sits in the same field and is shown as typed).
SYSTEM_REASONS = {
    "Did not check in": gettext_lazy("Did not check in"),
    "played on paper": pgettext_lazy("a reason", "played on paper"),
}


def reason_text(reason: str) -> str:
    """A stored reason in the reader's language when the automation gave it, else as typed."""
    known = SYSTEM_REASONS.get(reason)
    return str(known) if known is not None else reason


# The referee's path (issue 26) -----------------------------------------------------------------
# A referee's desk (`selectors_referee`): their duel, or what they wait for; the breadcrumb of
# the staff pages; the paper form's winners, by name once the players are known.

STAFF_CRUMB_ORGANISER = gettext_lazy("Organiser")
STAFF_CRUMB_REFEREE = gettext_lazy("Referee")
DESK_NONE_ASSIGNED = gettext_lazy("No duel is assigned to you yet.")
DESK_NO_OTHER = gettext_lazy("No other duel is assigned to you yet.")
DESK_NOTHING_WAITING = gettext_lazy("Nothing is waiting for a referee now.")
DESK_ALL_TAKEN = gettext_lazy("Nothing is waiting for you now: every open duel has its referee.")
DESK_OVER = gettext_lazy("This tournament is over: no duel is left to referee.")


def staff_crumb(organiser: bool) -> str:
    """The last word of a staff page's breadcrumb: whose pages these are."""
    return str(STAFF_CRUMB_ORGANISER if organiser else STAFF_CRUMB_REFEREE)


def desk_waiting(label: str, note: str) -> str:
    """What a referee with no duel waits for: "Next: Group round 5 — each group names its
    player for this round." """
    if note:
        return _("Next: %(label)s — %(note)s.") % {"label": label, "note": note}
    return _("Next: %(label)s.") % {"label": label}


def paper_winner(name: str) -> str:
    """A paper sheet's winner, once the players are known: "Ada won"."""
    return _("%(name)s won") % {"name": name}


def paper_winner_chosen(group: str) -> str:
    """A paper sheet's winner while the players are chosen on the same form."""
    return _("The player chosen for %(group)s won") % {"group": group}


# The standings' table by what it lists (selectors_public/standings.py): the group phase's
# standings, the playoffs so far (the qualifiers by the places still open to them), the end.
TABLE_HEADINGS = {
    "standings": gettext_lazy("Standings"),
    "playoffs": gettext_lazy("Playoff table"),
    "final": gettext_lazy("Final table"),
}
TABLE_CAPTIONS = {
    "standings": gettext_lazy(
        "Individual standings of the group phase, by points. “T3”: tied for third; the order "
        "inside a tie is alphabetical and means nothing."
    ),
    "playoffs": gettext_lazy(
        "Playoff table: the four qualifiers first, in the order of the places still open to "
        "them (“1–2”: playing for 1st or 2nd), then everyone else by group-phase rank."
    ),
    "final": gettext_lazy("Final table: placings 1–4, then everyone else by group-phase rank."),
}


def table_heading(kind: str) -> str:
    """ "Standings", "Playoff table" (while the playoffs run) or "Final table"."""
    return str(TABLE_HEADINGS[kind])


def table_caption(kind: str) -> str:
    return str(TABLE_CAPTIONS[kind])


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
        return _("%(round)s: %(name)s won it") % {"round": round_label, "name": winner}
    if tie is not None:
        return _("%(round)s: a tie on %(tie)s") % {"round": round_label, "tie": tie}
    return _("%(round)s: both were blocked, no one won it") % {"round": round_label}


# The format rules' verdicts (tournaments.format: a stable code, its numbers and ids in
# `params`; its own `message` is English for logs and tests) in the reader's language, with
# names for ids.


def rule_text(
    code: str,
    params: Mapping[str, Any],
    *,
    names: Mapping[int, str] | None = None,
    groups: Mapping[Any, str] | None = None,
    fallback: str = "",
) -> str:
    """A `fmt.Problem`'s or `fmt.ChangeVerdict`'s words: "Reds has 4 members; it needs at
    least 5." (`names`: entrants by id, `groups`: group names by id); `fallback` (the
    format's English message) for a code this does not know."""
    names, groups = names or {}, groups or {}

    def people(ids: Any) -> str:
        return _and([names.get(_int(pk) or 0, str(pk)) for pk in ids or ()])

    def group_name(pk: Any) -> str:
        return groups.get(pk) or groups.get(_int(pk)) or groups.get(str(pk)) or str(pk)

    values = {k: v for k, v in params.items() if isinstance(v, int)}
    size = values.get("size", 0)
    many = len(params.get("players") or ())
    if "players" in params:
        values["players"] = people(params["players"])
    if "group" in params:
        values["group"] = group_name(params["group"])
    if "groups" in params:
        values["groups"] = _and([group_name(g) for g in params["groups"]])
    texts = {
        "unknown_player": lambda: ngettext(
            "%(players)s is not in the group phase and cannot join a group.",
            "%(players)s are not in the group phase and cannot join a group.",
            many,
        ),
        "above_limit": lambda: _(
            "A group may have at most %(max)s members; this change leaves %(size)s in one group."
        ),
        "both_below": lambda: _(
            "This change leaves both groups below %(min)s members (%(first)s and %(second)s)."
        ),
        "elimination": lambda: ngettext(
            "This change leaves a group with %(size)s member: once confirmed, that group is "
            "eliminated at once and its members are out of the tournament.",
            "This change leaves a group with %(size)s members: once confirmed, that group is "
            "eliminated at once and its members are out of the tournament.",
            size,
        ),
        "ok": lambda: _("The change keeps both groups within the limits."),
        "group_too_small": lambda: ngettext(
            "%(group)s has %(size)s member; it needs at least %(min)s.",
            "%(group)s has %(size)s members; it needs at least %(min)s.",
            size,
        ),
        "group_too_large": lambda: ngettext(
            "%(group)s has %(size)s member; it may have at most %(max)s.",
            "%(group)s has %(size)s members; it may have at most %(max)s.",
            size,
        ),
        "entrant_count": lambda: _(
            "The group phase needs %(min)s–%(max)s active entrants; there are %(count)s."
        ),
        "not_in_group": lambda: ngettext(
            "%(players)s is in no group.", "%(players)s are in no group.", many
        ),
        "inactive_member": lambda: ngettext(
            "%(players)s is in a group but not active.",
            "%(players)s are in a group but not active.",
            many,
        ),
    }
    if code == "unknown_group":
        text = (
            ngettext(
                "%(groups)s is not in this tournament.",
                "%(groups)s are not in this tournament.",
                len(params["groups"] or ()),
            )
            if "groups" in params
            else ngettext(
                "%(players)s is in an unknown group.", "%(players)s are in an unknown group.", many
            )
        )
    elif code in texts:
        text = texts[code]()
    else:
        return fallback
    try:
        return text % values
    except (KeyError, TypeError, ValueError):
        return fallback
