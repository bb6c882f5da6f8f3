"""What a casual table says about itself that a two-seat duel never needs: several seats,
teams, what a game of three to six seats is waiting for. The duel's own words (how a game
ends, what a decision asks, what each choice does) stay in duels/words.py and are used as
they are."""

from datetime import datetime

from django.utils import timezone
from django.utils.dateformat import format as date_format

from duels import words as duel_words

#: How a moment is written on the table pages (the format of the tournament's invitations).
WHEN = "j M Y H:i"

#: Shown on the page that opens tables (and in docs/tables.md).
KEEP_NOTE = "You keep your latest {n} tables: opening another deletes your oldest."

#: A move from a page that no longer shows the table as it is: another referee moved first.
CONFLICT = "Someone else entered a move — here is the current state."
#: Anyone but the owner and the co-referees (answered as a 404: the table is none of theirs).
NOT_YOURS = "You do not referee this table."
#: A move after the game's end (an undo still takes the ending back).
GAME_OVER = "This game is over: it takes no more moves."
#: The same form sent twice (a double tap, a phone retrying): its first send was recorded.
ALREADY_RECORDED = "Already recorded: this move was entered once — nothing changed."
ALREADY_UNDONE = "Already undone: that undo was entered once — nothing changed."

#: A co-referee invitation that names nothing open: used, revoked, or never made.
INVITATION_GONE = "This invitation does not exist or is no longer valid."

# The page that steps through a table's moves is its *record*, as a duel's is on the tournament
# pages (docs/public.md): "replay" there means only the rematch of a duel without a winner. The
# addresses and the code keep "replay" (`/tables/replay/<token>/`, `replay_token_hash`), so
# links already sent still work.
RECORD_LINK_REVOKED = "The record link is revoked: it shows nothing any more."
RECORD_LINK_GONE = "This record link does not exist or was revoked."
NO_RECORD_LINK = "This table has no record link."


def invitation_expired(expires_at: datetime) -> str:
    when = date_format(timezone.localtime(expires_at), WHEN)
    return f"This invitation expired on {when}: ask the table's owner for a new link."


def finish_label(finish: str | None, seats: int) -> str:
    if finish == "double_zero" and seats > 2:
        return "double zero (two sides at 0 number cards at once)"
    return duel_words.finish_label(finish)


def listing(names: list[str]) -> str:
    """ "Ann", "Ann and Bo", "Ann, Bo and Cy"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def team_label(number: int, names: list[str]) -> str:
    return f"Team {number} ({listing(names)})"


def round_headline(number: int, revealing: list[str], blocked: list[str], seats: int) -> str:
    if not revealing:
        return f"Round {number}: nobody reveals — play the round with no cards"
    if seats == 2 and len(revealing) == 2:
        who = "both reveal a number card"
    elif len(revealing) == seats:
        who = "every seat reveals a number card"
    else:
        who = f"{listing(revealing)} reveal{'s' if len(revealing) == 1 else ''} a card"
    text = f"Round {number}: {who}"
    if blocked:
        text += f" — {listing(blocked)} {'is' if len(blocked) == 1 else 'are'} blocked"
    return text


def result_headline(winner: str | None, finish: str | None, seats: int) -> str:
    how = finish_label(finish, seats)
    return f"{winner} wins — {how}" if winner else f"Drawn — {how}"


def deck_note(pool: int, seats: int, cards: int) -> str:
    """RULES.md 11.1: said on the page whenever the table raised the number pool."""
    return (
        f"The usual number pool of 108 cannot deal {cards} cards to each of {seats} seats: "
        f"this table plays with a pool of {pool}, so {pool - cards * seats} stay in the deck "
        "after the deal."
    )
