"""The whole deal after the end (ONLINE.md 5: every seat and the organiser see every hand in
the replay; nobody before the end; the public sees public facts only): the online tournament
duel's page, the table core's ``whole_deal``, and who may open it."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from play.adapters.base import Viewer
from play.errors import Hidden
from play.models import Game
from play.selectors import view_of, whole_deal
from tests.factories import RoleFactory, UserFactory
from tests.tournaments.test_online_duels import client_of, online_duel, started, url

pytestmark = pytest.mark.django_db


def deal_url(duel, step: int | None = None) -> str:
    address = reverse("public:online_deal", args=[duel.tournament.slug, duel.pk])
    return address if step is None else f"{address}?step={step}"


def _sealed_round_then_resign(duel, alice, bob) -> dict[str, list[int]]:
    """Both seal a card (the first round), then Alice resigns: the duel ends. Returns each
    seat's hand as dealt."""
    duel = started(duel, alice, bob)
    dealt = {s: view_of(duel.game_id, Viewer("seat", s))["hand"]["numbers"] for s in "AB"}
    for seat, user in (("A", alice), ("B", bob)):
        duel.refresh_from_db()
        answer = client_of(user).post(
            url("move", duel),
            {"play": f"seal:{dealt[seat][-1]}", "revision": duel.revision, "intent": f"s{seat}"},
        )
        assert answer.status_code == 302
    page = client_of(alice).get(url("resign", duel)).content.decode()
    intent = re.search(r'name="intent" value="([^"]+)"', page).group(1)
    duel.refresh_from_db()
    client_of(alice).post(url("resign", duel), {"revision": duel.revision, "intent": intent})
    return dealt


def _cards(values: list[int]) -> str:
    return "".join(f'<span class="playing-card is-number">{v}</span> ' for v in values)


def test_no_one_sees_the_whole_deal_before_the_end():
    duel, referee, alice, bob = online_duel()
    # Before the deal, as during play: the duel's public page.
    answer = client_of(alice).get(deal_url(duel))
    assert answer.status_code == 302 and answer["Location"].endswith(f"/duels/{duel.pk}/online/")
    duel = started(duel, alice, bob)
    with pytest.raises(Hidden):
        whole_deal(Game.objects.get(pk=duel.game_id), None)
    for user in (alice, bob, duel.tournament.created_by):
        answer = client_of(user).get(deal_url(duel))
        # The public page of the duel instead: no hand in it.
        assert answer.status_code == 302
        assert answer["Location"] == reverse(
            "public:online_watch", args=[duel.tournament.slug, duel.pk]
        )
    page = client_of(alice).get(url("duel", duel)).content.decode()
    assert deal_url(duel) not in page


def test_after_the_end_both_players_see_every_hand_step_by_step():
    duel, _referee, alice, bob = online_duel()
    dealt = _sealed_round_then_resign(duel, alice, bob)
    duel.refresh_from_db()
    # The end's page of each player leads to it.
    for user in (alice, bob):
        assert deal_url(duel) in client_of(user).get(url("duel", duel)).content.decode()
    first = client_of(bob).get(deal_url(duel, 1))
    assert first.status_code == 200
    page = first.content.decode()
    # Step 1 is the deal: both hands as dealt, Alice's too, on Bob's screen.
    assert "After move 1 of" in page
    assert _cards(sorted(dealt["A"])) in page and _cards(sorted(dealt["B"])) in page
    assert "Alice was dealt" in page and "Bob was dealt" in page
    # The sealed cards, hidden while the game ran, are in the log now.
    assert f"Alice sealed {dealt['A'][-1]}." in page and f"Bob sealed {dealt['B'][-1]}." in page
    # The last step is the end; a step out of range is the nearest; htmx gets the part only.
    last = client_of(alice).get(deal_url(duel, 999)).content.decode()
    total = re.search(r"After move (\d+) of (\d+)", last)
    assert total.group(1) == total.group(2)
    part = client_of(alice).get(deal_url(duel, 2), HTTP_HX_REQUEST="true").content.decode()
    assert part.lstrip().startswith('<div id="replay"') and "<html" not in part


def test_the_organisers_see_it_and_no_one_else_does():
    duel, referee, alice, bob = online_duel()
    co = RoleFactory(tournament=duel.tournament, role=Role.CO_ORGANISER).user
    _sealed_round_then_resign(duel, alice, bob)
    duel.tournament.published = True
    duel.tournament.save(update_fields=["published"])
    for user in (duel.tournament.created_by, co, alice, bob):
        assert client_of(user).get(deal_url(duel)).status_code == 200
    for user in (referee, UserFactory(username="eve")):
        answer = client_of(user).get(deal_url(duel))
        assert answer.status_code == 403
        assert "whole deal" in answer.content.decode()
    anonymous = Client().get(deal_url(duel))
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    # The public page links to it for the organiser only.
    watch = reverse("public:online_watch", args=[duel.tournament.slug, duel.pk])
    assert deal_url(duel) in client_of(duel.tournament.created_by).get(watch).content.decode()
    assert deal_url(duel) not in Client().get(watch).content.decode()
    assert deal_url(duel) not in client_of(referee).get(watch).content.decode()
    # Only GET: nothing here changes anything.
    assert client_of(alice).post(deal_url(duel)).status_code == 405
