"""What the practice pages say when a move is refused for the page it came from, not for the
rules, and the practice duel's own words: one place for the words the services, the pages and
their tests share.

Translation (issue 29): the constants stay English source strings (marked with
``gettext_noop``, so that the tests can compare them with an English page), and are translated
where a page shows them (``gettext(CONSTANT)``). The words the ``games/`` engines and the
table core's config carry (card labels of Trois and CPT-113, colour names, the decisions' keys,
the bots' stored names, CPT-113's groups) are translated here, at the edge, from their stable
keys: the engines never import Django."""

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext, pgettext, pgettext_lazy

from cardtable.words import listing
from duels import words as duel_words

#: The bot facing the person alone, as the result line names it.
THE_BOT = gettext_noop("The bot")

#: Someone else's table, or none (404: whose tables exist is not said).
NO_SUCH_DUEL = gettext_noop("No such practice duel.")
NO_SUCH_GAME = gettext_noop("No such game.")
#: A move from a page another tab has overtaken (the revision it carries is not the game's).
DUEL_MOVED_ON = gettext_noop("This duel moved on in another tab: here is the table as it is now.")
GAME_MOVED_ON = gettext_noop("This game moved on in another tab: here is the table as it is now.")
#: The same form sent again (a double tap, a phone retrying): its move was recorded the first
#: time, and nothing was played twice (the table core's idempotency key, issue 27).
ALREADY_RECORDED = gettext_noop(
    "This move was already recorded: nothing changed. Here is the table as it is now."
)
#: A stored game the code of today cannot play again (a bot's or a rule's code changed since its
#: moves were accepted: only the person's moves are stored; issue 27). It is kept, never a 500.
#: A move sent after a game's deadline (Trois's 25 minutes): the clock ended the game first.
TOO_LATE = gettext_noop("Time was up: the game ended before your move, which was not played.")
UNREPLAYABLE_TITLE = gettext_noop("This game cannot be replayed")
UNREPLAYABLE = gettext_noop(
    "This game was stored with only your moves, and the bots now play differently, so it can "
    "no longer be set out again. It stays in your list; start a new one to play on."
)
#: The same, in the list of a person's duels.
UNREPLAYABLE_LISTED = gettext_noop("cannot be replayed")
#: A move that carries no revision at all: it cannot be told from a repeat, so it is refused.
NO_REVISION = gettext_noop(
    "This move did not say which table it was played on, so nothing was played: "
    "here is the table as it is now."
)
#: A finished duel stored the old way (before issue 27): its page shows its result and log.
ARCHIVED = gettext_noop(
    "This duel was stored the old way: here are its result and what happened, as they were "
    "when it was converted."
)

# -- Split UNO's words at the edge ---------------------------------------------------------------

#: The rule sets, variants and colours by their keys: duels/words.py's.
RULESETS, VARIANTS, COLORS = duel_words.RULESETS, duel_words.VARIANTS, duel_words.COLORS
ruleset_label, variant_label = duel_words.ruleset_label, duel_words.variant_label
color_label = duel_words.color_label


def rules_words(ruleset: str) -> str:
    """ "tournament rules"."""
    return gettext("%(ruleset)s rules") % {"ruleset": ruleset_label(ruleset)}


def bot_label(seat: str, seats: int) -> str:
    """The bot at ``seat`` as a page names it: "Bot" facing the person alone, else "Bot B"
    (the stored name, practice.game.bot_name, stays English for the log)."""
    if seats == 2:
        # Translators: the one bot facing the person in a practice duel.
        return pgettext("practice opponent", "Bot")
    # Translators: a bot at a practice table, named by its seat letter (B to F).
    return gettext("Bot %(seat)s") % {"seat": seat}


#: The bots' levels a person may choose (the engine's bots by their keys).
BOT_LEVELS = {
    # Translators: the bots' level: a bot that plays legal moves at random.
    "random": pgettext_lazy("bot level", "easy (random moves)"),
    # Translators: the bots' level: the engine's rule-of-thumb bot.
    "heuristic": pgettext_lazy("bot level", "normal (heuristic)"),
    # Translators: the bots' level: a bot that searches the possible deals before each move.
    "expert": pgettext_lazy("bot level", "hard (expert, thinks for up to a second)"),
}


#: The same, in a few letters (the table's meta line).
BOT_LEVELS_SHORT = {
    # Translators: the bots' level, short: random moves.
    "random": pgettext_lazy("bot level, short", "easy"),
    # Translators: the bots' level, short: the heuristic bot.
    "heuristic": pgettext_lazy("bot level, short", "normal"),
    # Translators: the bots' level, short: the expert bot.
    "expert": pgettext_lazy("bot level, short", "hard"),
}


