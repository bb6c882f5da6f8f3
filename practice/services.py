"""Writes for practice duels: start one, play a move (one transaction, the row locked)."""

import secrets

from django.db import transaction

from .game import Game, Refused, Unreplayable, replay, start
from .models import Outcome, PracticeDuel
from .seating import Seating, SeatingRefused, choose
from .words import DUEL_MOVED_ON, NO_REVISION

#: How many moves one practice duel keeps at most (a duel ends long before: a guard).
MAX_MOVES = 2000
#: How many practice duels a person keeps: starting one more forgets the oldest beyond this.
KEPT_PER_PERSON = 50


def start_practice(
    user, ruleset: str, seats: int = 2, variants: tuple[str, ...] = (), layout: str = ""
) -> PracticeDuel:
    """A new duel against ``seats - 1`` bots under ``ruleset`` with ``variants`` and the team
    ``layout`` (practice/seating.py); Refused for a table the rules do not offer."""
    seed = secrets.randbits(48)
    name = user.get_username()
    try:
        seating = choose(ruleset, seats, variants, layout)
    except SeatingRefused as err:
        raise Refused(str(err)) from None
    start(ruleset, seed, name, seating)  # the engine deals it before anything is stored
    practice = PracticeDuel.objects.create(
        user=user,
        ruleset=ruleset,
        seed=seed,
        name=name,
        seats=seating.seats,
        variants=list(seating.variants),
        options=seating.options,
        teams=[list(team) for team in seating.teams],
    )
    # Bounded storage whatever a person (or a script) starts: the oldest are forgotten.
    oldest = (
        PracticeDuel.objects.filter(user=user)
        .order_by("-created_at", "-pk")
        .values_list("pk", flat=True)[KEPT_PER_PERSON:]
    )
    PracticeDuel.objects.filter(pk__in=list(oldest)).delete()
    return practice


def load(practice: PracticeDuel) -> Game:
    """The duel played again from its seed and moves; Unreplayable when today's code refuses a
    stored move (not Refused: that is a new move's refusal, shown with the table)."""
    try:
        return replay(
            practice.ruleset, practice.seed, practice.name, practice.moves, practice.seating
        )
    except Refused as err:
        raise Unreplayable(str(err)) from err


def person_won(seating: Seating, winner: str | None) -> bool:
    """Whether the winning seat is the person's side (in a team game the state's winner is
    the winning team's first seat, RULES.md 11.9)."""
    return winner is not None and "A" in seating.team_of(winner)


@transaction.atomic
def play(practice_id: int, user, move: dict, *, seen: int | None) -> tuple[PracticeDuel, Game]:
    """Apply the person's ``move``. ``seen`` is the number of moves the page showed: another
    tab's move in between is refused rather than applied to a table the person did not see.
    A move without it (None: missing or not a number) is refused too: it would skip that
    check, and the same post sent twice would be played twice. Raises
    PracticeDuel.DoesNotExist for someone else's duel, Refused for a refused move (nothing
    stored)."""
    practice = PracticeDuel.objects.select_for_update().get(pk=practice_id, user=user)
    if seen is None:
        raise Refused(NO_REVISION)
    if seen != len(practice.moves):
        raise Refused(DUEL_MOVED_ON)
    if len(practice.moves) >= MAX_MOVES:
        raise Refused("This duel has gone on too long: start a new one.")
    game = load(practice)
    practice.moves.append(game.play(move))
    practice.finished = game.finished
    if game.finished:
        winner = game.state()["winner"]
        practice.outcome = (
            Outcome.DRAWN
            if winner is None
            else Outcome.WON
            if person_won(practice.seating, winner)
            else Outcome.LOST
        )
    practice.save()
    return practice, game
