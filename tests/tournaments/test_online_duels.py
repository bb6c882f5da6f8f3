"""Online tournament duels, the players' side (ONLINE.md 6; docs/online.md): the ready screen,
the deal when both are ready, each player's own seat through the pages, and the result in the
tournament exactly as a refereed one."""

from __future__ import annotations

import random
import re
import secrets
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from duels.models import Duel, DuelStatus
from games.split_uno import Duel as EngineDuel
from play.adapters.base import Viewer
from play.models import Game, HolderKind, Seat
from play.selectors import view_of
from tests.factories import UserFactory, group_phase_duel
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db

#: A short deal keeps a whole duel to a few dozen moves.
SHORT = {"starting_number_cards": 3}


def online_duel(**options):
    """A group duel to be played online by Alice and Bob, each with their account."""
    duel, referee = group_phase_duel(shared_cards=False)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    Entrant.objects.filter(pk=duel.seat_a_id).update(user=alice)
    Entrant.objects.filter(pk=duel.seat_b_id).update(user=bob)
    Duel.objects.filter(pk=duel.pk).update(
        online=True, options={**SHORT, **options}, ready_by=timezone.now() + timedelta(minutes=5)
    )
    return Duel.objects.get(pk=duel.pk), referee, alice, bob


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(name: str, duel) -> str:
    return reverse(f"player:online_{name}", args=[duel.pk])


def test_only_the_two_players_see_the_duel():
    duel, referee, alice, _bob = online_duel()
    assert client_of(alice).get(url("duel", duel)).status_code == 200
    for stranger in (referee, UserFactory(username="eve")):
        client = client_of(stranger)
        assert client.get(url("duel", duel)).status_code == 404
        assert client.post(url("ready", duel)).status_code == 404
        assert client.get(url("poll", duel)).status_code == 404
    anonymous = Client().get(url("duel", duel))
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    # A duel played at a table has no online page, even for its players.
    Duel.objects.filter(pk=duel.pk).update(online=False)
    assert client_of(alice).get(url("duel", duel)).status_code == 404


def test_the_duel_starts_when_both_are_ready_and_each_seat_is_its_players():
    duel, _referee, alice, bob = online_duel()
    a, b = client_of(alice), client_of(bob)
    page = a.get(url("duel", duel)).content.decode()
    assert "Alice against Bob" in page and "I'm ready" in page
    assert a.post(url("ready", duel)).status_code == 302
    assert a.post(url("ready", duel)).status_code == 302  # twice is once
    duel.refresh_from_db()
    assert duel.ready_a is not None and duel.ready_b is None and duel.game_id is None
    page = b.get(url("duel", duel)).content.decode()
    assert "Alice is ready." in page
    b.post(url("ready", duel))
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING and duel.game_id is not None
    game = Game.objects.get(pk=duel.game_id)
    assert game.kind == "split_uno_dealt" and game.config["seat_clock"] == 30
    holders = {s.letter: (s.holder, s.account_id) for s in Seat.objects.filter(game=game)}
    assert holders == {"A": (HolderKind.ACCOUNT, alice.pk), "B": (HolderKind.ACCOUNT, bob.pk)}
    # Each sees their own hand only.
    mine = view_of(game.pk, Viewer("seat", "A"))["hand"]["numbers"]
    page = a.get(url("duel", duel)).content.decode()
    for value in set(mine):
        assert f'value="seal:{value}"' in page
    assert "Your turn" in page


def _post_of(view: dict, rng: random.Random) -> dict[str, str]:
    """A legal move of a seat's view as the card table's forms post it."""
    commands = view["commands"]
    if "choose" in commands:
        return {"kind": "choose", "card": str(rng.choice(commands["choose"]["cards"]))}
    if "answer" in commands:
        return {"kind": "answer", "choice": rng.choice(list(commands["answer"]["choices"]))}
    if "seal" in commands:
        return {"play": f"seal:{rng.choice(view['hand']['numbers'])}"}
    raise AssertionError(f"nothing to post: {sorted(commands)}")


