"""Trois and CPT-113 played through the table core (issue 27): a retried move is "already
recorded", not someone else's; a stale page is a 409; a stored game no longer depends on the
bots' code; games stored the old way are converted once by the data migration."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.apps.registry import Apps
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.trois.bots import HeuristicBot as TroisHeuristic
from games.trois.bots import RandomBot as TroisRandom
from play import services as play
from play.adapters.base import Command, Viewer
from play.errors import Forbidden, Hidden
from play.models import Game, GameEvent
from play.selectors import view_of
from practice import cpt113_table, game_services, trois_table
from practice.models import PracticeGame
from practice.words import ALREADY_RECORDED, GAME_MOVED_ON, UNREPLAYABLE_TITLE
from tests.factories import UserFactory
from tests.practice import migrating
from tests.practice.test_other_games_views import client_for, first_move, revision, start, url

pytestmark = pytest.mark.django_db

#: The data migration that converted the games stored the old way.
CONVERSION = "0005_practice_games_to_play"


@pytest.fixture
def ada():
    return UserFactory(username="ada")


def page_form(client: Client, game: PracticeGame) -> dict:
    """The revision and key of the first move form the page drew."""
    page = client.get(url(game)).content.decode()
    return {
        "revision": re.search(r'name="revision" value="(\d+)"', page)[1],
        "intent": re.search(r'name="intent" value="([^"]+)"', page)[1],
    }


def log_of(page: str) -> list[str]:
    return re.findall(r'<span class="log-seq">(\d+)</span><span>([^<]*)</span>', page)


@pytest.mark.parametrize(("kind", "groups"), [("trois", ""), ("cpt113", "3")])
def test_the_same_form_posted_twice_is_recorded_once_and_says_so(ada, kind, groups):
    client = client_for(ada)
    game = start(client, kind, groups)
    sent = first_move(game) | page_form(client, game)
    assert client.post(url(game, move=True), sent).status_code == 302
    events = GameEvent.objects.filter(game_id=game.game_id).count()

    again = client.post(url(game, move=True), sent)  # a double tap, a phone retrying
    assert again.status_code == 200
    assert ALREADY_RECORDED in again.content.decode()
    assert revision(game) == 1
    assert GameEvent.objects.filter(game_id=game.game_id).count() == events


def test_another_move_from_an_older_page_is_stale(ada):
    client = client_for(ada)
    game = start(client)
    older = page_form(client, game)
    newer = page_form(client, game)  # a second tab, drawn at the same revision
    assert older["intent"] != newer["intent"]
    assert client.post(url(game, move=True), first_move(game) | newer).status_code == 302

    stale = client.post(url(game, move=True), {"kind": "take"} | older)
    assert stale.status_code == 409
    assert GAME_MOVED_ON in stale.content.decode()
    assert revision(game) == 1


def test_every_form_of_a_page_carries_its_own_key_and_is_never_refilled(ada):
    client = client_for(ada)
    game = start(client, "cpt113", "4")
    page = client.get(url(game)).content.decode()
    keys = re.findall(r'name="intent" value="([^"]+)"', page)
    assert keys and len(set(keys)) == len(keys)
    # Back to a page drawn afresh must not get an older page's key refilled by the browser
    # (docs/architecture.md, "Back is not a second sheet").
    forms = re.findall(r"<form [^>]*/move/[^>]*>", page)
    assert len(forms) == len(keys) and all('autocomplete="off"' in f for f in forms)


def test_a_stored_game_plays_on_after_the_heuristic_bot_changes(ada, monkeypatch):
    """Issue 27's check: a one-line change to the heuristic made 30 of 30 stored games
    unreplayable. Now every bot move is a stored event: the page is the same, and play goes
    on with the bot of the day."""
    client = client_for(ada)
    game = start(client)
    for _ in range(3):
        sent = first_move(game) | page_form(client, game)
        assert client.post(url(game, move=True), sent).status_code == 302
    before = log_of(client.get(url(game)).content.decode())

    def asked(*_args, **_kwargs):
        raise AssertionError("a stored game asked a bot")

    monkeypatch.setattr(TroisHeuristic, "choose", asked)
    page = client.get(url(game))
    assert page.status_code == 200 and log_of(page.content.decode()) == before

    monkeypatch.setattr(TroisHeuristic, "choose", TroisRandom.choose)
    sent = first_move(game) | page_form(client, game)
    assert client.post(url(game, move=True), sent).status_code == 302
    assert revision(game) == 4


def old_style(
    old: Apps, user, kind: str, groups: int, moves: list, seed: int = 4242, **fields
) -> int:
    """The pk of a row as the code before issue 27 stored it (the seed and the person's
    moves), written with the models of before the conversion (``migrating.before``)."""
    return (
        old.get_model("practice", "PracticeGame")
        .objects.create(
            user_id=user.pk,
            kind=kind,
            seed=seed,
            groups=groups,
            name=user.username,
            moves=moves,
            **fields,
        )
        .pk
    )


def converted(pk: int) -> PracticeGame:
    """The row once every migration has run (the conversion among them)."""
    migrating.forward()
    return PracticeGame.objects.select_related("game").get(pk=pk)


def played_the_old_way(kind: str, groups: int, count: int, seed: int = 4242):
    """The old table after ``count`` of the person's moves (legal ones, chosen plainly)."""
    if kind == "trois":
        table = trois_table.replay(seed, "ada", [])
    else:
        table = cpt113_table.replay(seed, groups, "ada", [])
    moves: list[dict] = []
    while not table.finished and len(moves) < count:
        legal = table.game.legal()
        if kind == "trois":
            move = (
                {"kind": "take"}
                if legal.can_take
                else {"kind": "play", "cards": [legal.playable[0]]}
            )
        elif legal.can_draw:
            move = {"kind": "draw"}
        else:
            card = legal.playable[0]
            move = {"kind": "play", "card": card} | (
                {"colour": "G"} if card.startswith("W") else {}
            )
        table.play(move)
        moves.append(move)
    return table, moves


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("kind", "groups"), [("trois", 0), ("cpt113", 2)])
def test_the_migration_converts_a_game_stored_the_old_way(ada, kind, groups):
    old, moves = played_the_old_way(kind, groups, 3)
    assert not old.finished and len(moves) == 3
    # Trois's 25 minutes were the binding's own then: the game's now (0006).
    deadline = timezone.now() + timedelta(minutes=20) if kind == "trois" else None
    old_row = old_style(migrating.before(CONVERSION), ada, kind, groups, moves, deadline=deadline)
    row = converted(old_row)
    assert row.game_id is not None and not row.unreplayable
    assert row.game.deadline == row.game.next_deadline == deadline
    assert row.game.revision == len(moves)
    # The game's log is the old one, event for event, in the third person (the page says it
    # in the second for the person's own lines, issue 30).
    client = client_for(ada)
    third = view_of(row.game_id, Viewer("seat", "A"))["log"]
    shown = [(e["event"], " ".join(e["lines"])) for e in reversed(third)]
    assert shown == [(e.number, " ".join(e.lines)) for e in reversed(old.log)]
    page = client.get(url(row)).content.decode()
    assert "You " in page and "ada plays" not in page
    # And plays on through the write path.
    sent = first_move(row) | page_form(client, row)
    assert client.post(url(row, move=True), sent).status_code == 302
    assert revision(row) == len(moves) + 1
    assert Game.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_flags_a_game_it_cannot_replay_and_its_page_says_so(ada):
    old = migrating.before(CONVERSION)
    row = converted(old_style(old, ada, "trois", 0, [{"kind": "play", "cards": ["zz"]}]))
    assert row.unreplayable and row.game_id is None and not row.finished
    assert not Game.objects.exists()

    client = client_for(ada)
    page = client.get(url(row))
    assert page.status_code == 200 and UNREPLAYABLE_TITLE in page.content.decode()
    posted = client.post(url(row, move=True), {"kind": "take", "revision": "1", "intent": "k"})
    assert posted.status_code == 409 and UNREPLAYABLE_TITLE in posted.content.decode()
    listed = client.get(reverse("practice:games")).content.decode()
    assert "cannot be replayed" in listed and url(row) in listed


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_a_finished_game_finished(ada):
    old, moves = played_the_old_way("trois", 0, 2)
    old.play({"kind": "time"})
    before = migrating.before(CONVERSION)
    past = timezone.now() - timedelta(minutes=1)
    row = converted(old_style(before, ada, "trois", 0, [*moves, {"kind": "time"}], deadline=past))
    assert row.finished and row.game.status == "finished"
    # Ended: no deadline left for the clock (the copy 0006 makes skips a finished game).
    assert row.game.deadline is None and row.game.next_deadline is None
    words = {(0,): "won"}.get(old.state.winners, "lost" if 0 not in old.state.winners else "drawn")
    assert row.outcome == words
    page = client_for(ada).get(url(row)).content.decode()
    assert "Time is up" in page and "Play again" in page


def test_the_policy_hides_the_game_from_anyone_but_its_owner(ada):
    """Even called past the views, the write path tells another person there is no such
    game (404), and the clock may only call time."""
    game = game_services.start_game(ada, "trois")
    policy = game_services._policy(game)
    mallory = UserFactory()
    command = Command("take", game_services.PERSON)
    for actor in (play.Actor(f"user:{mallory.pk}", mallory), play.Actor("anonymous")):
        with pytest.raises(Hidden):
            play.apply_command(
                game_id=game.game_id,
                actor=actor,
                command=command,
                key="k",
                seen_revision=0,
                policy=policy,
            )
    with pytest.raises(Forbidden):
        play.apply_command(
            game_id=game.game_id,
            actor=play.Actor("clock"),
            command=command,
            key="",
            seen_revision=0,
            policy=policy,
        )
    assert revision(game) == 0
