"""What the practice pages say when a move is refused for the page it came from, not for the
rules: one place for the words the two services and their tests share."""

#: A move from a page another tab has overtaken (the revision it carries is not the game's).
DUEL_MOVED_ON = "This duel moved on in another tab: here is the table as it is now."
GAME_MOVED_ON = "This game moved on in another tab: here is the table as it is now."
#: A move that carries no revision at all: it cannot be told from a repeat, so it is refused.
NO_REVISION = (
    "This move did not say which table it was played on, so nothing was played: "
    "here is the table as it is now."
)
