"""What comes next, from the event's state: the duels waiting to start, the round waiting for
its players, the stage after the one being played. The schedule's start times are only the
times of these (a round already played is never "next", and nothing is after the final).

Read by the home page's "Next up", the big screen's now-playing panel and its venue strip."""

from dataclasses import dataclass

from .. import format as fmt
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
    if phase in (Phase.DRAFT, Phase.REGISTRATION):
        out.append(Coming("Group round 1", "round:1", note="when the group phase starts"))
    elif phase == Phase.GROUP_PHASE:
        open_round = next((n for n, state in rounds if state == "open"), None)
        # Round n + 1 opens with a decisive result; until its players are named it has no
        # duel, and the room still wants to know it is next.
        if open_round and not any(d.round_number == open_round for d in open_duels):
            out.append(
                Coming(
                    f"Group round {open_round}",
                    f"round:{open_round}",
                    note="each group names its player for this round",
                )
            )
    elif phase == Phase.TIE_BREAKS:
        if tournament.top_four_settled_at is not None:
            out.append(
                Coming(
                    "Playoffs",
                    fmt.STAGES[0],
                    note="Qualifier 1 and the Eliminator, once the organisers start the playoffs",
                )
            )
        elif not open_duels:
            out.append(
                Coming("Tie-breaks", "tie_breaks", note="the next tie-break duels are being drawn")
            )
    elif phase == Phase.PLAYOFFS:
        out += [
            Coming(
                fmt.STAGE_NAMES[stage],
                stage,
                note="its players come from the duels before it",
            )
            for stage in fmt.STAGES
            if stage not in playoff_stages
        ]
    return out
