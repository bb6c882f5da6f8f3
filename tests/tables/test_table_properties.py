"""Property: whatever the table (2–6 seats, teams or not) and whatever legal moves the bots
play through the services, with undos in between, the console's state is the state the
downloaded record replays to, and undoing back to move n gives the state after n moves."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.split_uno import Duel as EngineDuel
from games.split_uno import Simulator, state_after
from tables import selectors, services
from tests.factories import UserFactory
from tests.tables.helpers import rev

pytestmark = pytest.mark.django_db

TEAMS = {
    4: [["A", "C"], ["B", "D"]],
    5: [["A", "C", "E"], ["B", "D"]],
    6: [["A", "C", "E"], ["B", "D", "F"]],
}


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seats=st.integers(2, 6),
    team=st.booleans(),
    seed=st.integers(0, 10**6),
    moves=st.integers(1, 25),
    undo_every=st.integers(3, 9),
)
def test_the_console_state_is_the_records_state(seats, team, seed, moves, undo_every):
    owner = UserFactory()
    team = team and seats >= 4
    table = services.open_table(
        owner=owner,
        ruleset="official",
        names=[f"P{i}" for i in range(seats)],
        variants=["team"] if team else [],
        teams=TEAMS[seats] if team else None,
        number_cards=4,
        action_cards=1,
    )
    rng = random.Random(seed)
    for n in range(1, moves + 1):
        engine = EngineDuel.from_record(services.record_of(table))
        event = Simulator(engine, ["random"] * seats, rng=rng).next_event()
        if event is None:
            break
        services.append_event(
            table_id=table.pk, actor=owner, event=event, expected_revision=rev(table)
        )
        if n % undo_every == 0:
            services.undo(table_id=table.pk, actor=owner, expected_revision=rev(table))
    record = services.record_of(table)
    shown = selectors.console(table).state
    assert shown == EngineDuel.from_record(record).state()
    # Undo back to the start, one move at a time: each state is the record's prefix.
    for k in range(len(record["events"]) - 1, -1, -1):
        services.undo(table_id=table.pk, actor=owner, expected_revision=rev(table))
        assert selectors.console(table).state == state_after(record, k)
