"""What the practice pages say when a move is refused for the page it came from, not for the
rules, and the practice duel's own words: one place for the words the services, the pages and
their tests share."""

from duels.words import finish_label

#: The bot facing the person alone, as the result line names it.
THE_BOT = "The bot"

#: Someone else's table, or none (404: whose tables exist is not said).
NO_SUCH_DUEL = "No such practice duel."
NO_SUCH_GAME = "No such game."
#: A move from a page another tab has overtaken (the revision it carries is not the game's).
DUEL_MOVED_ON = "This duel moved on in another tab: here is the table as it is now."
GAME_MOVED_ON = "This game moved on in another tab: here is the table as it is now."
#: The same form sent again (a double tap, a phone retrying): its move was recorded the first
#: time, and nothing was played twice (the table core's idempotency key, issue 27).
ALREADY_RECORDED = (
    "This move was already recorded: nothing changed. Here is the table as it is now."
)
#: A stored game the code of today cannot play again (a bot's or a rule's code changed since its
#: moves were accepted: only the person's moves are stored; issue 27). It is kept, never a 500.
UNREPLAYABLE_TITLE = "This game cannot be replayed"
UNREPLAYABLE = (
    "This game was stored with only your moves, and the bots now play differently, so it can "
    "no longer be set out again. It stays in your list; start a new one to play on."
)
#: The same, in the list of a person's duels.
UNREPLAYABLE_LISTED = "cannot be replayed"
#: A move that carries no revision at all: it cannot be told from a repeat, so it is refused.
NO_REVISION = (
    "This move did not say which table it was played on, so nothing was played: "
    "here is the table as it is now."
)
#: What the person is asked to choose (ONLINE.md 1: the owner of a hand chooses which card
#: goes), by the dealt adapter's ``choose`` ``what``.
CHOOSE_TITLE = {
    "shed": "Choose a number card to shed",
    "discard": "Choose an action card to give up",
}
#: A finished duel stored the old way (before issue 27): its page shows its result and log.
ARCHIVED = (
    "This duel was stored the old way: here are its result and what happened, as they were "
    "when it was converted."
)


def result_line(
    many: bool, side_of_winner: tuple[str, ...], winner: str | None, finish: str, names: dict
) -> str:
    """The headline of a finished duel: "You win — …", "The bot wins — …", at more than two
    seats "Your team wins — …", "Bot C wins — …", "Bot B + Bot D win — …", or "Drawn — …".
    ``side_of_winner`` is the winning seat's team (the seat alone without teams)."""
    how = finish_label(finish)
    if winner is None:
        return f"Drawn — {how}."
    if not many:
        return f"You win — {how}." if winner == "A" else f"{THE_BOT} wins — {how}."
    if "A" in side_of_winner:
        who = "Your team wins" if len(side_of_winner) > 1 else "You win"
    else:
        who = " + ".join(names[s] for s in side_of_winner)
        who += " win" if len(side_of_winner) > 1 else " wins"
    return f"{who} — {how}."


#: What only the person sees of a log line: the cards their own hand gained or lost (the dealt
#: view's private facts; docs/practice.md). ``{cards}`` and ``{card}`` are card labels.
MINE_DREW = "You drew {cards}."
MINE_TOOK = "You took {card} from {name}."
MINE_LOST = "{name} took your {card}."
MINE_HAND = "Your hand now: {cards}."
