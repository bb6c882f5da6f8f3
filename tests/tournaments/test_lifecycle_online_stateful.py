"""Online duels inside the tournament's state machine (issue 31, ONLINE.md 6): the machine of
`test_lifecycle_stateful` (its set-up, rules and invariants, imported, never copied) with every
entry held by an account, and rules for online duels beside its own — an open duel switched
online before it starts, its players ready, a seat's move chosen from that seat's own view
(a seal, an action card, which hands seals back, an answer, a choice), a page overtaken by
another move, the seat clock running out (three in a row forfeit), resigning and a referee's
ending — while the machine's withdrawals, corrections, voids, undos and the automation go on
around them. After every step, besides the tournament's invariants: every dealt game conserves
its cards (`conservation_problems`) and its duel's record replays with the engine to the duel
row's state.

The clock is never slept on: its moment is passed to `play.clock.act_if_due` (a second after
the seat's deadline), as the race tests do. The deals come from a counter (`Deals`), so that
hypothesis can replay an example.

CI runs a small fixed-seed search; a longer one:

    LIFECYCLE_ONLINE_EXAMPLES=100 LIFECYCLE_ONLINE_STEPS=40 \\
        ./dev test tests/tournaments/test_lifecycle_online_stateful.py
"""

import hashlib
import os
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, precondition, rule

from core.errors import ServiceError
from duels import services as duel_services
from duels.models import Duel, DuelStatus
from games.split_uno import Duel as EngineDuel
from play import clock
from play import services as play_services
from play.adapters.base import Command, Viewer
from play.adapters.split_uno_dealt import conservation_problems
from play.models import Game, GameEvent, Seat
from play.selectors import restore
from tests.tournaments.test_lifecycle_stateful import (
    STATS,
    TournamentLife,
    choose,
    open_duels,
    pick,
    run_machine,
    seat,
    snapshot,
)
from tournaments.models import Entrant, Tournament
from tournaments.services import online, online_rulings

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("LIFECYCLE_ONLINE_EXAMPLES", "10"))
STEPS = int(os.environ.get("LIFECYCLE_ONLINE_STEPS", "40"))
#: A short deal (the duel's options, as `simulate_tournament --online --short` sets them), so
#: that some duels end by a seat reaching 0 within the run's steps.
SHORT = {"starting_number_cards": 3}
#: The moves a seat may choose from its view; "resign" is a rule of its own.
MOVES = ("seal", "play", "answer", "choose")


class Deals:
    """The app's deals (`play.services`' source of seeds) from a counter reset with each
    example: the same steps deal the same cards, as hypothesis needs when it replays an
    example (with a fresh random deal a precondition met once may fail the next time:
    `FlakyStrategyDefinition`)."""

    def __init__(self) -> None:
        self.dealt = 0

    def token_bytes(self, size: int) -> bytes:
        self.dealt += 1
        return hashlib.shake_256(f"life-deal-{self.dealt}".encode()).digest(size)


DEALS = Deals()


def assert_dealt_games_sound(tournament, checked: dict[int, int]) -> None:
    """Every dealt game of the tournament: each card in exactly one place, and its duel's
    record (an ordinary one) replays with the engine to the duel row's state and revision.
    `checked` holds the revision each game was last checked at (a game unchanged since is
    not restored again)."""
    dealt = Duel.objects.filter(tournament=tournament, game__kind=duel_services.DEALT)
    for duel in dealt.select_related("game"):
        game = duel.game
        if checked.get(game.pk) == game.revision:
            continue
        where = f"online duel {duel.pk} ({duel.status}, game revision {game.revision})"
        assert conservation_problems(restore(game).table) == [], where
        assert duel.revision == game.revision, f"{where}: the duel row is at {duel.revision}"
        replayed = EngineDuel.from_record(duel_services.record_of(duel)).state()
        assert replayed == duel.state, f"{where}: the record replays to another state"
        checked[game.pk] = game.revision


