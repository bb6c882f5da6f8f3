"""The console's htmx answers against the page they land on (docs/console.md, "One answer at
a time"): every out-of-band part names an element that the full console page always has,
outside the console that the answer itself replaces; and every request the page can make
from inside the console is synchronised on it, so that no answer lands on a console that
another answer has already replaced."""

from html.parser import HTMLParser

import pytest

from accounts.models import Role
from tests.duels.test_console_views import HTMX, client_for, round_, url
from tests.factories import RoleFactory, group_phase_duel
from tournaments.services import refereeing

pytestmark = pytest.mark.django_db


class Elements(HTMLParser):
    """Each element's attributes, and the ids of its open ancestors."""

    VOID = {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[dict[str, str], list[str]]] = []
        self.open: list[tuple[str, str | None]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = {k: v or "" for k, v in attrs}
        self.found.append((attributes, [i for _, i in self.open if i]))
        if tag not in self.VOID:
            self.open.append((tag, attributes.get("id")))

    def handle_endtag(self, tag):
        for depth in range(len(self.open) - 1, -1, -1):
            if self.open[depth][0] == tag:
                del self.open[depth:]
                return


def oob_ids(html: str) -> list[str]:
    return [a["id"] for a, _ in Elements(html).found if "hx-swap-oob" in a]


def answers(duel, referee) -> dict[str, object]:
    """One htmx answer of each kind the console gets: moves, refusals, undo, polls."""
    client = client_for(referee)
    other = client_for(RoleFactory(tournament=duel.tournament, role=Role.CO_ORGANISER).user)
    got = {
        "console": client.get(url(duel), headers=HTMX),
        "move": client.post(url(duel, "move"), round_(7, 3), headers=HTMX),
        "conflict": other.post(url(duel, "move"), round_(7, 3), headers=HTMX),
        "illegal": client.post(
            url(duel, "move"),
            {"seq": 1, "rev": 1, "type": "action", "seat": "A", "card": "block"},
            headers=HTMX,
        ),
        "refused": client.post(url(duel, "move"), round_(12, 3, seq=1), headers=HTMX),
        "poll": client.get(url(duel, "poll") + "?rev=0", headers=HTMX),
        "undo": client.post(url(duel, "undo"), {"seq": 1, "rev": 1}, headers=HTMX),
    }
    refereeing.append_event(duel, referee, {"type": "forfeit", "seat": "B", "reason": "gone"}, 0)
    got["finished poll"] = client.get(url(duel, "poll") + "?rev=2", headers=HTMX)
    return got


def test_every_out_of_band_target_is_always_on_the_console_page_outside_the_console():
    duel, referee = group_phase_duel()
    page = client_for(referee).get(url(duel)).content.decode()
    outside = {
        a["id"]
        for a, ancestors in Elements(page).found
        if "id" in a and "console" not in ancestors and a["id"] != "console"
    }
    seen = set()
    for name, response in answers(duel, referee).items():
        assert response.status_code in (200, 409, 422), name
        ids = oob_ids(response.content.decode())
        assert ids, name  # the screen-reader line comes with every answer
        seen.update(ids)
        assert set(ids) <= outside, (name, ids)
    assert seen == {"console-news"}
    # Both pages: before the first move (no news yet) and after the end (no more polls).
    finished = client_for(referee).get(url(duel)).content.decode()
    assert 'id="console-news"' in page and 'id="console-news"' in finished


def test_every_request_from_inside_the_console_is_synchronised_on_it():
    """hx-sync on #console: a person's request waits for the request in flight (queue last),
    a poll is dropped while any request runs (drop); none is aborted (htmx logs an abort as
    an error)."""
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    page = client_for(referee).get(url(duel)).content.decode()
    elements = Elements(page).found
    console = [a for a, _ in elements if a.get("id") == "console"]
    assert console and console[0]["hx-target"] == "this"
    assert console[0]["hx-sync"] == "this:queue last"
    requesters = [
        a for a, ancestors in elements if "console" in ancestors and {"hx-get", "hx-post"} & set(a)
    ]
    assert len(requesters) >= 4  # the round, the actions, undo, the ending, the poller
    for a in requesters:
        if "hx-trigger" in a and a["hx-trigger"].startswith("every"):
            assert a.get("hx-sync") == "closest #console:drop", a
        else:
            assert "hx-sync" not in a, a  # inherits queue last from #console
