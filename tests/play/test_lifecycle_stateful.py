"""Property: whatever commands arrive — right or wrong, from either seat, repeated keys, stale
revisions, an abandon — the write path answers each as a model of its order predicts (a
repeat, someone else moved, refused, applied), and the stored game always restores to the
table the commands applied one by one would give, for every viewer."""

import copy

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from play import errors, selectors
from play.adapters.base import Command, Refused, Viewer
from play.models import Game, GameEvent, GameStatus
from play.services import Actor, Holder, abandon_game, apply_command, start_game
from tests.play.counting import ADAPTER, KIND

pytestmark = pytest.mark.django_db

VIEWERS = [Viewer("seat", "A"), Viewer("seat", "B"), Viewer("public"), Viewer("owner")]


class GameLife(RuleBasedStateMachine):
    @initialize(
        goal=st.integers(4, 14),
        bot=st.booleans(),
        seed=st.binary(min_size=16, max_size=16),
    )
    def start(self, goal: int, bot: bool, seed: bytes) -> None:
        config = {"target": goal, "bots": ["B"] if bot else []}
        holders = {"A": Holder("referee"), "B": Holder("bot" if bot else "referee")}
        self.game = start_game(
            kind=KIND, config=config, seats=["A", "B"], holders=holders, seed=seed
        )
        self.table, opening = ADAPTER.start(config, ["A", "B"], seed)
        self.events, self.revision, self.abandoned = len(opening), 0, False
        self.recorded: dict[tuple[str, str], dict] = {}
        self.commands: dict[tuple[str, str], Command] = {}

    @rule(
        name=st.sampled_from(["add", "add", "add", "card"]),
        n=st.integers(0, 4),
        seat=st.sampled_from("AB"),
        actor=st.sampled_from(["user:1", "user:2"]),
        key=st.sampled_from(["k1", "k2", "k3", "k4", "k5", "k6"]),
        late=st.integers(0, 1),
    )
    def send(self, name: str, n: int, seat: str, actor: str, key: str, late: int) -> None:
        command = Command(name, seat, {"n": n})
        seen = self.revision - late

        def attempt():
            return apply_command(
                game_id=self.game.pk,
                actor=Actor(actor),
                command=command,
                key=key,
                seen_revision=seen,
                policy=lambda game, actor, command: None,
            )

        if (actor, key) in self.recorded and self.commands[actor, key] != command:
            # The key came with another command: a move from a page already used, out of date.
            with pytest.raises(errors.Stale):
                attempt()
            return
        if (actor, key) in self.recorded:
            outcome = attempt()
            assert outcome.repeat and outcome.recorded == self.recorded[actor, key]
            assert outcome.revision == self.revision
            return
        if late:
            with pytest.raises(errors.Stale):
                attempt()
            return
        if self.abandoned:
            with pytest.raises(errors.Refused):
                attempt()
            return
        trial = copy.deepcopy(self.table)
        try:
            applied = ADAPTER.apply(trial, command)
        except Refused as refused:
            with pytest.raises(errors.Refused, match=str(refused)):
                attempt()
            return
        outcome = attempt()
        self.table, self.revision = trial, self.revision + 1
        self.events += len(applied)
        self.recorded[actor, key] = outcome.recorded
        self.commands[actor, key] = command
        assert not outcome.repeat and outcome.revision == self.revision

    @rule()
    def abandon(self) -> None:
        abandon_game(game_id=self.game.pk)
        if not self.abandoned and not ADAPTER.finished(self.table):
            self.abandoned, self.revision = True, self.revision + 1

    @invariant()
    def the_stored_game_is_the_table(self) -> None:
        if not hasattr(self, "game"):
            return
        game = Game.objects.get(pk=self.game.pk)
        assert game.revision == self.revision
        assert GameEvent.objects.filter(game=game).count() == self.events
        finished = ADAPTER.finished(self.table)
        assert (game.status == GameStatus.FINISHED) == (finished and not self.abandoned)
        for viewer in VIEWERS:
            assert selectors.view_of(game.pk, viewer) == ADAPTER.view(self.table, viewer)


def test_a_games_life_keeps_its_invariants(counting) -> None:
    run_state_machine_as_test(
        GameLife,
        settings=settings(
            max_examples=8,
            stateful_step_count=12,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
