"""A practice duel on the table core (issue 27): the same form twice is recorded once, a page
another tab overtook is told so (409), a stored duel never depends on the bots' code, and the
duels stored the old way are settled by the data migration 0008."""

import pytest
from django.apps.registry import Apps
from django.test import Client
from django.urls import reverse

from cardtable.words import CHOOSE_TITLE
from games.common.words import a_number
from games.split_uno.bots import HeuristicBot
from play import services as play_services
from play.adapters.base import Viewer
from play.models import GameEvent, HolderKind
from play.selectors import view_of
from practice import services
from practice.game import replay as replay_old
from practice.game import start as start_old
from practice.models import PracticeDuel
from practice.seating import choose as choose_table
from practice.words import ALREADY_RECORDED, DUEL_MOVED_ON, UNREPLAYABLE_LISTED, UNREPLAYABLE_TITLE
from tests.factories import UserFactory
from tests.practice import migrating
from tests.practice.test_practice_views import (
    form_of,
    mine,
    move_url,
    page_of,
    revision,
    start,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    client = Client()
    client.force_login(UserFactory(username="ada"))
    return client


def sealed_form(client: Client, practice: PracticeDuel) -> dict[str, str]:
    """The page's form to seal the person's lowest card, as the browser would send it."""
    value = mine(practice)["hand"]["numbers"][0]
    button = f'name="play" value="seal:{value}"'
    return form_of(page_of(client, practice), button) | {"play": f"seal:{value}"}


def test_the_same_form_sent_twice_is_played_once_and_said_so(client):
    practice = start(client)
    form = sealed_form(client, practice)
    assert client.post(move_url(practice), form).status_code == 302
    events = GameEvent.objects.filter(game_id=practice.game_id).count()
    again = client.post(move_url(practice), form)
    assert again.status_code == 200
    assert ALREADY_RECORDED in again.content.decode()
    assert revision(practice) == 1
    assert GameEvent.objects.filter(game_id=practice.game_id).count() == events


def test_a_move_from_a_page_another_tab_overtook_is_stale(client):
    practice = start(client)
    page = page_of(client, practice)
    resign = form_of(page, "Resign this duel") | {"kind": "resign"}
    assert client.post(move_url(practice), sealed_form(client, practice)).status_code == 302
    stale = client.post(move_url(practice), resign)
    assert stale.status_code == 409
    assert DUEL_MOVED_ON in stale.content.decode()
    practice.refresh_from_db()
    assert revision(practice) == 1 and not practice.finished


def test_a_stored_duel_still_plays_after_the_heuristic_bot_changes(client, monkeypatch):
    """The issue's check: a one-line change to the bot made every stored duel unreplayable.
    Every event is stored now, the bots' included, so the page is the same and a move is
    played on the table as it was."""
    practice = start(client)
    assert client.post(move_url(practice), sealed_form(client, practice)).status_code == 302
    before = mine(practice)

    def changed(self, sim, i):
        return min(v for v, n in enumerate(sim.hands.num[i]) if n)  # always the lowest card

    monkeypatch.setattr(HeuristicBot, "free", changed)
    assert mine(practice) == before
    page = page_of(client, practice)
    assert all(line in page for line in before["log"][-1]["lines"])
    assert client.post(move_url(practice), sealed_form(client, practice)).status_code == 302
    assert revision(practice) == 2


#: The data migration that settled the duels stored the old way.
CONVERSION = "0008_practice_duels_to_play"


def old_duel(old: Apps, user, ruleset: str, seed: int, moves: list, **fields) -> int:
    """The pk of a duel as the code before issue 27 stored it (the seed and the person's
    moves), written with the models of before the conversion (``migrating.before``)."""
    return (
        old.get_model("practice", "PracticeDuel")
        .objects.create(
            user_id=user.pk, ruleset=ruleset, seed=seed, name=user.username, moves=moves, **fields
        )
        .pk
    )


def old_moves(ruleset: str, seed: int, count: int) -> list[dict]:
    """The moves of a person who always reveals their lowest card and takes the first choice,
    as practice/game.py kept them before issue 27."""
    game = start_old(ruleset, seed, "bo")
    moves = []
    while len(moves) < count and not game.finished:
        asked = game.awaiting_me()
        if asked:
            move = {"kind": "respond", "choice": asked[1][0]}
        elif game.reveals():
            move = {"kind": "reveal", "value": game.my_numbers()[0][0]}
        else:
            move = {"kind": "blocked_round"}
        moves.append(game.play(move))
    return moves


@pytest.mark.django_db(transaction=True)
def test_the_migration_converts_old_duels_into_dealt_games_that_play_on(client):
    """An old duel is replayed once and written as the dealt adapter's events: the page shows
    the same hand and log, and the person plays on."""
    user = UserFactory(username="bo")
    client.force_login(user)
    moves = old_moves("tournament", 11, 6)
    old = replay_old("tournament", 11, "bo", moves)
    before = migrating.before(CONVERSION)
    playing = old_duel(before, user, "tournament", 11, moves)
    resigned = old_duel(before, user, "tournament", 3, [{"kind": "resign"}])
    migrating.forward()

    playing = PracticeDuel.objects.get(pk=playing)
    assert playing.game_id is not None and not playing.unreplayable and not playing.finished
    view = mine(playing)
    held = [v for v, n in old.my_numbers() for _ in range(n)]
    assert view["hand"]["numbers"] == held
    assert view["state"]["seats"] == old.state()["seats"]
    # The game's log holds the old lines (in the third person; the page says the person's
    # own in the second, issue 30).
    third = {
        line for e in view_of(playing.game_id, Viewer("seat", "A"))["log"] for line in e["lines"]
    }
    missing = [line for entry in old.log for line in entry.lines if line not in third]
    assert missing == []
    if "answer" in view["commands"]:
        choice = view["commands"]["answer"]["choices"][0]
        form = {"kind": "answer", "choice": choice}
    else:
        form = {"play": f"seal:{view['commands']['seal']['cards'][0]}"}
    posted = client.post(move_url(playing), form | {"revision": revision(playing), "intent": "k"})
    assert posted.status_code == 302

    resigned = PracticeDuel.objects.get(pk=resigned)
    assert (resigned.finished, resigned.outcome) == (True, "lost") and resigned.game_id
    assert "The bot wins — forfeit." in page_of(client, resigned)


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_old_duels_it_cannot_convert_readable_or_flagged(client):
    """A rule set with truth and dare (the dealt adapter switches them off) or a move today's
    code refuses: a finished duel keeps its result and log, an unfinished one is flagged."""
    user = UserFactory(username="bo")
    client.force_login(user)
    before = migrating.before(CONVERSION)

    def old(moves, **fields):
        return old_duel(before, user, "official", 5, moves, **fields)

    finished = old([{"kind": "resign"}], finished=True, outcome="lost")
    playing = old([])
    refused = old([{"kind": "reveal", "value": 99}])
    migrating.forward()

    finished = PracticeDuel.objects.get(pk=finished)
    assert finished.game_id is None
    assert finished.archive["result"] == "The bot wins — forfeit."
    assert (finished.finished, finished.outcome, finished.unreplayable) == (True, "lost", False)
    page = client.get(reverse("practice:table", args=[finished.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "The bot wins — forfeit." in body and "bo forfeits (resigned)" in body
    assert 'name="kind" value="resign"' not in body

    for pk in (playing, refused):
        row = PracticeDuel.objects.get(pk=pk)
        assert row.unreplayable and row.game_id is None and not row.archive
        page = client.get(reverse("practice:table", args=[row.pk]))
        assert page.status_code == 200 and UNREPLAYABLE_TITLE in page.content.decode()
        posted = client.post(move_url(row), {"kind": "resign", "revision": 0, "intent": "k"})
        assert posted.status_code == 409 and UNREPLAYABLE_TITLE in posted.content.decode()
    listing = client.get(reverse("practice:index")).content.decode()
    assert listing.count(UNREPLAYABLE_LISTED) == 2


def test_the_person_chooses_which_card_goes(client):
    """ONLINE.md 1: where the rules let the owner of a hand choose (here a shed), the page
    asks, one button per card, and the card chosen is the one shed. The deal is fixed (seed
    0: the person is asked at their fourth command, always taking the first offer)."""
    user = UserFactory(username="cy")
    client.force_login(user)
    seating = choose_table("tournament", 2)
    game = play_services.start_game(
        kind=services.KIND,
        config=services.config_of("tournament", "cy", seating),
        seats=["A", "B"],
        holders={
            "A": play_services.Holder(HolderKind.ACCOUNT, account=user),
            "B": play_services.Holder(HolderKind.BOT, bot_level=services.BOT),
        },
        seed=bytes(16),
    )
    practice = PracticeDuel.objects.create(user=user, ruleset="tournament", game=game, name="cy")
    for _ in range(3):
        commands = mine(practice)["commands"]
        if "answer" in commands:
            form = {"kind": "answer", "choice": commands["answer"]["choices"][0]}
        elif "play" in commands:
            form = {"play": f"play:{commands['play']['cards'][0]}:red"}
        else:
            form = {"play": f"seal:{commands['seal']['cards'][0]}"}
        form |= {"revision": revision(practice), "intent": f"k{revision(practice)}"}
        assert client.post(move_url(practice), form).status_code == 302
    asked = mine(practice)["commands"]["choose"]
    page = page_of(client, practice)
    assert CHOOSE_TITLE["shed"] in page
    for card in asked["cards"]:
        assert f'name="card" value="{card}"' in page
    last = max(asked["cards"])
    form = form_of(page, f'name="card" value="{last}"') | {"card": str(last)}
    assert client.post(move_url(practice), form).status_code == 302
    assert f"You shed {a_number(last)}" in page_of(client, practice)
