"""Non-interference at the page level (issue 27, "How it is checked"): what the practice pages
answer the person at seat A is drawn from A's seat view only, so a second world that differs
only in what A cannot know — the bots' hands, the deck order, the seed — must answer A byte
for byte the same.

Each case starts a practice duel through the real views with a signed-in owner and plays
random legal moves through the move form (read from A's seat view). After every move the
stored secrets (play.secrets' rows: the deal snapshot, the events' private parts of every key
but A's, the seed) are rewritten into another world consistent with what A has seen — the
dealt adapter test's ``relabel`` — every cache and per-process copy is emptied, and the
table page and a refused move's page are fetched again: identical once the CSRF mask is
blanked, the forms' idempotency keys drawn from a counter and the clock frozen. The first
world's rows are then put back and play goes on.

Not checked: a further move played in both worlds. Every move of A's is answered by the bots
at once (they seal, act and decide from their own hands, and draws come from the deck), so
its outcome depends on hidden cards; the pages after each move are compared instead.
"""

from __future__ import annotations

import itertools
import random
import re
import secrets as random_source
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from play import secrets
from play.adapters.base import Event
from play.models import Game, GameEvent
from play.models_secret import EventSecret, GameSecret
from practice import services
from practice.models import PracticeDuel
from tests.factories import UserFactory
from tests.play.test_adapter_split_uno_dealt import relabel, seen_by

pytestmark = pytest.mark.django_db

PERSON = services.PERSON
FROZEN = datetime(2026, 11, 27, 6, 0, tzinfo=UTC)
# The per-response CSRF mask (Django masks the session's secret afresh at every render): the
# one byte-level difference two renders of the same page may have.
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]*"')
#: The modules whose functools caches are emptied between the worlds.
CACHED = ("play", "practice", "games", "duels", "core")


#: The forms' keys of the response being drawn: counted from zero for each (``as_drawn``).
KEYS = [itertools.count()]


def form_key() -> str:
    return f"key-{next(KEYS[0])}"


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock stopped, and each page's forms keyed from a counter (their idempotency keys
    are fresh random text at every render, like the CSRF mask)."""
    monkeypatch.setattr("django.utils.timezone.now", lambda: FROZEN)
    monkeypatch.setattr("play.services._clock", lambda: FROZEN)
    monkeypatch.setattr("practice.game_clock.now", lambda: FROZEN)
    # The CSP nonce, fixed where Django draws it (its LazyNonce calls this at each request).
    monkeypatch.setattr("django.utils.csp.generate_nonce", lambda: "nonce")
    monkeypatch.setattr("practice.views.new_intent", form_key)
    monkeypatch.setattr("practice.game_views.new_intent", form_key)


@pytest.fixture
def client(frozen: None) -> Client:
    client = Client()
    client.force_login(UserFactory(username="ada"))
    return client


def empty_caches() -> None:
    """Django's cache and every functools cache of the project's modules: nothing the first
    world computed may answer for the second."""
    cache.clear()
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".")[0] not in CACHED:
            continue
        for value in list(vars(module).values()):
            if callable(value) and hasattr(value, "cache_clear"):
                value.cache_clear()


def as_bytes(response: HttpResponse) -> bytes:
    """A response as the browser gets it, the CSRF mask blanked (its body first: a failure
    shows the first line that differs, which a Content-Length header would hide)."""
    headers = "".join(f"{k}: {v}\n" for k, v in sorted(response.headers.items()))
    text = f"{response.content.decode()}\n{response.status_code}\n{headers}"
    return CSRF.sub(r'\1"-"', text).encode()


def page(client: Client, practice: PracticeDuel) -> bytes:
    KEYS[0] = itertools.count()
    response = client.get(reverse("practice:table", args=[practice.pk]))
    assert response.status_code == 200
    return as_bytes(response)


def refused(client: Client, practice: PracticeDuel) -> bytes:
    """The page that answers a move the game refuses (a card no one holds)."""
    KEYS[0] = itertools.count()
    form = {
        "play": "seal:11",
        "revision": str(Game.objects.get(pk=practice.game_id).revision),
        "intent": random_source.token_urlsafe(8),
    }
    response = client.post(reverse("practice:move", args=[practice.pk]), form)
    assert response.status_code == 422
    return as_bytes(response)


def answers(client: Client, practice: PracticeDuel) -> dict[str, bytes]:
    """Everything the person is answered about the duel, after the caches are emptied, with
    the form keys counted from zero."""
    empty_caches()
    out = {"page": page(client, practice)}
    out["refused"] = refused(client, practice)
    return out


def events_of(game_id: int) -> tuple[list[int], list[Event]]:
    rows = list(
        GameEvent.objects.filter(game_id=game_id, undone_at=None)
        .order_by("seq")
        .values_list("pk", "by", "public")
    )
    private = secrets.private_parts(game_id)
    return [pk for pk, _, _ in rows], [
        Event(by, public, private.get(pk, {})) for pk, by, public in rows
    ]


def stored_secrets(game_id: int) -> tuple[dict[int, Any], dict[str, Any]]:
    rows = EventSecret.objects.filter(event__game_id=game_id).values_list("pk", "facts")
    game = GameSecret.objects.values("seed", "deal").get(game_id=game_id)
    return dict(rows), {"seed": bytes(game["seed"]), "deal": game["deal"]}


def put_back(game_id: int, saved: tuple[dict[int, Any], dict[str, Any]]) -> None:
    rows, game = saved
    for pk, facts in rows.items():
        EventSecret.objects.filter(pk=pk).update(facts=facts)
    GameSecret.objects.filter(game_id=game_id).update(**game)


def other_world(game_id: int, rnd: random.Random) -> bool:
    """Rewrite the stored secrets into another world A cannot tell from this one: every card
    A has not seen given another unseen card's value (the deal, draws, steals and seals that
    name it follow), and a fresh seed. A's own private facts stay as they are. Whether
    anything hidden changed (false when A has seen every card)."""
    pks, events = events_of(game_id)
    other = relabel(events, seen_by(events, PERSON), rnd)
    changed = False
    for pk, before, after in zip(pks, events, other, strict=True):
        assert after.private.get(PERSON) == before.private.get(PERSON)
        for key, facts in after.private.items():
            if key != PERSON and facts != before.private[key]:
                EventSecret.objects.filter(event_id=pk, key=key).update(facts=facts)
                changed = True
    deal = secrets.deal_of(game_id)
    assert deal == [e.private for e in events[: len(deal)]], "the deal is the opening events'"
    GameSecret.objects.filter(game_id=game_id).update(
        seed=random_source.token_bytes(16), deal=[e.private for e in other[: len(deal)]]
    )
    return changed


def legal_form(practice: PracticeDuel, rnd: random.Random) -> dict[str, str] | None:
    """A random legal move of A's, as its form sends it (never resigning), or None."""
    commands = services.open_duel(practice.pk, practice.user)[1]["commands"]
    offers = [(name, spec) for name, spec in commands.items() if name != "resign"]
    if not offers:
        return None
    name, spec = rnd.choice(offers)
    form: dict[str, str] = {}
    if name in ("seal", "play"):
        card = rnd.choice(spec["cards"])
        form["play"] = f"{name}:{card}"
        if card == "color_change":
            form["play"] += f":{rnd.choice(spec['colors'])}"
        if spec.get("targets"):
            form["target"] = rnd.choice(spec["targets"])
    elif name == "answer":
        form |= {"kind": "answer", "choice": rnd.choice(spec["choices"])}
    else:
        form |= {"kind": "choose", "card": str(rnd.choice(spec["cards"]))}
    return form


