"""What comes next, from the event's state: the duels waiting to start, the round waiting for
its players, the stage after the one being played. The schedule's start times are only the
times of these (a round already played is never "next", and nothing is after the final).

Read by the home page's "Next up", the big screen's now-playing panel and its venue strip."""

from dataclasses import dataclass

from .. import format as fmt
from .. import presentation
from ..models import FINAL_PHASES, Phase, Tournament
from .lines import DuelLine


@dataclass(frozen=True)
class Coming:
    """One thing the room waits for next."""

    label: str  # "Group round 5", "Qualifier 2 (replay)", "Playoffs"
    key: str  # the schedule key of its planned start ("round:5", "tie_breaks", "Q2")
    duel: DuelLine | None = None  # the duel, once it exists
    note: str = ""  # what it waits for, when it has no duel yet


def playoff_stages_started(tournament: Tournament) -> set[str]:
    """The playoff stages that have a duel (one query, in the playoffs only): the others are
    still to come."""
    from duels.models import Duel

    if tournament.phase != Phase.PLAYOFFS:
        return set()
    return set(
        Duel.objects.filter(tournament=tournament, kind="playoff")
        .exclude(status__in=["void", "abandoned"])
        .values_list("stage", flat=True)
    )


def waiting(key: str, note: str) -> Coming:
    """A round or stage with no duel yet, named as the schedule names its key."""
    return Coming(presentation.start_key_label(key), key, note=note)


def coming_next(
    tournament: Tournament,
    rounds: list[tuple[int, str]],
    open_duels: list[DuelLine],
    playoff_stages: set[str],
) -> list[Coming]:
    """What comes next, in order (no query): `rounds` is (number, state) as
    `selectors.round_states` reads them, `open_duels` the duels not over yet,
    `playoff_stages` what `playoff_stages_started` gives."""
    if tournament.phase in FINAL_PHASES:
        return []  # after the final (or a cancellation) nothing is next
    out = [Coming(d.title, d.start_key, d) for d in open_duels if d.status != "running"]
    phase = tournament.phase
    notes = presentation.WAITING_NOTES
    if phase in (Phase.DRAFT, Phase.REGISTRATION):
        out.append(waiting("round:1", notes["start"]))
    elif phase == Phase.GROUP_PHASE:
        open_round = next((n for n, state in rounds if state == "open"), None)
        # Round n + 1 opens with a decisive result; until its players are named it has no
        # duel, and the room still wants to know it is next.
        if open_round and not any(d.round_number == open_round for d in open_duels):
            out.append(waiting(f"round:{open_round}", notes["round"]))
    elif phase == Phase.TIE_BREAKS:
        if tournament.top_four_settled_at is not None:
            out.append(Coming(presentation.PLAYOFFS_LABEL, fmt.STAGES[0], note=notes["playoffs"]))
        elif not open_duels:
            out.append(waiting("tie_breaks", notes["tie_breaks"]))
    elif phase == Phase.PLAYOFFS:
        out += [waiting(s, notes["stage"]) for s in fmt.STAGES if s not in playoff_stages]
    return out
