"""The table core's one clock (play.clock, play.tasks): a deadline acts once it has passed, only
at the revision it was scheduled at, once; the sweep finds the due games; an ETA task is sent at
commit for a near deadline only, never in eager mode."""

from datetime import UTC, datetime, timedelta

import pytest

from core import redis_guard
from play import clock, registry, services
from play.adapters.base import Command
from play.effect_words import say
from play.models import Game, GameEvent, GameStatus, HolderKind, Seat
from play.services import Holder, start_game
from play.tasks import deadline as deadline_task
from play.tasks import sweep_deadlines
from tests.play.counting import KIND, Counting
from tests.play.test_write_path import send

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)


class Timed(Counting):
    """The counting game whose clock, when a seat's time runs out, adds 1 for that seat."""

    kind = "counting_timed"

    def on_deadline(self, table, seat):
        return Command("add", seat, {"n": 1}) if seat is not None else None


@pytest.fixture
def now(monkeypatch):
    """The one time the write path and the clock read; a test moves it."""
    moment = [START]
    monkeypatch.setitem(registry._known, Timed.kind, Timed())
    monkeypatch.setattr(services, "_clock", lambda: moment[0])
    monkeypatch.setattr(clock, "_now", lambda: moment[0])
    return moment


def timed_game(kind: str = Timed.kind, seconds: int = 30) -> Game:
    holders = {"A": Holder(HolderKind.REFEREE), "B": Holder(HolderKind.REFEREE)}
    return start_game(
        kind=kind, config={"seconds": seconds, "target": 50}, seats=["A", "B"], holders=holders
    )


def moves(game: Game) -> list[tuple[int, str, dict]]:
    rows = GameEvent.objects.filter(game=game, seq__gt=1).order_by("seq")
    return list(rows.values_list("revision", "by", "public"))


def test_the_clock_acts_once_after_the_deadline_and_not_before(now):
    game = timed_game()
    turn = game.awaited[0]["seat"]
    assert game.next_deadline == START + timedelta(seconds=30)
    now[0] = START + timedelta(seconds=29)
    assert clock.act_if_due(game.pk) is False
    assert moves(game) == []

    now[0] = START + timedelta(seconds=30)
    assert clock.act_if_due(game.pk) is True
    assert clock.act_if_due(game.pk) is False  # the next seat's clock has just started
    assert moves(game) == [(1, turn, {"type": "add", "seat": turn, "n": 1, "card": False})]
    game.refresh_from_db()
    other = "B" if turn == "A" else "A"
    assert game.awaited[0]["seat"] == other
    assert game.next_deadline == now[0] + timedelta(seconds=30)


def test_a_task_scheduled_at_a_revision_the_game_left_does_nothing(now):
    game = timed_game()
    turn = game.awaited[0]["seat"]
    now[0] += timedelta(seconds=10)
    send(game, "add", key="k1", seat=turn, args={"n": 2})  # revision 1, the other seat's clock
    now[0] += timedelta(seconds=31)
    assert deadline_task(game.pk, 0) is False  # scheduled at the start: moved on since
    assert [rev for rev, _, _ in moves(game)] == [1]
    assert deadline_task(game.pk, 1) is True
    assert [rev for rev, _, _ in moves(game)] == [1, 2]


def test_the_sweep_acts_on_the_due_games_of_kinds_the_clock_acts_on(now):
    due, later = timed_game(), timed_game(seconds=300)
    silent = timed_game(kind=KIND)  # no on_deadline: its seat's clock passes, nothing is sent
    over = timed_game()
    services.abandon_game(game_id=over.pk)
    now[0] += timedelta(seconds=60)
    assert sweep_deadlines() == 1
    assert sweep_deadlines() == 0
    assert [len(moves(g)) for g in (due, later, silent)] == [1, 0, 0]
    assert Game.objects.get(pk=over.pk).status == GameStatus.ABANDONED


