"""The card table's words: what a seat's page says of a dealt Split UNO game — the decisions
asked and what each choice does, the rounds, the result, the person's own cards in the log —
for every product that draws the card table (practice, online tables, online tournament
duels; cardtable/page.py). Translated where a page shows them; the engines never import
Django."""

from collections.abc import Sequence

from django.utils.translation import gettext, gettext_noop, ngettext, pgettext, pgettext_lazy

from duels.words import finish_label
from games.common.words import takes_an
from games.split_uno.constants import CARD_LABELS

#: What the person is asked to choose (ONLINE.md 1: the owner of a hand chooses which card
#: goes), by the dealt adapter's ``choose`` ``what``.
CHOOSE_TITLE = {
    "shed": gettext_noop("Choose a number card to shed"),
    "discard": gettext_noop("Choose an action card to give up"),
}
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


def you() -> str:
    # Translators: the person, as a seat's heading or a team names them.
    return pgettext("the person at the table", "You")


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
    values = {"name": winners[0], "card": card}
    if takes_an(card):
        # Translators: as "%(name)s wins the round with a %(card)s.", for the English "an 8".
        return gettext("%(name)s wins the round with an %(card)s.") % values
    # Translators: a seat won a number round with the card it revealed (a digit).
    return gettext("%(name)s wins the round with a %(card)s.") % values


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
    if takes_an(card):
        # Translators: as "You win the round with a %(card)s.", for the English "an 8".
        return gettext("You win the round with an %(card)s.") % {"card": card}
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


# -- The whole deal after the end (ONLINE.md 5; cardtable/replay.py) ---------------------------


def deal_dealt(name: str, cards: str) -> str:
    """What one seat's private facts of an event were, said of that seat by name: the replay
    after the end shows every seat's (``cards`` and ``card`` are card labels)."""
    # Translators: the replay after a game's end: the cards a seat was dealt.
    return gettext("%(name)s was dealt %(cards)s.") % {"name": name, "cards": cards}


def deal_drew(name: str, cards: str) -> str:
    return gettext("%(name)s drew %(cards)s.") % {"name": name, "cards": cards}


def deal_sealed(name: str, card: str) -> str:
    # Translators: the replay after a game's end: the number card a seat sealed (hidden then).
    return gettext("%(name)s sealed %(card)s.") % {"name": name, "card": card}


def deal_took(name: str, card: str, other: str) -> str:
    return gettext("%(name)s took %(card)s from %(other)s.") % {
        "name": name,
        "card": card,
        "other": other,
    }


def deal_hand(name: str, cards: str) -> str:
    return gettext("%(name)s's hand now: %(cards)s.") % {"name": name, "cards": cards}


def deal_nothing() -> str:
    # Translators: an empty hand, in the replay after a game's end.
    return pgettext("no cards", "none")
