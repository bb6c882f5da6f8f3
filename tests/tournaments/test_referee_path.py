"""The referee's path (issue 26): the breadcrumb of the staff pages per role; the desk ("your
duel / next up") on the dashboard, the tournament's page and a finished duel's console per
role and per state; the paper sheets' winners by name. The walk itself, at phone size:
tests/e2e/test_referee_path_browser.py."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from duels.models import Duel, DuelStatus
from tests.factories import EntrantFactory, RoleFactory, UserFactory, group_phase_duel
from tournaments.services import refereeing

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(user, url: str) -> str:
    response = (client_for(user) if user else Client()).get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode().replace("&#x27;", "'")


@pytest.fixture
def cup():
    """Round 1's duel (Alice v Bob) assigned to a referee; a second referee, a co-organiser,
    a player with an account, all in a published tournament."""
    duel, referee = group_phase_duel(published=True, slug="cup")
    Duel.objects.filter(pk=duel.pk).update(referee=referee, table="2")
    duel.refresh_from_db()
    tournament = duel.tournament
    people = {
        "organiser": tournament.created_by,
        "co_organiser": RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user,
        "referee": referee,
        "other_referee": RoleFactory(tournament=tournament, role=Role.REFEREE).user,
        "player": UserFactory(),
        "outsider": UserFactory(),
    }
    tournament.entrants.filter(name="Reds 2").update(user=people["player"])
    return tournament, duel, people


CONSOLE = "/t/cup/duels/{}/"


@pytest.mark.parametrize(
    ("who", "crumb"),
    [("organiser", "Organiser"), ("co_organiser", "Organiser"), ("referee", "Referee")],
)
def test_the_staff_pages_breadcrumb_says_whose_path_it_is(cup, who, crumb):
    _, _, people = cup
    for url in ("/t/cup/manage/check-in/", "/t/cup/manage/rounds/"):
        html = page(people[who], url)
        assert f'<span aria-hidden="true">›</span> {crumb}</p>' in html
        if who == "referee":
            assert "Organiser</p>" not in html


@pytest.mark.parametrize("where", ["/dashboard/", "/t/cup/"])
def test_the_desk_leads_with_the_referees_duel_per_role(cup, where):
    tournament, duel, people = cup
    mine = page(people["referee"], where)
    assert "Your duel" in mine and "Group round 1</strong>: Alice v Bob · Table 2" in mine
    assert f'href="{CONSOLE.format(duel.pk)}">Open the console for Group round 1</a>' in mine
    assert 'href="/t/cup/manage/rounds/#paper-form">Played on paper? Record Group round 1' in mine
    assert mine.index('class="desk"') < mine.index("Players (") if where == "/t/cup/" else True
    # Another referee: the duel is not theirs, and nothing else is open to them.
    other = page(people["other_referee"], where)
    assert "Your next duel" in other and "Open the console" not in other
    assert "No duel is assigned to you yet." in other
    # Organisers with no duel of their own have the organiser's pages; players and outsiders
    # no desk at all (the public page has none either).
    for who in ("organiser", "co_organiser", "player"):
        assert 'class="desk"' not in page(people[who], where), who
    if where == "/t/cup/":
        assert 'class="desk"' not in page(people["outsider"], where)
        assert 'class="desk"' not in page(None, where)
    # An organiser running a duel has it on their desk too.
    Duel.objects.filter(pk=duel.pk).update(referee=people["co_organiser"])
    assert "Open the console for Group round 1" in page(people["co_organiser"], where)


def test_the_desk_offers_a_duel_open_to_any_referee_else_says_what_it_waits_for(cup):
    tournament, duel, people = cup
    Duel.objects.filter(pk=duel.pk).update(referee=None)
    html = page(people["other_referee"], "/t/cup/")
    assert "Open to any referee: <strong>Group round 1</strong>: Alice v Bob" in html
    assert "Open the console for Group round 1" in html
    # Nobody named yet: what the round waits for, and its paper sheet (players chosen on it).
    duel.delete()
    html = page(people["other_referee"], "/dashboard/")
    assert (
        "No duel is assigned to you yet. Next: Group round 1 — each group names its player "
        "for this round." in html
    )
    assert 'href="/t/cup/manage/rounds/#paper-form">Played on paper? Record Group round 1' in html
    # A referee never sees a duel they play in as theirs to run.
    Duel.objects.create(
        tournament=tournament,
        kind="tie_break",
        stage="Reds-r1-m1",
        seat_a=tournament.entrants.get(name="Reds 2"),
        seat_b=EntrantFactory(tournament=tournament, name="Di"),
        status=DuelStatus.READY,
        options={"truth_dare": False},
    )
    RoleFactory(tournament=tournament, role=Role.REFEREE, user=people["player"])
    assert "Open the console" not in page(people["player"], "/t/cup/")


def test_a_finished_duel_leads_on_to_the_next_or_says_there_is_none_yet(cup):
    tournament, duel, people = cup
    referee = people["referee"]
    refereeing.append_event(duel, referee, {"type": "forfeit", "seat": "B"}, 0)
    html = page(referee, CONSOLE.format(duel.pk))
    assert "Alice wins" in html
    assert "No other duel is assigned to you yet. Next: Group round 2 — each group names" in html
    assert "Played on paper? Record Group round 2" in html
    reds, blues = tournament.groups.order_by("order")
    after = Duel.objects.create(
        tournament=tournament,
        kind="tie_break",
        stage="Reds-r1-m2",
        seat_a=EntrantFactory(tournament=tournament, group=reds, name="Cy"),
        seat_b=EntrantFactory(tournament=tournament, group=blues, name="Di"),
        status=DuelStatus.READY,
        referee=referee,
        options={"truth_dare": False},
    )
    html = page(referee, CONSOLE.format(duel.pk))
    assert "Your next duel" in html and "Tie-break round 1, match 2</strong>: Cy v Di" in html
    assert (
        f'href="{CONSOLE.format(after.pk)}">Open the console for Tie-break round 1, match 2' in html
    )
    # Its own paper sheet, opened on the Rounds page.
    paper = f"/t/cup/manage/rounds/?paper={after.pk}#paper-{after.pk}"
    assert f'href="{paper}"' in html
    rounds = page(referee, paper)
    assert f'<details class="paper" id="paper-{after.pk}" open>' in rounds
    assert " Cy won</label>" in rounds and " Di won</label>" in rounds
    # An organiser looking at someone else's finished duel is not told about their own desk.
    assert 'class="desk"' not in page(people["organiser"], CONSOLE.format(duel.pk))


def test_the_rounds_paper_sheet_names_its_winners(cup):
    tournament, duel, people = cup
    named = page(people["referee"], "/t/cup/manage/rounds/")
    sheet = named[named.index('id="paper-form"') :]
    sheet = sheet[: sheet.index("</form>")]
    assert " Alice won</label>" in sheet and " Bob won</label>" in sheet
    # Named: the players travel hidden, the sheet says who they are.
    assert f'type="hidden" name="first" value="{duel.seat_a_id}"' in sheet
    assert "<strong>Alice</strong> (Reds) v <strong>Bob</strong> (Blues)" in sheet
    assert "Played for Reds" not in sheet
    duel.delete()
    chosen = page(people["referee"], "/t/cup/manage/rounds/")
    sheet = chosen[chosen.index('id="paper-form"') :]
    assert " The player chosen for Reds won</label>" in sheet
    assert " The player chosen for Blues won</label>" in sheet
    assert "Played for Reds" in sheet


def test_a_named_sheet_sent_again_is_refused_in_words(cup):
    """The anchors of a sheet whose players are named (round, duel, key; the players hidden)
    keep working: a repeat is answered with what was recorded, nothing recorded twice."""
    tournament, duel, people = cup
    client = client_for(people["referee"])
    html = client.get("/t/cup/manage/rounds/").content.decode()
    form = html[html.index('id="paper-form"') :]
    form = form[: form.index("</form>")]
    data = dict(re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', form))
    assert {"round", "duel", "intent", "first", "second"} <= set(data)
    data.update(winner="second", note="")
    url = reverse("organiser:paper_result", args=["cup"])
    assert client.post(url, data).status_code == 302
    again = client.post(url, data, follow=True).content.decode().replace("&#x27;", "'")
    assert "Group round 1 was already recorded by" in again and "Bob won. Nothing changed." in again
    assert Duel.objects.filter(tournament=tournament, status=DuelStatus.FINISHED).count() == 1
