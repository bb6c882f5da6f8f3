"""The tie-break planner: sudden-death knockouts that order positions 1–4.

TOURNAMENT.md "Tie-breaks for the top four", points 1–5, and "Corrections". The plan is a pure
function of the group-phase points of the players still in contention, the master seed, the
draws stored so far and the tie-break duels stored so far. Call it again after every result,
withdrawal or correction: it says which duels to play now, which stored duels are no longer
called for (void), which new draws to store, and, once positions 1–4 are settled, who holds them.

Keys (stable across re-planning, so stored rows can be matched):

- a knockout: ``"K"`` + 16 hex digits of SHA-256 over its sorted member ids;
- a duel: ``"<knockout key>-r<round>-m<match>"``;
- a minimal-mode seat draw: ``"S"`` + 16 hex digits of SHA-256 over the pair's sorted ids.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .draws import KNOCKOUT, SEAT, Seed, derive_seed, seeded_order

FULL = "full"
MINIMAL = "minimal"
MODES = (FULL, MINIMAL)

TOP = 4
#: The boundaries minimal mode settles: 2/3 (who meets whom), 4/5 (who qualifies).
BOUNDARIES = (2, 4)

# Knockout states.
PLAYING = "playing"
FINISHED = "finished"
STOPPED = "stopped"

# Tier states.
PLACED = "placed"  # one player alone at a position
SHARED = "shared"  # minimal mode: a pair left level inside 1–2 or 3–4 (ordered by a seat draw)
PENDING = "pending"  # level players a knockout in progress will separate
LEVEL = "level"  # level players after position 4: never separated


def _hash_key(prefix: str, members: Iterable[int]) -> str:
    ids = ",".join(str(i) for i in sorted(members))
    return prefix + hashlib.sha256(ids.encode()).hexdigest()[:16]


def knockout_key(members: Iterable[int]) -> str:
    """The key of the knockout among these players."""
    return _hash_key("K", members)


def seat_draw_key(members: Iterable[int]) -> str:
    """The key of the seat draw of a level pair (minimal mode)."""
    return _hash_key("S", members)


def duel_key(knockout: str, round_number: int, match: int) -> str:
    """The key of one tie-break duel: knockout, round (from 1), match in the round (from 1)."""
    return f"{knockout}-r{round_number}-m{match}"


def _next_power_of_two(n: int) -> int:
    power = 1
    while power < n:
        power *= 2
    return power


def _straddles(first: int, last: int) -> bool:
    return any(first <= b < last for b in BOUNDARIES)


@dataclass(frozen=True)
class TieBreakDuel:
    """A stored tie-break duel as the planner reads it.

    ``winner`` is None while the duel is not decided (not started, running, or drawn and due to
    be replayed). ``drawn`` marks a row that ended without a winner (a draw, or a win corrected
    to none): it stays part of its match, but its replay — another row — is the one still to
    play, and the one a walkover is recorded on. ``ref`` is the caller's own id for the row,
    passed through untouched.
    """

    key: str
    seat_a: int
    seat_b: int
    winner: int | None = None
    ref: int | None = None
    drawn: bool = False


@dataclass(frozen=True)
class Match:
    """One match of a knockout round, as the plan sees it now.

    ``walkover`` marks a match decided because a player withdrew and no result was stored
    (TOURNAMENT.md point 5: the withdrawal forfeits the pending duel); the caller records the
    forfeit on the row ``ref`` if there is one. ``ref`` is the stored row for this match, if any.
    """

    key: str
    knockout: str
    round: int
    number: int
    seat_a: int
    seat_b: int
    winner: int | None = None
    walkover: bool = False
    ref: int | None = None

    @property
    def decided(self) -> bool:
        return self.winner is not None

    @property
    def loser(self) -> int | None:
        if self.winner is None:
            return None
        return self.seat_b if self.winner == self.seat_a else self.seat_a


@dataclass(frozen=True)
class KnockoutRound:
    """One round: the players with a bye (round 1 only) and the matches, in line order."""

    number: int
    byes: tuple[int, ...]
    matches: tuple[Match, ...]

    @property
    def complete(self) -> bool:
        return all(m.decided for m in self.matches)


@dataclass(frozen=True)
class Draw:
    """A seeded draw. ``kind`` is ``knockout`` (the line) or ``seat`` (a level pair, seat A
    first). ``new`` marks a draw made by this plan: store it (key, seed, order)."""

    key: str
    kind: str
    members: tuple[int, ...]
    seed: str
    order: tuple[int, ...]
    new: bool = False


@dataclass(frozen=True)
class Knockout:
    """One single-elimination knockout of level players.

    ``members`` are sorted ids (a player who withdrew during the tie-breaks stays a member of a
    knockout drawn before; their matches are walkovers). ``first``–``last`` are the positions
    its active members cover. ``parent`` is the knockout whose round losers these players are,
    or None for a level block of the standings. ``state``: ``playing``, ``finished`` or
    ``stopped`` (minimal mode: the boundaries were settled before the final).
    """

    key: str
    members: tuple[int, ...]
    draw: Draw
    points: int
    first: int
    last: int
    parent: str | None
    rounds: tuple[KnockoutRound, ...]
    state: str

    @property
    def line(self) -> tuple[int, ...]:
        return self.draw.order

    @property
    def seed(self) -> str:
        return self.draw.seed

    @property
    def byes(self) -> int:
        return _next_power_of_two(len(self.members)) - len(self.members)


@dataclass(frozen=True)
class Tier:
    """Active players holding positions ``first``–``last`` together (one player: one position).

    ``state`` is ``placed``, ``shared`` (minimal mode, seat-draw order), ``pending`` (a
    knockout is separating them) or ``level`` (after position 4, never separated).
    """

    first: int
    last: int
    players: tuple[int, ...]
    points: int
    state: str


@dataclass(frozen=True)
class TieBreakPlan:
    """The planner's answer. See docs/format.md for how a service applies it.

    - ``knockouts``: every knockout the plan runs, parents before the knockouts they spawn;
    - ``draws``: every draw the plan relies on; those with ``new`` are to be stored;
    - ``to_play``: the duels to play now (create a row for any that has no ``ref``);
    - ``void``: stored duels the plan no longer calls for;
    - ``walkovers``: matches decided by a withdrawal with no result stored: record each as a
      forfeit (on its ``ref`` row, or a new row), so that a later withdrawal cannot rewrite it;
    - ``tiers``: the order of all active players as it stands, best first;
    - ``settled``: positions 1–4 are settled (the playoffs may start);
    - ``positions``: once settled, ``rank -> players`` for ranks 1–4 (a shared rank, minimal
      mode only, lists its pair seat A first); empty before.
    """

    mode: str
    master_seed: str
    knockouts: tuple[Knockout, ...]
    draws: tuple[Draw, ...]
    to_play: tuple[Match, ...]
    void: tuple[TieBreakDuel, ...]
    walkovers: tuple[Match, ...]
    tiers: tuple[Tier, ...]
    settled: bool
    positions: dict[int, tuple[int, ...]] = field(default_factory=dict)

    @property
    def new_draws(self) -> tuple[Draw, ...]:
        return tuple(d for d in self.draws if d.new)

    @property
    def needed(self) -> bool:
        """Whether any tie-break duel is or was part of this plan."""
        return bool(self.knockouts)


class _Planner:
    def __init__(
        self,
        mode: str,
        master_seed: str,
        draws: Mapping[str, Sequence[int]],
        duels: Sequence[TieBreakDuel],
        withdrawn: frozenset[int],
    ) -> None:
        self.mode = mode
        self.master_seed = master_seed
        self.stored = draws
        self.stored_knockouts: list[tuple[frozenset[int], str]] = []
        for key, order in draws.items():
            expected = {"K": knockout_key, "S": seat_draw_key}.get(key[:1])
            if expected is None or len(set(order)) != len(order) or expected(order) != key:
                raise ValueError(f"stored draw {key} does not match the players it lists")
            if key.startswith("K"):
                self.stored_knockouts.append((frozenset(order), key))
        self.withdrawn = withdrawn
        self.rows: dict[str, list[int]] = {}
        self.duels = duels
        for index, duel in enumerate(duels):
            self.rows.setdefault(duel.key, []).append(index)
        self.used: set[int] = set()
        self.knockouts: list[Knockout] = []
        self.draws: dict[str, Draw] = {}
        self.to_play: list[Match] = []
        self.walkovers: list[Match] = []
        self.tiers: list[Tier] = []

    def _active(self, players: Iterable[int]) -> tuple[int, ...]:
        return tuple(p for p in players if p not in self.withdrawn)

    def _stored(self, kind: str, key: str) -> Draw:
        order = tuple(self.stored[key])
        seed = derive_seed(self.master_seed, kind, order)
        return Draw(key, kind, tuple(sorted(order)), seed, order)

    def _stored_knockout(self, members: tuple[int, ...], active: tuple[int, ...]) -> Draw | None:
        """The stored knockout of these level players, drawn before some of them withdrew.

        Withdrawals only grow, so such a draw lists every player still active and no one from
        outside the group; of several (left by corrections), the one with most players.
        """
        outer, inner = frozenset(members), frozenset(active)
        found = [
            (len(drawn), key)
            for drawn, key in self.stored_knockouts
            if inner <= drawn <= outer and len(drawn) >= 2
        ]
        return self._stored(KNOCKOUT, max(found)[1]) if found else None

    def _new_draw(self, kind: str, members: tuple[int, ...]) -> Draw:
        key = knockout_key(members) if kind == KNOCKOUT else seat_draw_key(members)
        seed = derive_seed(self.master_seed, kind, members)
        return Draw(key, kind, tuple(sorted(members)), seed, seeded_order(members, seed), True)

    def place(self, members: tuple[int, ...], points: int, first: int, parent: str | None) -> int:
        """Order a group of level players from ``first``; return the next free position."""
        active = self._active(members)
        last = first + len(active) - 1
        if first <= TOP:
            # A knockout drawn before keeps its draw even if members have withdrawn since
            # (point 5: finished knockouts stand), down to a single member left or none; a new
            # knockout leaves withdrawn players out.
            draw = self._stored_knockout(members, active)
            required = len(active) >= 2 and (self.mode == FULL or _straddles(first, last))
            if draw is None and required:
                draw = self._new_draw(KNOCKOUT, active)
            if draw is not None and self._knockout(draw, points, first, last, parent, required):
                return last + 1
        if not active:
            return first
        if len(active) == 1:
            self.tiers.append(Tier(first, last, active, points, PLACED))
        elif first > TOP:
            # "Positions after 4 are never separated."
            self.tiers.append(Tier(first, last, active, points, LEVEL))
        else:
            self._level_pair(active, points, first)
        return last + 1

    def _level_pair(self, active: tuple[int, ...], points: int, first: int) -> None:
        """Minimal mode: players left level inside 1–2 or 3–4 share the rank (point 4)."""
        if len(active) == 1:
            self.tiers.append(Tier(first, first, active, points, PLACED))
            return
        if len(active) != 2 or _straddles(first, first + 1):
            raise AssertionError(f"level players {active} at {first} should have played")
        key = seat_draw_key(active)
        draw = self._stored(SEAT, key) if key in self.stored else self._new_draw(SEAT, active)
        self.draws[draw.key] = draw
        self.tiers.append(Tier(first, first + 1, draw.order, points, SHARED))

    def _match(
        self, knockout: str, round_number: int, number: int, a: int, b: int
    ) -> tuple[Match, list[int]]:
        key = duel_key(knockout, round_number, number)
        rows = [
            i
            for i in self.rows.get(key, ())
            if {self.duels[i].seat_a, self.duels[i].seat_b} == {a, b}
        ]
        winners = {self.duels[i].winner for i in rows} - {None}
        if not winners <= {a, b}:
            raise ValueError(f"duel {key} has a winner who did not play it")
        if len(winners) > 1:
            raise ValueError(f"duel {key} has two different winners stored")
        # A drawn row has ended: the match goes on in its replay (or in a new row if none).
        pending = [
            self.duels[i].ref
            for i in rows
            if self.duels[i].winner is None and not self.duels[i].drawn
        ]
        decided = [self.duels[i].ref for i in rows if self.duels[i].winner is not None]
        ref = (decided or pending or [None])[0]
        if winners:
            return Match(key, knockout, round_number, number, a, b, winners.pop(), ref=ref), rows
        if a in self.withdrawn or b in self.withdrawn:
            # Two withdrawn players: the earlier in the line goes through nominally; neither
            # is in the order any more, so it changes no position.
            winner = b if a in self.withdrawn and b not in self.withdrawn else a
            return Match(key, knockout, round_number, number, a, b, winner, True, ref), rows
        return Match(key, knockout, round_number, number, a, b, ref=ref), rows

    def _knockout(
        self, draw: Draw, points: int, first: int, last: int, parent: str | None, required: bool
    ) -> bool:
        """Run one knockout as far as results and need go. False if it never started."""
        line = list(draw.order)
        byes = _next_power_of_two(len(line)) - len(line)
        current = line
        rounds: list[KnockoutRound] = []
        losers_by_round: list[list[int]] = []
        state = FINISHED
        number = 1
        while len(current) > 1:
            holders = current[:byes] if number == 1 else []
            rest = current[len(holders) :]
            in_last = first + len(self._active(current)) - 1
            # Round 1 was decided on by ``place``; later rounds only while still needed.
            needed = required if number == 1 else self.mode == FULL or _straddles(first, in_last)
            resolved = [
                self._match(draw.key, number, i // 2 + 1, rest[i], rest[i + 1])
                for i in range(0, len(rest), 2)
            ]
            complete = all(m.decided for m, _ in resolved)
            played = all(m.decided and not m.walkover for m, _ in resolved)
            if not needed and not played:
                # Minimal mode stops here; a round already fully played still counts (point 5:
                # finished knockouts stand), a partly played one does not — nor one that only
                # a withdrawal would decide: a walkover is never recorded for a duel the plan
                # does not call for.
                state = STOPPED
                break
            for _, rows in resolved:
                self.used.update(rows)
            rounds.append(KnockoutRound(number, tuple(holders), tuple(m for m, _ in resolved)))
            self.walkovers.extend(m for m, _ in resolved if m.walkover)
            if not complete:
                # Round by round: the next round is drawn from this one's results.
                self.to_play.extend(m for m, _ in resolved if not m.decided)
                state = PLAYING
                break
            winners = [m.winner for m, _ in resolved]
            losers_by_round.append([m.loser for m, _ in resolved if m.loser is not None])
            current = holders + [w for w in winners if w is not None]
            number += 1
        if not rounds:
            return False
        self.draws[draw.key] = draw
        self.knockouts.append(
            Knockout(
                draw.key, draw.members, draw, points, first, last, parent, tuple(rounds), state
            )
        )
        still_in = tuple(sorted(self._active(current)))
        if state == PLAYING:
            self.tiers.append(Tier(first, first + len(still_in) - 1, still_in, points, PENDING))
        elif still_in:
            self._level_pair(still_in, points, first)
        position = first + len(still_in)
        # The final's loser next, then each earlier round's losers, level among themselves;
        # each such group orders itself the same way (point 3).
        for losers in reversed(losers_by_round):
            position = self.place(tuple(sorted(losers)), points, position, draw.key)
        return True


def plan_tiebreaks(
    points: Mapping[int, int],
    *,
    master_seed: Seed,
    mode: str = FULL,
    draws: Mapping[str, Sequence[int]] | None = None,
    duels: Iterable[TieBreakDuel] = (),
    withdrawn: Collection[int] = (),
) -> TieBreakPlan:
    """Plan (or re-plan) the tie-breaks for positions 1–4.

    TOURNAMENT.md "Tie-breaks for the top four":

    - ``points``: group-phase points of every active player, plus those of players who
      withdrew *during the tie-breaks* (listed again in ``withdrawn``), so that knockouts drawn
      before their withdrawal keep their keys and results (point 5);
    - ``master_seed``: the seed stored when the tie-breaks were first planned (point 1);
    - ``mode``: ``full`` or ``minimal`` (point 4);
    - ``draws``: every stored draw, ``key -> order`` (knockout lines and seat draws);
    - ``duels``: every stored, non-void tie-break duel, decided or not;
    - ``withdrawn``: players who withdrew after the tie-breaks were planned.

    Level blocks are ordered by points; a block of two or more covering any of positions 1–4
    plays a knockout (minimal mode: only if it straddles 2/3 or 4/5). A knockout whose members
    are unchanged keeps its stored draw and every stored result the plan still reaches;
    a stored duel it no longer reaches is reported in ``void`` ("Corrections").
    """
    if mode not in MODES:
        raise ValueError(f"unknown tie-break mode {mode!r}")
    gone = frozenset(withdrawn)
    if not gone <= set(points):
        raise ValueError("withdrawn players must be listed in points")
    stored_duels = tuple(duels)
    planner = _Planner(mode, str(master_seed), draws or {}, stored_duels, gone)
    blocks: dict[int, list[int]] = {}
    for player, pts in points.items():
        blocks.setdefault(pts, []).append(player)
    position = 1
    for pts in sorted(blocks, reverse=True):
        position = planner.place(tuple(sorted(blocks[pts])), pts, position, None)
    settled = all(t.state != PENDING for t in planner.tiers)
    positions = {t.first: t.players for t in planner.tiers if t.first <= TOP} if settled else {}
    return TieBreakPlan(
        mode=mode,
        master_seed=str(master_seed),
        knockouts=tuple(planner.knockouts),
        draws=tuple(planner.draws.values()),
        to_play=tuple(planner.to_play),
        void=tuple(d for i, d in enumerate(stored_duels) if i not in planner.used),
        walkovers=tuple(planner.walkovers),
        tiers=tuple(planner.tiers),
        settled=settled,
        positions=positions,
    )


@dataclass(frozen=True)
class WhatIfKnockout:
    """A knockout the current standings would need: who, at which positions, its shape."""

    players: tuple[int, ...]
    points: int
    first: int
    last: int
    byes: int
    first_round_duels: int
    rounds: int


@dataclass(frozen=True)
class WhatIf:
    """TOURNAMENT.md "Standings": the tie-breaks the current standings would need.

    ``plan`` is the planner's answer with no draws and no results; its draws come from a
    placeholder seed and are illustrative only (the real draw is made when the tie-breaks are
    planned): show ``knockouts`` rather than its pairings.
    """

    knockouts: tuple[WhatIfKnockout, ...]
    shared: tuple[Tier, ...]
    plan: TieBreakPlan

    @property
    def needed(self) -> bool:
        return bool(self.knockouts)


PREVIEW_SEED = "what-if"


def what_if_now(points: Mapping[int, int], *, mode: str = FULL) -> WhatIf:
    """The tie-breaks the standings would need if the group phase ended now.

    ``points`` are the active players' points (``standings.active_points``). ``shared`` lists
    the pairs minimal mode would leave level (their seat draw is made at planning time).
    """
    plan = plan_tiebreaks(points, master_seed=PREVIEW_SEED, mode=mode)
    knockouts = tuple(
        WhatIfKnockout(
            k.members,
            k.points,
            k.first,
            k.last,
            k.byes,
            len(k.members) - _next_power_of_two(len(k.members)) // 2,
            max(1, (_next_power_of_two(len(k.members)) - 1).bit_length()),
        )
        for k in plan.knockouts
        if k.parent is None
    )
    shared = tuple(t for t in plan.tiers if t.state == SHARED)
    return WhatIf(knockouts, shared, plan)
