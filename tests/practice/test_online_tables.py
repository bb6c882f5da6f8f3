"""Online tables with friends (issue 31; docs/online.md): the host's form, the join link, the
lobby, each person's own seat, resigning, ending, a rematch and who may do what."""

from __future__ import annotations

import random
import secrets as random_source
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from play.adapters.base import Viewer
from play.models import Game, GameEvent, GameStatus, HolderKind, Seat
from play.selectors import view_of
from practice.models import OnlinePlayer, OnlineTable
from tests.factories import UserFactory
from tests.practice.test_practice_many_views import client_for

pytestmark = pytest.mark.django_db

#: A short deal: a whole game in a few dozen moves.
SHORT = {"starting_number_cards": 2}


@pytest.fixture
def ada():
    return UserFactory(username="ada")


@pytest.fixture
def bo():
    return UserFactory(username="bo")


@pytest.fixture
def cy():
    return UserFactory(username="cy")


def frozen_clock(monkeypatch) -> list:
    """The table core's clock held at ``moment[0]`` (now, until the test moves it): seat
    clocks run out when the test says, never by waiting."""
    moment = [timezone.now()]
    monkeypatch.setattr("play.services._clock", lambda: moment[0])
    monkeypatch.setattr("play.clock._now", lambda: moment[0])
    return moment


