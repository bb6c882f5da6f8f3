"""Properties of the tie-break planner (TOURNAMENT.md "Tie-breaks for the top four").

- For any pattern of ties among up to 30 players, playing the duels the planner asks for ends
  with an unambiguous order of positions 1–4 (shared ranks only in minimal mode, only as pairs
  inside 1–2 or 3–4).
- Minimal mode plays only what changes who qualifies or who meets whom (checked exhaustively
  on small fields), and plays a subset of what full mode plays, to the same boundaries.
- Re-planning from the stored draws and results gives the same plan (point 1, "Corrections").
"""

from __future__ import annotations

import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.format import FULL, MINIMAL, TieBreakDuel, plan_tiebreaks

MAX_STEPS = 64


def field_points(values: list[int]) -> dict[int, int]:
    # Ids spread out so that id order and line order differ.
    return {7 * i + 3: v for i, v in enumerate(values)}


def play_out(points, mode, seed, choose, withdrawals=None):
    """Plan, store the new draws, decide every duel to play now, repeat until settled."""
    draws: dict[str, tuple[int, ...]] = {}
    duels: list[TieBreakDuel] = []
    gone: set[int] = set()
    played: list[tuple[str, int, int]] = []
    for step in range(MAX_STEPS):
        if withdrawals and step in withdrawals and withdrawals[step] not in gone:
            gone.add(withdrawals[step])
        plan = plan_tiebreaks(
            points, master_seed=seed, mode=mode, draws=draws, duels=duels, withdrawn=gone
        )
        assert plan.void == (), "a forward run never voids anything"
        for d in plan.new_draws:
            assert d.key not in draws, "a stored draw is never drawn again"
            draws[d.key] = d.order
        # The caller records every walkover as a forfeit (docs/format.md).
        duels += [TieBreakDuel(m.key, m.seat_a, m.seat_b, m.winner) for m in plan.walkovers]
        if plan.settled:
            return plan, played, gone
        assert plan.to_play, "an unsettled plan always has a duel to play"
        for m in plan.to_play:
            assert m.seat_a not in gone and m.seat_b not in gone
            assert points[m.seat_a] == points[m.seat_b], "only level players meet"
            winner = choose(m)
            played.append((m.key, m.seat_a, m.seat_b))
            duels.append(TieBreakDuel(m.key, m.seat_a, m.seat_b, winner))
    raise AssertionError("the tie-breaks did not settle")


def check_positions(plan, points, mode, gone=frozenset()):
    active = {p: v for p, v in points.items() if p not in gone}
    expected = min(4, len(active))
    ranks = plan.positions
    placed = [p for rank in sorted(ranks) for p in ranks[rank]]
    assert len(placed) == len(set(placed)) == expected
    assert not set(placed) & set(gone)
    for rank, players in ranks.items():
        if mode == FULL:
            assert len(players) == 1
        else:
            assert len(players) == 1 or (len(players) == 2 and rank in (1, 3))
    # Rank numbers are positions: each rank starts where the ones above end.
    position = 1
    for rank in sorted(ranks):
        assert rank == position
        position += len(ranks[rank])
    # The top four are the best on points; tie-breaks only order level players.
    top = [active[p] for p in placed]
    assert top == sorted(top, reverse=True)
    others = [v for p, v in active.items() if p not in placed]
    assert all(v <= min(top) for v in others) if top else True


def boundaries(plan) -> tuple[frozenset[int], frozenset[int]]:
    ranks = plan.positions
    top2 = frozenset(p for r, ps in ranks.items() if r <= 2 for p in ps)
    top4 = frozenset(p for ps in ranks.values() for p in ps)
    return top2, top4


points_patterns = st.lists(st.integers(-3, 3), min_size=1, max_size=30)


@settings(max_examples=120, deadline=None)
@given(
    points_patterns,
    st.sampled_from([FULL, MINIMAL]),
    st.randoms(use_true_random=False),
    st.text(max_size=6),
)
def test_any_pattern_of_ties_ends_with_an_unambiguous_top_four(values, mode, rnd, seed):
    points = field_points(values)
    plan, _, _ = play_out(points, mode, seed, lambda m: rnd.choice([m.seat_a, m.seat_b]))
    check_positions(plan, points, mode)


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 30), st.sampled_from([FULL, MINIMAL]), st.randoms(use_true_random=False))
def test_everyone_level_ends_with_an_unambiguous_top_four(n, mode, rnd):
    points = {p: 0 for p in range(1, n + 1)}
    plan, played, _ = play_out(points, mode, "s", lambda m: rnd.choice([m.seat_a, m.seat_b]))
    check_positions(plan, points, mode)
    if mode == FULL:
        # One knockout of n (n - 1 duels) and, from 4 players on, the losers' duel for 3rd.
        assert len(played) == n - 1 + (1 if n >= 4 else 0)


@settings(max_examples=80, deadline=None)
@given(points_patterns, st.integers(0, 2**32))
def test_minimal_mode_plays_a_subset_of_full_mode_to_the_same_boundaries(values, salt):
    points = field_points(values)

    def stronger(m):
        # A fixed strength order decides every duel the same way in both modes.
        return max((m.seat_a, m.seat_b), key=lambda p: random.Random(salt * 1000 + p).random())

    full, full_played, _ = play_out(points, FULL, "s", stronger)
    minimal, minimal_played, _ = play_out(points, MINIMAL, "s", stronger)
    assert set(minimal_played) <= set(full_played)
    assert boundaries(minimal) == boundaries(full)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-1, 1), min_size=2, max_size=8), st.text(max_size=4))