class OnlineTournamentLife(TournamentLife):
    """The tournament's life with some duels played online by their players' accounts."""

    @initialize(
        players=st.integers(min_value=10, max_value=30),
        minimal=st.booleans(),
        split=st.sampled_from(["alternating", "random"]),
        setting=st.sampled_from(["at a table", "online"]),
    )
    def start(self, players: int, minimal: bool, split: str, setting: str) -> None:
        DEALS.dealt = 0
        super().start(players, minimal, split)
        if setting == "online":
            # The tournament's setting (ONLINE.md 6): every duel it creates is online.
            Tournament.objects.filter(pk=self.t.pk).update(online_duels=True)
            self.tournament.refresh_from_db()
        # Every entry claimed by an account of its own (ONLINE.md 6: an online duel is played
        # by the accounts holding its two entries), as `simulate_tournament --online` does.
        users = get_user_model().objects
        for entrant in Entrant.objects.filter(tournament=self.t).order_by("pk"):
            entrant.user = users.create(username=f"life-{entrant.pk}")
            entrant.save(update_fields=["user"])
        self.checked: dict[int, int] = {}

    def teardown(self) -> None:
        if self.tournament is not None:
            STATS["online duels"] += Duel.objects.filter(tournament=self.t, online=True).count()
            STATS["online duels dealt"] += Duel.objects.filter(
                tournament=self.t, game__kind=duel_services.DEALT
            ).count()
        super().teardown()

    # -- helpers ---------------------------------------------------------------------------

    def attempt_online(self, service) -> Any:
        """`attempt`, and a refused online service leaves every dealt game as it was too."""
        games = dict(Game.objects.filter(duel__tournament=self.t).values_list("pk", "revision"))
        before = self.refusals
        done = self.attempt(service)
        if self.refusals > before:
            after = dict(Game.objects.filter(duel__tournament=self.t).values_list("pk", "revision"))
            assert after == games, "a refused online move changed a game"
        return done

    def _running(self, index: int) -> Duel | None:
        return choose(
            [
                d
                for d in open_duels(self.t)
                if d.online and duel_services.is_dealt(d) and d.status == DuelStatus.RUNNING
            ],
            index,
        )

    def _waiting(self) -> list[Duel]:
        """The open online duels not started whose two players are named."""
        return [
            d
            for d in open_duels(self.t)
            if d.online and d.game_id is None and d.seat_a_id and d.seat_b_id
        ]

    def has_online(self) -> bool:
        return self.tournament is not None and bool(self._waiting())

    def has_running_online(self) -> bool:
        return self.tournament is not None and self._running(0) is not None

    # -- the switch and the ready screen ------------------------------------------------------

    @precondition(lambda self: self.tournament is not None)
    @rule(
        which=pick,
        first=pick,
        second=pick,
        short=st.booleans(),
        ready=st.booleans(),
        moves=st.lists(st.tuples(seat, pick, pick, pick, st.just("fresh")), max_size=10),
    )
    def switch_a_duel_online(
        self, which: int, first: int, second: int, short: bool, ready: bool, moves: list
    ) -> None:
        """An open duel not started, both players named (the open round's named first when
        no duel has them), is switched to be played online (the organiser's switch where it
        is built; before it, as the tournament's setting makes one: `Duel.online` and its
        5-minute wait); a started one is refused in words. Then, maybe, both are ready and
        play a few moves (so that CI's short search plays online duels, not only starts them)."""
        candidates = [d for d in open_duels(self.t) if d.seat_a_id and d.seat_b_id]
        if not candidates:
            self.name_representatives(first, second)
            candidates = [d for d in open_duels(self.t) if d.seat_a_id and d.seat_b_id]
        duel = choose([d for d in candidates if not d.online], which)
        if duel is None:
            if ready and self.has_online():
                waiting = choose(self._waiting(), which)
                self._ready(waiting, "AB")
                if waiting.status == DuelStatus.RUNNING:
                    self._play(waiting, moves)
            return
        if (
            self.attempt(lambda: online_rulings.switch_duel(duel, self.organiser, online=True))
            is None
        ):
            return
        if short:
            Duel.objects.filter(pk=duel.pk).update(options={**duel.options, **SHORT})
        STATS["switched online"] += 1
        if ready:
            duel.refresh_from_db()
            self._ready(duel, "AB")
            if duel.status == DuelStatus.RUNNING:
                self._play(duel, moves)

    @precondition(lambda self: self.has_online())
    @rule(which=pick, who=st.sampled_from(["A", "B", "both", "both, twice"]))
    def ready(self, which: int, who: str) -> None:
        """A player says they are ready (twice is once); when both are, the duel is dealt —
        unless it may not start yet (its round not open, a player gone), said in words with
        the readiness kept."""
        duel = choose(self._waiting(), which)
        if duel is not None:
            self._ready(duel, {"A": "A", "B": "B", "both": "AB", "both, twice": "ABAB"}[who])

    def _ready(self, duel: Duel, seats: str) -> None:
        for letter in seats:
            entrant = duel.seat_a if letter == "A" else duel.seat_b
            try:
                online.ready(duel_id=duel.pk, user=entrant.user)
            except ServiceError:
                STATS["ready: may not start yet"] += 1
                duel.refresh_from_db()
                assert duel.game_id is None and duel.status != DuelStatus.RUNNING
            finally:
                self.tournament.refresh_from_db()
        duel.refresh_from_db()
        if duel.game_id is not None:
            STATS["online duels started"] += 1
            assert duel.status in (DuelStatus.RUNNING, DuelStatus.FINISHED)

    # -- the players' moves -------------------------------------------------------------------

    @precondition(lambda self: self.has_running_online())
    @rule(
        which=pick,
        moves=st.lists(
            st.tuples(seat, pick, pick, pick, st.sampled_from(["fresh", "fresh", "old page"])),
            min_size=1,
            max_size=10,
        ),
    )
    def play_moves(self, which: int, moves: list[tuple[str, int, int, int, str]]) -> None:
        """Up to ten moves in one running online duel, each a seat's command chosen from that
        seat's own view (what its page offers), sent from a page of the game's revision or of
        the one before it (a page overtaken by the last move: a seal or an action card still
        counts when only the other seat's seal came since, anything else is stale, in words).
        The invariants of the dealt games hold after each move."""
        duel = self._running(which)
        if duel is not None:
            self._play(duel, moves)

    def _play(self, duel: Duel, moves: list[tuple[str, int, int, int, str]]) -> None:
        for letter, kind, first, second, page in moves:
            duel.refresh_from_db()
            if duel.status != DuelStatus.RUNNING:
                return
            game = Game.objects.get(pk=duel.game_id)
            view = restore(game)
            commands = view.adapter.view(view.table, Viewer("seat", letter)).get("commands") or {}
            offered = [m for m in MOVES if m in commands]
            if not offered:
                continue  # nothing asked of this seat now: its page waits
            name = offered[kind % len(offered)]
            asked = commands[name]
            args: dict[str, Any] = {}
            if name == "seal":
                args["card"] = choose(asked["cards"], first)
            elif name == "play":
                args = {
                    "card": choose(asked["cards"], first),
                    "color": choose(asked["colors"], second),
                }
            elif name == "answer":
                args["choice"] = choose(asked["choices"], first)
            else:
                args["card"] = choose(asked["cards"], first)
            if asked.get("targets"):
                args["target"] = choose(asked["targets"], second)
            revision = game.revision - (page == "old page")
            entrant = duel.seat_a if letter == "A" else duel.seat_b
            played = self.attempt_online(
                partial(
                    online.play_move,
                    duel_id=duel.pk,
                    user=entrant.user,
                    command=Command(name, letter, args),
                    revision=revision,
                    intent=f"{duel.pk}-{game.revision}-{letter}-{name}-{first}-{second}",
                )
            )
            STATS[f"moves: {name}" if played else f"moves refused: {name}"] += 1
            if played is not None and name == "play":
                public = (
                    GameEvent.objects.filter(game_id=duel.game_id, undone_at=None)
                    .order_by("-seq")
                    .values_list("public", flat=True)
                    .first()
                )
                if public and public.get("returned"):
                    STATS["seals handed back by an action card"] += 1
            if played is not None and played.finished:
                STATS["online duels played to their end"] += 1
            assert_dealt_games_sound(self.t, self.checked)

    @precondition(lambda self: self.has_running_online())
    @rule(
        which=pick,
        moves=st.lists(
            st.tuples(seat, pick, pick, pick, st.just("fresh")), min_size=5, max_size=15
        ),
    )
    def keep_playing(self, which: int, moves: list[tuple[str, int, int, int, str]]) -> None:
        """The players go on, from fresh pages: a second rule, so that a running online duel
        gets played among the machine's many other rules (and short deals reach their end)."""
        self.play_moves(which, moves)

    @precondition(lambda self: self.has_running_online())
    @rule(which=pick, letter=seat, times=st.integers(min_value=1, max_value=3))
    def clock_runs_out(self, which: int, letter: str, times: int) -> None:
        """A seat's clock runs out, up to three times in a row (the clock's moment passed to it,
        a second after the deadline): the clock plays for the seat; the third in a row is a
        forfeit, reason abandoned, counted in the tournament as any result."""
        duel = self._running(which)
        if duel is None:
            return
        for _ in range(times):
            deadlines = dict(
                Seat.objects.filter(game_id=duel.game_id, deadline__isnull=False).values_list(
                    "letter", "deadline"
                )
            )
            deadline = deadlines.get(letter) or min(deadlines.values(), default=None)
            if deadline is None:
                return
            before = snapshot(self.tournament)
            acted = clock.act_if_due(duel.game_id, now=deadline + timedelta(seconds=1))
            self.tournament.refresh_from_db()
            duel.refresh_from_db()
            STATS["clock-outs" if acted else "clock found nothing due"] += 1
            if not acted:
                assert snapshot(self.tournament) == before
            assert_dealt_games_sound(self.t, self.checked)
            if duel.status != DuelStatus.RUNNING:
                STATS[f"online duels ended by the clock: {duel.state.get('finish')}"] += 1
                return

    @precondition(lambda self: self.has_running_online())
    @rule(
        which=pick,
        letter=seat,
        how=st.sampled_from(["resign", *sorted(online.ENDINGS), "a player's ruling"]),
        by_organiser=st.booleans(),
    )
    def end_online_duel(self, which: int, letter: str, how: str, by_organiser: bool) -> None:
        """A player resigns (confirmed on their page): a forfeit, reason abandoned. Or a
        referee (an organiser) ends the duel with a reason; one of its players may not
        (refused in words, nothing changed)."""
        duel = self._running(which)
        if duel is None:
            return
        entrant = duel.seat_a if letter == "A" else duel.seat_b
        if how == "resign":
            played = self.attempt_online(
                lambda: online.play_move(
                    duel_id=duel.pk,
                    user=entrant.user,
                    command=Command("resign", letter, {}),
                    revision=duel.revision,
                    intent=f"resign-{duel.pk}",
                )
            )
            if played is not None:
                STATS["resigned"] += 1
                duel.refresh_from_db()
                assert duel.status == DuelStatus.FINISHED
                assert duel.result.loser_id == entrant.pk
            return
        user = self.organiser if by_organiser else self.referee
        ending = how
        if how == "a player's ruling":
            user, ending = entrant.user, f"adjudicate_{letter}"
        done = self.attempt_online(
            lambda: online.end_duel(duel_id=duel.pk, user=user, ending=ending, reason="ruled")
        )
        if how == "a player's ruling":
            assert done is None, "a player ended their own online duel"
        elif done is not None:
            STATS["ended by a ruling"] += 1

    # -- invariants ------------------------------------------------------------------------

    @invariant()
    def dealt_games_sound(self) -> None:
        if self.tournament is not None:
            assert_dealt_games_sound(self.t, self.checked)


def test_online_duels_in_a_tournaments_life_keep_its_invariants(monkeypatch) -> None:
    monkeypatch.setattr(play_services, "random_source", DEALS)
    run_machine(OnlineTournamentLife, EXAMPLES, STEPS)