def open_table(client: Client, **fields: Any) -> OnlineTable:
    data = {"ruleset": "tournament", "seats": "3", "bot": "heuristic", "clock": "30", **fields}
    response = client.post(reverse("practice:online_new"), data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    return OnlineTable.objects.latest("pk")


def join_url(table: OnlineTable) -> str:
    table.refresh_from_db()
    return reverse("practice:online_join", args=[table.join_token])


def lobby_post(client: Client, table: OnlineTable, **data: Any):
    table.refresh_from_db()
    data.setdefault("version", str(table.version))
    return client.post(reverse("practice:online_lobby", args=[table.pk]), data)


def started(ada_c: Client, bo_c: Client, table: OnlineTable) -> OnlineTable:
    assert bo_c.post(join_url(table)).status_code == 302
    response = lobby_post(ada_c, table, do="start")
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == OnlineTable.Status.PLAYING
    return table


def seat_form(view: dict[str, Any], rnd: random.Random) -> dict[str, str] | None:
    """A random legal move of a seat's, as the card table's forms send it (never resigning)."""
    offers = [(n, spec) for n, spec in view["commands"].items() if n != "resign"]
    if not offers:
        return None
    name, spec = rnd.choice(offers)
    if name in ("seal", "play"):
        card = rnd.choice(spec["cards"])
        form = {"play": f"{name}:{card}"}
        if card == "color_change":
            form["play"] += f":{rnd.choice(spec['colors'])}"
        if card in ("truth", "dare"):
            form["text"] = f"<i>{card}</i> by the tests"  # the words they carry (ONLINE.md 2)
        if spec.get("targets"):
            form["target"] = rnd.choice(spec["targets"])
        return form
    if name == "answer":
        return {"kind": "answer", "choice": rnd.choice(spec["choices"])}
    return {"kind": "choose", "card": str(rnd.choice(spec["cards"]))}


class TestOpening:
    def test_the_host_opens_a_table_and_is_its_first_person(self, ada):
        table = open_table(client_for(ada), seats="4", teams="AC,BD", clock="0")
        assert table.seats == 4 and table.teams == [["A", "C"], ["B", "D"]]
        assert table.seat_clock is None and table.status == OnlineTable.Status.LOBBY
        assert list(table.players.values_list("user__username", "position")) == [("ada", 0)]
        assert table.join_token and len(table.join_token) >= 40

    @pytest.mark.parametrize(
        ("fields", "words"),
        [
            ({"seats": "7"}, "Choose from 2 to 6 seats."),
            ({"seats": "x"}, "Choose from 2 to 6 seats."),
            ({"clock": "5"}, "Choose a seat clock from 10 to 120 seconds, or none."),
            ({"clock": "500"}, "Choose a seat clock from 10 to 120 seconds, or none."),
            ({"bot": "genius"}, "Choose the bots&#x27; level from"),
            ({"ruleset": "chess"}, "Choose one of the rule sets"),
            ({"seats": "3", "teams": "AC,BD"}, "Teams need 4 to 6 seats"),
            ({"variants": ["team"]}, "Choose variants from"),
        ],
    )
    def test_a_table_the_form_does_not_offer_is_refused_in_words_nothing_stored(
        self, ada, fields, words
    ):
        data = {"ruleset": "tournament", "seats": "3", "bot": "heuristic", "clock": "30", **fields}
        response = client_for(ada).post(reverse("practice:online_new"), data)
        assert response.status_code == 422
        assert words in response.content.decode()
        assert not OnlineTable.objects.exists() and not OnlinePlayer.objects.exists()

    def test_a_person_hosts_a_bounded_number_of_open_tables(self, ada, monkeypatch):
        monkeypatch.setattr("practice.online.MAX_OPEN_HOSTED", 2)
        client = client_for(ada)
        open_table(client)
        open_table(client)
        data = {"ruleset": "tournament", "seats": "3", "bot": "heuristic", "clock": "30"}
        response = client.post(reverse("practice:online_new"), data)
        assert response.status_code == 422
        assert "You host 2 tables that have not ended" in response.content.decode()
        assert OnlineTable.objects.count() == 2

    def test_anonymous_visitors_are_sent_to_sign_in(self):
        response = Client().get(reverse("practice:online_new"))
        assert response.status_code == 302 and "login" in response["Location"]


class TestJoinLink:
    def test_joining_needs_an_account_and_comes_back_to_the_join_page(self, ada):
        table = open_table(client_for(ada))
        url = join_url(table)
        response = Client().get(url)
        assert response.status_code == 302
        assert "login" in response["Location"] and "next=" in response["Location"]
        assert response["Location"].endswith(f"next={url}")

    def test_a_removed_person_is_not_admitted_again_by_the_same_link(self, ada, bo, cy):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = open_table(ada_c)
        url = join_url(table)
        bo_c.post(url)
        lobby_post(ada_c, table, do="remove", player=table.players.get(user=bo).pk, confirm="yes")
        response = bo_c.post(url)
        assert response.status_code == 422
        assert "The host removed you from this table" in response.content.decode()
        assert list(table.players.values_list("user__username", flat=True)) == ["ada"]
        # The link still admits the others; a new link from the host admits the removed too.
        assert client_for(cy).post(url).status_code == 302
        lobby_post(ada_c, table, do="link")
        assert bo_c.post(join_url(table)).status_code == 302
        order = list(table.players.order_by("position").values_list("user__username", flat=True))
        assert order == ["ada", "cy", "bo"]

    def test_people_join_in_order_and_joining_twice_is_once(self, ada, bo, cy):
        table = open_table(client_for(ada))
        bo_c = client_for(bo)
        page = bo_c.get(join_url(table))
        assert page.status_code == 200 and "Take a seat" in page.content.decode()
        assert bo_c.post(join_url(table)).status_code == 302
        assert bo_c.post(join_url(table)).status_code == 302
        assert client_for(cy).post(join_url(table)).status_code == 302
        assert list(table.players.values_list("user__username", "position")) == [
            ("ada", 0),
            ("bo", 1),
            ("cy", 2),
        ]
        lobby = client_for(ada).get(reverse("practice:online", args=[table.pk])).content.decode()
        assert lobby.index(">A</strong> ada") < lobby.index(">B</strong> bo")
        assert lobby.index(">B</strong> bo") < lobby.index(">C</strong> cy")

    def test_a_full_table_admits_no_one_more(self, ada, bo, cy):
        table = open_table(client_for(ada), seats="2")
        assert client_for(bo).post(join_url(table)).status_code == 302
        response = client_for(cy).post(join_url(table))
        assert response.status_code == 422
        assert "This table is full" in response.content.decode()
        assert not table.players.filter(user=cy).exists()

    def test_a_revoked_link_is_dead_and_a_new_one_works(self, ada, bo, cy):
        ada_c = client_for(ada)
        table = open_table(ada_c)
        old = join_url(table)
        assert lobby_post(ada_c, table, do="revoke").status_code == 302
        response = client_for(bo).post(old)
        assert response.status_code == 404
        assert "no longer works" in response.content.decode()
        assert client_for(bo).get(old).status_code == 404
        assert lobby_post(ada_c, table, do="link").status_code == 302
        new = join_url(table)
        assert new != old
        assert client_for(cy).post(old).status_code == 404
        assert client_for(cy).post(new).status_code == 302
        assert not table.players.filter(user=bo).exists()

    def test_the_link_is_dead_at_the_start(self, ada, bo, cy):
        ada_c = client_for(ada)
        table = open_table(ada_c)
        url = join_url(table)
        started(ada_c, client_for(bo), table)
        assert client_for(cy).post(url).status_code == 404
        assert client_for(cy).get(url).status_code == 404
        assert table.join_token is None

    def test_only_the_host_sees_the_link_and_its_qr_code(self, ada, bo):
        table = open_table(client_for(ada))
        url = join_url(table)
        client_for(bo).post(url)
        host = client_for(ada).get(reverse("practice:online", args=[table.pk])).content.decode()
        guest = client_for(bo).get(reverse("practice:online", args=[table.pk])).content.decode()
        assert table.join_token in host and "<svg" in host
        assert table.join_token not in guest and "<svg" not in guest


class TestLobby:
    def test_the_host_reorders_removes_and_a_person_leaves(self, ada, bo, cy):
        ada_c = client_for(ada)
        table = open_table(ada_c, seats="4")
        client_for(bo).post(join_url(table))
        client_for(cy).post(join_url(table))
        cy_row = table.players.get(user=cy)
        assert lobby_post(ada_c, table, do="up", player=cy_row.pk).status_code == 302
        order = list(table.players.order_by("position").values_list("user__username", flat=True))
        assert order == ["ada", "cy", "bo"]
        # The same form again (its version is the old one): refused, nothing moved.
        response = ada_c.post(
            reverse("practice:online_lobby", args=[table.pk]),
            {"do": "up", "player": cy_row.pk, "version": str(table.version)},
        )
        assert response.status_code == 409
        assert "changed since this page was drawn" in response.content.decode()
        order = list(table.players.order_by("position").values_list("user__username", flat=True))
        assert order == ["ada", "cy", "bo"]
        bo_row = table.players.get(user=bo)
        assert (
            lobby_post(ada_c, table, do="remove", player=bo_row.pk, confirm="yes").status_code
            == 302
        )
        assert client_for(bo).get(reverse("practice:online", args=[table.pk])).status_code == 404
        cy_c = client_for(cy)
        assert lobby_post(cy_c, table, do="leave").status_code == 302
        assert lobby_post(cy_c, table, do="leave").status_code == 302  # twice: once
        assert list(table.players.values_list("user__username", flat=True)) == ["ada"]

    def test_the_start_seats_people_in_order_and_bots_at_the_empty_seats(self, ada, bo, cy):
        ada_c = client_for(ada)
        table = open_table(ada_c, seats="4", bot="random", clock="45")
        client_for(bo).post(join_url(table))
        client_for(cy).post(join_url(table))
        lobby_post(ada_c, table, do="down", player=table.players.get(user=ada).pk)
        assert lobby_post(ada_c, table, do="start").status_code == 302
        # A double post of the start: the table as it is.
        assert (
            ada_c.post(
                reverse("practice:online_lobby", args=[table.pk]),
                {"do": "start", "version": "0"},
            ).status_code
            == 302
        )
        table.refresh_from_db()
        game = Game.objects.get(pk=table.game_id)
        seats = {s.letter: s for s in Seat.objects.filter(game=game)}
        assert seats["A"].holder == HolderKind.ACCOUNT and seats["A"].account_id == bo.pk
        assert seats["B"].account_id == ada.pk and seats["C"].account_id == cy.pk
        assert seats["D"].holder == HolderKind.BOT and seats["D"].bot_level == "random"
        assert game.config["bots"] == ["D"] and game.config["bot"] == "random"
        assert game.config["seat_clock"] == 45 and game.config["on_abandon"] == "bot"
        assert game.config["names"] == {"A": "bo", "B": "ada", "C": "cy", "D": "Bot D"}
        assert Game.objects.count() == 1

    def test_one_person_and_bots_may_start(self, ada):
        ada_c = client_for(ada)
        table = open_table(ada_c, seats="2")
        assert lobby_post(ada_c, table, do="start").status_code == 302
        table.refresh_from_db()
        assert table.status == OnlineTable.Status.PLAYING
        assert Game.objects.get(pk=table.game_id).config["on_abandon"] == "forfeit"

    def test_the_lobby_poll_answers_204_until_something_changes(self, ada, bo):
        ada_c = client_for(ada)
        table = open_table(ada_c)
        poll = reverse("practice:online_poll", args=[table.pk])
        htmx = {"HTTP_HX_REQUEST": "true"}
        assert ada_c.get(poll, {"version": table.version}, **htmx).status_code == 204
        client_for(bo).post(join_url(table))
        response = ada_c.get(poll, {"version": table.version}, **htmx)
        assert response.status_code == 200 and "bo" in response.content.decode()
        table.refresh_from_db()
        lobby_post(ada_c, table, do="start")
        response = client_for(bo).get(poll, {"version": table.version}, **htmx)
        assert response.status_code == 204
        assert response["HX-Redirect"] == reverse("practice:online", args=[table.pk])

    def test_a_removed_persons_open_lobby_reloads_into_not_found(self, ada, bo):
        """The removed person's lobby keeps polling: its answer makes htmx reload the page
        (which then says there is no such table), rather than a 404 page drawn inside it."""
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = open_table(ada_c)
        bo_c.post(join_url(table))
        table.refresh_from_db()
        seen = table.version
        lobby_post(ada_c, table, do="remove", player=table.players.get(user=bo).pk, confirm="yes")
        poll = reverse("practice:online_poll", args=[table.pk])
        response = bo_c.get(poll, {"version": seen}, HTTP_HX_REQUEST="true")
        assert response.status_code == 404 and response["HX-Refresh"] == "true"
        assert response.content.decode() == "There is no such online table."
        # A plain request (the reload) gets the page of words, without the header.
        response = bo_c.get(reverse("practice:online", args=[table.pk]))
        assert response.status_code == 404 and "HX-Refresh" not in response


class TestRoles:
    """Every view of a table against the host, a seated person, another signed-in user and
    an anonymous visitor."""

    def test_the_role_matrix(self, ada, bo, cy):
        ada_c, bo_c, cy_c, anon = client_for(ada), client_for(bo), client_for(cy), Client()
        table = open_table(ada_c)
        client_for(bo).post(join_url(table))
        pk = table.pk
        gets = [
            reverse("practice:online", args=[pk]),
            reverse("practice:online_poll", args=[pk]),
            reverse("practice:online_end", args=[pk]),
            reverse("practice:online_resign", args=[pk]),
        ]
        posts = [
            (reverse("practice:online_lobby", args=[pk]), {"do": "start", "version": "0"}),
            (reverse("practice:online_move", args=[pk]), {"play": "seal:1", "revision": "0"}),
            (reverse("practice:online_end", args=[pk]), {"confirm": "yes"}),
            (reverse("practice:online_rematch", args=[pk]), {}),
            (reverse("practice:online_resign", args=[pk]), {"confirm": "yes"}),
        ]
        for url in gets:
            assert cy_c.get(url).status_code == 404, url
            assert anon.get(url).status_code == 302, url
        for url, data in posts:
            assert cy_c.post(url, data).status_code == 404, url
            assert anon.post(url, data).status_code == 302, url
        # A seated person who is not the host: the host's actions are refused.
        table.refresh_from_db()
        assert lobby_post(bo_c, table, do="start").status_code == 403
        assert lobby_post(bo_c, table, do="revoke").status_code == 403
        assert bo_c.get(reverse("practice:online_end", args=[pk])).status_code == 403
        end = reverse("practice:online_end", args=[pk])
        assert bo_c.post(end, {"confirm": "yes"}).status_code == 403
        table.refresh_from_db()
        assert table.status == OnlineTable.Status.LOBBY and table.join_token
        # Their own pages: fine.
        assert bo_c.get(reverse("practice:online", args=[pk])).status_code == 200
        assert ada_c.get(reverse("practice:online", args=[pk])).status_code == 200

    def test_csrf_is_on(self, ada):
        table = open_table(client_for(ada))
        strict = Client(enforce_csrf_checks=True)
        strict.force_login(ada)
        response = strict.post(
            reverse("practice:online_lobby", args=[table.pk]), {"do": "revoke", "version": "0"}
        )
        assert response.status_code == 403
        table.refresh_from_db()
        assert table.join_token


def play_out(clients: dict[str, Client], table: OnlineTable, rnd: random.Random) -> int:
    """Random legal moves of every person's seat through the move view until the game ends;
    how many were made."""
    seats = dict(OnlinePlayer.objects.filter(table=table).values_list("seat", "user__username"))
    for made in range(2000):
        game = Game.objects.get(pk=table.game_id)
        if game.status != GameStatus.PLAYING:
            return made
        asked = [
            (seat, form)
            for seat in seats
            if (form := seat_form(view_of(game.pk, Viewer("seat", seat)), rnd)) is not None
        ]
        assert asked, "a game goes on but no person is asked anything"
        seat, form = rnd.choice(asked)
        form |= {"revision": str(game.revision), "intent": random_source.token_urlsafe(8)}
        response = clients[seats[seat]].post(reverse("practice:online_move", args=[table.pk]), form)
        assert response.status_code == 302, response.content.decode()[-1500:]
    raise AssertionError("the game did not end")


class TestPlaying:
    def test_two_people_and_a_bot_play_a_whole_game_each_their_own_seat(self, ada, bo):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = open_table(ada_c)
        OnlineTable.objects.filter(pk=table.pk).update(options=SHORT)
        table = started(ada_c, bo_c, table)
        page = bo_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        assert "Your turn" in page and "Bot C" in page and "ada" in page
        made = play_out({"ada": ada_c, "bo": bo_c}, table, random.Random(1))
        assert made > 0
        table.refresh_from_db()
        assert table.status == OnlineTable.Status.FINISHED
        for client in (ada_c, bo_c):
            page = client.get(reverse("practice:online", args=[table.pk])).content.decode()
            assert "Rematch with the same people" in page
            assert any(w in page for w in ("You win", "wins —", "Drawn", "win —"))

    def test_a_person_moves_only_their_own_seat_and_moves_carry_the_revision(self, ada, bo):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c, seats="2"))
        game = Game.objects.get(pk=table.game_id)
        view = view_of(game.pk, Viewer("seat", "A"))
        card = view["commands"]["seal"]["cards"][0]
        form = {"play": f"seal:{card}", "revision": str(game.revision), "intent": "k1"}
        url = reverse("practice:online_move", args=[table.pk])
        # bo's form names ada's card: played for bo's own seat B, never A's.
        assert ada_c.post(url, form).status_code == 302
        again = ada_c.post(url, form)
        assert again.status_code == 200 and "already recorded" in again.content.decode()
        assert Game.objects.get(pk=game.pk).revision == game.revision + 1
        stale = ada_c.post(url, form | {"intent": "k2"})
        assert stale.status_code == 409
        missing = ada_c.post(url, {"play": f"seal:{card}", "intent": "k3"})
        assert missing.status_code == 422
        b_view = view_of(game.pk, Viewer("seat", "B"))
        assert b_view["sealed"] == ["A"]
        page = bo_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        assert "Card sealed" in page and "you sealed" not in page
        mine = ada_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        assert f"(you sealed {card})" in mine and "Waiting for bo" in mine

    def test_a_page_overtaken_only_by_another_person_s_seal_may_still_seal(self, ada, bo, cy):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = open_table(ada_c, seats="3")
        client_for(bo).post(join_url(table))
        client_for(cy).post(join_url(table))
        lobby_post(ada_c, table, do="start")
        table.refresh_from_db()
        game = Game.objects.get(pk=table.game_id)
        drawn_at = game.revision
        url = reverse("practice:online_move", args=[table.pk])

        def seal(client: Client, seat: str, revision: int, key: str):
            cards = view_of(game.pk, Viewer("seat", seat))["commands"]["seal"]["cards"]
            card = next(c for c in cards if c not in (0, 7))  # no target to name
            return client.post(
                url, {"play": f"seal:{card}", "revision": str(revision), "intent": key}
            )

        assert seal(bo_c, "B", drawn_at, "b").status_code == 302
        # ada's page was drawn before bo sealed: only a seal since, so hers counts.
        assert seal(ada_c, "A", drawn_at, "a").status_code == 302
        assert set(view_of(game.pk, Viewer("public"))["sealed"]) == {"A", "B"}
        # cy seals last: the round is revealed. A page from before it is stale now.
        revealed_at = Game.objects.get(pk=game.pk).revision
        assert seal(client_for(cy), "C", revealed_at, "c").status_code == 302
        assert seal(ada_c, "A", revealed_at, "a2").status_code == 409

    def test_the_table_poll_answers_204_until_the_game_moves(self, ada, bo):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c, seats="2"))
        game = Game.objects.get(pk=table.game_id)
        poll = reverse("practice:online_poll", args=[table.pk])
        htmx = {"HTTP_HX_REQUEST": "true"}
        fresh = {"revision": game.revision, "v": table.version}
        assert bo_c.get(poll, fresh, **htmx).status_code == 204
        view = view_of(game.pk, Viewer("seat", "A"))
        card = view["commands"]["seal"]["cards"][0]
        ada_c.post(
            reverse("practice:online_move", args=[table.pk]),
            {"play": f"seal:{card}", "revision": str(game.revision), "intent": "x"},
        )
        response = bo_c.get(poll, fresh, **htmx)
        assert response.status_code == 200
        assert 'id="card-table"' in response.content.decode()

    def test_resigning_at_two_sides_asks_then_the_other_side_wins(self, ada, bo):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c, seats="2"))
        url = reverse("practice:online_resign", args=[table.pk])
        ask = bo_c.get(url)
        assert ask.status_code == 200 and "ada wins" in ask.content.decode()
        game = Game.objects.get(pk=table.game_id)
        form = {"revision": str(game.revision), "intent": "r1"}
        assert bo_c.post(url, form).status_code == 200  # no confirmation: asked again
        assert Game.objects.get(pk=game.pk).status == GameStatus.PLAYING
        assert bo_c.post(url, form | {"confirm": "yes"}).status_code == 302
        assert bo_c.post(url, form | {"confirm": "yes"}).status_code == 302  # twice: once
        table.refresh_from_db()
        assert table.status == OnlineTable.Status.FINISHED
        view = view_of(game.pk, Viewer("seat", "A"))
        assert view["state"]["winner"] == "A"
        page = ada_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        assert "You win" in page

    def test_resigning_at_more_sides_hands_the_seat_to_a_bot_and_no_person_left_ends_it(
        self, ada, bo
    ):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c, seats="3", bot="random"))
        url = reverse("practice:online_resign", args=[table.pk])
        assert "A bot (easy) takes your seat" in bo_c.get(url).content.decode()
        game = Game.objects.get(pk=table.game_id)
        form = {"revision": str(game.revision), "intent": "r", "confirm": "yes"}
        assert bo_c.post(url, form).status_code == 302
        assert bo_c.post(url, form).status_code == 302  # twice: once
        seat = Seat.objects.get(game=game, letter="B")
        assert (seat.holder, seat.bot_level) == (HolderKind.BOT, "random")
        assert not table.players.get(user=bo).active
        game.refresh_from_db()
        assert game.status == GameStatus.PLAYING
        table.refresh_from_db()
        assert table.status == OnlineTable.Status.PLAYING
        # bo watches his old seat: no move of his is taken.
        page = bo_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        assert 'name="play"' not in page and "Resign…" not in page
        move = {"play": "seal:1", "revision": str(game.revision), "intent": "m"}
        assert bo_c.post(reverse("practice:online_move", args=[table.pk]), move).status_code == 403
        # ada resigns too: no person is left, the table ends without a result.
        form = {"revision": str(game.revision), "intent": "r2", "confirm": "yes"}
        assert ada_c.post(url, form).status_code == 302
        table.refresh_from_db()
        assert table.status == OnlineTable.Status.ENDED
        assert Game.objects.get(pk=game.pk).status == GameStatus.ABANDONED

    def test_a_person_whose_seat_a_bot_took_watches_it_as_the_public_does(self, ada, bo, cy):
        """bo resigned at three sides: the bot at B seals; bo's page (and its poll) shows that
        B sealed, never the card nor B's hand (bo could tell a person still playing)."""
        ada_c, bo_c, cy_c = client_for(ada), client_for(bo), client_for(cy)
        table = open_table(ada_c, seats="3", bot="random")
        bo_c.post(join_url(table))
        table = started(ada_c, cy_c, table)
        game = Game.objects.get(pk=table.game_id)
        url = reverse("practice:online_resign", args=[table.pk])
        form = {"revision": str(game.revision), "intent": "r", "confirm": "yes"}
        assert bo_c.post(url, form).status_code == 302
        game.refresh_from_db()
        sealed = view_of(game.pk, Viewer("seat", "B"))["my_seal"]["card"]
        hand = view_of(game.pk, Viewer("seat", "B"))["state"]
        page = bo_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        poll = bo_c.get(
            reverse("practice:online_poll", args=[table.pk]), HTTP_HX_REQUEST="true"
        ).content.decode()
        for answer in (page, poll):
            # The public fact in the public words: the bot at B sealed, not bo ("You").
            assert "bo has sealed a card" in answer
            assert "You have sealed a card" not in answer
            assert f"you sealed {sealed}" not in answer and "Your number cards" not in answer
            assert 'class="card-pick' not in answer
        assert hand["seats"]  # B's own view has its hand; bo's answers show none of it

    def test_in_a_team_game_a_bot_takes_the_resigning_seat(self, ada, bo):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c, seats="4", teams="AC,BD"))
        game = Game.objects.get(pk=table.game_id)
        assert game.config["on_abandon"] == "bot"
        form = {"revision": str(game.revision), "intent": "r", "confirm": "yes"}
        assert (
            ada_c.post(reverse("practice:online_resign", args=[table.pk]), form).status_code == 302
        )
        assert Seat.objects.get(game=game, letter="A").holder == HolderKind.BOT
        assert Game.objects.get(pk=game.pk).status == GameStatus.PLAYING

    def test_the_seat_clock_plays_for_a_person_away_when_a_page_loads(self, ada, bo, monkeypatch):
        moment = frozen_clock(monkeypatch)
        start = moment[0]
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c, seats="2", clock="10"))
        game = Game.objects.get(pk=table.game_id)
        assert {a["seat"]: a["seconds"] for a in game.awaited} == {"A": 10, "B": 10}
        page = bo_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        assert "Your clock: <strong data-left>0:10</strong>" in page
        # ada's clock on her tile, on bo's page.
        tile = page[page.index('data-seat="A"') :]
        assert "clock <span data-left>0:10</span>" in tile[: tile.index("</div>")]
        moment[0] = start + timedelta(seconds=11)
        page = bo_c.get(reverse("practice:online", args=[table.pk]))
        assert page.status_code == 200
        clocked = GameEvent.objects.filter(game=game, by="clock").count()
        assert clocked >= 2  # both seals played by the clock
        # Three clock-outs in a row for both people at two sides: both abandoned, nobody is
        # left in play, so the table ends without a result (ONLINE.md 4), not as one's forfeit.
        for k in range(2, 8):
            moment[0] = start + timedelta(seconds=11 * k)
            ada_c.get(reverse("practice:online_poll", args=[table.pk]), {"revision": 0, "v": 0})
            table.refresh_from_db()
            if table.status != OnlineTable.Status.PLAYING:
                break
        assert table.status == OnlineTable.Status.ENDED
        assert Game.objects.get(pk=game.pk).status == GameStatus.ABANDONED
        page = bo_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        assert "No person is left in play at this table: it ended without a result." in page

    def test_one_person_away_three_times_forfeits_while_the_other_plays(self, ada, bo, monkeypatch):
        moment = frozen_clock(monkeypatch)
        start = moment[0]
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c, seats="2", clock="10"))
        rnd = random.Random(2)
        for k in range(1, 40):
            game = Game.objects.get(pk=table.game_id)
            if game.status != GameStatus.PLAYING:
                break
            # bo plays whenever asked; ada never does: her clock plays for her.
            form = seat_form(view_of(game.pk, Viewer("seat", "B")), rnd)
            if form is not None:
                form |= {"revision": str(game.revision), "intent": f"b{k}"}
                bo_c.post(reverse("practice:online_move", args=[table.pk]), form)
            else:
                moment[0] = start + timedelta(seconds=11 * k)
                bo_c.get(reverse("practice:online", args=[table.pk]))
        table.refresh_from_db()
        assert table.status == OnlineTable.Status.FINISHED
        game = Game.objects.get(pk=table.game_id)
        assert game.status == GameStatus.FINISHED
        assert view_of(game.pk, Viewer("public"))["state"]["winner"] == "B"

    def test_when_the_clock_hands_every_person_s_seat_to_a_bot_the_table_ends(
        self, ada, bo, monkeypatch
    ):
        moment = frozen_clock(monkeypatch)
        start = moment[0]
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c, seats="3", clock="10"))
        for k in range(1, 20):
            moment[0] = start + timedelta(seconds=11 * k)
            assert bo_c.get(reverse("practice:online", args=[table.pk])).status_code == 200
            table.refresh_from_db()
            if table.status != OnlineTable.Status.PLAYING:
                break
        assert table.status == OnlineTable.Status.ENDED
        game = Game.objects.get(pk=table.game_id)
        assert game.status == GameStatus.ABANDONED
        assert not table.players.filter(active=True).exists()
        page = ada_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        assert "No person is left in play at this table" in page
        assert "Rematch with the same people" in page

    def test_the_host_ends_the_game_without_a_result(self, ada, bo):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c))
        url = reverse("practice:online_end", args=[table.pk])
        assert "End this table?" in ada_c.get(url).content.decode()
        assert ada_c.post(url, {"confirm": "yes"}).status_code == 302
        assert ada_c.post(url, {"confirm": "yes"}).status_code == 302
        table.refresh_from_db()
        assert table.status == OnlineTable.Status.ENDED
        assert Game.objects.get(pk=table.game_id).status == GameStatus.ABANDONED
        page = bo_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        assert "The host ended this game: no result." in page
        assert 'name="play"' not in page
        game = Game.objects.get(pk=table.game_id)
        response = bo_c.post(
            reverse("practice:online_move", args=[table.pk]),
            {"play": "seal:1", "revision": str(game.revision), "intent": "e"},
        )
        assert response.status_code == 422

    def test_a_rematch_has_the_same_settings_and_people_and_the_others_see_it(self, ada, bo):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c, seats="3", clock="60", bot="random"))
        ada_c.post(reverse("practice:online_end", args=[table.pk]), {"confirm": "yes"})
        url = reverse("practice:online_rematch", args=[table.pk])
        first = bo_c.post(url)
        second = ada_c.post(url)
        assert first.status_code == 302 and first["Location"] == second["Location"]
        new = OnlineTable.objects.latest("pk")
        assert new.pk != table.pk and new.host == bo and new.status == OnlineTable.Status.LOBBY
        assert (new.seats, new.bot, new.seat_clock) == (3, "random", 60)
        assert list(new.players.values_list("user__username", flat=True)) == ["bo", "ada"]
        page = ada_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        assert reverse("practice:online", args=[new.pk]) in page

    def test_the_practice_page_lists_a_person_s_online_tables(self, ada, bo, cy):
        table = open_table(client_for(ada))
        client_for(bo).post(join_url(table))
        for user, listed in ((ada, True), (bo, True), (cy, False)):
            page = client_for(user).get(reverse("practice:index")).content.decode()
            assert (reverse("practice:online", args=[table.pk]) in page) is listed