def moves(client: Client, practice: PracticeDuel, rnd: random.Random, count: int) -> Iterator[int]:
    """Play up to ``count`` random legal moves through the move view, yielding after each."""
    for n in range(count):
        form = legal_form(practice, rnd)
        if form is None:
            return
        form |= {
            "revision": str(Game.objects.get(pk=practice.game_id).revision),
            "intent": random_source.token_urlsafe(8),
        }
        response = client.post(reverse("practice:move", args=[practice.pk]), form)
        assert response.status_code == 302, (form, response.content.decode()[-2000:])
        yield n


def first_difference(a: bytes, b: bytes) -> str:
    """The first line that differs, in both worlds (what a failure shows)."""
    for one, two in zip(a.splitlines(), b.splitlines(), strict=False):
        if one != two:
            return f"{one.decode().strip()!r} != {two.decode().strip()!r}"
    return "in length"


def assert_same_in_other_worlds(client: Client, practice: PracticeDuel, rnd: random.Random) -> bool:
    """A's answers in this world equal those in a re-dealt one; this world is put back.
    Whether a hidden card differed between the two."""
    game_id = practice.game_id
    mine = answers(client, practice)
    saved = stored_secrets(game_id)
    changed = other_world(game_id, rnd)
    theirs = answers(client, practice)
    put_back(game_id, saved)
    empty_caches()
    for what in mine:
        assert theirs[what] == mine[what], (
            f"the {what} differs: {first_difference(mine[what], theirs[what])}"
        )
    return changed


@pytest.mark.parametrize(
    ("ruleset", "opponents", "case"),
    [("tournament", 1, 0), ("tournament", 1, 1), ("official", 2, 2), ("official", 2, 3)],
)
def test_a_practice_page_is_the_same_whatever_the_bots_hold(
    client: Client, ruleset: str, opponents: int, case: int
) -> None:
    started = client.post(reverse("practice:index"), {"ruleset": ruleset, "opponents": opponents})
    assert started.status_code == 302
    practice = PracticeDuel.objects.latest("pk")
    assert practice.seats == opponents + 1
    rnd = random.Random(case)
    differed = assert_same_in_other_worlds(client, practice, rnd)
    compared = 1
    for _ in moves(client, practice, rnd, 6):
        if Game.objects.get(pk=practice.game_id).status == "finished":
            break  # at the end the person may see the whole deal
        differed |= assert_same_in_other_worlds(client, practice, rnd)
        compared += 1
    # The check would pass on worlds that never differ: some hidden card must have moved,
    # over several moves.
    assert differed and compared >= 3, compared
