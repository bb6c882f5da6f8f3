"""Truth and dare at an online table with friends (issue 31; ONLINE.md 2, 7; docs/online.md):
the host switches them on where the rules have the cards; the player of a TRUTH or DARE types
the question or the dare, the target reads it with the decision and answers on their honour;
everyone at the table and its spectators read it, escaped, in the log too."""

from __future__ import annotations

import html
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from play.adapters.base import Viewer
from play.adapters.split_uno_dealt import ADAPTER, commands
from play.effect_words import BOT_SAYINGS as BOT_WORDS
from play.models import GameEvent
from play.selectors import view_of
from practice import online
from practice.models import OnlineTable
from tests.factories import UserFactory
from tests.practice.test_online_tables import open_table, started
from tests.practice.test_practice_many_views import client_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
#: Markup a person might type: shown as text everywhere, never run.
NASTY = '<script>alert("x")</script> <b>Dance</b>'
ESCAPED = html.escape(NASTY)
#: Each seat starts with action cards, so that a seed deals ada a DARE.
OPTIONS = {"starting_number_cards": 6, "starting_action_cards": {"A": 6, "B": 6}}


@pytest.fixture
def ada():
    return UserFactory(username="ada")


@pytest.fixture
def bo():
    return UserFactory(username="bo")


def dealt_with(table: OnlineTable, card: str, monkeypatch, persons: dict | None = None) -> None:
    """The deal (its seed) at which ada, seat A, may play ``card`` at once."""
    persons = persons or {"A": "ada", "B": "bo"}
    config = online._config(
        table.ruleset,
        table.seating,
        persons,
        table.bot,
        table.seat_clock,
        online.on_abandon(table),
        truth_dare=table.truth_dare,
    )
    for k in range(400):
        seed = k.to_bytes(2, "big") * 8
        game, _ = ADAPTER.start(config, ("A", "B"), seed)
        if card in commands(game, "A").get("play", {}).get("cards", ()):
            fake = SimpleNamespace(token_bytes=lambda n, seed=seed: seed)
            monkeypatch.setattr("play.services.random_source", fake)
            return
    raise AssertionError("no seed deals ada that card")


def table_with(ada_c: Client, bo_c: Client, monkeypatch, card: str = "dare", **fields: Any):
    data = {"ruleset": "arbiter", "seats": "2", "truth_dare": "on", **fields}
    table = open_table(ada_c, **data)
    OnlineTable.objects.filter(pk=table.pk).update(options={**table.options, **OPTIONS})
    table.refresh_from_db()
    dealt_with(table, card, monkeypatch)
    return started(ada_c, bo_c, table)


def page(client: Client, table: OnlineTable, **extra: Any) -> str:
    response = client.get(reverse("practice:online", args=[table.pk]), **extra)
    assert response.status_code == 200
    return response.content.decode()


def move(client: Client, table: OnlineTable, **form: str):
    table.refresh_from_db()
    data = {"revision": str(table.game.revision), "intent": f"k{len(form)}{form}"[:60], **form}
    return client.post(reverse("practice:online_move", args=[table.pk]), data)


def sheds(table: OnlineTable, *clients: tuple[str, Client]) -> None:
    """Each seat sheds what a TRUTH or DARE asks of it (arbiter: both, RULES.md 5)."""
    for seat, client in clients:
        view = view_of(table.game_id, Viewer("seat", seat))
        while "choose" in view["commands"]:
            card = str(view["commands"]["choose"]["cards"][0])
            assert move(client, table, kind="choose", card=card).status_code == 302
            view = view_of(table.game_id, Viewer("seat", seat))


