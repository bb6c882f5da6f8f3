"""The running duel shown to the room (issue 28): the public table of a refereed duel on its
watch page, the live page and the big screen.

- the selector (`selectors_public.watch`) after real moves entered through the referee's
  service: counts, streaks, the last round's two cards and who won it, a block in place, a
  decision or challenge window and whose, the last moves in the console's words;
- the watch page's access (published: anyone; unpublished: 404 to outsiders), its poll (304
  while nothing changed, a new tag after a move or an undo);
- nothing hidden is shown: a pending shared card is in no public fragment, and two worlds
  that differ only by it answer every public fragment byte for byte the same (hypothesis).
"""

import re

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duels.models import Duel
from games.split_uno import Duel as EngineDuel
from tests.factories import UserFactory
from tests.tournaments.test_group_services import make, play_round
from tournaments import live_cache, services
from tournaments.models import SharedCard
from tournaments.selectors_public import watch
from tournaments.selectors_public.lines import duel_queryset
from tournaments.services import refereeing as duel_services

pytestmark = pytest.mark.django_db

SEVEN_THREE = {"type": "round", "cards": {"A": 7, "B": 3}}
NINE_FIVE = {"type": "round", "cards": {"A": 9, "B": 5}}


@pytest.fixture
def ready():
    """21 players in the group phase, round 1 decided, round 2's duel named at Table 7 (ready),
    published. Round 2 is even: seat A is the second group's player, entrants[16]."""
    tournament, organiser, referee, entrants = make()
    services.start_group_phase(tournament, organiser)
    play_round(tournament, referee, 1, entrants[0], entrants[15])
    duel = services.name_representatives(
        tournament, referee, 2, entrants[1].pk, entrants[16].pk, table="7"
    )
    services.set_published(tournament, True, organiser)
    tournament.refresh_from_db()
    return tournament, organiser, referee, entrants, duel


def play(duel, referee, *events):
    for event in events:
        duel.refresh_from_db()
        duel_services.append_event(duel, referee, event, duel.seq)
    duel.refresh_from_db()


def table_of(duel) -> watch.WatchTable:
    return watch.tables([duel_queryset(pk=duel.pk).get()])[0]


def watch_url(tournament, duel) -> str:
    return f"/t/{tournament.slug}/duels/{duel.pk}/watch/"


def fragment(client, url, tag=None):
    headers = {"HX-Request": "true"}
    if tag:
        headers["If-None-Match"] = tag
    return client.get(url, headers=headers)