def test_minimal_mode_plays_only_what_changes_who_qualifies_or_who_meets_whom(values, seed):
    """Every duel minimal mode asks for can change the 1–2 or the 1–4 set: the outcomes
    reachable after one result differ from those reachable after the other (exhaustive)."""
    points = field_points(values)

    def plan_for(results: frozenset):
        duels = [TieBreakDuel(k, a, b, w) for k, a, b, w in results]
        return plan_tiebreaks(points, master_seed=seed, mode=MINIMAL, duels=duels)

    @cache
    def reachable(results: frozenset) -> frozenset:
        plan = plan_for(results)
        if plan.settled:
            return frozenset([boundaries(plan)])
        m = plan.to_play[0]
        return reachable(results | {(m.key, m.seat_a, m.seat_b, m.seat_a)}) | reachable(
            results | {(m.key, m.seat_a, m.seat_b, m.seat_b)}
        )

    seen: set[frozenset] = set()
    todo = [frozenset()]
    while todo:
        results = todo.pop()
        if results in seen:
            continue
        seen.add(results)
        plan = plan_for(results)
        for m in plan.to_play:
            a_wins = results | {(m.key, m.seat_a, m.seat_b, m.seat_a)}
            b_wins = results | {(m.key, m.seat_a, m.seat_b, m.seat_b)}
            assert reachable(a_wins) != reachable(b_wins), f"{m.key} changes nothing"
            todo += [a_wins, b_wins]


@settings(max_examples=60, deadline=None)
@given(points_patterns, st.sampled_from([FULL, MINIMAL]), st.randoms(use_true_random=False))
def test_replanning_from_stored_draws_and_results_gives_the_same_plan(values, mode, rnd):
    points = field_points(values)
    draws: dict[str, tuple[int, ...]] = {}
    duels: list[TieBreakDuel] = []
    for _ in range(MAX_STEPS):
        plan = plan_tiebreaks(points, master_seed="r", mode=mode, draws=draws, duels=duels)
        draws.update({d.key: d.order for d in plan.new_draws})
        again = plan_tiebreaks(
            points, master_seed="r", mode=mode, draws=draws, duels=list(reversed(duels))
        )
        assert again.new_draws == ()
        assert (again.to_play, again.tiers, again.positions) == (
            plan.to_play,
            plan.tiers,
            plan.positions,
        )
        if plan.settled:
            break
        # Decide only part of what is to play: plans in the middle of rounds are covered too.
        for m in plan.to_play[: rnd.randint(1, len(plan.to_play))]:
            duels.append(TieBreakDuel(m.key, m.seat_a, m.seat_b, rnd.choice([m.seat_a, m.seat_b])))
    assert plan.settled


@settings(max_examples=80, deadline=None)
@given(
    points_patterns,
    st.sampled_from([FULL, MINIMAL]),
    st.randoms(use_true_random=False),
    st.dictionaries(st.integers(0, 6), st.integers(0, 29), max_size=3),
)
def test_withdrawals_during_the_tie_breaks_still_end_with_an_unambiguous_top_four(
    values, mode, rnd, when
):
    points = field_points(values)
    ids = sorted(points)
    withdrawals = {step: ids[i % len(ids)] for step, i in when.items()}
    plan, _, gone = play_out(
        points, mode, "w", lambda m: rnd.choice([m.seat_a, m.seat_b]), withdrawals
    )
    check_positions(plan, points, mode, frozenset(gone))


@settings(max_examples=60, deadline=None)
@given(
    points_patterns,
    st.sampled_from([FULL, MINIMAL]),
    st.randoms(use_true_random=False),
    st.integers(0, 29),
    st.integers(-2, 2),
)
def test_after_a_correction_the_plan_keeps_what_still_follows_and_settles(
    values, mode, rnd, who, delta
):
    """ "Corrections": knockouts with unchanged members keep their draws; stored duels the new
    plan does not reach are void; playing on settles positions 1–4."""
    points = field_points(values)

    def choose(m):
        return rnd.choice([m.seat_a, m.seat_b])

    # Play the tie-breaks out, keeping what a service would store.
    draws: dict[str, tuple[int, ...]] = {}
    duels: list[TieBreakDuel] = []
    step_plan = plan_tiebreaks(points, master_seed="c", mode=mode)
    while True:
        draws.update({d.key: d.order for d in step_plan.new_draws})
        if step_plan.settled:
            break
        duels += [TieBreakDuel(m.key, m.seat_a, m.seat_b, choose(m)) for m in step_plan.to_play]
        step_plan = plan_tiebreaks(points, master_seed="c", mode=mode, draws=draws, duels=duels)
    corrected = dict(points)
    player = sorted(points)[who % len(points)]
    corrected[player] += delta
    for _ in range(MAX_STEPS):
        plan = plan_tiebreaks(corrected, master_seed="c", mode=mode, draws=draws, duels=duels)
        for ko in plan.knockouts:
            assert ko.draw.new == (ko.key not in draws)
        reached = {m.key for ko in plan.knockouts for r in ko.rounds for m in r.matches}
        for d in plan.void:
            assert d.key not in reached or any(
                m.key == d.key and {m.seat_a, m.seat_b} != {d.seat_a, d.seat_b}
                for ko in plan.knockouts
                for r in ko.rounds
                for m in r.matches
            )
        duels = [d for d in duels if d not in plan.void]
        draws.update({d.key: d.order for d in plan.new_draws})
        if plan.settled:
            break
        duels += [TieBreakDuel(m.key, m.seat_a, m.seat_b, choose(m)) for m in plan.to_play]
    assert plan.settled
    check_positions(plan, corrected, mode)