def test_the_hosts_remove_is_confirmed_on_a_page_naming_the_person(ada, bo, cy):
    """Removing is irreversible for the person (their link no longer admits them): the
    lobby's Remove is a link to a confirmation page that names them, which works without
    JavaScript; a remove posted without the confirmation only leads to that page."""
    ada_c, bo_c = client_for(ada), client_for(bo)
    table = open_table(ada_c)
    bo_c.post(join_url(table))
    bo_row = table.players.get(user=bo)
    confirm_url = reverse("practice:online_remove", args=[table.pk, bo_row.pk])
    lobby = ada_c.get(reverse("practice:online", args=[table.pk])).content.decode()
    assert f'href="{confirm_url}"' in lobby and "Remove bo…" in lobby
    page = ada_c.get(confirm_url).content.decode()
    assert "Remove bo from this table?" in page and 'name="confirm" value="yes"' in page
    assert table.players.filter(user=bo).exists()  # asking removes nobody
    # A post without the confirmation leads to the page; nothing done.
    response = lobby_post(ada_c, table, do="remove", player=bo_row.pk)
    assert response.status_code == 302 and response["Location"] == confirm_url
    assert table.players.filter(user=bo).exists()
    # Only the host sees it; the host cannot remove themself.
    assert bo_c.get(confirm_url).status_code == 403
    assert client_for(cy).get(confirm_url).status_code == 404
    host_row = table.players.get(user=ada)
    own = ada_c.get(reverse("practice:online_remove", args=[table.pk, host_row.pk]))
    assert own.status_code == 302
    assert lobby_post(ada_c, table, do="remove", player=bo_row.pk, confirm="yes").status_code == 302
    assert not table.players.filter(user=bo).exists()
    assert ada_c.get(confirm_url).status_code == 302  # gone: back to the lobby


