"""A casual table is played through the table core (issue 27): a form sent twice (a double tap,
a phone retrying) is recorded once and answered "already recorded", a real other move from a
stale page is still 409, and a table stored before the core (its `TableEvent` rows) is carried
over by the migration with the same log, the same record and the same revision."""

import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables import selectors, services
from tables.models import CasualTable
from tests import migrating
from tests.factories import UserFactory
from tests.tables.helpers import moves, rev, three_seats

HTMX = {"HX-Request": "true"}
ROUND = {"type": "round", "card_A": "9", "card_B": "1", "card_C": "2"}


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(table: CasualTable, name: str) -> str:
    return reverse(f"tables:{name}", args=[table.pk])


def form_keys(page: str) -> dict[str, str]:
    """The revision and the idempotency key the page's forms carry."""
    rev_ = re.search(r'name="rev" value="(\d+)"', page)
    intent = re.search(r'name="intent" value="([^"]+)"', page)
    assert rev_ and intent
    return {"rev": rev_.group(1), "intent": intent.group(1)}


@pytest.fixture
def table_and_referees():
    owner, co = UserFactory(), UserFactory()
    table = three_seats(owner)
    token = services.invite_co_referee(table_id=table.pk, actor=owner)
    services.accept_invitation(token=token, user=co)
    return table, client_for(owner), client_for(co)


@pytest.mark.django_db
def test_the_same_move_sent_twice_is_recorded_once_and_says_so(table_and_referees):
    table, owner, _ = table_and_referees
    keys = form_keys(owner.get(url(table, "console")).text)
    first = owner.post(url(table, "move"), {**ROUND, **keys}, headers=HTMX)
    again = owner.post(url(table, "move"), {**ROUND, **keys}, headers=HTMX)
    assert (first.status_code, again.status_code) == (200, 200)
    assert "Already recorded" not in first.text
    assert "Already recorded: this move was entered once — nothing changed." in again.text
    assert "does Bo challenge?" in again.text  # the table as it is now
    assert moves(table).count() == 1 and rev(table) == 1
    # Without htmx: the redirect the first send had, with the same words.
    keys = form_keys(owner.get(url(table, "console")).text)
    answer = {"type": "respond", "seat": "B", "choice": "pass", **keys}
    assert owner.post(url(table, "move"), answer).status_code == 302
    again = owner.post(url(table, "move"), answer, follow=True)
    assert "Already recorded: this move was entered once" in again.text
    assert moves(table).count() == 2
    # An undo sent twice takes back one move.
    keys = form_keys(owner.get(url(table, "console")).text)
    owner.post(url(table, "undo"), keys, headers=HTMX)
    twice = owner.post(url(table, "undo"), keys, headers=HTMX)
    assert twice.status_code == 200 and "Already undone" in twice.text
    assert [m.undone_at is None for m in moves(table)] == [True, False]


@pytest.mark.django_db
def test_another_move_from_a_stale_page_is_still_409(table_and_referees):
    table, owner, co = table_and_referees
    mine = form_keys(owner.get(url(table, "console")).text)
    theirs = form_keys(co.get(url(table, "console")).text)
    assert owner.post(url(table, "move"), {**ROUND, **mine}, headers=HTMX).status_code == 200
    # The co-referee's page still shows revision 0: a move of their own, refused.
    stale = co.post(url(table, "move"), {**ROUND, **theirs}, headers=HTMX)
    assert stale.status_code == 409
    assert "Someone else entered a move — here is the current state." in stale.text
    # The owner's key is the owner's: sent by the co-referee it is their own stale move.
    borrowed = co.post(url(table, "move"), {**ROUND, **mine}, headers=HTMX)
    assert borrowed.status_code == 409
    # Another form of the owner's own stale page is another move, not a repeat.
    other = owner.post(
        url(table, "end"),
        {**mine, "ending": "time_limit", "reason": "late", "confirm": "on"},
        headers=HTMX,
    )
    assert other.status_code == 409
    assert moves(table).count() == 1 and rev(table) == 1