def test_the_games_own_deadline_is_the_earliest_and_ends_trois(now):
    trois = {"names": ["ada", "b1", "b2", "b3"], "bots": dict.fromkeys("BCD", "heuristic")}
    holders = {"A": Holder(HolderKind.ACCOUNT)} | {s: Holder(HolderKind.BOT) for s in "BCD"}
    game = start_game(
        kind="trois",
        config=trois,
        seats=list("ABCD"),
        holders=holders,
        deadline=START + timedelta(minutes=25),
    )
    assert game.next_deadline == START + timedelta(minutes=25)
    assert clock.check_on_request(game.pk) is False
    now[0] += timedelta(minutes=25)
    assert clock.check_on_request(game.pk) is True
    game.refresh_from_db()
    assert (game.status, game.next_deadline) == (GameStatus.FINISHED, None)
    assert GameEvent.objects.filter(game=game).latest("seq").by == "clock"


def test_a_refereed_games_own_deadline_calls_time_and_a_later_one_is_set_after_its_start(now):
    """A tournament duel's time limit: the refereed adapter's game calls time at its own
    deadline (the engine's time_limit, "Time is up."); a deadline given after the start
    (``set_deadline``: a duel started again) is the one the clock keeps."""
    names = {"A": "Ada", "B": "Bo"}
    holders = {s: Holder(HolderKind.REFEREE) for s in "AB"}
    game = start_game(
        kind="split_uno_refereed",
        config={"ruleset": "tournament", "names": names},
        seats=["A", "B"],
        holders=holders,
        deadline=START + timedelta(minutes=20),
    )
    assert game.next_deadline == START + timedelta(minutes=20)
    later = START + timedelta(minutes=30)
    services.set_deadline(game_id=game.pk, deadline=later)
    game.refresh_from_db()
    assert (game.deadline, game.next_deadline, game.revision) == (later, later, 0)
    assert clock.sweep(now=START + timedelta(minutes=25)) == 0
    assert clock.sweep(now=later) == 1
    game.refresh_from_db()
    assert (game.status, game.next_deadline) == (GameStatus.FINISHED, None)
    (last,) = moves(game)
    assert last[1] == "clock" and last[2]["event"] == {"type": "time_limit", "reason": "deadline"}
    assert say(last[2]["log"][0]) == "Time is up."
    services.set_deadline(game_id=game.pk, deadline=later + timedelta(minutes=5))
    assert Game.objects.get(pk=game.pk).next_deadline is None  # over: no clock runs


@pytest.fixture
def sent(monkeypatch):
    """The tasks core.redis_guard was asked to send: (task name, args, options)."""
    calls = []
    monkeypatch.setattr(
        redis_guard,
        "send",
        lambda task, args=(), **options: calls.append((task.name, args, options)),
    )
    return calls


def test_in_eager_mode_no_eta_task_is_sent(now, sent, django_capture_on_commit_callbacks):
    assert deadline_task.app.conf.task_always_eager  # the embedded default, the tests'
    with django_capture_on_commit_callbacks(execute=True):
        game = timed_game()
    assert game.next_deadline is not None and sent == []


def test_with_a_worker_a_near_deadline_is_sent_at_commit_with_its_revision(
    now, sent, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setitem(deadline_task.app.conf, "task_always_eager", False)
    with django_capture_on_commit_callbacks() as callbacks:
        game = timed_game()
        assert sent == []  # not before the commit
    for callback in callbacks:
        callback()
    first = START + timedelta(seconds=30)
    assert sent == [(deadline_task.name, (game.pk, 0), {"eta": first})]
    turn = game.awaited[0]["seat"]
    now[0] += timedelta(seconds=5)
    with django_capture_on_commit_callbacks(execute=True):
        send(game, "add", key="k1", seat=turn, args={"n": 1})
    assert sent[1] == (deadline_task.name, (game.pk, 1), {"eta": now[0] + timedelta(seconds=30)})
    # A deadline as far as the broker's visibility timeout is left to the sweep.
    assert clock.visibility_timeout() == 180
    with django_capture_on_commit_callbacks(execute=True):
        timed_game(seconds=180)
    assert len(sent) == 2
    assert Seat.objects.filter(deadline=now[0] + timedelta(seconds=180)).exists()
