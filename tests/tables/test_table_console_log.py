"""The casual-table console's htmx answers carry only the log lines the page lacks since the
revision it showed, gzipped when the browser asks (issue 27), as the duel console's do: a move
brings its one new line, an undo marks its line undone in place, a page too far behind or of
an unknown revision gets its log replaced by the latest lines."""

import gzip

import pytest
from django.test import Client
from django.urls import reverse

import duels.selectors
from tables import services
from tests.duels.test_console_swaps import apply_answer, log_of
from tests.factories import UserFactory
from tests.tables.helpers import moves, play, rev

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def rounds(n: int) -> list[dict]:
    """Rounds won in turn by Ann and Bo: no bonus decision interrupts them (RULES.md 3)."""
    return [
        {"type": "round", "cards": {"A": 3, "B": 5} if i % 2 else {"A": 5, "B": 3}}
        for i in range(n)
    ]


@pytest.fixture
def table_and_client():
    owner = UserFactory()
    table = services.open_table(owner=owner, ruleset="official", names=["Ann", "Bo"])
    client = Client()
    client.force_login(owner)
    return table, client, owner


def url(table, name: str) -> str:
    return reverse(f"tables:{name}", args=[table.pk])


def text(response) -> str:
    body = response.content
    return (gzip.decompress(body) if response.get("Content-Encoding") == "gzip" else body).decode()


def test_a_moves_answer_brings_only_its_line_gzipped(table_and_client):
    table, client, owner = table_and_client
    play(table, owner, *rounds(3))
    page = client.get(url(table, "console")).content.decode()
    assert len(log_of(page)) == 3
    move = {"type": "round", "card_A": "3", "card_B": "5", "rev": str(rev(table))}
    answer = client.post(url(table, "move"), move, headers={**HTMX, "Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and answer["Content-Encoding"] == "gzip"
    html = text(answer)
    # The fourth line alone, at the top of the page's list; the page's three are not resent.
    assert html.count('<li id="log-') == 1 and 'hx-swap-oob="afterbegin:#log-list"' in html
    fresh = client.get(url(table, "console")).content.decode()
    assert apply_answer(log_of(page), html) == log_of(fresh)
    # No secret in a compressed answer: htmx sends the CSRF token in a header.
    assert "csrfmiddlewaretoken" not in html
    # Not asked for gzip, not sent gzipped.
    move["rev"] = str(rev(table))
    plain = client.post(url(table, "move"), {**move, "card_A": "5", "card_B": "3"}, headers=HTMX)
    assert plain.status_code == 200 and "Content-Encoding" not in plain


def test_an_undo_marks_its_line_undone_in_place(table_and_client):
    table, client, owner = table_and_client
    play(table, owner, *rounds(2))
    page = client.get(url(table, "console")).content.decode()
    first, last = moves(table)
    answer = client.post(url(table, "undo"), {"rev": str(rev(table))}, headers=HTMX)
    html = text(answer)
    assert f'<li id="log-{last.pk}" class="undone" hx-swap-oob="true">' in html
    assert html.count('<li id="log-') == 1 and "afterbegin" not in html
    assert "Undone: move 2" in html  # said to a screen reader
    fresh = client.get(url(table, "console")).content.decode()
    assert (
        apply_answer(log_of(page), html)
        == log_of(fresh)
        == [
            (f"log-{last.pk}", True),
            (f"log-{first.pk}", False),
        ]
    )


def test_a_page_too_far_behind_or_of_an_unknown_revision_gets_its_log_replaced(
    table_and_client, monkeypatch
):
    table, client, owner = table_and_client
    monkeypatch.setattr(duels.selectors, "LOG_CATCH_UP", 2)  # a page 3 changes behind is too far
    play(table, owner, *rounds(3))
    fresh = client.get(url(table, "console")).content.decode()
    far = text(client.get(url(table, "poll") + "?rev=0", headers=HTMX))
    assert 'id="log-list" class="log-list" hx-swap-oob="true"' in far
    assert apply_answer(log_of(fresh), far) == log_of(fresh)[:2]  # the latest two
    assert f'<a href="{url(table, "console")}">reload the page</a>' in far  # for the rest
    # A revision the table never had (a page from before a restore) is replaced too.
    unknown = text(client.get(url(table, "poll") + "?rev=99", headers=HTMX))
    assert 'id="log-list" class="log-list" hx-swap-oob="true"' in unknown
    # Within reach, a co-referee's page two moves behind gets those two, with its refusal.
    stale = client.post(
        url(table, "move"), {"type": "round", "card_A": "1", "rev": "1"}, headers=HTMX
    )
    assert stale.status_code == 409 and text(stale).count('<li id="log-') == 2


def test_a_round_at_many_seats_reads_line_by_line_and_an_undo_strikes_each_line():
    """Issue 30: a six-seat round is some twenty lines; one paragraph of them was unreadable.
    The page and the htmx answer both write a move's lines one under the other."""
    owner = UserFactory()
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
    table = services.open_table(owner=owner, ruleset="official", names=names)
    client = Client()
    client.force_login(owner)
    cards = {letter: str(3 + i) for i, letter in enumerate("ABCDEF")}
    move = {"type": "round", "rev": str(rev(table))}
    move.update({f"card_{letter}": value for letter, value in cards.items()})
    move["target_E"] = "A"  # Ed's 7 takes from Ann (the form's select names a target per seat)
    answer = text(client.post(url(table, "move"), move, headers=HTMX))
    (entry,) = moves(table)
    page = client.get(url(table, "console")).content.decode()
    for html in (answer, page):
        block = html[html.index(f'<li id="log-{entry.pk}"') :]
        block = block[: block.index("</ul>")]
        items = block.split("<li>")[1:]
        # Every seat's reveal its own line, then the round's draws and the winner's.
        assert [i.split("</li>")[0] for i in items[:6]] == [
            f"{name} reveals {value}" for name, value in zip(names, cards.values(), strict=True)
        ]
        assert any(i.startswith("Flo wins the round") for i in items)
        assert len(items) > 12
    undone = text(client.post(url(table, "undo"), {"rev": str(rev(table))}, headers=HTMX))
    block = undone[undone.index(f'<li id="log-{entry.pk}" class="undone"') :]
    block = block[: block.index("</ul>")]
    assert block.count("<li><del>") == len(items)
