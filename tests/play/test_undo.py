"""The table core's undo (play.services.undo_last) with the tiny counting game: the last
command's events (the bot's answers with it) are taken back, the game restored is the game of
the shorter log, and an undo is keyed, revision-checked and allowed by its product's policy as
a command is."""

import pytest

from play import selectors
from play.adapters.base import Command, Viewer
from play.errors import Forbidden, Refused, Stale
from play.models import Game, GameEvent, GameStatus, HolderKind
from play.services import UNDO, Actor, Holder, abandon_game, apply_command, start_game, undo_last
from tests.play.counting import KIND

pytestmark = pytest.mark.django_db

SEED = bytes(range(16))
REFEREE = Actor(key="user:1")
OWNER = Viewer("owner")


def anyone(game, actor, command) -> None:
    """Every actor may send every command, an undo included."""


def new_game(**config) -> Game:
    holders = {"A": Holder(HolderKind.REFEREE), "B": Holder(HolderKind.BOT, bot_level="easy")}
    return start_game(kind=KIND, config=config, seats=["A", "B"], holders=holders, seed=SEED)


def add(game: Game, n: int, key: str):
    game.refresh_from_db()
    return apply_command(
        game_id=game.pk,
        actor=REFEREE,
        command=Command("add", "A", {"n": n}),
        key=key,
        seen_revision=game.revision,
        policy=anyone,
    )


def undo(game: Game, key: str, *, seen: int | None = None, policy=anyone, actor=REFEREE):
    game.refresh_from_db()
    return undo_last(
        game_id=game.pk,
        actor=actor,
        key=key,
        seen_revision=game.revision if seen is None else seen,
        policy=policy,
        viewer=OWNER,
    )


def active(game: Game) -> int:
    return GameEvent.objects.filter(game=game, undone_at=None).count()


def test_undo_takes_back_the_last_command_with_the_bots_answer_and_restores_the_prefix():
    game = new_game(target=30, bots=["B"])
    views = [selectors.view_of(game.pk, OWNER)]
    for i, n in enumerate((3, 1, 2)):
        add(game, n, key=f"add{i}")
        views.append(selectors.view_of(game.pk, OWNER))
    opening = active(game) - 6  # each command: A's move and B's answer
    for k in (2, 1, 0):
        outcome = undo(game, key=f"undo{k}")
        assert outcome.view == views[k] == selectors.view_of(game.pk, OWNER)
        assert active(game) == opening + 2 * k
    # Every row is kept, marked; the revision counted each command and each undo.
    game.refresh_from_db()
    assert GameEvent.objects.filter(game=game).count() == opening + 6
    assert game.revision == 6
    # Played on from the prefix, it goes on as a fresh game would.
    add(game, 3, key="again")
    assert selectors.view_of(game.pk, OWNER)["total"] == views[1]["total"]
    undo(game, key="x1")
    with pytest.raises(Refused, match="no move to undo"):  # the opening deal stays
        undo(game, key="x2")


def test_the_same_undo_twice_takes_back_one_command_and_says_so():
    game = new_game(target=30, bots=["B"])
    add(game, 1, key="a1")
    after_one = selectors.view_of(game.pk, OWNER)
    add(game, 2, key="a2")
    last = active(game)
    first = undo(game, key="u")
    again = undo(game, key="u", seen=first.revision - 1)
    assert (first.repeat, again.repeat) == (False, True)
    assert again.recorded == first.recorded
    assert first.recorded == {"revision": 3, "undone": [last - 1, last], "status": "playing"}
    assert again.message == "Already recorded — nothing changed."
    assert selectors.view_of(game.pk, OWNER) == after_one  # the first command still stands


def test_a_stale_undo_is_told_someone_else_moved_and_undoes_nothing():
    game = new_game(target=30, bots=["B"])
    add(game, 2, key="a1")
    events = active(game)
    with pytest.raises(Stale):
        undo(game, key="u", seen=0)
    game.refresh_from_db()
    assert (game.revision, active(game)) == (1, events)


def test_the_policy_decides_and_an_undone_ending_plays_again():
    game = new_game(target=3, bots=["B"])
    add(game, 3, key="win")
    game.refresh_from_db()
    assert (game.status, game.awaited) == (GameStatus.FINISHED, [])
    events = active(game)
    asked: list[str] = []

    def no_undo(game, actor, command) -> None:
        asked.append(command.name)
        raise Forbidden()

    with pytest.raises(Forbidden):
        undo(game, key="u", policy=no_undo)
    assert asked == [UNDO] and active(game) == events
    undo(game, key="u")  # a product that allows an undo even at the end
    game.refresh_from_db()
    assert game.status == GameStatus.PLAYING and game.awaited[0]["seat"] == "A"
    abandon_game(game_id=game.pk)
    with pytest.raises(Refused, match="stopped"):
        undo(game, key="u2")
