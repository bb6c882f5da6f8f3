"""Every GET address of the site, asked as htmx asks (`HX-Request: true`), by every role: no
answer is a server error ("Trust on the night": the header alone made the casual table's record,
sharing and share addresses a 500 for anyone).

The addresses are found by walking the URL patterns, as the form fuzz does
(`tests/test_fuzz_forms.py`): a new page is asked without an entry here. Its path arguments
come from the fuzz's `World.kwargs` (a new argument gets its value there). Two worlds: a
tournament taking registrations (unpublished) and one whose first duel is played (published),
each with a casual table, its invitation and replay link, a practice duel and a game; the
roles are the organiser, a referee, a player (who owns the table, the duel and the game), a
signed-in outsider and an anonymous visitor.

The POST addresses are asked too, once each with the form fuzz's valid fields (`FORMS`), by
the role that may post there, an outsider and an anonymous visitor.

So that the walk cannot pass by reaching nothing, every address must answer below 400 to some
role in some world, unless it only takes POST (405 to everyone) or is listed in
`NEVER_ANSWERED` with the reason.
"""

from __future__ import annotations

import re
from collections import defaultdict

import pytest
from django.test import Client
from django.urls import get_resolver, reverse

from tests.test_fuzz_forms import WORLDS, _patterns
from tournaments import services

pytestmark = pytest.mark.django_db

ROLES = ("organiser", "referee", "player", "outsider", "anonymous")
HTMX = {"HX-Request": "true"}

# Addresses no role reaches in these worlds, with the reason.
NEVER_ANSWERED: dict[str, str] = {
    "api:api-root": "django-ninja's own root: /api/ has no page, only its endpoints (404)",
    "stream_token": "a page's stream token, asked with its topics (?topic=…): without them 400, "
    "and 404 where push is off; tests/push/test_token_view.py walks its role matrix",
    "public:online_watch": "an online duel's public page: the walk's duels are refereed (404); "
    "tests/tournaments/test_online_duels.py asks it as the public, a referee and a player",
    "public:online_poll": "the same page's poll: tests/tournaments/test_online_duels.py",
    "public:online_deal": "a finished online duel's whole deal: the walk's duels are refereed "
    "(404); tests/tournaments/test_online_whole_deal.py walks its role matrix",
}
# Addresses whose 5xx is their documented answer, with the reason.
MAY_ANSWER_5XX: dict[str, str] = {
    "readyz": "the readiness probe answers 503 while a service it checks (Redis, a worker) is "
    "missing: with REDIS_URL set and no worker listening, as in CI's unit run",
}


def get_addresses(world) -> dict[str, str]:
    """URL name -> address, for every named pattern of ours (Django's admin left out)."""
    found = {}
    for name, pattern, _view in _patterns(get_resolver()):
        if pattern.startswith("admin/"):
            continue
        assert name, f"a pattern without a name cannot be asked by name: {pattern}"
        wanted = re.findall(r"<(?:\w+:)?(\w+)>", pattern)
        found[name] = reverse(name, kwargs=world.kwargs(wanted, name))
    return found


@pytest.fixture(scope="module")
def answers(django_db_setup, django_db_blocker):
    """{world: {name: {role: status}}}, each world built and asked inside a rolled-back
    transaction (the worlds are costly: built once for the module's tests)."""
    from django.db import transaction

    found: dict[str, dict[str, dict[str, int]]] = {}
    with django_db_blocker.unblock():
        for label in ("setup", "played"):
            with transaction.atomic():
                world = WORLDS[label]()
                if label == "played":
                    services.set_published(world.tournament, True, world.organiser)
                by_name: dict[str, dict[str, int]] = defaultdict(dict)
                for role in ROLES:
                    # A server error is an answer to count, not an exception that ends the walk.
                    client = Client(raise_request_exception=False)
                    if world.user(role) is not None:
                        client.force_login(world.user(role))
                    for name, address in get_addresses(world).items():
                        by_name[name][role] = client.get(address, headers=HTMX).status_code
                found[label] = dict(by_name)
                transaction.set_rollback(True)
    return found


def test_no_address_answers_htmx_with_a_server_error(answers):
    errors = [
        f"{label}: {name} as {role}: {status}"
        for label, by_name in answers.items()
        for name, by_role in by_name.items()
        for role, status in by_role.items()
        if status >= 500 and not (name in MAY_ANSWER_5XX and status == 503)
    ]
    assert not errors, "\n".join(errors)


def test_the_walk_reaches_every_page(answers):
    """Each address answers some role below 400, or only takes POST (405 to all)."""
    statuses: dict[str, set[int]] = defaultdict(set)
    for by_name in answers.values():
        for name, by_role in by_name.items():
            statuses[name] |= set(by_role.values())
    assert {"tables:record", "tables:sharing", "tables:share", "practice:table"} <= set(statuses)
    unreached = sorted(
        name
        for name, seen in statuses.items()
        if min(seen) >= 400
        and seen != {405}
        and name not in NEVER_ANSWERED
        and not (name in MAY_ANSWER_5XX and seen == {503})
    )
    assert not unreached, {name: sorted(statuses[name]) for name in unreached}


def test_every_form_posted_by_htmx_answers_without_a_server_error():
    """The POST addresses too (the share address was one of the 500s): each form of the fuzz's
    `FORMS`, posted with its valid fields and `HX-Request: true` by the role that may post
    there, by a signed-in outsider and anonymously, each post rolled back."""
    from django.db import transaction

    from tests.test_fuzz_forms import FORMS, _address

    errors = []
    for label in sorted({form.world for form in FORMS.values()}):
        world = WORLDS[label]()
        for name, form in sorted(FORMS.items()):
            if form.world != label:
                continue
            for role in dict.fromkeys((form.role, "outsider", "anonymous")):
                client = Client(raise_request_exception=False)
                if world.user(role) is not None:
                    client.force_login(world.user(role))
                with transaction.atomic():
                    status = client.post(
                        _address(name, world), form.valid(world), headers=HTMX
                    ).status_code
                    transaction.set_rollback(True)
                if status >= 500:
                    errors.append(f"{label}: {name} as {role}: {status}")
    assert not errors, "\n".join(errors)