def test_a_host_keeps_the_latest_tables_that_are_over_and_their_games(ada, monkeypatch):
    """Bounded storage (as practice keeps 50 duels): opening a table forgets the host's
    oldest tables that are over beyond the kept number, their games with them; tables not
    over are never forgotten."""
    from practice import online

    monkeypatch.setattr(online, "KEPT_HOSTED", 2)
    tables = []
    for _ in range(3):
        table = online.open_table(host=ada, ruleset="tournament", seats=2)
        table = online.start(table_id=table.pk, user=ada, version=table.version)
        online.end(table_id=table.pk, user=ada)
        tables.append(table)
    waiting = online.open_table(host=ada, ruleset="tournament", seats=2)  # in its lobby
    assert not OnlineTable.objects.filter(pk=tables[0].pk).exists()
    assert not Game.objects.filter(pk=tables[0].game_id).exists()
    kept = set(OnlineTable.objects.filter(host=ada).values_list("pk", flat=True))
    assert kept == {tables[1].pk, tables[2].pk, waiting.pk}
    assert Game.objects.filter(pk=tables[2].game_id).exists()


def random_command(game: Game, users: dict[str, Any], rnd: random.Random) -> tuple[str, Any]:
    """A seat asked something, and one of its forms as the command it sends."""
    from play.adapters.base import Command

    asked = [
        (seat, form)
        for seat in users
        if (form := seat_form(view_of(game.pk, Viewer("seat", seat)), rnd)) is not None
    ]
    seat, form = rnd.choice(asked)
    if "kind" in form:
        args = {k: v for k, v in form.items() if k != "kind"}
        if form["kind"] == "choose" and str(args["card"]).isdigit():
            args["card"] = int(args["card"])
        return seat, Command(form["kind"], seat, args)
    name, _, rest = form["play"].partition(":")
    card, _, color = rest.partition(":")
    args = {"card": int(card) if card.isdigit() else card}
    if color:
        args["color"] = color
    if "target" in form:
        args["target"] = form["target"]
    return seat, Command(name, seat, args)