def test_a_whole_duel_through_the_pages_ends_in_the_standings():
    duel, _referee, alice, bob = online_duel()
    players = {"A": client_of(alice), "B": client_of(bob)}
    for client in players.values():
        client.post(url("ready", duel))
    rng = random.Random(7)
    for _ in range(400):
        duel.refresh_from_db()
        if duel.status != DuelStatus.RUNNING:
            break
        moved = False
        for seat, client in players.items():
            view = view_of(duel.game_id, Viewer("seat", seat))
            commands = {k for k in view["commands"] if k != "resign" and k != "play"}
            if not commands:
                continue
            post = {
                **_post_of(view, rng),
                "revision": str(Duel.objects.get(pk=duel.pk).revision),
                "intent": secrets.token_hex(8),
                "confirm": "yes",
            }
            answer = client.post(url("move", duel), post)
            assert answer.status_code == 302, answer.content.decode()[:500]
            moved = True
        assert moved, view_of(duel.game_id, Viewer("public"))
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED
    result = duel.result
    assert result.finish and (result.winner is None or result.winner in (duel.seat_a, duel.seat_b))
    # The record is an ordinary one: it replays with the engine to the same end.
    from duels.services import record_of

    replayed = EngineDuel.from_record(record_of(duel))
    assert replayed.state()["winner"] == duel.state["winner"]
    # Both see the end and a way to the standings.
    page = players["A"].get(url("duel", duel)).content.decode()
    assert "Standings" in page
    if result.winner is not None:
        winner = result.winner
        winner.refresh_from_db()
        standings = Client().get(reverse("public:standings", args=[duel.tournament.slug]))
        assert standings.status_code in (200, 404)  # an unpublished tournament hides them


def test_a_seal_from_a_page_the_other_seal_overtook_still_counts():
    duel, _referee, alice, bob = online_duel()
    a, b = client_of(alice), client_of(bob)
    a.post(url("ready", duel))
    b.post(url("ready", duel))
    duel.refresh_from_db()
    drawn = duel.revision
    hands = {s: view_of(duel.game_id, Viewer("seat", s))["hand"]["numbers"] for s in "AB"}
    first = a.post(
        url("move", duel),
        {"play": f"seal:{hands['A'][0]}", "revision": drawn, "intent": "k1"},
    )
    assert first.status_code == 302
    second = b.post(
        url("move", duel),
        {"play": f"seal:{hands['B'][0]}", "revision": drawn, "intent": "k2"},
    )
    assert second.status_code == 302
    duel.refresh_from_db()
    assert duel.state["rounds"] == 1
    # The same form again is harmless.
    again = b.post(
        url("move", duel),
        {"play": f"seal:{hands['B'][0]}", "revision": drawn, "intent": "k2"},
        HTTP_HX_REQUEST="true",
    )
    assert again.status_code == 200 and "already recorded" in again.content.decode()


def test_a_player_acts_for_their_own_seat_only():
    duel, _referee, alice, bob = online_duel()
    a, b = client_of(alice), client_of(bob)
    a.post(url("ready", duel))
    b.post(url("ready", duel))
    duel.refresh_from_db()
    hand_b = view_of(duel.game_id, Viewer("seat", "B"))["hand"]["numbers"]
    # Alice's form naming seat B's card is Alice's own seal (the seat is the player's).
    a.post(
        url("move", duel),
        {"play": f"seal:{hand_b[0]}", "seat": "B", "revision": duel.revision, "intent": "x"},
    )
    duel.refresh_from_db()
    view = view_of(duel.game_id, Viewer("public"))
    assert view["sealed"] in ([], ["A"])  # sealed by A, if A holds that value; never B
    assert "B" not in view["sealed"]


