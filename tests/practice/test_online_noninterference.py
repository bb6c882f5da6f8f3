"""Non-interference at an online table (issue 31; ONLINE.md section 5): every answer to a
person about their seat — the page, its htmx fragment, the poll's fragment and 204, the
answer to a refused move — is drawn from their seat's view only, so a second world that
differs only in what that seat cannot know (the other person's hand, the bot's, the deck
order, the seed) answers them byte for byte the same.

Two people (ada at A, bo at B) and a bot (C) play random legal moves through the move view,
from a fixed seed. At the start and after every move, for each person in turn, the stored
secrets are rewritten into another world consistent with what that person's seat has seen
(the dealt adapter test's ``relabel``), every cache is emptied, and their answers are fetched
again: identical once the CSRF mask is blanked, the CSP nonce and the forms' keys fixed and
the clock frozen (tests/play/test_page_noninterference.py's fixtures). The first world is
then put back and play goes on. A spectator holding the watch link (signed out) is compared
likewise, in worlds re-dealt for each person's seat (the public sees less than any seat).
Not compared: a move played in both worlds (the bot answers
from its own hand)."""

from __future__ import annotations

import itertools
import random
import re
import secrets as random_source

import pytest
from django.test import Client
from django.urls import reverse

from play import secrets
from play.adapters.base import Viewer
from play.models import Game, GameEvent
from play.models_secret import EventSecret, GameSecret
from play.selectors import view_of
from practice import online
from practice.models import OnlinePlayer, OnlineTable
from tests.factories import UserFactory
from tests.play.test_adapter_split_uno_dealt import relabel, seen_by
from tests.play.test_page_noninterference import (
    HTMX,
    KEYS,
    as_bytes,
    dealt_from,
    empty_caches,
    events_of,
    first_difference,
    frozen,  # noqa: F401 - a fixture
    put_back,
    stored_secrets,
)
from tests.practice.test_online_tables import seat_form

pytestmark = pytest.mark.django_db

#: The seed of the case with truth and dare on (one at which a TRUTH or DARE is played).
TRUTH_DARE_CASE = 4


def rewrite_secrets(game_id: int, seat: str, rnd: random.Random) -> bool:
    """Every card ``seat`` has not seen given another unseen card's value, in every private
    part but the seat's and in the deal snapshot, and a fresh seed. Whether anything hidden
    changed."""
    pks, events = events_of(game_id)
    other = relabel(events, seen_by(events, seat), rnd)
    changed = False
    for pk, before, after in zip(pks, events, other, strict=True):
        assert after.private.get(seat) == before.private.get(seat)
        for key, facts in after.private.items():
            if key != seat and facts != before.private[key]:
                EventSecret.objects.filter(event_id=pk, key=key).update(facts=facts)
                changed = True
    deal = secrets.deal_of(game_id)
    GameSecret.objects.filter(game_id=game_id).update(
        seed=random_source.token_bytes(16), deal=[e.private for e in other[: len(deal)]]
    )
    return changed


def answers(client: Client, table: OnlineTable) -> dict[str, bytes]:
    """Everything the person is answered about the game, caches emptied, keys from zero."""
    empty_caches()
    game = Game.objects.get(pk=table.game_id)
    table.refresh_from_db()
    page = reverse("practice:online", args=[table.pk])
    poll = reverse("practice:online_poll", args=[table.pk])
    move = reverse("practice:online_move", args=[table.pk])
    out: dict[str, bytes] = {}

    def fetch(name: str, status: int, call) -> None:
        KEYS[0] = itertools.count()
        response = call()
        assert response.status_code == status, (name, response.content.decode()[-1500:])
        out[name] = as_bytes(response)

    refused = {"play": "seal:11", "revision": str(game.revision), "intent": "same"}
    fetch("page", 200, lambda: client.get(page))
    fetch("page (htmx)", 200, lambda: client.get(page, **HTMX))
    away = drawn_away(out["page"])
    fetch(
        "poll, nothing new",
        204,
        lambda: client.get(
            poll, {"revision": game.revision, "v": table.version, "away": away}, **HTMX
        ),
    )
    fetch(
        "poll, from an older page",
        200,
        lambda: client.get(poll, {"revision": game.revision - 1, "v": table.version}, **HTMX),
    )
    fetch("refused", 422, lambda: client.post(move, refused | {"intent": "r1"}))
    fetch("refused (htmx)", 422, lambda: client.post(move, refused | {"intent": "r2"}, **HTMX))
    return out


def drawn_away(page: bytes) -> str:
    """The people away as the page was drawn (its poll's ``away`` key; ONLINE.md 4)."""
    found = re.search(rb"away=([A-Z-]+)", page)
    assert found is not None
    return found.group(1).decode()