class TestOneRestorePerMove:
    """A move's answer is drawn from the table the move left (``Outcome.restored``), not
    restored from the events again: the same views as a fresh restore, move after move."""

    def test_the_table_a_move_leaves_shows_what_its_events_restore(self, ada, bo):
        from play import selectors
        from practice import online

        ada_c, bo_c = client_for(ada), client_for(bo)
        table = open_table(ada_c)
        OnlineTable.objects.filter(pk=table.pk).update(options=SHORT)
        table = started(ada_c, bo_c, table)
        users = {"A": ada, "B": bo}
        rnd = random.Random(3)
        for _ in range(400):
            game = Game.objects.get(pk=table.game_id)
            if game.status != GameStatus.PLAYING:
                break
            seat, command = random_command(game, users, rnd)
            played = online.play_move(
                table.pk, users[seat], command, revision=game.revision, intent=f"k{_}"
            )
            game.refresh_from_db()
            assert played.restored is not None and played.restored.revision == game.revision
            for viewer, person in [
                (Viewer("seat", "A"), "A"),
                (Viewer("seat", "B"), "B"),
                (Viewer("seat", "C"), None),
                (Viewer("public"), None),
            ]:
                fresh = selectors.view_of(game.pk, viewer, person)
                assert selectors.seen_at(game, viewer, person, played.restored) == fresh
        else:
            raise AssertionError("the game did not end")
        assert game.status == GameStatus.FINISHED

    def test_a_table_of_another_revision_is_never_drawn(self, ada, bo):
        from play import selectors

        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c, seats="2"))
        game = Game.objects.get(pk=table.game_id)
        old = selectors.restore(game)
        spec = view_of(game.pk, Viewer("seat", "A"))["commands"]["seal"]
        form = {"play": f"seal:{spec['cards'][0]}", "revision": str(game.revision), "intent": "k"}
        assert ada_c.post(reverse("practice:online_move", args=[table.pk]), form).status_code == 302
        game.refresh_from_db()
        view = selectors.seen_at(game, Viewer("seat", "B"), "B", old)
        assert view["sealed"] == ["A"]  # restored again: the older table is not used


