"""A duel's own vocabulary, in the words people read: how a duel ends, what a pending
decision asks and what each choice does. The console, the replay, the practice table and
every tournament page (through tournaments/presentation.py) take their words from here.

The engine (games/) keeps its stable keys and imports nothing of Django; these words are
translated here, at the edge, in the reader's language. The card names (+2, BLOCK, …) stay
as printed on the cards (docs/translating.md's glossary)."""

import json
import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.split_uno.constants import CARD_LABELS

# The engine's rule sets, variants and colours by their keys, as the practice and casual
# tables' pages name them (one place for both: they may not import each other).
RULESETS = {
    # Translators: the name of a set of Split UNO rules.
    "arbiter": pgettext_lazy("ruleset", "arbiter"),
    # Translators: the name of a set of Split UNO rules (the tournament's own).
    "tournament": pgettext_lazy("ruleset", "tournament"),
    # Translators: the name of a set of Split UNO rules (as played on paper).
    "paper": pgettext_lazy("ruleset", "paper"),
    # Translators: the name of a set of Split UNO rules (the official ones).
    "official": pgettext_lazy("ruleset", "official"),
}
VARIANTS = {
    # Translators: a Split UNO variant: fewer cards, quicker games.
    "speed": pgettext_lazy("variant", "speed"),
    # Translators: a Split UNO variant: no challenge, no counters.
    "hardcore": pgettext_lazy("variant", "hardcore"),
    # Translators: a Split UNO variant: seats play in teams.
    "team": pgettext_lazy("variant", "team"),
}
#: Split UNO's colours (games.split_uno.COLORS), named by a COLOR CHANGE.
COLORS = {
    "red": pgettext_lazy("colour", "red"),
    "yellow": pgettext_lazy("colour", "yellow"),
    "green": pgettext_lazy("colour", "green"),
    "blue": pgettext_lazy("colour", "blue"),
}


def ruleset_label(key: str) -> str:
    return str(RULESETS[key]) if key in RULESETS else key


def variant_label(key: str) -> str:
    return str(VARIANTS[key]) if key in VARIANTS else key


def color_label(key: str) -> str:
    return str(COLORS[key]) if key in COLORS else key


# How a duel ended (the record's `finish`, RULES.md section 8).
FINISH = {
    "shed_all": gettext_lazy("shed all cards"),
    "forfeit": gettext_lazy("forfeit"),
    "dare_refused": gettext_lazy("a refused dare"),
    "time_limit": gettext_lazy("time limit"),
    "adjudicated": gettext_lazy("adjudicated"),
    "double_zero": gettext_lazy("double zero (both at 0 number cards)"),
}


def finish_label(finish: str | None) -> str:
    """ "shed all cards" for "shed_all"; an unknown key still reads as words."""
    if not finish:
        return ""
    label = FINISH.get(finish)
    return str(label) if label is not None else finish.replace("_", " ")


def duel_round(number: int) -> str:
    """A duel's own round, "Duel round 12": never to be read as the tournament's round, which
    tournaments/presentation.py names "Group round 2"."""
    return _("Duel round %(number)s") % {"number": number}


def decision_text(kind: str, me: str, other: str, card: str = "card") -> str:
    """What a pending decision asks, with both names (`card`: the card it answers)."""
    if card == "card":
        card = pgettext("a playing card", "card")
    values = {"me": me, "other": other, "card": card}
    if kind == "counter":
        # Translators: %(card)s is a card name as printed (+2, +4) or the word "card".
        return _("%(me)s may counter %(other)s's %(card)s") % values
    if kind == "block_counter":
        return _("%(me)s may counter %(other)s's BLOCK") % values
    if kind == "truth":
        return _("%(me)s answers %(other)s's TRUTH or refuses") % values
    if kind == "dare":
        return _("%(me)s completes %(other)s's DARE or refuses") % values
    if kind == "penalty":
        return _("%(me)s chooses the penalty for the refusal") % values
    if kind == "bonus":
        return _("%(me)s won two rounds in a row: choose the streak bonus") % values
    if kind == "challenge":
        return _("%(other)s is at 0 number cards: does %(me)s challenge?") % values
    return kind.replace("_", " ")


def choice_label(kind: str, choice: str, me: str, other: str) -> str:
    """What one choice of a pending decision does, with both names."""
    if choice == "pass":
        return _("No challenge") if kind == "challenge" else _("No counter")
    if kind in ("counter", "challenge", "block_counter"):
        card = CARD_LABELS.get(choice, choice)
        if kind == "challenge":
            # Translators: %(card)s is a card name as printed: +2, +4, BLOCK.
            return _("Challenge with %(card)s") % {"card": card}
        # Translators: %(card)s is a card name as printed: +2, +4, BLOCK.
        return _("Counter with %(card)s") % {"card": card}
    values = {"me": me, "other": other}
    if choice == "action_card":
        return _("%(me)s draws 1 action card") % values
    if choice == "opponents_draw":
        return _("%(other)s draws 2 number cards") % values
    if choice == "actions":
        return _("%(me)s draws 2 action cards, %(other)s 2 number cards") % values
    if choice == "five":
        return _("%(other)s draws 5 number cards") % values
    if choice == "answer":
        return pgettext("a truth", "Answered")
    if choice == "complete":
        return pgettext("a dare", "Completed")
    if choice == "refuse":
        return pgettext("a truth or a dare", "Refused")
    return choice


