"""The table core's one write path (play.services.apply_command) with a tiny counting game:
what is stored, in which order the checks run, and what a refused, repeated or stale command
leaves behind."""

from datetime import UTC, datetime, timedelta

import pytest

from play import registry, selectors, services
from play.adapters.base import Await, Command, Viewer
from play.errors import Forbidden, Hidden, Refused, Stale
from play.models import Game, GameEvent, GameStatus, HolderKind, Intent, Seat
from play.services import Actor, Holder, abandon_game, apply_command, start_game
from play.tasks import forget_old_intents
from tests.play.counting import ADAPTER, KIND, Counting

pytestmark = pytest.mark.django_db

SEED = bytes(range(16))
REFEREE = Actor(key="user:1")
VIEWERS = [Viewer("seat", "A"), Viewer("seat", "B"), Viewer("public"), Viewer("owner")]


def new_game(**config) -> Game:
    holders = {"A": Holder(HolderKind.REFEREE), "B": Holder(HolderKind.BOT, bot_level="easy")}
    return start_game(kind=KIND, config=config, seats=["A", "B"], holders=holders, seed=SEED)


def anyone(game, actor, command) -> None:
    """A policy that lets every actor send every command."""


def send(game: Game, name: str, *, key: str, seen: int | None = None, **options):
    game.refresh_from_db()
    return apply_command(
        game_id=game.pk,
        actor=options.pop("actor", REFEREE),
        command=Command(name, seat=options.pop("seat", "A"), args=options.pop("args", {})),
        key=key,
        seen_revision=game.revision if seen is None else seen,
        policy=options.pop("policy", anyone),
        **options,
    )


def stored(game: Game) -> tuple[int, int, int]:
    game.refresh_from_db()
    return game.revision, GameEvent.objects.filter(game=game).count(), Intent.objects.count()


def test_each_step_equals_the_game_restored_from_its_events_even_with_the_bot_changed(
    monkeypatch,
):
    game = new_game(target=15, bots=["B"])
    table, _ = ADAPTER.start(game.config, ["A", "B"], SEED)
    commands = [Command("add", "A", {"n": 3}), Command("card", "A"), Command("add", "A", {"n": 1})]
    for i, command in enumerate(commands):
        if ADAPTER.finished(table):
            break
        outcome = send(game, command.name, key=f"k{i}", args=command.args, viewer=VIEWERS[0])
        ADAPTER.apply(table, command)
        assert outcome.view == ADAPTER.view(table, VIEWERS[0])
        for viewer in VIEWERS:
            assert selectors.view_of(game.pk, viewer) == ADAPTER.view(table, viewer)
    # The bot's answers are stored events: the game restores with the bot's code changed.
    assert GameEvent.objects.filter(game=game, by="bot:B").exists()

    def changed_bot(self, table):
        raise AssertionError("restoring a game asked the bot again")

    monkeypatch.setattr(Counting, "_bots", changed_bot)
    assert selectors.view_of(game.pk, VIEWERS[3]) == ADAPTER.view(table, VIEWERS[3])


def test_a_seat_sees_its_own_card_and_no_other():
    game = new_game()
    a, b = (selectors.view_of(game.pk, Viewer("seat", s)) for s in "AB")
    public = selectors.view_of(game.pk, Viewer("public"))
    cards = ADAPTER.start({}, ["A", "B"], SEED)[0].cards
    assert (a["card"], b["card"]) == (cards["A"], cards["B"])
    assert "card" not in public and "cards" not in public


def test_a_refused_command_changes_nothing_and_publishes_nothing(
    published, django_capture_on_commit_callbacks
):
    game = new_game(bots=["B"])
    before = stored(game)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(Refused, match="Add 1, 2 or 3"):
            send(game, "add", key="k1", args={"n": 5})
        with pytest.raises(Forbidden):
            send(game, "add", key="k2", args={"n": 1}, policy=forbid)
        with pytest.raises(Refused, match="not your turn"):
            send(game, "add", key="k3", seat="B", args={"n": 1})
    assert stored(game) == before
    assert callbacks == [] and published == []
    # The key of a refused command was not used up: sent again, right, it applies.
    assert send(game, "add", key="k1", args={"n": 1}).repeat is False


