"""The Page playoff: Q1, E1, Q2 and the Grand Final, and the placings 1–4 they give.

TOURNAMENT.md "Playoffs: the Page playoff" and "Corrections" (later playoff duels that no longer
follow are voided and replayed). The bracket is a pure function of the seeding, the stored
playoff duels and the qualifiers who forfeit: call it again after every result, withdrawal or
correction.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

Q1 = "Q1"
E1 = "E1"
Q2 = "Q2"
GF = "GF"
STAGES = (Q1, E1, Q2, GF)
STAGE_NAMES = {Q1: "Qualifier 1", E1: "Eliminator", Q2: "Qualifier 2", GF: "Grand Final"}


@dataclass(frozen=True)
class PlayoffDuel:
    """A stored playoff duel: its stage, seats, winner (None until decided), the caller's id.
    ``drawn``: it ended without a winner (a draw, or a win corrected to none); its replay,
    another row, is the one still to play and the one a walkover is recorded on."""

    stage: str
    seat_a: int
    seat_b: int
    winner: int | None = None
    ref: int | None = None
    drawn: bool = False


@dataclass(frozen=True)
class PlayoffMatch:
    """One stage as the bracket sees it now.

    ``known`` is False while the seats wait on earlier stages (both seats then None). Once
    known, a None seat is vacant. ``walkover`` marks a stage decided without a stored result:
    a vacant seat, or a qualifier who forfeits (the caller records the forfeit on ``ref``).
    A stage with two vacant seats is decided with no winner.
    """

    stage: str
    known: bool
    seat_a: int | None = None
    seat_b: int | None = None
    winner: int | None = None
    loser: int | None = None
    decided: bool = False
    walkover: bool = False
    ref: int | None = None

    @property
    def playable(self) -> bool:
        """Both seats filled and no result yet: to be played now."""
        return self.known and not self.decided


@dataclass(frozen=True)
class Bracket:
    """The bracket now. ``placings`` holds the places known so far (4th after E1, 3rd after Q2,
    1st and 2nd after the Grand Final); a vacant place maps to None. ``complete`` once the Grand
    Final is decided. ``void``: stored duels that no longer follow from the results.
    ``walkovers``: stages a forfeiting qualifier loses with no result stored: record each as a
    forfeit (on its ``ref`` row, or a new row), so that a later withdrawal cannot rewrite it.
    (A vacant seat's walkover has no opponent to record and is not listed.)"""

    seeding: tuple[int | None, ...]
    matches: tuple[PlayoffMatch, ...]
    to_play: tuple[PlayoffMatch, ...]
    void: tuple[PlayoffDuel, ...]
    walkovers: tuple[PlayoffMatch, ...]
    complete: bool
    placings: dict[int, int | None] = field(default_factory=dict)

    def match(self, stage: str) -> PlayoffMatch:
        return self.matches[STAGES.index(stage)]


def seeding_from_positions(positions: Mapping[int, Sequence[int]]) -> tuple[int | None, ...]:
    """The four seeds, best first, from the tie-break plan's ``positions``.

    A shared rank (minimal mode) lists its pair in seat-draw order, which is kept: the first of
    the pair takes seat A whenever the two meet or meet someone else level with them
    (TOURNAMENT.md "Playoffs": level ranks, the seat draw of minimal mode). Fewer than four
    players leave vacant seeds (None).
    """
    order = [p for rank in sorted(positions) for p in positions[rank]]
    if len(order) > 4 or len(set(order)) != len(order):
        raise ValueError(f"positions 1–4 must name at most four distinct players: {positions}")
    return tuple(order) + (None,) * (4 - len(order))


def page_bracket(
    seeding: Sequence[int | None],
    duels: Iterable[PlayoffDuel] = (),
    forfeited: Collection[int] = (),
) -> Bracket:
    """Progress the Page playoff from its results.

    ``seeding``: four player ids (or None for a vacant seed), best group-phase rank first;
    seat A always goes to the player seeded better. ``duels``: the stored, non-void playoff
    duels. ``forfeited``: qualifiers who withdrew or did not show after the playoffs started;
    they lose by walkover every stage they have not already played (TOURNAMENT.md "Playoffs").
    """
    seeds = tuple(seeding)
    if len(seeds) != 4:
        raise ValueError("the Page playoff needs four seeds (None for a vacant one)")
    present = [s for s in seeds if s is not None]
    if len(set(present)) != len(present):
        raise ValueError("a player is seeded twice")
    rank = {p: i for i, p in enumerate(seeds) if p is not None}
    out = frozenset(forfeited)
    stored = tuple(duels)
    for duel in stored:
        if duel.stage not in STAGES:
            raise ValueError(f"unknown playoff stage {duel.stage!r}")
    used: set[int] = set()

    def seats(x: int | None, y: int | None) -> tuple[int | None, int | None]:
        # The better seed sits in seat A; a vacant seat goes to seat B.
        if x is None or (y is not None and rank[y] < rank[x]):
            return y, x
        return x, y

    def resolve(stage: str, x: int | None, y: int | None) -> PlayoffMatch:
        a, b = seats(x, y)
        if a is None:
            return PlayoffMatch(stage, True, decided=True, walkover=True)
        if b is None:
            return PlayoffMatch(stage, True, a, None, a, None, True, True)
        rows = [
            i for i, d in enumerate(stored) if d.stage == stage and {d.seat_a, d.seat_b} == {a, b}
        ]
        used.update(rows)
        winners = {stored[i].winner for i in rows} - {None}
        if not winners <= {a, b}:
            raise ValueError(f"{stage} has a winner who did not play it")
        if len(winners) > 1:
            raise ValueError(f"{stage} has two different winners stored")
        refs = [stored[i].ref for i in rows if stored[i].winner is not None] + [
            stored[i].ref for i in rows if stored[i].winner is None and not stored[i].drawn
        ]
        ref = refs[0] if refs else None
        if winners:
            w = winners.pop()
            return PlayoffMatch(stage, True, a, b, w, b if w == a else a, True, ref=ref)
        if a in out or b in out:
            # Both forfeit: the better seed goes on nominally and forfeits the next stage too.
            w = b if a in out and b not in out else a
            return PlayoffMatch(stage, True, a, b, w, b if w == a else a, True, True, ref)
        return PlayoffMatch(stage, True, a, b, ref=ref)

    q1 = resolve(Q1, seeds[0], seeds[1])
    e1 = resolve(E1, seeds[2], seeds[3])
    q2 = resolve(Q2, q1.loser, e1.winner) if q1.decided and e1.decided else PlayoffMatch(Q2, False)
    gf = resolve(GF, q1.winner, q2.winner) if q1.decided and q2.decided else PlayoffMatch(GF, False)
    matches = (q1, e1, q2, gf)
    placings: dict[int, int | None] = {}
    if e1.decided:
        placings[4] = e1.loser
    if q2.decided:
        placings[3] = q2.loser
    if gf.decided:
        placings[1], placings[2] = gf.winner, gf.loser
    return Bracket(
        seeding=seeds,
        matches=matches,
        to_play=tuple(m for m in matches if m.playable),
        void=tuple(d for i, d in enumerate(stored) if i not in used),
        walkovers=tuple(
            m for m in matches if m.walkover and m.seat_a is not None and m.seat_b is not None
        ),
        complete=gf.decided,
        placings=dict(sorted(placings.items())),
    )