def old_table(apps, owner, *, rows, **fields):
    """A table and its moves as the tables app stored them before the core: `rows` are
    (seq, payload, summary, minutes since the first move, minutes when undone or None)."""
    table = apps.get_model("tables", "CasualTable").objects.create(owner_id=owner.pk, **fields)
    Event = apps.get_model("tables", "TableEvent")
    start = timezone.now() - timedelta(hours=1)
    for seq, payload, summary, made, undone in rows:
        event = Event.objects.create(
            table=table,
            seq=seq,
            payload=payload,
            summary=summary,
            undone_at=None if undone is None else start + timedelta(minutes=undone),
        )
        Event.objects.filter(pk=event.pk).update(created_at=start + timedelta(minutes=made))
    return table


@pytest.mark.django_db(transaction=True)
def test_a_table_stored_before_the_core_keeps_its_log_record_and_revision():
    old = migrating.before("tables", "_tables_on_play")
    owner = UserFactory()
    # Ann, Bo and Cy with one number card each: Ann's 9 puts her at 0, Bo and Cy may
    # challenge; Bo's first answer was undone and entered again.
    options = services.table_options(
        ruleset="official", variants=[], seats=3, number_cards=1, action_cards=1
    )
    rows = [
        (1, {"type": "round", "cards": {"A": 9, "B": 1, "C": 2}}, ["Ann reveals 9"], 1, None),
        (2, {"type": "respond", "seat": "B", "choice": "pass"}, ["Bo passes"], 2, 3),
        (2, {"type": "respond", "seat": "B", "choice": "pass"}, ["Bo lets it go"], 4, None),
    ]
    table = old_table(
        old,
        owner,
        rows=rows,
        ruleset="official",
        options=options,
        seats=["Ann", "Bo", "Cy"],
        revision=4,
        seq=2,
    )
    broken = old_table(
        old,
        owner,
        rows=[(1, {"type": "round", "cards": {"A": 1}}, ["kept as it was"], 1, None)],
        ruleset="tournament",
        seats=["Ann", "Bo"],
        revision=1,
        seq=1,
    )
    migrating.forward()

    table = CasualTable.objects.select_related("game").get(pk=table.pk)
    assert table.game.kind == "split_uno_refereed" and rev(table) == 4
    client = client_for(owner)
    page = client.get(url(table, "console")).text
    # The log as the console showed it: the words stored, the undone move struck through.
    log = [(e.seq, e.lines, e.undone) for e in selectors.console(table).log]
    assert log == [
        (2, ["Bo lets it go"], False),
        (2, ["Bo passes"], True),
        (1, ["Ann reveals 9"], False),
    ]
    assert "does Cy challenge?" in page and form_keys(page)["rev"] == "4"
    record = json.loads(client.get(url(table, "record")).content)
    assert record["seats"] == {"A": "Ann", "B": "Bo", "C": "Cy"}
    assert record["events"] == [rows[0][1], rows[2][1]]
    assert (record["ruleset"], record["options"]) == ("official", options)
    # A page opened before the migration: its poll is current, and its next move lands.
    assert client.get(url(table, "poll") + "?rev=4", headers=HTMX).status_code == 204
    answer = client.post(
        url(table, "move"), {"type": "respond", "seat": "C", "choice": "pass", "rev": "4"}
    )
    assert answer.status_code == 302 and rev(table) == 5
    # A record the engine refuses is kept as stored, and said so, never a 500.
    broken = CasualTable.objects.get(pk=broken.pk)
    shown = client.get(url(broken, "console"))
    assert shown.status_code == 200 and "record cannot be replayed" in shown.text
    assert "kept as it was" in shown.text


@pytest.mark.django_db
def test_a_move_reads_no_secret_of_a_game_that_hides_nothing(
    table_and_referees, django_assert_max_num_queries
):
    # A refereed game has no seed that matters and no private part (play.adapters.base.hides):
    # the core does not read them. 14 queries on a move's htmx answer (16 when it did).
    table, owner, _ = table_and_referees
    keys = form_keys(owner.get(url(table, "console")).text)
    with django_assert_max_num_queries(14) as captured:
        answer = owner.post(url(table, "move"), {**ROUND, **keys}, headers=HTMX)
    assert answer.status_code == 200
    assert not [q for q in captured.captured_queries if "play_gamesecret" in q["sql"]]
    assert not [q for q in captured.captured_queries if "play_eventsecret" in q["sql"]]