def forbid(game, actor, command) -> None:
    raise Forbidden()


def test_the_same_key_twice_is_applied_once_and_answered_as_a_repeat():
    game = new_game(bots=["B"])
    first = send(game, "add", key="same", args={"n": 2})
    events = GameEvent.objects.filter(game=game).count()
    again = send(game, "add", key="same", args={"n": 2}, seen=first.revision - 1, viewer=VIEWERS[2])
    assert (first.repeat, again.repeat) == (False, True)
    assert again.recorded == first.recorded
    assert again.message == "Already recorded — nothing changed."
    assert again.view == selectors.view_of(game.pk, VIEWERS[2])
    assert stored(game) == (first.revision, events, 1)
    # The key is the actor's: another person's same key is their own command, and it is
    # stale now that the first one moved.
    with pytest.raises(Stale):
        send(game, "add", key="same", args={"n": 2}, seen=0, actor=Actor(key="user:2"))


def test_the_same_key_with_another_command_is_a_move_from_an_out_of_date_page():
    # One form, one key: a second card tapped on the page after the first was played is not
    # a repeat of the first (it would be answered "already recorded", and it was not).
    game = new_game(bots=["B"])
    first = send(game, "add", key="page", args={"n": 1})
    before = stored(game)
    with pytest.raises(Stale):
        send(game, "add", key="page", args={"n": 3}, seen=first.revision - 1)
    assert stored(game) == before
    # The same command with that key is still its repeat.
    assert send(game, "add", key="page", args={"n": 1}, seen=first.revision - 1).repeat


def test_a_different_key_on_a_stale_revision_is_told_someone_else_moved():
    game = new_game(bots=["B"])
    send(game, "add", key="k1", args={"n": 1})
    before = stored(game)
    with pytest.raises(Stale, match="Someone else moved") as raised:
        send(game, "add", key="k2", args={"n": 1}, seen=before[0] - 1)
    assert raised.value.code == "conflict"
    assert stored(game) == before


def test_the_policy_sees_the_locked_game_after_the_callers_lock_and_hides_what_it_hides():
    game = new_game(bots=["B"])
    order: list[str] = []

    def policy(seen: Game, actor: Actor, command: Command) -> None:
        order.append(f"policy {seen.pk} {actor.key} {command.name}")
        raise Hidden()

    with pytest.raises(Hidden):
        send(
            game,
            "add",
            key="k",
            args={"n": 1},
            policy=policy,
            lock_first=lambda: order.append("lock"),
        )
    assert order == ["lock", f"policy {game.pk} user:1 add"]
    with pytest.raises(Hidden):
        apply_command(
            game_id=game.pk + 1000,
            actor=REFEREE,
            command=Command("add", "A"),
            key="k",
            seen_revision=0,
            policy=anyone,
        )