class TestTheTable:
    def test_counts_the_last_round_who_won_it_and_the_moves_in_words(self, ready):
        tournament, _, referee, entrants, duel = ready
        a, b = entrants[16].name, entrants[1].name
        play(duel, referee, SEVEN_THREE, NINE_FIVE)
        table = table_of(duel)
        assert table.phase == "playing"
        seat_a, seat_b = table.seats
        # 20 each; A's 7 makes B draw 2 number cards and 1 action card; A wins both rounds
        # (sheds 1 each), B loses both (draws 1 each).
        assert (seat_a.name, seat_a.number_cards, seat_a.action_cards, seat_a.streak) == (
            a,
            18,
            0,
            2,
        )
        assert (seat_b.name, seat_b.number_cards, seat_b.action_cards, seat_b.streak) == (
            b,
            24,
            1,
            0,
        )
        # The last round's two cards face-up, and who won it.
        assert (seat_a.card, seat_b.card) == (9, 5)
        assert seat_a.won_round and not seat_b.won_round
        assert table.last_round.text == f"Duel round 2: {a} won it"
        # Two rounds won in a row: A's streak bonus is the decision the engine waits for.
        assert table.window.seat == "A" and not table.window.challenge
        assert table.window.text == f"{a} won two rounds in a row: choose the streak bonus"
        assert seat_a.deciding and not seat_b.deciding
        assert table.next_round == "Duel round 3"
        # The moves, latest first, in the console's words.
        assert [m.seq for m in table.moves] == [2, 1]
        assert table.moves[1].text == (
            f"{a} reveals 7. {b} reveals 3. {b} draws 2 number cards and 1 action card "
            f"({a}'s 7). {a} sheds 1 number card (round won). {a} wins the round (streak 1). "
            f"{b} draws 1 number card (round lost). {b} loses the round (streak back to 0)."
        )

    def test_a_block_in_place_then_a_blocked_round(self, ready):
        tournament, _, referee, entrants, duel = ready
        a, b = entrants[16].name, entrants[1].name
        bonus = {"type": "respond", "seat": "A", "choice": "action_card"}
        block = {"type": "action", "seat": "A", "card": "block"}
        play(duel, referee, SEVEN_THREE, NINE_FIVE, bonus, block)
        table = table_of(duel)
        assert [s.blocked for s in table.seats] == [False, True]
        assert table.window is None
        # The last round is still round 2: an action card is no round.
        assert table.last_round.number == 2 and [s.card for s in table.seats] == [9, 5]
        assert table.moves[0].text == (
            f"{a} plays BLOCK on {b}. {b} is blocked for the next number round."
        )
        play(duel, referee, {"type": "round", "cards": {"A": 4}})
        table = table_of(duel)
        assert [s.card for s in table.seats] == [4, None]  # B revealed nothing
        assert table.last_round.text == f"Duel round 3: {a} won it"
        assert [s.blocked for s in table.seats] == [False, False]  # the block is lifted

    def test_a_tie_names_no_winner(self, ready):
        tournament, _, referee, entrants, duel = ready
        play(duel, referee, {"type": "round", "cards": {"A": 5, "B": 5}})
        table = table_of(duel)
        assert table.last_round.text == "Duel round 1: a tie on 5"
        assert not any(s.won_round for s in table.seats)

    def test_a_challenge_window_says_whose(self, ready):
        tournament, _, referee, entrants, duel = ready
        a, b = entrants[16].name, entrants[1].name
        Duel.objects.filter(pk=duel.pk).update(options={"starting_number_cards": 2})
        bonus = {"type": "respond", "seat": "A", "choice": "action_card"}
        play(duel, referee, SEVEN_THREE, NINE_FIVE, bonus)
        table = table_of(duel)
        assert table.seats[0].number_cards == 0
        assert table.window.challenge and table.window.seat == "B"
        assert table.window.text == f"{a} is at 0 number cards: does {b} challenge?"

    def test_an_undone_move_leaves_the_table(self, ready):
        tournament, _, referee, entrants, duel = ready
        play(duel, referee, SEVEN_THREE, NINE_FIVE)
        duel_services.undo_last_event(duel, referee, duel.seq)
        duel.refresh_from_db()
        table = table_of(duel)
        assert [m.seq for m in table.moves] == [1] and table.moves_total == 1
        assert [s.card for s in table.seats] == [7, 3] and table.window is None

    def test_a_finished_duel_shows_the_table_as_it_ended(self, ready):
        tournament, _, referee, entrants, duel = ready
        play(duel, referee, SEVEN_THREE, {"type": "forfeit", "seat": "B"})
        table = table_of(duel)
        assert table.phase == "over" and table.window is None and table.next_round == ""
        assert [s.number_cards for s in table.seats] == [19, 23]
        assert table.line.winner == entrants[16].name

    def test_a_duel_not_started_shows_no_counts(self, ready):
        tournament, _, referee, entrants, duel = ready
        table = table_of(duel)
        assert table.phase == "waiting" and table.seats == () and table.moves == ()

    def test_a_voided_duel_keeps_its_table_only_if_it_had_started(self, ready):
        tournament, _, referee, entrants, duel = ready
        Duel.objects.filter(pk=duel.pk).update(status="abandoned")  # before its first move
        assert table_of(duel).phase == "waiting"
        Duel.objects.filter(pk=duel.pk).update(status="ready")
        play(duel, referee, SEVEN_THREE)
        Duel.objects.filter(pk=duel.pk).update(status="void")
        table = table_of(duel)
        assert table.phase == "over" and [s.number_cards for s in table.seats] == [19, 23]
        html = Client().get(watch_url(tournament, duel)).content.decode()
        assert '<span class="badge">Void</span>' in html

    def test_the_moves_of_several_duels_are_one_query(self, ready, django_assert_num_queries):
        tournament, _, referee, entrants, duel = ready
        play(duel, referee, SEVEN_THREE)
        duels = list(duel_queryset(tournament=tournament).order_by("pk"))
        with django_assert_num_queries(1):
            tables = watch.tables(duels)
        assert [t.phase for t in tables] == ["over", "playing"]  # round 1 was a forfeit


class TestTheWatchPage:
    def test_published_is_open_to_anyone_unpublished_is_404_to_outsiders(self, ready):
        tournament, organiser, referee, entrants, duel = ready
        play(duel, referee, SEVEN_THREE)
        url = watch_url(tournament, duel)
        response = Client().get(url)
        assert response.status_code == 200
        html = response.content.decode()
        assert 'id="live"' in html and "Number cards left" in html
        assert not re.search(r"\sstyle=", html) and "<script>" not in html
        services.set_published(tournament, False, organiser)
        assert Client().get(url).status_code == 404
        stranger = Client()
        stranger.force_login(UserFactory())
        assert stranger.get(url).status_code == 404
        staff = Client()
        staff.force_login(referee)
        assert staff.get(url).status_code == 200
        assert Client().get(f"/t/{tournament.slug}/duels/999999/watch/").status_code == 404

    def test_an_unchanged_poll_is_a_304_and_a_move_or_an_undo_changes_the_tag(self, ready):
        tournament, _, referee, entrants, duel = ready
        play(duel, referee, SEVEN_THREE)
        client, url = Client(), watch_url(tournament, duel)
        first = fragment(client, url)
        assert first.status_code == 200 and "no-store" in first["Cache-Control"]
        body = first.content.decode()
        assert body.lstrip().startswith('<div id="live"') and "<html" not in body
        assert first["ETag"].strip('"') in client.get(url).content.decode()  # the page polls it
        again = fragment(client, url, first["ETag"])
        assert again.status_code == 304 and again["ETag"] == first["ETag"]
        play(duel, referee, NINE_FIVE)
        moved = fragment(client, url, first["ETag"])
        assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
        assert "Duel round 2:" in moved.content.decode()
        duel_services.undo_last_event(duel, referee, duel.seq)
        undone = fragment(client, url, moved["ETag"])
        assert undone.status_code == 200 and undone["ETag"] not in (first["ETag"], moved["ETag"])

    def test_the_tag_and_the_fragment_come_from_live_cache(self, ready):
        tournament, _, referee, entrants, duel = ready
        play(duel, referee, SEVEN_THREE)
        row = duel_queryset(pk=duel.pk).get()
        tag = live_cache.watch_tag(tournament, row)
        html = live_cache.watch_fragment(tournament, row, tag)
        # Request-free: no token, no nonce, no user menu; the same text for every viewer.
        assert "csrf" not in html.lower() and "nonce" not in html
        assert html == live_cache.watch_fragment(tournament, row, tag)
        assert fragment(Client(), watch_url(tournament, duel)).content.decode() == html