def test_resigning_is_confirmed_forfeits_as_abandoned_and_says_resigned():
    duel, _referee, alice, bob = online_duel()
    a, b = client_of(alice), client_of(bob)
    a.post(url("ready", duel))
    b.post(url("ready", duel))
    page = a.get(url("resign", duel)).content.decode()
    assert "Bob wins" in page and "cannot be undone" in page
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING  # asking is not resigning
    intent = re.search(r'name="intent" value="([^"]+)"', page).group(1)
    # The page's revision may be old (the clock, the other seat): resigning still goes, once,
    # and the address is the duel's again.
    answer = a.post(url("resign", duel), {"revision": duel.revision - 1, "intent": intent})
    assert answer.status_code == 302 and answer["Location"] == url("duel", duel)
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED
    assert duel.result.winner_id == duel.seat_b_id and duel.result.loser_id == duel.seat_a_id
    assert duel.state["finish"] == "forfeit"
    from duels.services import record_of

    forfeit = [e for e in record_of(duel)["events"] if e["type"] == "forfeit"]
    assert forfeit == [{"type": "forfeit", "seat": "A", "reason": "abandoned"}]
    # The record keeps ONLINE.md 4's reason; the words say what happened: she resigned (the
    # log once said "abandoned", as if her clock had run out three times).
    public = reverse("public:online_watch", args=[duel.tournament.slug, duel.pk])
    for client, address, line in (
        (a, url("duel", duel), "You forfeit (resigned): Bob wins the duel"),
        (b, url("duel", duel), "Alice forfeits (resigned): you win the duel"),
        (client_of(_referee), public, "Alice forfeits (resigned): Bob wins the duel"),
    ):
        page = client.get(address).content.decode()
        assert line in page and "abandoned" not in page, line


def test_the_poll_answers_204_while_nothing_changed():
    duel, _referee, alice, bob = online_duel()
    a, b = client_of(alice), client_of(bob)
    a.post(url("ready", duel))
    b.post(url("ready", duel))
    duel.refresh_from_db()
    from tournaments.services.online import state_key

    key = state_key(duel)
    quiet = a.get(url("poll", duel), {"revision": duel.revision, "v": key}, HTTP_HX_REQUEST="1")
    assert quiet.status_code == 204
    hand_b = view_of(duel.game_id, Viewer("seat", "B"))["hand"]["numbers"]
    b.post(
        url("move", duel), {"play": f"seal:{hand_b[0]}", "revision": duel.revision, "intent": "z"}
    )
    news = a.get(url("poll", duel), {"revision": duel.revision, "v": key}, HTTP_HX_REQUEST="1")
    assert news.status_code == 200 and "Card sealed" in news.content.decode()


TABLE_WORDS = ("Table not given yet", "called to Table", "ready to start", "I am here", "Not here")


def test_my_duels_leads_to_the_online_duel():
    duel, _referee, alice, bob = online_duel()
    page = client_of(alice).get(reverse("player:duels")).content.decode()
    assert url("duel", duel) in page and "Open your online duel" in page
    # Online words, never a table's (an outside test read "Table not given yet" here).
    assert "Online duel — it starts when you are both ready" in page
    assert not [w for w in TABLE_WORDS if w in page]
    started(duel, alice, bob)
    page = client_of(alice).get(reverse("player:duels")).content.decode()
    assert "Online duel · playing now" in page and "Go to your online duel" in page
    assert not [w for w in TABLE_WORDS if w in page]


def test_an_online_duel_before_its_round_says_when_to_open_it():
    duel, _referee, alice, _bob = online_duel()
    Duel.objects.filter(pk=duel.pk).update(status=DuelStatus.PENDING)
    page = client_of(alice).get(reverse("player:duels")).content.decode()
    assert "Online duel — open it when the round starts" in page
    assert url("duel", duel) not in page and "Table not given yet" not in page


def started(duel, alice, bob):
    for user in (alice, bob):
        client_of(user).post(url("ready", duel))
    duel.refresh_from_db()
    return duel


def watch_url(duel, name: str = "online_watch") -> str:
    return reverse(f"public:{name}", args=[duel.tournament.slug, duel.pk])


def test_the_room_watches_the_public_view_and_never_a_hand():
    duel, referee, alice, bob = online_duel()
    duel.tournament.published = True
    duel.tournament.save(update_fields=["published"])
    waiting = Client().get(watch_url(duel)).content.decode()
    assert "Alice against Bob, online" in waiting
    started(duel, alice, bob)
    hands = {s: view_of(duel.game_id, Viewer("seat", s))["hand"]["numbers"] for s in "AB"}
    page = Client().get(watch_url(duel)).content.decode()
    assert "Alice" in page and "Bob" in page
    assert 'name="play"' not in page and "seal:" not in page  # no hand, no move
    # The refereed watch page and the referee's console both lead here.
    old = Client().get(reverse("public:watch", args=[duel.tournament.slug, duel.pk]))
    assert old.status_code == 302 and old["Location"] == watch_url(duel)
    console = client_of(referee).get(reverse("duels:console", args=[duel.tournament.slug, duel.pk]))
    assert console.status_code == 302 and console["Location"] == watch_url(duel)
    assert hands  # each seat holds cards the page above never showed


