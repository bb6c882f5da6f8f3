"""A duel's own vocabulary, in the words people read: how a duel ends, what a pending
decision asks and what each choice does. The console, the replay, the practice table and
every tournament page (through tournaments/presentation.py) take their words from here."""

from games.split_uno.constants import CARD_LABELS

# How a duel ended (the record's `finish`, RULES.md section 8).
FINISH = {
    "shed_all": "shed all cards",
    "forfeit": "forfeit",
    "dare_refused": "a refused dare",
    "time_limit": "time limit",
    "adjudicated": "adjudicated",
    "double_zero": "double zero (both at 0 number cards)",
}


def finish_label(finish: str | None) -> str:
    """ "shed all cards" for "shed_all"; an unknown key still reads as words."""
    if not finish:
        return ""
    return FINISH.get(finish, finish.replace("_", " "))


def duel_round(number: int) -> str:
    """A duel's own round, "Duel round 12": never to be read as the tournament's round, which
    tournaments/presentation.py names "Group round 2"."""
    return f"Duel round {number}"


def decision_text(kind: str, me: str, other: str, card: str = "card") -> str:
    """What a pending decision asks, with both names (`card`: the card it answers)."""
    return {
        "counter": f"{me} may counter {other}'s {card}",
        "block_counter": f"{me} may counter {other}'s BLOCK",
        "truth": f"{me} answers {other}'s TRUTH or refuses",
        "dare": f"{me} completes {other}'s DARE or refuses",
        "penalty": f"{me} chooses the penalty for the refusal",
        "bonus": f"{me} won two rounds in a row: choose the streak bonus",
        "challenge": f"{other} is at 0 number cards: does {me} challenge?",
    }.get(kind, kind.replace("_", " "))


def choice_label(kind: str, choice: str, me: str, other: str) -> str:
    """What one choice of a pending decision does, with both names."""
    if choice == "pass":
        return "No challenge" if kind == "challenge" else "No counter"
    if kind in ("counter", "challenge", "block_counter"):
        verb = "Challenge" if kind == "challenge" else "Counter"
        return f"{verb} with {CARD_LABELS.get(choice, choice)}"
    return {
        "action_card": f"{me} draws 1 action card",
        "opponents_draw": f"{other} draws 2 number cards",
        "actions": f"{me} draws 2 action cards, {other} 2 number cards",
        "five": f"{other} draws 5 number cards",
        "answer": "Answered",
        "complete": "Completed",
        "refuse": "Refused",
    }.get(choice, choice)


# A form that guards an applying write came without what it was drawn for (a revision, a
# version): nothing is applied on a state the page never named.
PAGE_OUT_OF_DATE = "This page is out of date: reload it."
