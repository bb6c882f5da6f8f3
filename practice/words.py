"""What the practice pages say when a move is refused for the page it came from, not for the
rules, and the practice duel's own words: one place for the words the services, the pages and
their tests share.

Translation (issue 29): the constants stay English source strings (marked with
``gettext_noop``, so that the tests can compare them with an English page), and are translated
where a page shows them (``gettext(CONSTANT)``). The words the ``games/`` engines and the
table core's config carry (card labels of Trois and CPT-113, colour names, the decisions' keys,
the bots' stored names, CPT-113's groups) are translated here, at the edge, from their stable
keys: the engines never import Django."""

from collections.abc import Sequence

from django.utils.translation import gettext, gettext_noop, ngettext, pgettext, pgettext_lazy

from duels import words as duel_words
from duels.words import finish_label
from games.split_uno.constants import CARD_LABELS

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
#: What the person is asked to choose (ONLINE.md 1: the owner of a hand chooses which card
#: goes), by the dealt adapter's ``choose`` ``what``.
CHOOSE_TITLE = {
    "shed": gettext_noop("Choose a number card to shed"),
    "discard": gettext_noop("Choose an action card to give up"),
}
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
#: A pending decision's name (the dealt view's ``decision``), as a heading says it.
DECISIONS = {
    "counter": pgettext_lazy("decision", "counter"),
    "block_counter": pgettext_lazy("decision", "counter the BLOCK"),
    "truth": pgettext_lazy("decision", "TRUTH"),
    "dare": pgettext_lazy("decision", "DARE"),
    "penalty": pgettext_lazy("decision", "penalty"),
    "bonus": pgettext_lazy("decision", "streak bonus"),
    "challenge": pgettext_lazy("decision", "challenge"),
}


def decision_label(key: str) -> str:
    return str(DECISIONS[key]) if key in DECISIONS else key.replace("_", " ")


def rules_words(ruleset: str) -> str:
    """ "tournament rules"."""
    return gettext("%(ruleset)s rules") % {"ruleset": ruleset_label(ruleset)}


def you() -> str:
    # Translators: the person, as a seat's heading or a team names them.
    return pgettext("the person at the table", "You")


def bot_label(seat: str, seats: int) -> str:
    """The bot at ``seat`` as a page names it: "Bot" facing the person alone, else "Bot B"
    (the stored name, practice.game.bot_name, stays English for the log)."""
    if seats == 2:
        # Translators: the one bot facing the person in a practice duel.
        return pgettext("practice opponent", "Bot")
    # Translators: a bot at a practice table, named by its seat letter (B to F).
    return gettext("Bot %(seat)s") % {"seat": seat}


