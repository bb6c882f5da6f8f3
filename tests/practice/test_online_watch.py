"""Spectators of an online table (issue 31; ONLINE.md 5; docs/online.md): the host's watch
link, issued and revoked at any time; whoever holds it watches the table as the public does
(no account needed), never a hand nor a sealed card's value, without a form; a dead link is
404 in words."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client, RequestFactory
from django.urls import reverse

from core import push
from play import clock
from play.adapters.base import Viewer
from play.models import Game
from play.selectors import seat_deadlines, view_of
from practice import online, online_views
from practice.models import OnlineTable
from tests.factories import UserFactory
from tests.practice.test_online_tables import join_url, open_table, started
from tests.practice.test_practice_many_views import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada():
    return UserFactory(username="ada")


@pytest.fixture
def bo():
    return UserFactory(username="bo")


@pytest.fixture
def cy():
    return UserFactory(username="cy")


HTMX = {"HTTP_HX_REQUEST": "true"}


def watch_post(client: Client, table: OnlineTable, do: str, version: int | None = None):
    table.refresh_from_db()
    data = {"do": do, "version": str(table.version if version is None else version)}
    return client.post(reverse("practice:online_watch_link", args=[table.pk]), data)


def watch_url(table: OnlineTable) -> str:
    table.refresh_from_db()
    assert table.watch_token
    return reverse("practice:online_watch", args=[table.watch_token])


def poll_url(table: OnlineTable) -> str:
    table.refresh_from_db()
    return reverse("practice:online_watch_poll", args=[table.watch_token])


def forms_of(page: str) -> list[str]:
    return re.findall(r"<form[^>]*>", page)


def sealed_value(game_id: int, seat: str):
    return (view_of(game_id, Viewer("seat", seat)).get("my_seal") or {}).get("card")


class TestTheHostsWatchLink:
    def test_there_is_none_until_the_host_issues_one_in_the_lobby(self, ada, bo):
        ada_c = client_for(ada)
        table = open_table(ada_c)
        assert table.watch_token is None
        lobby = ada_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        assert "No watch link works now" in lobby and "Issue a watch link" in lobby
        assert watch_post(ada_c, table, "issue").status_code == 302
        table.refresh_from_db()
        assert table.watch_token and len(table.watch_token) >= 40
        assert table.watch_token != table.join_token
        lobby = ada_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        assert watch_url(table) in lobby and "Revoke the watch link" in lobby
        # A guest sees no watch link and cannot issue one.
        bo_c = client_for(bo)
        bo_c.post(join_url(table))
        guest = bo_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        assert watch_url(table) not in guest and "Watch link" not in guest
        assert watch_post(bo_c, table, "issue").status_code == 403
        assert watch_post(bo_c, table, "revoke").status_code == 403
        assert OnlineTable.objects.get(pk=table.pk).watch_token == table.watch_token

    def test_a_double_post_is_refused_by_its_version(self, ada):
        ada_c = client_for(ada)
        table = open_table(ada_c)
        table.refresh_from_db()
        version = table.version
        assert watch_post(ada_c, table, "issue", version).status_code == 302
        first = OnlineTable.objects.get(pk=table.pk).watch_token
        response = watch_post(ada_c, table, "issue", version)
        assert response.status_code == 409
        assert OnlineTable.objects.get(pk=table.pk).watch_token == first

    def test_revoked_and_replaced_links_are_dead_at_once_in_words(self, ada):
        ada_c = client_for(ada)
        table = open_table(ada_c)
        watch_post(ada_c, table, "issue")
        old = watch_url(table)
        old_poll = poll_url(table)
        assert Client().get(old).status_code == 200
        watch_post(ada_c, table, "issue")
        new = watch_url(table)
        assert new != old
        for url in (old, reverse("practice:online_watch", args=["x" * 43])):
            response = Client().get(url)
            assert response.status_code == 404
            assert "This watch link no longer works" in response.content.decode()
        # An open page's poll of a dead link reloads it into those words.
        gone = Client().get(old_poll, {"v": 0}, **HTMX)
        assert gone.status_code == 404 and gone["HX-Refresh"] == "true"
        assert Client().get(new).status_code == 200
        watch_post(ada_c, table, "revoke")
        assert OnlineTable.objects.get(pk=table.pk).watch_token is None
        assert Client().get(new).status_code == 404
        assert (
            "Issue a watch link"
            in ada_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        )

    def test_the_host_manages_it_from_the_table_during_and_after_the_game(self, ada, bo):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c))
        page = ada_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        assert "Issue a watch link" in page
        assert (
            "Watch link"
            not in bo_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        )
        assert watch_post(ada_c, table, "issue").status_code == 302
        assert (
            watch_url(table)
            in ada_c.get(reverse("practice:online", args=[table.pk])).content.decode()
        )
        assert Client().get(watch_url(table)).status_code == 200
        # After the end: still there, still issued and revoked by the host.
        ada_c.post(reverse("practice:online_end", args=[table.pk]), {"confirm": "yes"})
        after = Client().get(watch_url(table))
        assert after.status_code == 200
        assert "The host ended this game: no result." in after.content.decode()
        assert watch_post(ada_c, table, "revoke").status_code == 302
        assert OnlineTable.objects.get(pk=table.pk).watch_token is None


class TestWhoWatches:
    @pytest.mark.parametrize("who", ["anonymous", "stranger", "seat", "host"])
    def test_whoever_holds_the_live_link_sees_the_public_table_and_no_form(self, ada, bo, cy, who):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c, seats="3", bot="random"))
        watch_post(ada_c, table, "issue")
        viewer = {
            "anonymous": Client(),
            "stranger": client_for(cy),
            "seat": bo_c,
            "host": ada_c,
        }[who]
        game = Game.objects.get(pk=table.game_id)
        # bo seals: the watch page shows that B sealed, never the card.
        spec = view_of(game.pk, Viewer("seat", "B"))["commands"]["seal"]
        seal = spec["cards"][0]
        form = {"play": f"seal:{seal}", "revision": str(game.revision), "intent": "s1"}
        if spec.get("targets"):
            form["target"] = spec["targets"][0]
        assert bo_c.post(reverse("practice:online_move", args=[table.pk]), form).status_code in (
            200,
            302,
        )
        response = viewer.get(watch_url(table))
        assert response.status_code == 200
        page = response.content.decode()
        assert "bo has sealed a card" in page
        assert "You have sealed a card" not in page and "you sealed" not in page
        assert "Your number cards" not in page and 'class="card-pick' not in page
        assert "Card sealed" in page  # the tile's face-down card
        # No form on the table (the page's others are the site's own: language, signing out).
        table_part = page[page.index('id="card-table"') : page.index("</main>")]
        assert forms_of(table_part) == [] and "<button" not in table_part
        assert "Resign" not in page and "End the game for everyone" not in page
        assert "Since your last move" not in page
        # Its poll: 204 while nothing changed, the table otherwise.
        game.refresh_from_db()
        table.refresh_from_db()
        same = {"revision": game.revision, "v": table.version}
        assert viewer.get(poll_url(table), same, **HTMX).status_code == 204
        older = viewer.get(poll_url(table), {**same, "revision": game.revision - 1}, **HTMX)
        assert older.status_code == 200 and "bo has sealed a card" in older.content.decode()

    def test_a_wrong_token_is_404_for_everyone(self, ada):
        open_table(client_for(ada))
        for client in (Client(), client_for(ada)):
            response = client.get(reverse("practice:online_watch", args=["nope"]))
            assert response.status_code == 404
            response = client.get(
                reverse("practice:online_watch_poll", args=["nope"]), {"v": 0}, **HTMX
            )
            assert response.status_code == 404

    def test_before_the_start_the_lobby_follows_then_loads_the_table(self, ada, bo):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = open_table(ada_c)
        watch_post(ada_c, table, "issue")
        viewer = Client()
        page = viewer.get(watch_url(table)).content.decode()
        assert "waiting for the start" in page and "</strong> ada" in page
        table.refresh_from_db()
        v = table.version
        assert viewer.get(poll_url(table), {"v": v}, **HTMX).status_code == 204
        bo_c.post(join_url(table))
        joined = viewer.get(poll_url(table), {"v": v}, **HTMX)
        assert joined.status_code == 200 and "</strong> bo" in joined.content.decode()
        started_table = OnlineTable.objects.get(pk=table.pk)
        ada_c.post(
            reverse("practice:online_lobby", args=[table.pk]),
            {"do": "start", "version": str(started_table.version)},
        )
        table.refresh_from_db()
        load = viewer.get(poll_url(table), {"v": table.version}, **HTMX)
        assert load.status_code == 204 and load["HX-Redirect"] == watch_url(table)


class TestPush:
    def test_the_holder_of_a_live_link_may_follow_the_games_topic_until_it_dies(self, ada, bo):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c))
        watch_post(ada_c, table, "issue")
        viewer = Client()
        viewer.get(watch_url(table))
        topic = f"game:{table.game_id}"

        def allowed(client: Client) -> bool:
            request = RequestFactory().get("/")
            request.session = client.session
            request.user = AnonymousUser()
            return push.allowed(request, topic)

        assert allowed(viewer)
        assert not allowed(Client())  # never opened the link
        watch_post(ada_c, table, "issue")  # replaced: the old holder's renewal is refused
        assert not allowed(viewer)
        viewer.get(watch_url(table))
        assert allowed(viewer)
        watch_post(ada_c, table, "revoke")
        assert not allowed(viewer)

    def test_a_session_remembers_a_bounded_number_of_links(self, ada, monkeypatch):
        monkeypatch.setattr(online, "MAX_WATCHING", 2)
        ada_c = client_for(ada)
        viewer = Client()
        for _ in range(3):
            table = open_table(ada_c)
            watch_post(ada_c, table, "issue")
            viewer.get(watch_url(table))
        assert len(viewer.session[online.WATCHING]) == 2


class TestSharedAnswer:
    """The poll's part is drawn once per change for every spectator (cardtable.shared)."""

    def test_spectators_of_one_revision_share_one_drawing_with_their_own_clock_figures(
        self, ada, bo, monkeypatch
    ):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = started(ada_c, bo_c, open_table(ada_c, seats="3", bot="random", clock="30"))
        watch_post(ada_c, table, "issue")
        drawn: list[int] = []
        real = online_views.card_table

        def counted(*args, **kwargs):
            drawn.append(1)
            return real(*args, **kwargs)

        monkeypatch.setattr(online_views, "card_table", counted)
        game = Game.objects.get(pk=table.game_id)
        url, older = poll_url(table), {"revision": game.revision - 1, "v": table.version}
        deadlines = seat_deadlines(game.pk)
        assert set(deadlines) == {"A", "B"}  # the people are asked to seal, the bot sealed
        start = max(deadlines.values()) - timedelta(seconds=20.5)
        monkeypatch.setattr(clock, "_now", lambda: start)
        first = Client().get(url, older, **HTMX)
        assert first.status_code == 200 and len(drawn) == 1
        monkeypatch.setattr(clock, "_now", lambda: start + timedelta(seconds=5))
        second = Client().get(url, older, **HTMX)
        assert second.status_code == 200 and len(drawn) == 1  # not drawn again
        one, two = first.content.decode(), second.content.decode()
        # Each answer counts the seat clocks down from its own instant (A and B are asked).
        assert one.count("clock <span data-left>0:20</span>") == 2
        assert two.count("clock <span data-left>0:15</span>") == 2
        assert f'data-now="{int(start.timestamp() * 1000)}"' in one
        assert f'data-now="{int(start.timestamp() * 1000) + 5000}"' in two
        assert (
            one.replace("0:20", "0:15").replace(
                str(int(start.timestamp() * 1000)), str(int(start.timestamp() * 1000) + 5000)
            )
            == two
        )
        assert "bo has sealed a card" not in one

        # A move: the next poll of an older page draws the new revision, never the old copy.
        spec = view_of(game.pk, Viewer("seat", "B"))["commands"]["seal"]
        form = {"play": f"seal:{spec['cards'][0]}", "revision": str(game.revision), "intent": "s"}
        if spec.get("targets"):
            form["target"] = spec["targets"][0]
        assert bo_c.post(reverse("practice:online_move", args=[table.pk]), form).status_code == 302
        game.refresh_from_db()
        third = Client().get(url, older, **HTMX).content.decode()
        assert len(drawn) == 2
        assert "bo has sealed a card" in third and f'data-revision="{game.revision}"' in third
        assert f'data-revision="{game.revision}"' not in one
        # Another language is another drawing.
        Client(HTTP_ACCEPT_LANGUAGE="fr").get(url, older, **HTMX)
        assert len(drawn) == 3