def test_a_referee_ends_an_online_duel_with_a_reason_and_a_player_cannot():
    duel, referee, alice, bob = online_duel()
    started(duel, alice, bob)
    page = client_of(referee).get(watch_url(duel)).content.decode()
    assert "End the duel" in page and "Time limit" not in page
    assert page.count('class="radio-row"') == 4  # each choice beside its own label
    post = {"ending": "adjudicate_B", "reason": "Alice's connection failed for good"}
    # Without the ticked confirmation nothing happens.
    refused = client_of(referee).post(watch_url(duel, "online_end"), post)
    assert refused.status_code == 422
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING
    # A player may not end their own duel (403 or refused), nor may the public.
    assert client_of(alice).post(
        watch_url(duel, "online_end"), {**post, "confirm": "on"}
    ).status_code in (403, 422)
    assert Client().post(watch_url(duel, "online_end"), {**post, "confirm": "on"}).status_code in (
        302,
        403,
        404,
    )
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING
    done = client_of(referee).post(watch_url(duel, "online_end"), {**post, "confirm": "on"})
    assert done.status_code == 302
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED and duel.result.winner_id == duel.seat_b_id
    from duels.services import record_of

    last = record_of(duel)["events"][-1]
    assert last == {"type": "adjudicate", "winner": "B", "reason": post["reason"]}


def test_the_referee_console_takes_no_move_of_an_online_duel():
    from core.errors import ServiceError
    from tournaments.services import refereeing

    duel, referee, alice, bob = online_duel()
    started(duel, alice, bob)
    with pytest.raises(ServiceError, match="played online"):
        refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 1, "B": 2}}, 0)


def test_a_drawn_online_duel_leads_both_players_to_its_replay():
    from tournaments.services import lifecycle

    duel, referee, alice, bob = online_duel()
    started(duel, alice, bob)
    # A draw (two seats at 0 at once: rare in play, and no ruling draws), stored as the
    # duel's end; then the tournament's own path from a result.
    from duels.models import Result

    Duel.objects.filter(pk=duel.pk).update(status=DuelStatus.FINISHED)
    duel.refresh_from_db()
    Result.objects.create(duel=duel, finish="double_zero", table_finish="double_zero")
    lifecycle.after_result(duel.tournament, duel, None)
    replay = Duel.objects.get(replay_of=duel)
    assert replay.online and replay.ready_by is not None and replay.game_id is None
    for client in (client_of(alice), client_of(bob)):
        page = client.get(url("duel", duel)).content.decode()
        assert url("duel", replay) in page and "open its replay" in page


def test_my_tournaments_leads_to_the_online_duel_too():
    duel, referee, alice, bob = online_duel()
    tournament = duel.tournament
    tournament.online_duels = True
    tournament.save(update_fields=["online_duels"])
    # Even called by staff (its table typed on the Rounds page), an online duel has no table.
    Duel.objects.filter(pk=duel.pk).update(table="4", called_at=timezone.now())
    page = client_of(alice).get(reverse("player:tournaments")).content.decode()
    assert url("duel", duel) in page and "Open your online duel" in page
    assert "online duel: it starts when you are both ready" in page
    assert "I will play online: check me in" in page
    assert not [w for w in (*TABLE_WORDS, "Table 4") if w in page]
    # The tournament's own page says where the duels are played, and checks in the same way.
    home = client_of(alice).get(reverse("tournaments:detail", args=[tournament.slug]))
    home = home.content.decode()
    assert "Your duels are played online" in home and "I will play online: check me in" in home
    assert not [w for w in TABLE_WORDS if w in home]
    started(duel, alice, bob)
    page = client_of(alice).get(reverse("player:tournaments")).content.decode()
    assert "online duel, playing now" in page and "Go to your online duel" in page
    assert "Table 4" not in page


