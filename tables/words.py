"""What a casual table says about itself that a two-seat duel never needs: several seats,
teams, what a game of three to six seats is waiting for. The duel's own words (how a game
ends, what a decision asks, what each choice does) stay in duels/words.py and are used as
they are.

Translation (issue 29): the constants are English source strings marked with
``gettext_noop`` and translated where they are raised or shown (``gettext(CONSTANT)``); the
functions build their sentence in the request's language. The engine's keys a table page
shows (rule sets, variants, colours) are translated here from their keys (the same source
strings as practice/words.py's: the layers keep tables from importing practice)."""

from datetime import datetime

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_noop, ngettext

from duels import words as duel_words

RULESETS, VARIANTS, COLORS = duel_words.RULESETS, duel_words.VARIANTS, duel_words.COLORS
ruleset_label, variant_label = duel_words.ruleset_label, duel_words.variant_label
color_label = duel_words.color_label


def rules_words(ruleset: str) -> str:
    """ "official rules"."""
    return gettext("%(ruleset)s rules") % {"ruleset": ruleset_label(ruleset)}


def versus(names: list[str]) -> str:
    """ "Ann v Bo v Cy": a table's title, its seats' names."""
    title = names[0] if names else ""
    for name in names[1:]:
        # Translators: a casual table's title between its seats' names: "Ann v Bo" (versus).
        title = gettext("%(first)s v %(second)s") % {"first": title, "second": name}
    return title


def listing(names: list[str]) -> str:
    """ "Ann", "Ann and Bo", "Ann, Bo and Cy"."""
    if len(names) <= 1:
        return "".join(names)
    # Translators: the last two of a list of names: "Ann, Bo and Cy".
    return gettext("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


#: How a moment is written on the table pages (the format of the tournament's invitations).
WHEN = "DATETIME_FORMAT"  # each language its own way (issue 29)


def keep_note(n: int) -> str:
    """Shown on the page that opens tables (and in docs/tables.md)."""
    return ngettext(
        "You keep your latest table: opening another deletes your oldest.",
        "You keep your latest %(n)s tables: opening another deletes your oldest.",
        n,
    ) % {"n": n}


#: A move from a page that no longer shows the table as it is: another referee moved first.
CONFLICT = gettext_noop("Someone else entered a move — here is the current state.")
#: Anyone but the owner and the co-referees (answered as a 404: the table is none of theirs).
NOT_YOURS = gettext_noop("You do not referee this table.")
#: A move after the game's end (an undo still takes the ending back).
GAME_OVER = gettext_noop("This game is over: it takes no more moves.")
#: The same form sent twice (a double tap, a phone retrying): its first send was recorded.
ALREADY_RECORDED = gettext_noop("Already recorded: this move was entered once — nothing changed.")
ALREADY_UNDONE = gettext_noop("Already undone: that undo was entered once — nothing changed.")

#: A co-referee invitation that names nothing open: used, revoked, or never made.
INVITATION_GONE = gettext_noop("This invitation does not exist or is no longer valid.")

# The page that steps through a table's moves is its *record*, as a duel's is on the tournament
# pages (docs/public.md): "replay" there means only the rematch of a duel without a winner. The
# addresses and the code keep "replay" (`/tables/replay/<token>/`, `replay_token_hash`), so
# links already sent still work.
RECORD_LINK_REVOKED = gettext_noop("The record link is revoked: it shows nothing any more.")
RECORD_LINK_GONE = gettext_noop("This record link does not exist or was revoked.")
NO_RECORD_LINK = gettext_noop("This table has no record link.")
#: Anyone but a table's referees, or a table that is gone (404).
NO_SUCH_TABLE = gettext_noop("No such table.")


def invitation_expired(expires_at: datetime) -> str:
    when = date_format(timezone.localtime(expires_at), WHEN)
    return gettext("This invitation expired on %(when)s: ask the table's owner for a new link.") % {
        "when": when
    }


def finish_label(finish: str | None, seats: int) -> str:
    if finish == "double_zero" and seats > 2:
        return gettext("double zero (two sides at 0 number cards at once)")
    return duel_words.finish_label(finish)


def team_label(number: int, names: list[str]) -> str:
    # Translators: a team at a casual table: "Team 1 (Ann and Bo)".
    return gettext("Team %(number)s (%(names)s)") % {"number": number, "names": listing(names)}


def round_headline(number: int, revealing: list[str], blocked: list[str], seats: int) -> str:
    values = {"number": number}
    if not revealing:
        return gettext("Round %(number)s: nobody reveals — play the round with no cards") % values
    if seats == 2 and len(revealing) == 2:
        text = gettext("Round %(number)s: both reveal a number card") % values
    elif len(revealing) == seats:
        text = gettext("Round %(number)s: every seat reveals a number card") % values
    else:
        text = ngettext(
            "Round %(number)s: %(names)s reveals a card",
            "Round %(number)s: %(names)s reveal a card",
            len(revealing),
        ) % {**values, "names": listing(revealing)}
    if blocked:
        text = ngettext(
            "%(headline)s — %(names)s is blocked",
            "%(headline)s — %(names)s are blocked",
            len(blocked),
        ) % {"headline": text, "names": listing(blocked)}
    return text


def result_headline(winner: str | None, finish: str | None, seats: int) -> str:
    how = finish_label(finish, seats)
    if winner:
        return gettext("%(winner)s wins — %(how)s") % {"winner": winner, "how": how}
    return gettext("Drawn — %(how)s") % {"how": how}


def deck_note(pool: int, seats: int, cards: int) -> str:
    """RULES.md 11.1: said on the page whenever the table raised the number pool."""
    return gettext(
        "The usual number pool of 108 cannot deal %(cards)s cards to each of %(seats)s seats: "
        "this table plays with a pool of %(pool)s, so %(left)s stay in the deck after the deal."
    ) % {"cards": cards, "seats": seats, "pool": pool, "left": pool - cards * seats}


def table_line(ruleset: str, variants: list[str], seats: int) -> str:
    """ "official rules · speed, team · 4 seats", as a table's pages describe it."""
    parts = [rules_words(ruleset)]
    if variants:
        parts.append(", ".join(variant_label(v) for v in variants))
    parts.append(ngettext("%(n)s seat", "%(n)s seats", seats) % {"n": seats})
    return " · ".join(parts)
