"""Trois and CPT-113 in the practice room: signed-in people, their own games, moves checked
on the server, nothing hidden sent, Trois's time limit kept by the server."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.cpt113.cards import label as cpt_label
from games.trois.cards import label as trois_label
from play import clock, secrets
from play.adapters.matching import dealer_seed
from play.models import Game, GameEvent
from play.selectors import restore, view_of
from practice import game_services
from practice.models import PracticeGame
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada():
    return UserFactory(username="ada")


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def start(client: Client, kind: str = "trois", groups: str = "") -> PracticeGame:
    response = client.post(reverse("practice:games"), {"kind": kind, "groups": groups})
    assert response.status_code == 302, response.content.decode()[:500]
    return PracticeGame.objects.latest("pk")


def url(game: PracticeGame, move: bool = False) -> str:
    return reverse("practice:game_move" if move else "practice:game", args=[game.pk])


def state_of(game: PracticeGame):
    """The engine's state of the game as stored (the whole of it: for the test's eyes)."""
    game.refresh_from_db()
    return restore(game.game).table.state


def revision(game: PracticeGame) -> int:
    """How many moves (the person's, or the dealer's time) were recorded."""
    game.refresh_from_db()
    game.game.refresh_from_db()
    return game.game.revision


def hidden_numbers(game: PracticeGame) -> list[str]:
    """The seed (bytes) and the engine's dealer seed: never on a page."""
    seed = secrets.seed_of(game.game_id)
    return [seed.hex(), str(dealer_seed(seed, game.kind))]


def first_move(game: PracticeGame) -> dict:
    """A legal move for the person, as the page offers it (from the person's view)."""
    view = view_of(game.game_id, game_services.ME)
    legal = view["legal"]
    if game.kind == "trois":
        if legal["can_take"]:
            return {"kind": "take"}
        return {"kind": "play", "cards": [(legal["by_colour"] + legal["by_number"])[0]]}
    if legal["can_draw"]:
        return {"kind": "draw"}
    card = legal["playable"][0]
    return {"kind": "play", "card": card} | ({"colour": "R"} if card.startswith("W") else {})


def form(game: PracticeGame, move: dict) -> dict:
    """A move as the page's form posts it: with the game's revision and a fresh key."""
    return move | {"revision": revision(game), "intent": f"k{revision(game)}-{id(move)}"}


def last_move(game: PracticeGame) -> dict:
    return GameEvent.objects.filter(game_id=game.game_id).latest("seq").public["move"]


def test_the_pages_need_a_sign_in(ada):
    game = start(client_for(ada))
    anonymous = Client()
    for path in (reverse("practice:games"), url(game)):
        response = anonymous.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = anonymous.post(url(game, move=True), {"kind": "take", "revision": 0})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert revision(game) == 0


@pytest.mark.parametrize("kind", ["trois", "cpt113"])
def test_someone_elses_game_is_not_found_and_takes_no_move(ada, kind):
    game = start(client_for(ada), kind, "2")
    other = client_for(UserFactory())
    assert other.get(url(game)).status_code == 404
    assert other.post(url(game, move=True), form(game, first_move(game))).status_code == 404
    assert revision(game) == 0
    assert "Trois" not in other.get(reverse("practice:games")).content.decode().split("My games")[1]


def test_nothing_hidden_reaches_the_page_during_a_game(ada):
    client = client_for(ada)
    game = start(client)
    page = client.get(url(game)).content.decode()
    state = state_of(game)
    assert "Your turn: match" in page
    assert not [n for n in hidden_numbers(game) if n in page]
    mine = set(state.hands[0])
    offered = set(re.findall(r'value="([BGYPORM]\d)"', page))
    assert offered <= mine  # none when nothing matches: then only "Take a card"
    hand = re.search(r'<section class="hand game-hand".*?</section>', page, re.S)[0]
    shown = set(re.findall(r'<span class="face"[^>]*>([BGYPORM]\d)<', hand))
    assert shown == mine
    hidden = set(state.deck) | {c for h in state.hands[1:] for c in h}
    for card in hidden - {state.top}:
        assert f">{card}<" not in page and f'"{card}"' not in page


def test_cpt113_offers_only_the_groups_own_cards(ada):
    client = client_for(ada)
    game = start(client, "cpt113", "4")
    page = client.get(url(game)).content.decode()
    state = state_of(game)
    offered = set(re.findall(r'name="card" value="(\w+)"', page))
    assert offered <= set(state.hands[0])
    assert not [n for n in hidden_numbers(game) if n in page]


