"""Writes for practice duels: start one, play a move (one transaction, the row locked)."""

import secrets

from django.db import transaction

from .game import Game, Refused, replay, start
from .models import Outcome, PracticeDuel

#: How many moves one practice duel keeps at most (a duel ends long before: a guard).
MAX_MOVES = 2000
#: How many practice duels a person keeps: starting one more forgets the oldest beyond this.
KEPT_PER_PERSON = 50


def start_practice(user, ruleset: str) -> PracticeDuel:
    """A new duel against the bot under ``ruleset``; Refused for an unknown rule set."""
    seed = secrets.randbits(48)
    name = user.get_username()
    start(ruleset, seed, name)  # refuses a bad ruleset before anything is stored
    practice = PracticeDuel.objects.create(user=user, ruleset=ruleset, seed=seed, name=name)
    # Bounded storage whatever a person (or a script) starts: the oldest are forgotten.
    oldest = (
        PracticeDuel.objects.filter(user=user)
        .order_by("-created_at", "-pk")
        .values_list("pk", flat=True)[KEPT_PER_PERSON:]
    )
    PracticeDuel.objects.filter(pk__in=list(oldest)).delete()
    return practice


def load(practice: PracticeDuel) -> Game:
    return replay(practice.ruleset, practice.seed, practice.name, practice.moves)


@transaction.atomic
def play(practice_id: int, user, move: dict, seen: int | None = None) -> tuple[PracticeDuel, Game]:
    """Apply the person's ``move``. ``seen`` is the number of moves the page showed: another
    tab's move in between is refused rather than applied to a table the person did not see.
    Raises PracticeDuel.DoesNotExist for someone else's duel, Refused for a refused move
    (nothing stored)."""
    practice = PracticeDuel.objects.select_for_update().get(pk=practice_id, user=user)
    if seen is not None and seen != len(practice.moves):
        raise Refused("This duel moved on in another tab: here is the table as it is now.")
    if len(practice.moves) >= MAX_MOVES:
        raise Refused("This duel has gone on too long: start a new one.")
    game = load(practice)
    game.play(move)
    practice.moves.append(move)
    practice.finished = game.finished
    if game.finished:
        winner = game.state()["winner"]
        practice.outcome = (
            Outcome.DRAWN if winner is None else Outcome.WON if winner == "A" else Outcome.LOST
        )
    practice.save()
    return practice, game