# A form that guards an applying write came without what it was drawn for (a revision, a
# version): nothing is applied on a state the page never named.
PAGE_OUT_OF_DATE = gettext_lazy("This page is out of date: reload it.")


def outcome_headline(winner: str | None, finish: str | None) -> str:
    """A finished duel's headline: "Ada wins — shed all cards", "Drawn — double zero (…)"."""
    how = finish_label(finish)
    if winner:
        return _("%(name)s wins — %(how)s") % {"name": winner, "how": how}
    return _("Drawn — %(how)s") % {"how": how}


# What a pending decision is, named ("Waiting for Ada: a counter"), by the engine's key.
DECISIONS = {
    "counter": gettext_lazy("a counter"),
    "block_counter": gettext_lazy("a counter to BLOCK"),
    "truth": gettext_lazy("a TRUTH"),
    "dare": gettext_lazy("a DARE"),
    "penalty": gettext_lazy("the penalty for a refusal"),
    "bonus": gettext_lazy("the streak bonus"),
    "challenge": gettext_lazy("a challenge"),
}


def decision_name(kind: str) -> str:
    label = DECISIONS.get(kind)
    return str(label) if label is not None else kind.replace("_", " ")


# Why a duel was closed without result (`Duel.closed_reason`): the automation's reasons are
# stored as a key and its parameters, in JSON text, so that each reader reads them in their own
# language; any other text is what a person typed (or an old row's sentence no key matches),
# shown as is.
CLOSED_REASONS = {
    "group_eliminated": gettext_lazy(
        "%(group)s was eliminated after round %(round)s: the group phase is over and this duel "
        "has no result."
    ),
    "playoffs_froze": gettext_lazy(
        "Group results froze when the playoffs started: this duel has no result."
    ),
    "group_phase_over": gettext_lazy("The group phase is over: this round's duel has no result."),
    "cancelled": gettext_lazy("The tournament was cancelled: this duel has no result."),
    # ONLINE.md 6: an online duel neither player was ready for, and nobody else could rule.
    "nobody_ready": gettext_lazy(
        "Neither player was ready and nobody else could rule: this duel has no result."
    ),
    # ONLINE.md 6: an online duel both players abandoned (the mark while it waits for a
    # ruling, and why it was voided).
    "both_abandoned": gettext_lazy("Both players abandoned this duel: it has no result."),
    # An online duel voided by an organiser's ruling (neither ready, or both abandoned).
    "ruled_void": gettext_lazy("An organiser voided this duel: it has no result."),
}
# The English sentences these keys were stored as before (and that callers still pass): each
# read back as its key and parameters. The data migration
# duels/migrations/0013_closed_reasons_to_keys.py keeps its own copy.
CLOSED_SENTENCES = (
    (
        "group_eliminated",
        r"(?P<group>.+) was eliminated after round (?P<round>\d+): the group phase is over and "
        r"this duel has no result\.",
    ),
    ("playoffs_froze", r"Group results froze when the playoffs started: this duel has no result\."),
    ("group_phase_over", r"The group phase is over: this round's duel has no result\."),
    ("cancelled", r"The tournament was cancelled: this duel has no result\."),
)


def closed_why_of(sentence: str) -> dict[str, str] | None:
    """The key and parameters of a known English closing sentence, or None for other text."""
    for key, pattern in CLOSED_SENTENCES:
        found = re.fullmatch(pattern, sentence.strip())
        if found:
            return {"key": key, **found.groupdict()}
    return None


def closed_reason_stored(reason: str | Mapping[str, Any]) -> str:
    """What `Duel.closed_reason` keeps for `reason`: a key with its parameters
    (``{"key": "cancelled"}``, or a known English sentence read as its key) as JSON text;
    any other text as typed (at most 200 characters)."""
    why = dict(reason) if isinstance(reason, Mapping) else closed_why_of(reason)
    if why and why.get("key") in CLOSED_REASONS:
        stored = json.dumps(why, ensure_ascii=False, separators=(", ", ": "))
        if len(stored) <= 200:
            return stored
        return closed_reason_text(stored)[:200]  # a name too long to keep: the words, in English
    return str(reason)[:200]


def closed_why(stored: str) -> dict[str, Any] | None:
    """The key and parameters a stored reason holds, or None for typed text."""
    if not stored.startswith("{"):
        return None
    try:
        why = json.loads(stored)
    except ValueError:
        return None
    return why if isinstance(why, dict) and why.get("key") in CLOSED_REASONS else None


def closed_reason_text(stored: str) -> str:
    """Why a duel was closed, in the reader's language: its key's sentence with its
    parameters, else the text as typed."""
    why = closed_why(stored or "")
    if why is None:
        return stored or ""
    params = {k: v for k, v in why.items() if k != "key"}
    try:
        return str(CLOSED_REASONS[why["key"]]) % params
    except (KeyError, TypeError, ValueError):
        return stored