def bot_level_label(key: str, short: bool = False) -> str:
    return str((BOT_LEVELS_SHORT if short else BOT_LEVELS).get(key, key))


def round_heading(number: int) -> str:
    # Translators: the heading of the last number round played, on the card table.
    return gettext("Round %(n)s") % {"n": number}


def seats_words(seats: int) -> str:
    return ngettext("%(n)s seat", "%(n)s seats", seats) % {"n": seats}


# -- Trois and CPT-113's words at the edge -------------------------------------------------------

#: Trois's seven colours (games.trois.cards.COLOURS), by the letter the cards carry.
TROIS_COLOURS = {
    "B": pgettext_lazy("colour", "blue"),
    "G": pgettext_lazy("colour", "green"),
    "Y": pgettext_lazy("colour", "yellow"),
    "P": pgettext_lazy("colour", "purple"),
    "O": pgettext_lazy("colour", "orange"),
    "R": pgettext_lazy("colour", "red"),
    "M": pgettext_lazy("colour", "magenta"),
}
#: CPT-113's four colours (games.cpt113.cards.COLOURS).
CPT_COLOURS = {
    "R": pgettext_lazy("colour", "red"),
    "Y": pgettext_lazy("colour", "yellow"),
    "G": pgettext_lazy("colour", "green"),
    "B": pgettext_lazy("colour", "blue"),
}


def trois_colour(letter: str) -> str:
    return str(TROIS_COLOURS[letter])


def cpt_colour(letter: str) -> str:
    return str(CPT_COLOURS[letter])


def trois_label(card: str) -> str:
    """``B7`` reads "blue 7"; a wildcard reads "the +2 wildcard" (games.trois.cards.label)."""
    if card in ("+2", "+4"):
        return gettext("the %(card)s wildcard") % {"card": card}
    # Translators: a Trois card: its colour, then its number ("blue 7").
    return gettext("%(colour)s %(number)s") % {"colour": trois_colour(card[0]), "number": card[1]}


def cpt_label(card: str) -> str:
    """``R3`` reads "red 3", ``BS`` "blue skip", ``W4`` "wild draw four"
    (games.cpt113.cards.label)."""
    if card == "W":
        # Translators: a CPT-113 card (a classic UNO wild).
        return gettext("wild")
    if card == "W4":
        # Translators: a CPT-113 card (a classic UNO wild draw four).
        return gettext("wild draw four")
    values = {"colour": cpt_colour(card[0])}
    kind = card[1]
    if kind.isdigit():
        return gettext("%(colour)s %(number)s") % {**values, "number": kind}
    if kind == "S":
        # Translators: a CPT-113 card: a skip of that colour ("blue skip").
        return gettext("%(colour)s skip") % values
    if kind == "R":
        # Translators: a CPT-113 card: a reverse of that colour ("blue reverse").
        return gettext("%(colour)s reverse") % values
    # Translators: a CPT-113 card: a draw two of that colour ("blue draw two").
    return gettext("%(colour)s draw two") % values


def numbered_bot(number: int) -> str:
    """Trois's bots as the page names them (stored as "Bot 1", …: the log's names)."""
    # Translators: one of the three bots of Trois: "Bot 1".
    return gettext("Bot %(n)s") % {"n": number}


def partner() -> str:
    """CPT-113's bot partner (stored as "Partner": the log's name)."""
    # Translators: the bot sharing the person's hand in CPT-113 (a name).
    return pgettext("bot partner", "Partner")


def group_name(letter: str) -> str:
    """ "Group B" (games.cpt113.state.group_name)."""
    # Translators: a group of two in CPT-113, named by its letter.
    return gettext("Group %(letter)s") % {"letter": letter}


def direction_label(direction: str) -> str:
    if direction == "clockwise":
        return gettext("clockwise")
    if direction == "anticlockwise":
        return gettext("anticlockwise")
    return direction


def game_result(winners: list[int], names: list[str]) -> str:
    """The headline of a finished Trois or CPT-113 game (seat or group 0 is the person's)."""
    if winners == [0]:
        return gettext("You win!")
    if 0 in winners:
        return gettext("A tie — you share the win.")
    if len(winners) == 1:
        return gettext("%(name)s wins.") % {"name": names[winners[0]]}
    return gettext("A tie between %(names)s.") % {"names": listing([names[w] for w in winners])}


def seat_names(players: Iterable[Any], letters: Iterable[str]) -> dict[str, str]:
    """Each seat of an online table by its person's username, or as a bot: the card table's
    and the whole deal's names (``players``: the table's ``OnlinePlayer`` rows)."""
    persons = {p.seat: p.user.get_username() for p in players if p.seat}
    return {letter: persons.get(letter) or bot_label(letter, 3) for letter in letters}