def listing(names: Sequence[str]) -> str:
    """ "Ann", "Ann and Bo", "Ann, Bo and Cy"."""
    names = [str(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    # Translators: the last two of a list of names: "Ann, Bo and Cy".
    return gettext("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def result_line(
    many: bool,
    side_of_winner: tuple[str, ...],
    winner: str | None,
    finish: str,
    names: dict,
    person: str = "A",
) -> str:
    """The headline of a finished duel: "You win — …", "The bot wins — …", at more than two
    seats (or between persons: ``many``) "Your team wins — …", "Bot C wins — …", "Bot B + Bot
    D win — …", or "Drawn — …". ``side_of_winner`` is the winning seat's team (the seat alone
    without teams); ``person`` the reader's seat."""
    how = {"how": finish_label(finish)}
    if winner is None:
        return gettext("Drawn — %(how)s.") % how
    if not many:
        if winner == person:
            return gettext("You win — %(how)s.") % how
        return gettext("The bot wins — %(how)s.") % how
    if person in side_of_winner:
        if len(side_of_winner) > 1:
            return gettext("Your team wins — %(how)s.") % how
        return gettext("You win — %(how)s.") % how
    if len(side_of_winner) > 1:
        # Translators: a team of bots won: "Bot B + Bot D win — forfeit."
        return gettext("%(names)s win — %(how)s.") % {
            "names": " + ".join(names[s] for s in side_of_winner),
            **how,
        }
    return gettext("%(name)s wins — %(how)s.") % {"name": names[side_of_winner[0]], **how}


def mine_drew(cards: str) -> str:
    """What only the person sees of a log line: the cards their own hand gained or lost (the
    dealt view's private facts; docs/practice.md). ``cards`` and ``card`` are card labels."""
    return gettext("You drew %(cards)s.") % {"cards": cards}


def mine_took(card: str, name: str) -> str:
    return gettext("You took %(card)s from %(name)s.") % {"card": card, "name": name}


def mine_lost(card: str, name: str) -> str:
    return gettext("%(name)s took your %(card)s.") % {"card": card, "name": name}


def mine_hand(cards: str) -> str:
    return gettext("Your hand now: %(cards)s.") % {"cards": cards}


# -- The card table (issue 30) -------------------------------------------------------------------


def round_won(winners: Sequence[str], card: object) -> str:
    """The last round's outcome: "Bot B wins the round with a 9." (a 0 wins alone)."""
    if len(winners) > 1:
        # Translators: several seats (a team) won a Split UNO number round.
        return gettext("%(names)s win the round.") % {"names": listing(winners)}
    # Translators: a seat won a number round with the card it revealed (a digit).
    return gettext("%(name)s wins the round with a %(card)s.") % {
        "name": winners[0],
        "card": card,
    }


def round_tied(card: object) -> str:
    # Translators: a number round tied: the highest card was revealed by more than one seat.
    return gettext("The round is a tie on %(card)s.") % {"card": card}


def round_empty() -> str:
    return gettext("Nobody revealed a card this round.")


def round_losers_drew(names: Sequence[str], you: bool = False) -> str:
    """The round's losers, each drawing its one number card, in one line; ``you``: the
    person lost too (``names`` are the others)."""
    if you and not names:
        return gettext("You draw 1 number card (round lost).")
    if you:
        # Translators: the person and the other losers of a round each draw a card.
        return gettext("You and %(names)s each draw 1 number card (round lost).") % {
            "names": listing(names)
        }
    return ngettext(
        "%(names)s draws 1 number card (round lost).",
        "%(names)s each draw 1 number card (round lost).",
        len(names),
    ) % {"names": listing(names)}


def you_won_round(card: object) -> str:
    # Translators: the person won a number round with the card they revealed (a digit).
    return gettext("You win the round with a %(card)s.") % {"card": card}


def question(decision: str, other: str, card: str) -> str:
    """What a decision asks the person, in the second person: ``other`` is the seat it is
    about (the player of the card answered; for a challenge, the seat at 0), ``card`` the
    card that raised it as printed."""
    values = {"other": other, "card": card}
    if decision == "counter":
        # Translators: %(card)s is +2 or +4, as printed on the card.
        return gettext("%(other)s played %(card)s on you. Counter it?") % values
    if decision == "block_counter":
        return gettext("%(other)s played BLOCK on you. Counter it with your own BLOCK?") % values
    if decision == "truth":
        return gettext("%(other)s played TRUTH on you: answer truly, or refuse.") % values
    if decision == "dare":
        return gettext("%(other)s played DARE on you: do the dare, or refuse.") % values
    if decision == "penalty":
        return gettext("%(other)s refused your %(card)s: choose the penalty.") % values
    if decision == "bonus":
        return gettext("You won two rounds in a row: choose your streak bonus.")
    if decision == "challenge":
        return (
            gettext(
                "%(other)s has no number card left and wins unless someone challenges. Challenge?"
            )
            % values
        )
    return decision_label(decision)


def cannot_answer(decision: str) -> str:
    """Why a decision offers the person only "no": their hand holds no card to answer with."""
    if decision == "block_counter":
        return gettext("You hold no BLOCK, so you cannot counter.")
    if decision == "challenge":
        return gettext("You hold no +2 or +4, so you cannot challenge.")
    return gettext("You hold no +2 or +4, so you cannot counter.")


def _battle(played: str, answered: str, other: str) -> str:
    """A draw battle's outcome (RULES.md section 4), for the person who counters."""
    if played == answered:
        return gettext("you both draw 1 number card")
    if answered == "draw_four":
        return gettext("%(other)s draws 3 number cards") % {"other": other}
    return gettext("you draw 3 number cards")


def consequence(
    decision: str,
    choice: str,
    other: str,
    card: str | None,
    *,
    many: bool,
    forfeits: bool,
    hopeless: bool,
) -> str:
    """One choice of a decision on its button: what choosing it does, in the second person.
    ``forfeits``: refusing this dare ends the game; ``hopeless``: a challenge that cannot
    succeed (RULES.md section 6, ``two_cards``: the challenger holds 1 action card)."""
    o = {"other": other}
    label = CARD_LABELS.get(choice, choice)
    if decision == "counter":
        if choice == "pass":
            n = 4 if card == "draw_four" else 2
            return ngettext(
                "No counter: you draw %(n)s number card",
                "No counter: you draw %(n)s number cards",
                n,
            ) % {"n": n}
        return gettext("Counter with %(card)s: %(outcome)s") % {
            "card": label,
            "outcome": _battle(card or "draw_two", choice, other),
        }
    if decision == "block_counter":
        if choice == "pass":
            return gettext("No counter: you are blocked for the next round")
        return gettext("Counter with BLOCK: neither is blocked, you both shed 1 number card")
    if decision in ("truth", "dare"):
        if choice == "refuse":
            if forfeits:
                return gettext("Refuse — you forfeit: %(other)s wins the game") % o
            return gettext("Refuse: %(other)s chooses your penalty") % o
        if decision == "truth":
            return gettext("I answered truly")
        return gettext("I did the dare")
    if decision == "penalty":
        if choice == "actions":
            return gettext("You draw 2 action cards, %(other)s draws 2 number cards") % o
        return gettext("%(other)s draws 5 number cards") % o
    if decision == "bonus":
        if choice == "action_card":
            return gettext("You draw 1 action card")
        if many:
            return gettext("Each opponent draws 2 number cards")
        return gettext("%(other)s draws 2 number cards") % o
    if decision == "challenge":
        if choice == "pass":
            if many:
                return gettext("No challenge")
            return gettext("No challenge: %(other)s wins") % o
        if hopeless:
            # Translators: a challenge with the challenger's only action card (RULES.md 6).
            return gettext(
                "Challenge with %(card)s — cannot succeed with 1 action card: you draw 1, "
                "%(other)s wins"
            ) % {"card": label, **o}
        n = 4 if choice == "draw_four" else 2
        return ngettext(
            "Challenge with %(card)s: %(other)s draws %(n)s number card",
            "Challenge with %(card)s: %(other)s draws %(n)s number cards",
            n,
        ) % {"card": label, "n": n, **o}
    return choice.replace("_", " ")


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
