"""An online table's whole deal after the end (ONLINE.md 5): every person of the table steps
through every hand once the game is over, a bot's too; before the end it leads back to the
table; anyone not at the table finds no such table."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from play.adapters.base import Viewer
from play.models import Game
from play.selectors import view_of
from practice.models import OnlineTable
from tests.factories import UserFactory
from tests.practice.test_online_tables import SHORT, open_table, play_out, started
from tests.practice.test_practice_many_views import client_for

pytestmark = pytest.mark.django_db


def test_the_tables_people_step_through_every_hand_after_the_end():
    ada, bo, cy = (UserFactory(username=name) for name in ("ada", "bo", "cy"))
    ada_c, bo_c = client_for(ada), client_for(bo)
    table = open_table(ada_c)
    OnlineTable.objects.filter(pk=table.pk).update(options=SHORT)
    table = started(ada_c, bo_c, table)
    deal = reverse("practice:online_deal", args=[table.pk])
    page = reverse("practice:online", args=[table.pk])
    # Before the end: back to the table, no hand of anyone else's.
    early = bo_c.get(deal)
    assert early.status_code == 302 and early["Location"] == page
    dealt = view_of(table.game_id, Viewer("seat", "C"))  # the bot's seat, hidden till the end
    assert "hand" in dealt
    play_out({"ada": ada_c, "bo": bo_c}, table, random.Random(3))
    assert deal in bo_c.get(page).content.decode()
    first = bo_c.get(deal + "?step=1").content.decode()
    # The deal: each seat's private facts said by name, the bot's too.
    assert "ada was dealt" in first and "bo was dealt" in first and "Bot C was dealt" in first
    numbers = sorted(dealt["hand"]["numbers"])
    assert ", ".join(str(n) for n in numbers) in first  # the bot's hand as dealt
    last = ada_c.get(deal).content.decode()
    steps = re.search(r"After move (\d+) of (\d+)", last)
    assert steps.group(1) == steps.group(2)
    assert Game.objects.get(pk=table.game_id).status == "finished"
    # Not at the table: no such table.
    assert client_for(cy).get(deal).status_code == 404