class TestTheHostsSwitch:
    def test_truth_and_dare_are_off_unless_the_host_ticks_them(self, ada):
        ada_c = client_for(ada)
        form = ada_c.get(reverse("practice:online_new")).content.decode()
        assert 'type="checkbox" name="truth_dare" id="truth_dare"' in form
        assert '<label for="truth_dare">Truth and dare</label>' in form
        assert open_table(ada_c, ruleset="arbiter").truth_dare is False
        assert open_table(ada_c, ruleset="arbiter", truth_dare="on").truth_dare is True

    def test_the_lobby_and_the_join_page_say_they_are_on(self, ada):
        ada_c = client_for(ada)
        table = open_table(ada_c, ruleset="arbiter", truth_dare="on")
        assert "truth and dare on" in page(ada_c, table)
        join = reverse("practice:online_join", args=[table.join_token])
        stranger = client_for(UserFactory(username="cy")).get(join).content.decode()
        assert "Truth and dare are on: you may be asked a question or set a dare" in stranger
        plain = open_table(ada_c, ruleset="arbiter")
        assert "truth and dare on" not in page(ada_c, plain)

    @pytest.mark.parametrize(
        "fields", [{"ruleset": "tournament"}, {"ruleset": "arbiter", "variants": ["speed"]}]
    )
    def test_rules_without_the_cards_refuse_them_in_words(self, ada, fields):
        ada_c = client_for(ada)
        data = {"seats": "2", "bot": "heuristic", "clock": "30", "truth_dare": "on", **fields}
        response = ada_c.post(reverse("practice:online_new"), data)
        assert response.status_code == 422
        assert "These rules have no TRUTH or DARE cards." in response.content.decode()
        assert not OnlineTable.objects.exists()

    def test_a_rematch_keeps_the_switch(self, ada, bo, monkeypatch):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = table_with(ada_c, bo_c, monkeypatch)
        online.end(table_id=table.pk, user=ada)
        again = online.rematch(table_id=table.pk, user=ada)
        assert again.truth_dare is True and again.pk != table.pk


class TestADare:
    def test_the_dare_is_typed_read_by_all_escaped_and_refused_with_a_penalty(
        self, ada, bo, monkeypatch
    ):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = table_with(ada_c, bo_c, monkeypatch)
        mine = page(ada_c, table)
        # The hand asks for the words: a text field, labelled, bounded.
        assert '<label for="said-text">' in mine
        assert 'name="text" id="said-text" maxlength="200"' in mine
        assert move(ada_c, table, play="play:dare", text=NASTY).status_code == 302
        sheds(table, ("A", ada_c), ("B", bo_c))
        theirs = page(bo_c, table)
        assert f'<blockquote class="said">{ESCAPED}</blockquote>' in theirs
        assert f"ada dares you: “{ESCAPED}”" in theirs  # the log
        assert "I did the dare" in theirs and "Refuse: ada chooses your penalty" in theirs
        for text in (theirs, page(ada_c, table), page(ada_c, table, **HTMX)):
            assert "<script>alert" not in text and "<b>Dance" not in text
        assert f"You dare bo: “{ESCAPED}”" in page(ada_c, table)
        # The people's poll fragment (htmx) says it escaped too.
        poll = ada_c.get(
            reverse("practice:online_poll", args=[table.pk]), {"revision": "0", "v": "0"}, **HTMX
        ).content.decode()
        assert ESCAPED in poll and "<script>alert" not in poll
        # Refused: ada chooses the penalty; five number cards for bo (RULES.md 5).
        before = view_of(table.game_id, Viewer("public"))["state"]["seats"]["B"]["number_cards"]
        assert move(bo_c, table, kind="answer", choice="refuse").status_code == 302
        assert "Your turn: penalty" in page(ada_c, table)
        assert move(ada_c, table, kind="answer", choice="five").status_code == 302
        after = view_of(table.game_id, Viewer("public"))["state"]["seats"]["B"]["number_cards"]
        assert after == before + 5
        assert "bo refuses the dare" in page(ada_c, table)

    def test_spectators_read_the_dare_escaped(self, ada, bo, monkeypatch):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = table_with(ada_c, bo_c, monkeypatch)
        watch = ada_c.post(
            reverse("practice:online_watch_link", args=[table.pk]),
            {"do": "issue", "version": str(table.version)},
        )
        assert watch.status_code == 302
        assert move(ada_c, table, play="play:dare", text=NASTY).status_code == 302
        sheds(table, ("A", ada_c), ("B", bo_c))
        table.refresh_from_db()
        url = reverse("practice:online_watch", args=[table.watch_token])
        spectator = Client()
        for text in (
            spectator.get(url).content.decode(),
            spectator.get(
                reverse("practice:online_watch_poll", args=[table.watch_token]),
                {"revision": "0", "v": "0"},
                **HTMX,
            ).content.decode(),
        ):
            assert f"ada dares bo: “{ESCAPED}”" in text
            assert "<script>alert" not in text

    def test_a_dare_completed_costs_nothing_more(self, ada, bo, monkeypatch):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = table_with(ada_c, bo_c, monkeypatch)
        assert move(ada_c, table, play="play:dare", text="Hop on one foot").status_code == 302
        sheds(table, ("A", ada_c), ("B", bo_c))
        before = view_of(table.game_id, Viewer("public"))["state"]["seats"]
        assert move(bo_c, table, kind="answer", choice="complete").status_code == 302
        view = view_of(table.game_id, Viewer("public"))
        assert view["state"]["seats"] == before and view["said"] is None
        assert "bo completes the dare" in page(ada_c, table)

    @pytest.mark.parametrize("text", ["", "    ", "x" * 201])
    def test_words_that_do_not_fit_are_refused_in_words_and_nothing_is_stored(
        self, ada, bo, monkeypatch, text
    ):
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = table_with(ada_c, bo_c, monkeypatch)
        stored = GameEvent.objects.filter(game_id=table.game_id).count()
        response = move(ada_c, table, play="play:dare", text=text)
        assert response.status_code == 422
        words = "Write the question or the dare for your target: 1 to 200 characters."
        assert words in response.content.decode()
        assert GameEvent.objects.filter(game_id=table.game_id).count() == stored