def test_a_trois_move_is_played_and_the_bots_answer_in_the_log(ada):
    client = client_for(ada)
    game = start(client)
    move = first_move(game)
    response = client.post(url(game, move=True), form(game, move))
    assert response.status_code == 302
    assert revision(game) == 1
    page = client.get(url(game)).content.decode()
    assert "Bot 1 " in page and "by-bot" in page
    # The cards carry their colour's letter: the page says which letter is which colour.
    key = re.search(r'<span class="colour-key">(.*?)</h2>', page, re.S)[1]
    assert re.sub(r"<[^>]+>", "", key).strip() == (
        "B blue · G green · Y yellow · P purple · O orange · R red · M magenta"
    )


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"kind": "play", "cards": "Z9"}, "There is no card"),
        ({"kind": "play"}, "Choose the cards to play."),
        ({"kind": "jump"}, "Choose a card to play, or take a card."),
        ({"kind": "play", "cards": ["B1"], "top": "B2"}, "The card to end on top must be one of"),
        ({"kind": "play", "cards": ["B1"] * 80}, "Choose the cards to play."),
    ],
)
def test_refused_trois_moves_are_explained_and_nothing_is_stored(ada, data, words):
    client = client_for(ada)
    game = start(client)
    response = client.post(url(game, move=True), {"revision": 0, "intent": "k"} | data)
    assert response.status_code == 422
    assert words in response.content.decode()
    assert revision(game) == 0


def test_a_card_not_held_or_not_matching_is_refused(ada):
    client = client_for(ada)
    game = start(client)
    foreign = next(c for c in state_of(game).hands[1])
    response = client.post(url(game, move=True), {"kind": "play", "cards": foreign, "revision": 0})
    assert response.status_code == 422 and "does not hold" in response.content.decode()
    assert revision(game) == 0


@pytest.mark.parametrize(
    ("kind", "groups", "words"),
    [
        ("poker", "", "Choose Trois or CPT-113."),
        ("cpt113", "9", "Choose 2, 3 or 4 groups."),
        ("cpt113", "x", "Choose 2, 3 or 4 groups."),
    ],
)
def test_a_bad_start_is_refused_and_nothing_is_created(ada, kind, groups, words):
    response = client_for(ada).post(reverse("practice:games"), {"kind": kind, "groups": groups})
    assert response.status_code == 422 and words in response.content.decode()
    assert not PracticeGame.objects.exists()


def test_moves_need_the_csrf_token(ada):
    game = start(client_for(ada))
    client = Client(enforce_csrf_checks=True)
    client.force_login(ada)
    assert client.post(url(game, move=True), {"kind": "take", "revision": 0}).status_code == 403
    assert client.post(reverse("practice:games"), {"kind": "trois"}).status_code == 403
    assert PracticeGame.objects.count() == 1


@pytest.mark.parametrize(("kind", "groups"), [("trois", ""), ("cpt113", "2"), ("cpt113", "4")])
def test_a_whole_game_through_the_pages(ada, kind, groups):
    client = client_for(ada)
    game = start(client, kind, groups)
    for _ in range(400):
        game.refresh_from_db()
        if game.finished:
            break
        response = client.post(url(game, move=True), form(game, first_move(game)))
        assert response.status_code == 302
    assert game.finished and game.outcome in ("won", "lost", "drawn")
    page = client.get(url(game)).content.decode()
    assert "Play again" in page
    state = state_of(game)
    label = trois_label if kind == "trois" else cpt_label
    for hand in state.hands[1:]:  # once over, the other hands are shown
        assert all(label(c) in page for c in hand)


def test_cpt113_a_wild_needs_a_colour_and_refusals_store_nothing(ada):
    client = client_for(ada)
    game = start(client, "cpt113", "3")
    for data, words in (
        ({"kind": "play", "card": "W"}, "does not hold wild"),
        ({"kind": "play", "card": "R1", "colour": "P"}, "Name red, yellow, green or blue."),
        ({"kind": "play", "card": ""}, "Choose a card to play, or draw."),
        ({"kind": "play", "card": "QQ"}, "Name a card of the deck"),
    ):
        if data.get("card") == "W" and "W" in state_of(game).hands[0]:
            continue
        response = client.post(url(game, move=True), data | {"revision": 0})
        assert response.status_code == 422, data
        assert words in response.content.decode()
    assert revision(game) == 0
    page = client.get(url(game)).content.decode()
    assert "you (ada) and Partner (a bot) are group A" in page
    assert not [n for n in hidden_numbers(game) if n in page]