def test_the_change_is_published_once_it_commits(published, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as start:
        game = new_game(bots=["B"])
    with django_capture_on_commit_callbacks() as move:
        send(game, "add", key="k1", args={"n": 1})
        assert published == []  # not before the commit
    for callback in [*start, *move]:
        callback()
    assert published == [f"game:{game.pk}", f"game:{game.pk}"]


def test_the_end_and_the_clock_are_stored_with_the_game():
    game = new_game(target=3, seconds=30)
    assert game.status == GameStatus.PLAYING
    turn = game.awaited[0]["seat"]
    clock = Seat.objects.get(game=game, letter=turn).deadline
    assert game.awaited == [{"seat": turn, "what": "turn", "seconds": 30}]
    assert game.next_deadline == clock is not None
    send(game, "add", key="k1", seat=turn, args={"n": 3})
    game.refresh_from_db()
    assert (game.status, game.awaited, game.next_deadline) == (GameStatus.FINISHED, [], None)
    assert not Seat.objects.filter(game=game, deadline__isnull=False).exists()


def test_an_abandoned_game_takes_no_more_moves():
    game = new_game(bots=["B"])
    abandon_game(game_id=game.pk)
    game.refresh_from_db()
    assert (game.status, game.revision) == (GameStatus.ABANDONED, 1)
    with pytest.raises(Refused, match="stopped"):
        send(game, "add", key="k1", args={"n": 1})


def test_a_game_with_an_open_seat_is_open_and_seeds_are_fresh():
    one = start_game(kind=KIND, config={}, seats=["A", "B"], holders={"A": Holder("referee")})
    two = start_game(kind=KIND, config={}, seats=["A", "B"], holders={"A": Holder("referee")})
    assert one.status == GameStatus.OPEN
    from play import secrets

    assert len(secrets.seed_of(one.pk)) == 16 and secrets.seed_of(one.pk) != secrets.seed_of(two.pk)
    with pytest.raises(ValueError, match="16 bytes"):
        start_game(kind=KIND, config={}, seats=["A", "B"], holders={}, seed=b"short")


class BothAsked(Counting):
    """Both seats asked at once (as both seal at once in a dealt game), the turn still A's
    then B's: a seat's clock must run on while the other one moves."""

    kind = "counting_both"

    def awaiting(self, table):
        return [] if table.winner else [Await(s, "turn", 30) for s in table.seats]


def test_a_seats_clock_runs_on_while_another_moves_and_restarts_after_its_own_move(
    monkeypatch,
):
    monkeypatch.setitem(registry._known, BothAsked.kind, BothAsked())
    now = [datetime(2026, 11, 27, 20, 0, tzinfo=UTC)]
    monkeypatch.setattr(services, "_clock", lambda: now[0])
    holders = {"A": Holder(HolderKind.REFEREE), "B": Holder(HolderKind.REFEREE)}
    game = start_game(kind=BothAsked.kind, config={}, seats=["A", "B"], holders=holders)
    turn = selectors.restore(game).table.turn
    other = "B" if turn == "A" else "A"

    def clocks():
        return dict(Seat.objects.filter(game=game).values_list("letter", "deadline"))

    assert clocks() == {"A": now[0] + timedelta(seconds=30), "B": now[0] + timedelta(seconds=30)}
    now[0] += timedelta(seconds=10)
    send(game, "add", key="k1", seat=turn, args={"n": 1})
    assert clocks() == {turn: now[0] + timedelta(seconds=30), other: now[0] + timedelta(seconds=20)}
    game.refresh_from_db()
    assert game.next_deadline == now[0] + timedelta(seconds=20)


def test_keys_older_than_two_days_are_forgotten_and_their_form_is_then_stale():
    game = new_game(bots=["B"])
    first = send(game, "add", key="old", args={"n": 1})
    send(game, "add", key="new", args={"n": 1})
    Intent.objects.filter(key="old").update(created_at=datetime.now(UTC) - timedelta(days=3))
    assert forget_old_intents() == 1
    assert list(Intent.objects.values_list("key", flat=True)) == ["new"]
    # The old form sent again is no longer a repeat: its revision tells it is out of date.
    with pytest.raises(Stale):
        send(game, "add", key="old", args={"n": 1}, seen=first.revision - 1)
    assert send(game, "add", key="new", args={"n": 1}, seen=0).repeat


def test_a_move_keeps_its_events_at_commit_and_a_log_in_words_is_never_kept(
    django_capture_on_commit_callbacks,
):
    """The events a move leaves are kept for the next restore of its revision in this
    process (``selectors.kept``), once it commits; a move given the log in the reader's words
    (``with_log``: its events' log lines are no longer as stored) keeps nothing."""
    game = new_game(bots=["B"])
    with django_capture_on_commit_callbacks(execute=True):
        send(game, "add", key="k1", args={"n": 1})
    game.refresh_from_db()
    assert selectors.kept.get(game) is not None
    fresh = [selectors.seen(selectors.restore(game), v) for v in VIEWERS]
    selectors.kept.forget()
    assert [selectors.seen(selectors.restore(game), v) for v in VIEWERS] == fresh
    with django_capture_on_commit_callbacks(execute=True):
        send(game, "add", key="k2", args={"n": 2}, with_log=True)
    game.refresh_from_db()
    assert selectors.kept.get(game) is None