def test_a_referees_next_duel_played_online_names_no_table_and_no_you():
    """The referee's console shows their next duel with the same words: an online duel is
    neither at a table nor "yours to open"."""
    from django.template.loader import render_to_string

    from tournaments.selectors_schedule import next_for_referee

    duel, referee, _alice, _bob = online_duel()
    Duel.objects.filter(pk=duel.pk).update(referee=referee, table="4", called_at=timezone.now())
    upcoming = next_for_referee(referee, duel.tournament)
    line = render_to_string("public/_next_duel.html", {"u": upcoming})
    assert "online duel: it starts when both players are ready" in line
    assert not [w for w in ("you", "Table 4", "called to") if w in line]
    Duel.objects.filter(pk=duel.pk).update(status=DuelStatus.PENDING)
    line = render_to_string(
        "public/_next_duel.html", {"u": next_for_referee(referee, duel.tournament)}
    )
    assert "online duel, waiting for its round" in line


def test_a_player_without_a_beat_for_10_s_is_shown_away(monkeypatch):
    from play import presence

    now = [1_000_000.0]
    monkeypatch.setattr(presence, "now", lambda: now[0])
    duel, referee, alice, bob = online_duel()
    a, b = client_of(alice), client_of(bob)
    started(duel, alice, bob)
    assert "is away" not in a.get(url("duel", duel)).content.decode()
    now[0] += 6
    assert b.post(url("beat", duel)).status_code == 204  # Bob's page is visible
    now[0] += 6  # Alice's last sign of life was her page load, 12 s ago
    page = b.get(url("duel", duel)).content.decode()
    assert "Alice is away" in page
    assert "Bob is away" not in a.get(url("duel", duel)).content.decode()
    # The room sees it too; a stranger's beat is refused.
    duel.tournament.published = True
    duel.tournament.save(update_fields=["published"])
    now[0] += 11
    watch = Client().get(watch_url(duel)).content.decode()
    assert "Bob is away" in watch
    assert client_of(referee).post(url("beat", duel)).status_code == 404


def test_the_public_view_shows_the_seat_clock_of_the_seat_asked():
    duel, _referee, alice, bob = online_duel()
    duel.tournament.published = True
    duel.tournament.save(update_fields=["published"])
    started(duel, alice, bob)
    page = Client().get(watch_url(duel)).content.decode()
    assert page.count("data-seat-clock") == 2  # both seats are asked to seal


def test_a_seat_whose_clock_runs_out_three_times_forfeits_as_abandoned(monkeypatch):
    """The seat clock (ONLINE.md 3), an injected clock: Bob keeps playing, Alice's page is
    gone; the clock plays for her three times in a row and she forfeits, reason abandoned,
    and the tournament counts it as any result."""
    from types import SimpleNamespace

    from play import services as play_services

    start = timezone.now()
    moment = [start]
    monkeypatch.setattr("play.services._clock", lambda: moment[0])
    monkeypatch.setattr("play.clock._now", lambda: moment[0])
    # One deal every run (the app's is random: Bob's random answers could end some deals
    # before the third clock-out, a flaky test).
    monkeypatch.setattr(play_services, "random_source", SimpleNamespace(token_bytes=bytes))
    duel, _referee, alice, bob = online_duel()
    duel.tournament.seat_clock = 10
    duel.tournament.save(update_fields=["seat_clock"])
    started(duel, alice, bob)
    game = Game.objects.get(pk=duel.game_id)
    assert {a["seat"]: a["seconds"] for a in game.awaited} == {"A": 10, "B": 10}
    b = client_of(bob)
    rng = random.Random(3)
    for k in range(1, 40):
        duel.refresh_from_db()
        if duel.status != DuelStatus.RUNNING:
            break
        view = view_of(duel.game_id, Viewer("seat", "B"))
        if {"seal", "answer", "choose"} & set(view["commands"]):
            post = {**_post_of(view, rng), "revision": duel.revision, "intent": f"b{k}"}
            b.post(url("move", duel), {**post, "confirm": "yes"})
        moment[0] = start + timedelta(seconds=11 * k)
        assert b.get(url("poll", duel), {"revision": 0, "v": "x"}).status_code == 200
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED
    from duels.services import record_of

    assert record_of(duel)["events"][-1] == {"type": "forfeit", "seat": "A", "reason": "abandoned"}
    assert duel.result.winner_id == duel.seat_b_id
    page = b.get(url("duel", duel)).content.decode()
    assert "Standings" in page
    # Her clock ran out three times: that is abandoning, and the log says so.
    assert "Alice forfeits (abandoned): you win the duel" in page


