"""Pages that show a fresh link, or that a link opens, are never kept by a cache ("Trust on
the night"): `Cache-Control` says no-store, and private, so neither the browser nor a shared
cache (a proxy, a CDN) keeps a copy of a claim link, an invitation link, a record link or a
printed sheet. Each page is asked as the person who sees it, and must show what it is for."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.test_fuzz_forms import World, setup_world

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Page:
    role: str
    address: Callable[[World], str]
    method: str = "get"
    # A value may be read from the world (the id of a row it made).
    data: dict[str, str | Callable[[World], str]] | None = None
    shows: str = ""  # a text the page must hold: the link or what it is for


def _t(name: str, **kwargs: Any) -> Callable[[World], str]:
    return lambda w: reverse(
        name, kwargs={"slug": w.tournament.slug, **{k: v(w) for k, v in kwargs.items()}}
    )


def _tick(entrant: Any) -> str:
    from tournaments.services.invitations import claim_sheet_mark

    entrant.refresh_from_db()
    return f"{entrant.pk}:{claim_sheet_mark(entrant)}"


def _table(name: str) -> Callable[[World], str]:
    return lambda w: reverse(name, args=[w.table.pk])


PAGES: dict[str, Page] = {
    "a claim link just issued": Page(
        "organiser",
        _t("organiser:issue_claim", entrant_id=lambda w: w.entrants[2].pk),
        "post",
        shows="/claim/",
    ),
    "an invitation link just issued": Page(
        "organiser",
        _t("organiser:invite"),
        "post",
        {"label": "Ref", "role": "referee"},
        shows="/invite/",
    ),
    "the players' sheets, before printing": Page("organiser", _t("organiser:print_players")),
    "the players' sheets, printed": Page(
        "organiser",
        _t("organiser:print_players"),
        "post",
        # Only the ticked players get a new sheet (none by default), each with its link's mark.
        {"replace": lambda w: _tick(w.entrants[2])},
        shows="/claim/",
    ),
    "the referees' sheets, before printing": Page("organiser", _t("organiser:print_referees")),
    "the referees' sheets, printed": Page(
        "organiser",
        _t("organiser:print_referees"),
        "post",
        # Only the ticked invitations get a new sheet (none by default).
        {"confirm": "1", "replace": lambda w: str(w.invitation.pk)},
        shows="/invite/",
    ),
    "the poster": Page("organiser", _t("organiser:poster"), shows="Fuzz Cup"),
    "a claim link opened, signed out": Page(
        "anonymous", _t("tournaments:claim", token=lambda w: w.token), shows="Create an account"
    ),
    "a claim link opened, signed in": Page(
        "outsider", _t("tournaments:claim", token=lambda w: w.token)
    ),
    "an invitation link opened": Page(
        "anonymous", _t("tournaments:invite", token=lambda w: w.invite_token)
    ),
    "a table's sharing page": Page("player", _table("tables:sharing")),
    "a table's record link just made": Page(
        "player", _table("tables:share"), "post", {"do": "replay_link"}, shows="/tables/replay/"
    ),
    "a table's invitation link just made": Page(
        "player", _table("tables:share"), "post", {"do": "invite"}, shows="/tables/invitation/"
    ),
    "a table's invitation opened": Page(
        "outsider",
        lambda w: reverse("tables:invitation", args=[w.table_invite]),
        shows="Referee this table",
    ),
    "a table's replay opened": Page(
        "anonymous", lambda w: reverse("tables:replay", args=[w.replay_token])
    ),
}


@pytest.mark.parametrize("what", sorted(PAGES))
def test_a_page_with_a_fresh_link_is_never_stored(what):
    page = PAGES[what]
    world = setup_world()
    client = Client()
    if world.user(page.role) is not None:
        client.force_login(world.user(page.role))
    data = {k: v(world) if callable(v) else v for k, v in (page.data or {}).items()}
    response = getattr(client, page.method)(page.address(world), data)
    assert response.status_code == 200, response.content.decode()[:500]
    assert page.shows in response.content.decode()
    directives = {d.strip().split("=")[0] for d in response["Cache-Control"].split(",")}
    assert {"no-store", "private"} <= directives, response["Cache-Control"]
    assert not directives & {"public", "s-maxage"}
