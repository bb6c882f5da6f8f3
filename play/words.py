"""What the table core says to a person (every product's pages show these as they are), in the
reader's language: lazy, so that each is said in the language of the request that shows it."""

from django.utils.translation import gettext_lazy

#: A page's revision is not the game's: someone else moved since the page was drawn.
STALE = gettext_lazy("Someone else moved — here is the current state.")
#: The game does not exist, or the product hides it from this person (answered as a 404).
HIDDEN = gettext_lazy("There is no such game.")
#: The game is visible to this person, but the command is not theirs (a 403).
FORBIDDEN = gettext_lazy("This is not yours to play.")
#: The same command (its key) was already recorded: nothing changed.
REPEAT = gettext_lazy("Already recorded — nothing changed.")
#: A command to a game its product stopped before the end.
ABANDONED = gettext_lazy("This game was stopped: it takes no more moves.")
#: An undo with nothing to take back: no command since the game started.
NOTHING_TO_UNDO = gettext_lazy("There is no move to undo.")
#: A change of set-up asked of a game that has begun.
BEGUN = gettext_lazy("This game has begun: its set-up can no longer change.")
#: A seat letter the game does not have (a take-over of a seat that is not there).
NO_SEAT = gettext_lazy("This game has no such seat.")