def test_a_tables_people_and_rows_are_read_as_the_orm_reads_them(ada, bo, cy):
    """``online.lobby`` (every page's read, in SQL written once: core.rows) gives the rows the
    ORM gives, the related ones attached; anyone not at the table finds no such table. The
    seat clocks' deadlines likewise (play.rows)."""
    from practice import online

    def fields_of(instance) -> dict:
        return {
            f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields
        }

    ada_c, bo_c = client_for(ada), client_for(bo)
    table = started(ada_c, bo_c, open_table(ada_c, seats="2"))
    lobby = online.lobby(table.pk, bo)
    orm = OnlineTable.objects.select_related("host", "game", "rematch").get(pk=table.pk)
    assert fields_of(lobby.table) == fields_of(orm)
    assert fields_of(lobby.table.host) == fields_of(orm.host)
    assert fields_of(lobby.table.game) == fields_of(orm.game)
    assert lobby.table.rematch is None
    people = list(orm.players.select_related("user").order_by("position", "pk"))
    assert [fields_of(p) for p in lobby.players] == [fields_of(p) for p in people]
    assert [fields_of(p.user) for p in lobby.players] == [fields_of(p.user) for p in people]
    assert all(p.table is lobby.table for p in lobby.players)
    with pytest.raises(OnlineTable.DoesNotExist):
        online.lobby(table.pk, cy)
    with pytest.raises(OnlineTable.DoesNotExist):
        online.lobby(table.pk + 1000, ada)
    watched = online.table_of_watch_link(
        online.new_watch_link(table_id=table.pk, user=ada, version=table.version).watch_token
    )
    assert fields_of(watched) == fields_of(OnlineTable.objects.get(pk=table.pk))
    assert fields_of(watched.game) == fields_of(orm.game)
    from play.selectors import seat_deadlines

    deadlines = Seat.objects.filter(game_id=table.game_id, deadline__isnull=False)
    expected = dict(deadlines.values_list("letter", "deadline"))
    assert len(expected) == 2  # both seats seal, their clocks running
    assert seat_deadlines(table.game_id) == expected