def test_the_trois_time_limit_is_enforced_on_the_next_request(ada, monkeypatch):
    client = client_for(ada)
    game = start(client)
    assert game.game.deadline is not None
    assert "Time left: <strong data-left>2" in client.get(url(game)).content.decode()
    later = timezone.now() + timedelta(minutes=26)
    monkeypatch.setattr(clock, "_now", lambda: later)
    page = client.get(url(game)).content.decode()
    assert "Time is up" in page and "Play again" in page
    game.refresh_from_db()
    assert game.finished and revision(game) == 1 and last_move(game) == {"kind": "time"}
    assert game.outcome in ("won", "lost", "drawn")


def test_a_move_after_the_deadline_ends_the_game_instead(ada, monkeypatch):
    client = client_for(ada)
    game = start(client)
    move = first_move(game)
    later = timezone.now() + timedelta(minutes=25)
    monkeypatch.setattr(clock, "_now", lambda: later)
    answer = client.post(url(game, move=True), move | {"revision": 0, "intent": "late"})
    # Not a silent redirect to a finished game: the page says the move came too late, and
    # shows the result.
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "Time was up: the game ended before your move, which was not played." in page
    assert "Time is up" in page and "Play again" in page
    game.refresh_from_db()
    assert game.finished and revision(game) == 1 and last_move(game) == {"kind": "time"}
    # The same as htmx sends it: the table, and the line a screen reader hears says it too.
    other = start(client)
    monkeypatch.setattr(clock, "_now", lambda: later + timedelta(minutes=30))
    fragment = client.post(
        url(other, move=True),
        first_move(other) | {"revision": 0, "intent": "late"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "<!doctype" not in fragment.lower() and 'id="card-table"' in fragment
    news = re.search(r'<div id="table-news" hx-swap-oob="innerHTML">(.*?)</div>', fragment, re.S)
    assert news and news[1].startswith("Time was up: the game ended before your move")


def test_the_sweep_ends_games_past_their_deadline_only(ada, monkeypatch):
    """Nobody looking at the page: the core's sweep (beat, every few seconds) ends it."""
    from config.celery import app
    from play.tasks import sweep_deadlines

    client = client_for(ada)
    due, fresh = start(client), start(client)
    start(client, "cpt113", "2")
    past = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(pk=due.game_id).update(deadline=past, next_deadline=past)
    entry = app.conf.beat_schedule["keep-game-clocks"]
    assert entry["task"] == sweep_deadlines.name and entry["schedule"] <= 10
    assert sweep_deadlines() == 1
    assert sweep_deadlines() == 0
    due.refresh_from_db()
    assert due.finished and last_move(due) == {"kind": "time"} and due.outcome
    assert not PracticeGame.objects.get(pk=fresh.pk).finished


@pytest.mark.django_db(transaction=True)
def test_a_game_going_on_when_the_clock_moved_to_the_core_keeps_its_deadline(ada):
    """Started before practice 0006: its deadline was the binding's only; the migration gives
    it to the play.Game, which the core's sweep then ends on time."""
    from play import services as play
    from play.tasks import sweep_deadlines
    from practice.seat import holders
    from tests.practice import migrating

    old = migrating.before("0006_trois_deadline_on_play_game")
    past = timezone.now() - timedelta(seconds=1)

    def before_the_core_clock(finished: bool) -> int:
        # The game with no deadline of its own, the binding with the only one.
        config, seats = game_services.table_of("trois", 0, "ada")
        game = play.start_game(
            kind="trois", config=config, seats=seats, holders=holders(seats, ada, "heuristic")
        )
        return (
            old.get_model("practice", "PracticeGame")
            .objects.create(
                user_id=ada.pk,
                kind="trois",
                game_id=game.pk,
                name="ada",
                deadline=past,
                finished=finished,
            )
            .pk
        )

    going_on, finished = before_the_core_clock(False), before_the_core_clock(True)
    migrating.forward()
    going_on, finished = (
        PracticeGame.objects.get(pk=going_on),
        PracticeGame.objects.get(pk=finished),
    )
    assert Game.objects.get(pk=going_on.game_id).next_deadline == past
    assert Game.objects.get(pk=finished.game_id).next_deadline is None
    assert sweep_deadlines() == 1
    going_on.refresh_from_db()
    assert going_on.finished and last_move(going_on) == {"kind": "time"}


def test_a_person_keeps_only_their_latest_games(ada, monkeypatch):
    monkeypatch.setattr(game_services, "KEPT_PER_PERSON", 3)
    theirs = game_services.start_game(UserFactory(), "trois")
    started = [game_services.start_game(ada, "cpt113", 2) for _ in range(5)]
    kept = sorted(PracticeGame.objects.filter(user=ada).values_list("pk", flat=True))
    assert kept == [g.pk for g in started[-3:]]
    assert PracticeGame.objects.filter(pk=theirs.pk).exists()
    # The forgotten games go with everything of theirs: no event is left behind.
    assert not Game.objects.filter(pk__in=[g.game_id for g in started[:2]]).exists()
    assert Game.objects.count() == 4


def tiles_of(page: str) -> dict[str, list[str]]:
    """Each tile's face-up cards as the page shows them, by its data-seat (a seat at Trois, a
    group at CPT-113), read from the faces' reader words."""
    tiles = {}
    for letter, body in re.findall(r'data-seat="(\w)">(.*?)</div>', page, re.S):
        tiles[letter] = re.findall(r'<li class="playing-card[^"]*">(.*?)</li>', body, re.S)
    return tiles


def last_plays_stored(game: PracticeGame) -> dict[str, list]:
    """Each seat's last play, from the stored events (the test's own reading of them)."""
    plays: dict[str, list] = {}
    for by, public in GameEvent.objects.filter(game_id=game.game_id).values_list("by", "public"):
        move = public.get("move") or {}
        if move.get("kind") == "play":
            seat = by.removeprefix("bot:")
            plays[seat] = move.get("cards") or [move["card"]]
    return plays


def test_every_trois_seat_shows_its_last_play_and_the_top_card_is_marked(ada):
    client = client_for(ada)
    game = start(client)
    for _ in range(3):
        assert client.post(url(game, move=True), form(game, first_move(game))).status_code == 302
    page = client.get(url(game)).content.decode()
    tiles = tiles_of(page)
    assert set(tiles) == {"A", "B", "C", "D"}
    stored = last_plays_stored(game)
    for letter, cards in stored.items():
        faces = [re.search(r'aria-hidden="true">(\w+)<', li)[1] for li in tiles[letter]]
        assert faces == cards, letter
    # The card on top of the pile is marked on the tile of whoever laid it, and said so.
    top = state_of(game).top
    marked = re.findall(r'class="playing-card c-\w is-top"><span class="face"[^>]*>(\w+)<', page)
    assert marked == [top] and f"{trois_label(top)}, on top of the pile" in page
    assert "(played by " in page and "Since your last move" in page


def test_every_cpt113_player_shows_its_last_play_and_a_wild_plays_in_one_tap(ada):
    client = client_for(ada)
    game = start(client, "cpt113", "4")
    for _ in range(2):
        if view_of(game.game_id, game_services.ME)["legal"] is None:
            break  # the person's group is out, or the game is over
        assert client.post(url(game, move=True), form(game, first_move(game))).status_code == 302
    page = client.get(url(game)).content.decode()
    assert set(tiles_of(page)) == {"A", "B", "C", "D"}
    view = view_of(game.game_id, game_services.ME)
    shown_as = {seat["seat"]: seat["name"] for seat in view["seats"]} | {"A": "You", "E": "Partner"}
    for seat, cards in last_plays_stored(game).items():
        player = re.search(
            rf'<span class="player-name">{shown_as[seat]}</span>(.*?)</li></ul>', page, re.S
        )
        assert player and cpt_label(cards[0]) in player[1], seat
    # A wild's colour button carries the card and the colour: one tap plays it.
    if view["legal"] and "W" in view["legal"]["playable"]:
        sent = {"kind": "play", "play": "W:G"} | {"revision": revision(game), "intent": "wild"}
        assert client.post(url(game, move=True), sent).status_code == 302
        assert any(
            m.get("card") == "W" and m.get("colour") == "G"
            for m in GameEvent.objects.filter(game_id=game.game_id).values_list(
                "public__move", flat=True
            )
            if m
        )


@pytest.mark.parametrize(("kind", "groups"), [("trois", ""), ("cpt113", "3")])
def test_htmx_gets_the_table_the_log_and_the_news_of_a_move(ada, kind, groups):
    client = client_for(ada)
    game = start(client, kind, groups)
    answer = client.post(url(game, move=True), form(game, first_move(game)), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "HX-Request" in answer["Vary"]
    fragment = answer.content.decode()
    assert fragment.lstrip().startswith('<section id="card-table"')
    assert (
        '<section id="table-log" class="console-log" aria-labelledby="log-title" hx-swap-oob'
        in (fragment)
    )
    news = re.search(r'<div id="table-news" hx-swap-oob="innerHTML">(.*?)</div>', fragment, re.S)
    assert news and news[1].strip()
    # The forms of the swapped table post with htmx, their keys in the form, no CSRF field
    # (a CPT-113 deal the bots finish after the first move leaves no move to post).
    game.refresh_from_db()
    assert game.finished or 'hx-post="' in fragment
    assert "csrfmiddlewaretoken" not in fragment
    # One line per action in the log; the person's own said "You".
    assert '<ul class="log-lines"><li>You ' in fragment