def test_a_player_not_ready_when_the_wait_ends_forfeits_on_the_others_page():
    duel, _referee, alice, bob = online_duel()
    a = client_of(alice)
    a.post(url("ready", duel))
    Duel.objects.filter(pk=duel.pk).update(ready_by=timezone.now() - timedelta(seconds=1))
    page = a.get(url("duel", duel)).content.decode()
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED and duel.result.winner_id == duel.seat_a_id
    assert "Alice won: forfeit." in page


def test_a_dealt_online_duel_keeps_its_players_before_its_first_move():
    """Found by the online tournament state machine: right after the deal (both ready, no
    move yet, so no move counted) naming the round's players again replaced them, put the
    duel back to ready and left the dealt game playing for the old accounts. An online duel
    has started once dealt: the players can no longer be replaced."""
    from core.errors import ServiceError
    from tournaments import services

    duel, referee, alice, bob = online_duel()
    started(duel, alice, bob)
    assert duel.status == DuelStatus.RUNNING and duel.seq == 0
    tournament = duel.tournament
    others = [
        tournament.entrants.exclude(pk__in=[duel.seat_a_id, duel.seat_b_id])
        .filter(group=group)
        .order_by("pk")
        .first()
        for group in tournament.groups.order_by("order")
    ]
    with pytest.raises(ServiceError, match="can no longer be replaced"):
        services.name_representatives(tournament, referee, 1, others[0].pk, others[1].pk)
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING
    assert (duel.seat_a.user, duel.seat_b.user) == (alice, bob)
    assert duel.ready_a and duel.ready_b


def test_round_1_has_started_once_its_online_duel_is_dealt():
    """Found by the online tournament state machine: round 1's online duel dealt, no move
    yet, counted as not started (a move counted as the start): a withdrawal of its player
    was then a set-up one (no group for any round) while it forfeited the duel, whose result
    named a player of no group. Dealt is started (`lifecycle.UNSTARTED`): the withdrawal is
    one of the group phase (here eliminating the group it leaves at four)."""
    from tournaments import services
    from tournaments.services.groups import round_one_started

    duel, _referee, alice, bob = online_duel()
    tournament = duel.tournament
    assert not round_one_started(tournament)
    started(duel, alice, bob)
    assert round_one_started(tournament)
    # Reds are five: the withdrawal leaves four, and once round 1 has started that is an
    # elimination, confirmed (before it, a set-up change blocking round 1).
    services.withdraw(tournament, tournament.created_by, duel.seat_a_id, reason="ill", confirm=True)
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED and duel.result.loser_id == duel.seat_a_id
    assert tournament.groups.get(pk=duel.group_a_id).eliminated_at_round is not None


def test_both_players_abandoning_stops_the_duel_on_their_pages(monkeypatch):
    """ONLINE.md 6: both abandon, the duel stops for the organisers' ruling — never one
    player's forfeit; each player's page says so and offers no move, no resignation."""
    from tests.tournaments.test_online_rulings import abandoned_by_both

    duel, _referee, alice, bob = online_duel(starting_number_cards=7)  # outlasts the clocks
    duel = abandoned_by_both(duel, monkeypatch)
    assert duel.status == DuelStatus.RUNNING and not hasattr(duel, "result")
    for user in (alice, bob):
        page = client_of(user).get(url("duel", duel)).content.decode()
        assert "Both players abandoned: the duel stops and the organisers rule on it." in page
        assert url("resign", duel) not in page and url("move", duel) not in page
    from tournaments import services

    services.set_published(duel.tournament, True, duel.tournament.created_by)
    public = Client().get(watch_url(duel)).content.decode()
    assert "Both players abandoned: the duel stops and the organisers rule on it." in public