class TestEventsKept:
    """A game's events are read once per revision in a process (``play.selectors.kept``):
    kept by a move at its commit, or by a read that found the revision its game's row said;
    the tables restored from them are the ones the database's rows restore."""

    VIEWERS = [
        (Viewer("seat", "A"), "A"),
        (Viewer("seat", "B"), "B"),
        (Viewer("public"), None),
    ]

    def test_every_move_of_a_game_restores_from_what_it_kept_as_from_the_rows(
        self, ada, bo, django_capture_on_commit_callbacks
    ):
        from play import selectors
        from practice import online

        ada_c, bo_c = client_for(ada), client_for(bo)
        table = open_table(ada_c, seats="2")
        OnlineTable.objects.filter(pk=table.pk).update(options=SHORT)
        table = started(ada_c, bo_c, table)
        users = {"A": ada, "B": bo}
        rnd = random.Random(5)
        for n in range(400):
            game = Game.objects.get(pk=table.game_id)
            if game.status != GameStatus.PLAYING:
                break
            seat, command = random_command(game, users, rnd)
            with django_capture_on_commit_callbacks(execute=True):
                online.play_move(
                    table.pk, users[seat], command, revision=game.revision, intent=f"k{n}"
                )
            game.refresh_from_db()
            assert selectors.kept.get(game) is not None  # kept by the move, at its commit
            from_kept = [selectors.seen(selectors.restore(game), v, p) for v, p in self.VIEWERS]
            selectors.kept.forget()
            with django_capture_on_commit_callbacks(execute=True):
                from_rows = [selectors.view_of(game.pk, v, p) for v, p in self.VIEWERS]
            assert from_kept == from_rows
            assert selectors.kept.get(game) is not None  # kept again by the read
        else:
            raise AssertionError("the game did not end")

    def test_a_move_rolled_back_keeps_nothing(self, ada, bo, django_capture_on_commit_callbacks):
        from django.db import transaction

        from play import selectors
        from practice import online

        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c, seats="2"))
        game = Game.objects.get(pk=table.game_id)
        seat, command = random_command(game, {"A": ada, "B": bo}, random.Random(1))
        with (
            django_capture_on_commit_callbacks(execute=True),
            pytest.raises(RuntimeError),
            transaction.atomic(),
        ):
            online.play_move(
                table.pk,
                ada if seat == "A" else bo,
                command,
                revision=game.revision,
                intent="k",
            )
            raise RuntimeError("rolled back")
        game.refresh_from_db()
        assert game.revision == 0
        assert selectors.kept.get(Game(pk=game.pk, kind=game.kind, revision=1)) is None

    def test_a_read_that_met_a_newer_move_is_not_kept_under_the_older_revision(
        self, ada, bo, django_capture_on_commit_callbacks
    ):
        from play import selectors
        from practice import online

        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c, seats="2"))
        older = Game.objects.get(pk=table.game_id)  # the row as a page read it
        seat, command = random_command(older, {"A": ada, "B": bo}, random.Random(1))
        online.play_move(  # committed between the page's two reads (no commit hook: not kept)
            table.pk, ada if seat == "A" else bo, command, revision=older.revision, intent="k"
        )
        selectors.kept.forget()
        with django_capture_on_commit_callbacks(execute=True):
            selectors.restore(older)  # its events are the newer revision's
        assert selectors.kept.get(older) is None
        assert selectors.kept.get(Game.objects.get(pk=older.pk)) is None