def watch_answers(client: Client, table: OnlineTable) -> dict[str, bytes]:
    """Everything a spectator holding the watch link is answered (ONLINE.md 5): the page, its
    fragment, the poll's 204 and its fragment."""
    empty_caches()
    game = Game.objects.get(pk=table.game_id)
    table.refresh_from_db()
    page = reverse("practice:online_watch", args=[table.watch_token])
    poll = reverse("practice:online_watch_poll", args=[table.watch_token])
    out: dict[str, bytes] = {}

    def fetch(name: str, status: int, call) -> None:
        KEYS[0] = itertools.count()
        response = call()
        assert response.status_code == status, (name, response.content.decode()[-1500:])
        out[name] = as_bytes(response)

    fetch("watch page", 200, lambda: client.get(page))
    fetch("watch page (htmx)", 200, lambda: client.get(page, **HTMX))
    same = {"revision": game.revision, "v": table.version, "away": drawn_away(out["watch page"])}
    fetch("watch poll, nothing new", 204, lambda: client.get(poll, same, **HTMX))
    fetch(
        "watch poll, from an older page",
        200,
        lambda: client.get(poll, same | {"revision": game.revision - 1}, **HTMX),
    )
    return out


def same_in_another_world(
    client: Client, table: OnlineTable, seat: str, rnd: random.Random, *, watching: bool = False
) -> bool:
    """``client``'s answers (a seat's, or with ``watching`` a spectator's) the same in a world
    re-dealt consistently with what ``seat`` has seen (and so with what the public has)."""
    game_id = table.game_id
    assert game_id is not None
    ask = watch_answers if watching else answers
    mine = ask(client, table)
    saved = stored_secrets(game_id)
    changed = rewrite_secrets(game_id, seat, rnd)
    theirs = ask(client, table)
    put_back(game_id, saved)
    empty_caches()
    for what in mine:
        assert theirs[what] == mine[what], (
            f"{seat}: the {what} differs: {first_difference(mine[what], theirs[what])}"
        )
    return changed


@pytest.mark.parametrize(
    ("ruleset", "case", "truth_dare"),
    [("tournament", 0, False), ("official", 1, False), ("official", TRUTH_DARE_CASE, True)],
)
def test_each_person_s_answers_are_the_same_whatever_the_others_hold(
    frozen: None,  # noqa: F811 - the fixture
    monkeypatch: pytest.MonkeyPatch,
    ruleset: str,
    case: int,
    truth_dare: bool,
) -> None:
    dealt_from(monkeypatch, case)
    if truth_dare:
        # Truth and dare on (ONLINE.md 2), action cards in hand from the deal, so that a
        # TRUTH or DARE is played, its words on every page.
        chosen = online.choose

        def with_actions(*args, **kwargs):
            seating = chosen(*args, **kwargs)
            seating.options["starting_action_cards"] = {"A": 4, "B": 4, "C": 4}
            return seating

        monkeypatch.setattr(online, "choose", with_actions)
    ada, bo = UserFactory(username="ada"), UserFactory(username="bo")
    clients = {}
    for user in (ada, bo):
        clients[user.username] = Client()
        clients[user.username].force_login(user)
    new = {"ruleset": ruleset, "seats": "3", "bot": "heuristic", "clock": "30"}
    if truth_dare:
        new["truth_dare"] = "on"
    assert clients["ada"].post(reverse("practice:online_new"), new).status_code == 302
    table = OnlineTable.objects.latest("pk")
    assert (
        clients["bo"].post(reverse("practice:online_join", args=[table.join_token])).status_code
        == 302
    )
    start = {"do": "start", "version": str(OnlineTable.objects.get(pk=table.pk).version)}
    assert (
        clients["ada"].post(reverse("practice:online_lobby", args=[table.pk]), start).status_code
        == 302
    )
    # A spectator holding the watch link (signed out): their answers never move either.
    issue = {"do": "issue", "version": str(OnlineTable.objects.get(pk=table.pk).version)}
    watch_link = reverse("practice:online_watch_link", args=[table.pk])
    assert clients["ada"].post(watch_link, issue).status_code == 302
    spectator = Client()
    table.refresh_from_db()
    seats = dict(OnlinePlayer.objects.filter(table=table).values_list("seat", "user__username"))
    assert seats == {"A": "ada", "B": "bo"}
    rnd = random.Random(case)
    differed = {"A": False, "B": False}
    compared = 0
    for _ in range(8):
        game = Game.objects.get(pk=table.game_id)
        if game.status != "playing":
            break
        for seat, name in seats.items():
            differed[seat] |= same_in_another_world(clients[name], table, seat, rnd)
            same_in_another_world(spectator, table, seat, rnd, watching=True)
        compared += 1
        asked = [
            (seat, form)
            for seat in seats
            if (form := seat_form(view_of(game.pk, Viewer("seat", seat)), rnd)) is not None
        ]
        seat, form = rnd.choice(asked)
        form |= {"revision": str(game.revision), "intent": random_source.token_urlsafe(8)}
        response = clients[seats[seat]].post(reverse("practice:online_move", args=[table.pk]), form)
        assert response.status_code == 302, response.content.decode()[-1500:]
    # The check would pass on worlds that never differ: hidden cards must have moved.
    assert all(differed.values()) and compared >= 3, (differed, compared)
    if truth_dare:
        said = [e for e in GameEvent.objects.filter(game_id=table.game_id) if "said" in e.public]
        assert said, "a TRUTH or DARE was played"