def test_a_player_who_sealed_still_sees_their_own_hand():
    """ONLINE.md 5: a seat always sees its own hand — while it waits for the other seal too
    (found by the outside pass: the cards vanished with the hand's form)."""
    duel, _referee, alice, bob = online_duel()
    duel = started(duel, alice, bob)
    hand = view_of(duel.game_id, Viewer("seat", "A"))["hand"]["numbers"]
    a = client_of(alice)
    a.post(url("move", duel), {"play": f"seal:{hand[0]}", "revision": duel.revision, "intent": "h"})
    page = a.get(url("duel", duel)).content.decode()
    assert "Waiting for Bob" in page and 'id="hand"' not in page  # no form: nothing to play
    shown = page[page.index('class="hand-view"') :]
    shown = shown[: shown.index("</section>")]
    assert "Your cards" in shown
    for value in set(hand):
        assert f'<span class="face" aria-hidden="true">{value}</span>' in shown
    # Bob, asked to seal, has his hand as the form to play from (no second copy of it).
    bobs = client_of(bob).get(url("duel", duel)).content.decode()
    assert 'id="hand"' in bobs and 'class="hand-view"' not in bobs


def test_the_rooms_polls_of_one_revision_share_one_drawing_and_the_referee_has_their_own(
    monkeypatch,
):
    from play import presence
    from tournaments.services.online import state_key
    from tournaments.views import online as views

    now = [1_000_000.0]
    monkeypatch.setattr(presence, "now", lambda: now[0])
    drawn: list[int] = []
    real = views.card_table

    def counted(*args, **kwargs):
        drawn.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(views, "card_table", counted)
    duel, referee, alice, bob = online_duel()
    duel.tournament.published = True
    duel.tournament.save(update_fields=["published"])
    started(duel, alice, bob)
    older = {"revision": duel.revision - 1, "v": state_key(duel), "away": "-"}
    poll = watch_url(duel, "online_poll")
    instant = timezone.now()
    monkeypatch.setattr("play.clock._now", lambda: instant)  # the seat clocks' figures
    first = Client().get(poll, older, HTTP_HX_REQUEST="true")
    second = Client().get(poll, older, HTTP_HX_REQUEST="true")
    assert first.status_code == second.status_code == 200 and len(drawn) == 1
    assert first.content == second.content and first.content.count(b"data-seat-clock") == 2
    assert "End the duel" not in first.content.decode()
    # The referee's part carries the endings' form: drawn for them, never shared.
    own = client_of(referee).get(poll, older, HTTP_HX_REQUEST="true").content.decode()
    assert len(drawn) == 2 and "End the duel" in own
    # Who is away is part of what is shared: a change is drawn anew.
    now[0] += 11
    away = Client().get(poll, older, HTTP_HX_REQUEST="true").content.decode()
    assert len(drawn) == 3 and "Alice is away" in away and "Bob is away" in away
    # A move: the room's next poll shows it.
    hand_b = view_of(duel.game_id, Viewer("seat", "B"))["hand"]["numbers"]
    seal = {"play": f"seal:{hand_b[0]}", "revision": duel.revision, "intent": "z"}
    assert client_of(bob).post(url("move", duel), seal).status_code == 302
    duel.refresh_from_db()
    moved = Client().get(poll, older, HTTP_HX_REQUEST="true").content.decode()
    assert len(drawn) == 4 and f'data-revision="{duel.revision}"' in moved


def test_the_ready_screen_says_what_changed_to_a_screen_reader_and_keeps_the_focus():
    """The ready screen's part is replaced whole (which a screen reader does not read out):
    what changed is said once in the page's live region, and after *I'm ready* the focus
    goes to who is ready (found by the outside pass: it fell to the page's first link)."""
    duel, _referee, alice, bob = online_duel()
    a, b = client_of(alice), client_of(bob)
    page = b.get(url("duel", duel)).content.decode()
    assert '<div id="ready-news" class="visually-hidden" role="status" aria-live="polite">' in page
    answer = a.post(url("ready", duel), HTTP_HX_REQUEST="true").content.decode()
    assert '<ul class="ready-list" tabindex="-1" autofocus>' in answer
    assert '<div id="ready-news" hx-swap-oob="innerHTML">You are ready now.</div>' in answer
    duel.refresh_from_db()
    poll = b.get(
        url("poll", duel),
        {"screen": "ready", "revision": duel.revision, "v": "old"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert '<div id="ready-news" hx-swap-oob="innerHTML">Alice is ready now.</div>' in poll
    assert "autofocus" not in poll  # a poll never moves the focus
