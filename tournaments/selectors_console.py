"""Reads for the referee console and the staff duels list: a duel's console (duels.selectors)
with what the tournament adds to it — the shared cards its first move will deal — and every
duel of the tournament with its title (tournaments/presentation.py)."""

from typing import Any

from duels import selectors as duel_selectors
from duels.models import Duel, DuelStatus
from duels.selectors import ConsoleView, Row

from . import presentation
from .models import Tournament
from .services.shared_cards import starting_gifts


def console(duel: Duel, rows: list[Row] | None = None, engine: Any = None) -> ConsoleView:
    """The console of `duel` (from `duels.selectors.duel_in`): a fixed number of queries."""
    gifts = starting_gifts(duel) if duel.status in (DuelStatus.READY, DuelStatus.RUNNING) else {}
    return duel_selectors.console(duel, rows, gifts=gifts, engine=engine)


def console_after_write(tournament: Tournament, duel: Duel, started: bool) -> ConsoleView:
    """The console after a move or an undo, for the row `duel` read before it.

    An ordinary move changes only the row's `seq` and cached state, which the console takes
    from the log: the log is the one read needed. A first move (it starts the duel, may deal
    shared cards and assign the referee) and a finishing one (it records the result) change
    more, and then the row is read again.
    """
    rows = duel_selectors.events_of(duel)
    if started:
        return console(duel_selectors.duel_in(tournament, duel.pk), rows)
    view = console(duel, rows)
    if view.engine_finished != view.finished:
        view = console(duel_selectors.duel_in(tournament, duel.pk), rows)
    return view


def console_after_move(duel: Duel) -> ConsoleView:
    """The console after a move, from the row the move locked and left (`play_move`): its log
    is the one the move read, with the new row; nothing is read again for an ordinary move."""
    return console(duel, duel.event_rows, getattr(duel, "engine", None))


def committed_version(tournament: Tournament) -> int:
    """The tournament's version as committed now (a correction form carries it): a write
    earlier in this request (the move that finished the duel) moved it past the row the
    request first read."""
    return Tournament.objects.values_list("standings_version", flat=True).get(pk=tournament.pk)


def staff_duels(tournament: Tournament) -> list[Duel]:
    """Every duel of the tournament for the staff list, open ones first (one query)."""
    rank = {status: i for i, status in enumerate(duel_selectors.STATUS_ORDER)}
    duels = list(
        Duel.objects.filter(tournament=tournament).select_related(
            "seat_a", "seat_b", "round", "referee", "result__winner"
        )
    )
    for duel in duels:
        duel.title = presentation.duel_title(duel)
    return sorted(duels, key=lambda d: (rank.get(d.status, 99), d.created_at, d.pk))


def lost_race_words(
    tournament: Tournament, duel: Duel, view: ConsoleView, revision: int | None, *, result: bool
) -> str | None:
    """What a device whose move lost a race is told counted instead: "bao entered “Bob
    reveals 7” first; your move was not entered." — or, for an ending sent to a duel another
    device has finished, its result and who recorded it. None when the change since the
    page was an undo (the generic words say it): nothing was entered to name."""
    if result and duel.status == DuelStatus.FINISHED:
        from .services.refereeing import recorded

        return recorded(tournament, duel).message
    if revision is None:
        return None
    added = view.log_since(revision).new
    if not added:
        return None
    latest = added[0]  # latest first
    found = duel_selectors.move_of(duel, latest.pk)
    if found is None:
        return None
    person, payload = found
    # The move itself, not all it did: a round's reveals ("Alice reveals 7, Bob reveals 3"),
    # else its first line ("Alice plays +2", "Bob forfeits").
    cards = payload.get("cards") if isinstance(payload, dict) else None
    lines = latest.lines[: len(cards)] if cards else latest.lines[:1]
    move = ", ".join(line.rstrip(".") for line in lines) or latest.text
    return presentation.move_counted_first(presentation.person_label(person), move)