class TestTheClock:
    def test_the_seat_clock_answers_a_dare_completed(self, ada, bo, monkeypatch):
        start = timezone.now()
        moment = [start]
        monkeypatch.setattr("play.services._clock", lambda: moment[0])
        monkeypatch.setattr("play.clock._now", lambda: moment[0])
        ada_c, bo_c = client_for(ada), client_for(bo)
        table = table_with(ada_c, bo_c, monkeypatch, clock="10")
        assert move(ada_c, table, play="play:dare", text="Hop on one foot").status_code == 302
        sheds(table, ("A", ada_c), ("B", bo_c))
        assert view_of(table.game_id, Viewer("seat", "B"))["commands"]["answer"]["decision"] == (
            "dare"
        )
        moment[0] = start + timedelta(seconds=11)
        assert "bo completes the dare" in page(ada_c, table)  # the page load lets the clock play
        clocked = GameEvent.objects.filter(game_id=table.game_id, by="clock").last()
        assert clocked is not None and clocked.public["engine"]["choice"] == "complete"


class TestABot:
    def test_a_bots_truth_or_dare_is_shown_in_the_bots_words_and_answered(self, ada, monkeypatch):
        # ada alone with a bot that plays a TRUTH or DARE at once (a seed where it does): the
        # bot's words (a key of its fixed list) read in ada's language; she answers.
        ada_c = client_for(ada)
        table = open_table(ada_c, ruleset="arbiter", seats="2", truth_dare="on")
        OnlineTable.objects.filter(pk=table.pk).update(options={**table.options, **OPTIONS})
        table.refresh_from_db()
        config = online._config(
            table.ruleset,
            table.seating,
            {"A": "ada"},
            table.bot,
            table.seat_clock,
            "forfeit",
            truth_dare=True,
        )
        for k in range(400):
            seed = k.to_bytes(2, "big") * 8
            _, events = ADAPTER.start(config, ("A", "B"), seed)
            said = next((e.public["said"] for e in events if "said" in e.public), None)
            if said is not None:
                break
        else:  # pragma: no cover
            raise AssertionError("no seed has the bot play TRUTH or DARE")
        fake = SimpleNamespace(token_bytes=lambda n: seed)
        monkeypatch.setattr("play.services.random_source", fake)
        assert online.start(table_id=table.pk, user=ada, version=table.version)
        table.refresh_from_db()
        sheds(table, ("A", ada_c))
        words = html.escape(str(BOT_WORDS[said["bot"]]))
        shown = page(ada_c, table)
        assert f'<blockquote class="said">{words}</blockquote>' in shown
        decision = view_of(table.game_id, Viewer("seat", "A"))["commands"]["answer"]
        choice = decision["choices"][0]
        assert move(ada_c, table, kind="answer", choice=choice).status_code == 302
        assert view_of(table.game_id, Viewer("public"))["said"] is None