def test_the_hosts_form_sent_twice_opens_one_table(ada):
    """Back, then *Open the table* again (the same page, its key): the table it opened, not a
    second one; a new page of the form opens a new table."""
    import re

    client = client_for(ada)
    page = client.get(reverse("practice:online_new")).content.decode()
    intent = re.search(r'name="intent" value="([^"]+)"', page).group(1)
    form = {"ruleset": "tournament", "seats": "2", "bot": "heuristic", "clock": "30"}
    first = client.post(reverse("practice:online_new"), {**form, "intent": intent})
    second = client.post(reverse("practice:online_new"), {**form, "intent": intent})
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert OnlineTable.objects.filter(host=ada).count() == 1
    fresh = re.search(
        r'name="intent" value="([^"]+)"',
        client.get(reverse("practice:online_new")).content.decode(),
    ).group(1)
    assert fresh != intent
    client.post(reverse("practice:online_new"), {**form, "intent": fresh})
    assert OnlineTable.objects.filter(host=ada).count() == 2


def test_the_log_shows_its_latest_entries_and_a_link_to_the_whole(ada, bo, monkeypatch):
    """Every answer carries the log's latest entries only (a long game's whole log made each
    poll tens of kB); the page's link shows it whole, without JavaScript."""
    from cardtable import page as card_page

    monkeypatch.setattr(card_page, "LOG_SHOWN", 2)
    ada_c, bo_c = client_for(ada), client_for(bo)
    table = started(ada_c, bo_c, open_table(ada_c, seats="2"))
    rnd = random.Random(4)
    for k in range(6):  # a few moves: more than two entries in the log
        game = Game.objects.get(pk=table.game_id)
        for seat, client in (("A", ada_c), ("B", bo_c)):
            form = seat_form(view_of(game.pk, Viewer("seat", seat)), rnd)
            if form is not None:
                form |= {"revision": str(game.revision), "intent": f"{seat}{k}"}
                client.post(reverse("practice:online_move", args=[table.pk]), form)
                break
    entries = len(view_of(table.game_id, Viewer("seat", "A"))["log"])
    assert entries > 2
    address = reverse("practice:online", args=[table.pk])
    page = ada_c.get(address).content.decode()
    log = page[page.index('id="table-log"') :]
    assert log.count('<ul class="log-lines">') == 2
    assert f'href="{address}?log=all#table-log"' in log
    assert f"Show the {entries - 2} earlier move" in log
    whole = ada_c.get(address + "?log=all").content.decode()
    whole = whole[whole.index('id="table-log"') :]
    whole = whole[: whole.index("</section>")]
    assert whole.count('<ul class="log-lines">') == entries and "?log=all" not in whole