class TestTheRoomSeesEveryMove:
    def test_the_live_page_and_the_screen_draw_the_table_and_change_with_every_move(self, ready):
        tournament, _, referee, entrants, duel = ready
        client = Client()
        home_url = f"/t/{tournament.slug}/live/"
        now_url = f"/t/{tournament.slug}/screen/?panel=now"
        play(duel, referee, SEVEN_THREE, NINE_FIVE)
        home, now = fragment(client, home_url), fragment(client, now_url)
        for response in (home, now):
            html = response.content.decode()
            assert 'class="watch watch-playing"' in html
            assert "Duel round 2:" in html and "choose the streak bonus" in html
        assert f'href="{watch_url(tournament, duel)}"' in home.content.decode()
        # Undo, then another move: as many moves as before (seq), another table.
        duel_services.undo_last_event(duel, referee, duel.seq)
        play(duel, referee, {"type": "round", "cards": {"A": 2, "B": 8}})
        for url, before in ((home_url, home), (now_url, now)):
            after = fragment(client, url, before["ETag"])
            assert after.status_code == 200, url
            assert "Duel round 2:" in after.content.decode()
            assert after["ETag"] != before["ETag"]

    def test_the_rounds_page_links_a_running_duel_to_its_watch_page(self, ready):
        tournament, _, referee, entrants, duel = ready
        play(duel, referee, SEVEN_THREE)
        html = Client().get(f"/t/{tournament.slug}/rounds/").content.decode()
        assert f'href="{watch_url(tournament, duel)}"' in html


# -- nothing hidden is shown -----------------------------------------------------------------


def give_pending_card(tournament, entrants, receiver) -> SharedCard:
    """A pending shared card for `receiver` from a group-mate, as the service records it (the
    row alone: the service's checks are not what is tested here)."""
    giver = next(e for e in entrants if e.group_id == receiver.group_id and e.pk != receiver.pk)
    from_duel = tournament.duels.get(round__number=1)
    return SharedCard.objects.create(
        tournament=tournament, giver=giver, receiver=receiver, from_duel=from_duel
    )


def public_fragments(tournament, duel) -> dict[str, bytes]:
    """Every public fragment that shows the duel, as an anonymous poll gets it (caches emptied
    first: nothing the other world rendered may answer)."""
    cache.clear()
    live_cache.forget_recent()
    client = Client()
    urls = [
        watch_url(tournament, duel),
        f"/t/{tournament.slug}/live/",
        f"/t/{tournament.slug}/screen/?panel=now",
        f"/t/{tournament.slug}/rounds/",
    ]
    out = {}
    for url in urls:
        response = fragment(client, url)
        assert response.status_code == 200, url
        out[url] = response.content + f"\n{response['ETag']}".encode()
    return out


def test_a_pending_shared_card_is_in_no_public_fragment(ready):
    tournament, _, referee, entrants, duel = ready
    receiver = entrants[16]  # seat A of the ready duel
    give_pending_card(tournament, entrants, receiver)
    for url, body in public_fragments(tournament, duel).items():
        html = body.decode()
        assert "shared" not in html.lower(), url
        assert "Number cards left" not in html, url  # not started: no counts at all


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_pending_shared_card_changes_no_public_byte(ready, data):
    """Two worlds that differ only in what is hidden from the public — a pending shared card
    for one of the duel's players, or for someone else — answer every public fragment of the
    duel byte for byte the same, before its first move and after any number of legal moves
    (drawn from the engine's own list of what is legal now)."""
    tournament, _, referee, entrants, duel = ready
    sid = transaction.savepoint_create()
    try:
        engine = EngineDuel.new("tournament", {"A": "A", "B": "B"})
        for _ in range(data.draw(st.integers(0, 8), label="moves")):
            legal = engine.legal_events()
            if not legal:
                break
            event = data.draw(st.sampled_from(legal), label="move")
            engine.apply(event)
            play(duel, referee, event)
        receiver = data.draw(st.sampled_from([entrants[16], entrants[1], entrants[2]]))
        plain = public_fragments(tournament, duel)
        give_pending_card(tournament, entrants, receiver)
        assert public_fragments(tournament, duel) == plain
    finally:
        transaction.savepoint_rollback(sid)
