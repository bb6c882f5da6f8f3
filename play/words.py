"""What the table core says to a person (every product's pages show these as they are)."""

#: A page's revision is not the game's: someone else moved since the page was drawn.
STALE = "Someone else moved — here is the current state."
#: The game does not exist, or the product hides it from this person (answered as a 404).
HIDDEN = "There is no such game."
#: The game is visible to this person, but the command is not theirs (a 403).
FORBIDDEN = "This is not yours to play."
#: The same command (its key) was already recorded: nothing changed.
REPEAT = "Already recorded — nothing changed."
#: A command to a game its product stopped before the end.
ABANDONED = "This game was stopped: it takes no more moves."
#: An undo with nothing to take back: no command since the game started.
NOTHING_TO_UNDO = "There is no move to undo."
#: A change of set-up asked of a game that has begun.
BEGUN = "This game has begun: its set-up can no longer change."
