"""What the practice pages say when a move is refused for the page it came from, not for the
rules: one place for the words the two services and their tests share."""

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
#: A move that carries no revision at all: it cannot be told from a repeat, so it is refused.
NO_REVISION = (
    "This move did not say which table it was played on, so nothing was played: "
    "here is the table as it is now."
)
