"""Casual tables' pages: the role matrix (owner, co-referee, revoked co-referee, stranger,
anonymous, record-link holder, revoked link), opening from the form, moves with htmx and
without, conflicts and refusals that store nothing, CSRF."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from tables import selectors, services
from tables.models import CasualTable
from tests.factories import UserFactory
from tests.tables.helpers import moves as stored_moves
from tests.tables.helpers import rev, three_seats

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def cast():
    """A table and everyone around it."""
    owner, co, revoked, stranger = (UserFactory(username=n) for n in ("own", "co", "gone", "x"))
    table = three_seats(owner)
    services.accept_invitation(
        token=services.invite_co_referee(table_id=table.pk, actor=owner), user=co
    )
    services.accept_invitation(
        token=services.invite_co_referee(table_id=table.pk, actor=owner), user=revoked
    )
    invite = table.co_referees.get(user=revoked)
    services.revoke_co_referee(table_id=table.pk, actor=owner, invite_id=invite.pk)
    link = services.make_replay_link(table_id=table.pk, actor=owner)
    return {
        "table": table,
        "owner": owner,
        "co": co,
        "revoked": revoked,
        "stranger": stranger,
        "anonymous": None,
        "link": link,
    }


def urls(table: CasualTable) -> dict[str, str]:
    return {
        name: reverse(f"tables:{name}", args=[table.pk])
        for name in ("console", "poll", "record", "sharing")
    }


@pytest.mark.parametrize(
    ("role", "console", "sharing"),
    [
        ("owner", 200, 200),
        ("co", 200, 404),
        ("revoked", 404, 404),
        ("stranger", 404, 404),
        ("anonymous", 404, 404),
    ],
)
def test_who_sees_a_table(cast, role, console, sharing):
    client = client_for(cast[role])
    pages = urls(cast["table"])
    assert client.get(pages["console"]).status_code == console
    assert client.get(pages["poll"] + "?rev=0").status_code == (204 if console == 200 else 404)
    assert client.get(pages["record"]).status_code == console
    assert client.get(pages["sharing"]).status_code == sharing
    share = client.post(reverse("tables:share", args=[cast["table"].pk]), {"do": "invite"})
    assert share.status_code == (200 if sharing == 200 else 404)


@pytest.mark.parametrize(
    ("role", "console", "sharing"),
    [
        ("owner", 200, 200),
        ("co", 200, 404),
        ("revoked", 404, 404),
        ("stranger", 404, 404),
        ("anonymous", 404, 404),
    ],
)
def test_who_sees_a_table_when_htmx_asks(cast, role, console, sharing):
    """The header alone once made the record, the sharing page and its posts a 500 for anyone
    who may not see them: the same answers as without it, and nothing made."""
    client = client_for(cast[role])
    table = cast["table"]
    pages = urls(table)
    htmx = {"HX-Request": "true"}
    invitations = table.co_referees.count()
    link = CasualTable.objects.get(pk=table.pk).replay_token_hash
    assert link
    assert client.get(pages["record"], headers=htmx).status_code == console
    assert client.get(pages["sharing"], headers=htmx).status_code == sharing
    for do in ("invite", "replay_link", "revoke_replay_link"):
        share = client.post(reverse("tables:share", args=[table.pk]), {"do": do}, headers=htmx)
        assert share.status_code == 404 if sharing == 404 else share.status_code < 400
        # A page refused to htmx is an ordinary 404, not the console's "reload" answer.
        assert "HX-Refresh" not in share
    if sharing == 404:
        assert table.co_referees.count() == invitations
        assert CasualTable.objects.get(pk=table.pk).replay_token_hash == link


@pytest.mark.parametrize(
    ("role", "moves"),
    [("owner", True), ("co", True), ("revoked", False), ("stranger", False), ("anonymous", False)],
)
def test_who_moves(cast, role, moves):
    table = cast["table"]
    client = client_for(cast[role])
    response = client.post(
        reverse("tables:move", args=[table.pk]),
        {"type": "round", "card_A": "9", "card_B": "1", "card_C": "2", "rev": "0"},
    )
    assert response.status_code == (302 if moves else 404)
    undo = client.post(reverse("tables:undo", args=[table.pk]), {"rev": str(rev(table))})
    assert undo.status_code == (302 if moves else 404)
    ending = client.post(
        reverse("tables:end", args=[table.pk]),
        {"ending": "time_limit", "reason": "late", "confirm": "on", "rev": str(rev(table))},
    )
    assert ending.status_code == (302 if moves else 404)
    assert stored_moves(table).count() == (2 if moves else 0)


def test_the_record_link_shows_the_record_only_until_revoked(cast):
    table, anonymous = cast["table"], Client()
    replay = reverse("tables:replay", args=[cast["link"]])
    page = anonymous.get(replay)
    assert page.status_code == 200 and "Record: Ann v Bo v Cy" in page.text
    assert page["Referrer-Policy"] == "no-referrer"
    assert anonymous.get(urls(table)["console"]).status_code == 404
    assert anonymous.get(urls(table)["record"]).status_code == 404
    assert anonymous.get(reverse("tables:replay", args=["not-a-token"])).status_code == 404
    client_for(cast["owner"]).post(
        reverse("tables:share", args=[table.pk]), {"do": "revoke_replay_link"}
    )
    assert anonymous.get(replay).status_code == 404


def words_of(html: str) -> str:
    """A page's visible words: no tags, attributes, scripts or styles (ids and classes such as
    `replay-grid` are not words)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]*>", " ", html).split())


def test_the_tables_call_the_viewer_a_record_as_the_tournament_pages_do(cast):
    """ "Replay" means only the rematch of a duel without a winner (docs/public.md); the page
    that steps through a game is its record, whatever its address says."""
    owner, table = client_for(cast["owner"]), cast["table"]
    share = reverse("tables:share", args=[table.pk])
    made = owner.post(share, {"do": "replay_link"})
    pages = {
        "record page": Client().get(reverse("tables:replay", args=[cast["link"]])),
        "record page, htmx": Client().get(
            reverse("tables:replay", args=[cast["link"]]) + "?step=0",
            headers={"HX-Request": "true"},
        ),
        "console": owner.get(urls(table)["console"]),
        "sharing": owner.get(urls(table)["sharing"]),
        "a link just made": made,
    }
    revoked = owner.post(share, {"do": "revoke_replay_link"}, follow=True)
    pages["revoked"] = revoked
    pages["nothing to revoke"] = owner.post(share, {"do": "revoke_replay_link"})
    for where, response in pages.items():
        assert response.status_code < 500, where
        text = words_of(response.content.decode())
        assert "replay" not in text.lower(), (where, text)
    assert "Record link and co-referees" in words_of(pages["console"].content.decode())
    assert "Make a new record link" in words_of(pages["sharing"].content.decode())
    assert "The record link is revoked" in words_of(revoked.content.decode())
    assert "This table has no record link." in words_of(pages["nothing to revoke"].content.decode())


def test_the_replay_steps_through_the_moves(cast):
    owner, table = cast["owner"], cast["table"]
    services.append_event(
        table_id=table.pk,
        actor=owner,
        event={"type": "round", "cards": {"A": 9, "B": 1, "C": 2}},
        expected_revision=0,
    )
    replay = reverse("tables:replay", args=[cast["link"]])
    start = Client().get(replay + "?step=0")
    assert "After move 0 of 1" in start.text
    end = Client().get(replay + "?step=%C2%B2")  # not a number: the last step
    assert "After move 1 of 1" in end.text and "Ann" in end.text


def test_a_link_made_on_the_sharing_page_is_shown_once(cast):
    owner, table = client_for(cast["owner"]), cast["table"]
    made = owner.post(reverse("tables:share", args=[table.pk]), {"do": "replay_link"})
    assert made.status_code == 200 and "no-store" in made["Cache-Control"]
    link = made.context["replay_link"]
    assert Client().get(link).status_code == 200
    assert link not in owner.get(urls(table)["sharing"]).text
    assert Client().get(reverse("tables:replay", args=[cast["link"]])).status_code == 404


def test_the_invitation_pages(cast):
    owner, table = client_for(cast["owner"]), cast["table"]
    made = owner.post(reverse("tables:share", args=[table.pk]), {"do": "invite"})
    link = made.context["invite_link"]
    newcomer = UserFactory()
    client = client_for(newcomer)
    assert Client().get(link).status_code == 302  # sign in first
    shown = client.get(link)
    assert shown.status_code == 200 and "Referee this table" in shown.text
    accepted = client.post(link)
    assert accepted.status_code == 302 and accepted["Location"] == urls(table)["console"]
    assert client.get(urls(table)["console"]).status_code == 200
    assert client_for(cast["stranger"]).get(link).status_code == 404  # used up
    # The owner revokes the co-referee: the table is closed to them again.
    invite = table.co_referees.get(user=newcomer)
    owner.post(
        reverse("tables:share", args=[table.pk]), {"do": "revoke_invite", "invite": invite.pk}
    )
    assert client.get(urls(table)["console"]).status_code == 404


def test_a_pending_invitation_revoked_no_longer_opens(cast):
    owner, table = client_for(cast["owner"]), cast["table"]
    link = owner.post(reverse("tables:share", args=[table.pk]), {"do": "invite"}).context[
        "invite_link"
    ]
    invite = table.co_referees.filter(user=None).get()
    owner.post(
        reverse("tables:share", args=[table.pk]), {"do": "revoke_invite", "invite": invite.pk}
    )
    client = client_for(cast["stranger"])
    assert client.get(link).status_code == 404
    assert client.post(link).status_code == 422
    assert not services.may_referee(cast["stranger"], table)


def test_opening_a_table_from_the_form():
    ada = client_for(UserFactory())
    page = ada.get(reverse("tables:index"))
    assert "You keep your latest 50 tables" in page.text
    response = ada.post(
        reverse("tables:index"),
        {
            "ruleset": "official",
            "name_1": "Ann",
            "name_2": "",
            "name_3": "Bo",
            "name_4": "Cy",
            "name_5": "Di",
            "name_6": "Ed",
            "team_1": "1",
            "team_3": "2",
            "team_4": "1",
            "team_5": "2",
            "team_6": "2",
            "variant_team": "on",
            "action_cards": "1",
        },
    )
    table = CasualTable.objects.get()
    assert response.status_code == 302 and response["Location"] == urls(table)["console"]
    assert table.seats == ["Ann", "Bo", "Cy", "Di", "Ed"]
    assert table.teams == [["A", "C"], ["B", "D", "E"]]
    assert table.options["starting_action_cards"] == {s: 1 for s in "ABCDE"}
    console = ada.get(urls(table)["console"])
    assert "Team 1 (Ann and Cy)" in console.text and "Team 2 (Bo, Di and Ed)" in console.text


def test_a_six_seat_table_says_its_deck_is_larger():
    ada = client_for(UserFactory())
    names = {f"name_{i}": f"P{i}" for i in range(1, 7)}
    ada.post(reverse("tables:index"), {"ruleset": "official", **names})
    table = CasualTable.objects.get()
    page = ada.get(urls(table)["console"]).text
    assert "plays with a pool of 188, so 68 stay in the deck after the deal." in page
    # The rules' section is the developers' reference, not a player's: no file name shown.
    index = ada.get(reverse("tables:index")).text
    assert ".md" not in page and ".md" not in index


@pytest.mark.parametrize(
    ("post", "words"),
    [
        ({"ruleset": "official", "name_1": "Ann"}, "Name 2 to 6 seats"),
        ({"ruleset": "nope", "name_1": "Ann", "name_2": "Bo"}, "rulesets offered"),
        ({"ruleset": "official", "name_1": "Ann", "name_2": "Bo", "number_cards": "²"}, "1 to 20"),
        ({"ruleset": "official", "name_1": "Ann", "name_2": "Bo", "action_cards": "9"}, "0 to 5"),
        ({"ruleset": "official", "name_1": "Ann", "name_2": "B\x07"}, "control characters"),
        (
            {
                "ruleset": "official",
                **{"name_1": "A", "name_2": "B", "team_1": "1", "team_2": "2"},
                "variant_team": "on",
            },
            "engine refuses",
        ),
        # Teams chosen for some seats only (the team variant follows from choosing teams).
        (
            {"ruleset": "official", **{f"name_{i}": n for i, n in enumerate("ABCD", 1)}}
            | {"team_1": "1", "team_2": "2"},
            "Put seat C in team 1, 2 or 3.",
        ),
    ],
)
def test_a_refused_form_says_why_and_stores_nothing(post, words):
    response = client_for(UserFactory()).post(reverse("tables:index"), post)
    assert response.status_code == 422 and words in response.text
    assert CasualTable.objects.count() == 0


def test_anonymous_people_are_sent_to_sign_in():
    response = Client().get(reverse("tables:index"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_htmx_moves_conflicts_and_refusals(cast):
    table, client = cast["table"], client_for(cast["owner"])
    move = reverse("tables:move", args=[table.pk])
    htmx = {"HTTP_HX_REQUEST": "true"}
    first = client.post(
        move, {"type": "round", "card_A": "9", "card_B": "1", "card_C": "2", "rev": "0"}, **htmx
    )
    assert first.status_code == 200
    assert "does Bo challenge?" in first.text and 'id="console-news"' in first.text
    # A second device still showing revision 0: refused as a conflict, nothing stored.
    stale = client.post(
        move, {"type": "respond", "seat": "B", "choice": "pass", "rev": "0"}, **htmx
    )
    assert stale.status_code == 409 and "Someone else entered a move" in stale.text
    # A move the rules refuse (Cy is not the seat asked): 422, nothing stored.
    illegal = client.post(
        move, {"type": "respond", "seat": "C", "choice": "pass", "rev": "1"}, **htmx
    )
    assert illegal.status_code == 422
    for bad in (
        {"type": "round", "card_A": "٣", "rev": "1"},
        {"type": "round", "rev": "1"},
        {"type": "action", "seat": "Z", "card": "block", "rev": "1"},
        {"type": "action", "seat": "A", "card": "block", "rev": "1"},  # no target with 3 seats
        {"type": "dance", "rev": "1"},
    ):
        assert client.post(move, bad, **htmx).status_code == 422, bad
    ending = client.post(
        reverse("tables:end", args=[table.pk]),
        {"ending": "forfeit_B", "reason": "", "confirm": "on", "rev": "1"},
        **htmx,
    )
    assert ending.status_code == 422 and "Give a reason" in ending.text
    assert stored_moves(table).count() == 1
    passed = client.post(
        move, {"type": "respond", "seat": "B", "choice": "pass", "rev": "1"}, **htmx
    )
    assert passed.status_code == 200 and "does Cy challenge?" in passed.text
    assert client.get(urls(table)["poll"] + "?rev=2", **htmx).status_code == 204
    assert "does Cy challenge?" in client.get(urls(table)["poll"] + "?rev=1", **htmx).text


def test_a_round_with_a_seven_names_its_target(cast):
    table, client = cast["table"], client_for(cast["owner"])
    client.post(
        reverse("tables:move", args=[table.pk]),
        {
            "type": "round",
            "card_A": "7",
            "target_A": "C",
            "card_B": "1",
            "card_C": "2",
            "target_C": "A",  # read only for a 0 or a 7
            "rev": "0",
        },
    )
    event = stored_moves(table).get().public["event"]
    assert event["targets"] == {"A": "C"}


def test_csrf_is_checked(cast):
    table = cast["table"]
    client = Client(enforce_csrf_checks=True)
    client.force_login(cast["owner"])
    response = client.post(
        reverse("tables:move", args=[table.pk]),
        {"type": "round", "card_A": "9", "card_B": "1", "card_C": "2", "rev": "0"},
    )
    assert response.status_code == 403
    assert not stored_moves(table).exists()


def test_the_record_download(cast):
    table, client = cast["table"], client_for(cast["co"])
    client.post(
        reverse("tables:move", args=[table.pk]),
        {"type": "round", "card_A": "9", "card_B": "1", "card_C": "2", "rev": "0"},
    )
    response = client.get(urls(table)["record"])
    assert response["Content-Disposition"] == f'attachment; filename="table-{table.pk}.json"'
    record = json.loads(response.content)
    assert record["seats"] == {"A": "Ann", "B": "Bo", "C": "Cy"}
    assert record["events"] == [{"type": "round", "cards": {"A": 9, "B": 1, "C": 2}}]


def test_a_revoked_co_referees_console_reloads_into_not_found(cast):
    table, client = cast["table"], client_for(cast["revoked"])
    htmx = {"HTTP_HX_REQUEST": "true"}
    for response in (
        client.get(urls(table)["poll"] + "?rev=0", **htmx),
        client.post(reverse("tables:move", args=[table.pk]), {"type": "round"}, **htmx),
    ):
        assert response.status_code == 404 and response["HX-Refresh"] == "true"
    assert not stored_moves(table).exists()


def test_a_team_games_result_names_the_team_on_the_console_and_the_replay():
    owner = UserFactory()
    table = services.open_table(
        owner=owner,
        ruleset="official",
        names=["Ann", "Bo", "Cy", "Di"],
        variants=["team"],
        teams=[["A", "C"], ["B", "D"]],
    )
    services.append_event(
        table_id=table.pk,
        actor=owner,
        event={"type": "forfeit", "seat": "D", "reason": "gone"},
        expected_revision=0,
    )
    console = client_for(owner).get(urls(table)["console"]).text
    assert "Team 1 (Ann and Cy) wins — forfeit" in console
    link = services.make_replay_link(table_id=table.pk, actor=owner)
    replay = Client().get(reverse("tables:replay", args=[link])).text
    assert "Team 1 (Ann and Cy) wins — forfeit" in replay


def test_each_seat_shows_its_cards_of_the_round_face_up():
    # The latest round's reveals (a 7 at its target) and the action cards played since.
    names = {"A": "Ann", "B": "Bo", "C": "Cy"}
    active = [
        {"type": "round", "cards": {"A": 3, "B": 5, "C": 9}},
        {"type": "action", "seat": "A", "card": "block", "target": "B"},
        {"type": "round", "cards": {"A": 7, "C": 2}, "targets": {"A": "C"}},
        {"type": "action", "seat": "C", "card": "draw_two", "target": "A"},
        {"type": "respond", "seat": "A", "choice": "pass"},
    ]
    shown = selectors.shown_since_last_round(active, names)
    assert shown == {
        "A": [selectors.Shown("number", "7", "Cy", "C")],
        "C": [selectors.Shown("number", "2"), selectors.Shown("action", "+2", "Ann", "A")],
    }


def test_teams_chosen_play_the_team_variant_without_its_box():
    # They were silently ignored unless the separate box was ticked (issue 30).
    owner = UserFactory()
    post = {"ruleset": "official", **{f"name_{i}": n for i, n in enumerate("ABCD", 1)}}
    post |= {"team_1": "1", "team_2": "2", "team_3": "1", "team_4": "2"}
    assert client_for(owner).post(reverse("tables:index"), post).status_code == 302
    table = CasualTable.objects.get()
    assert "team" in table.variants and table.teams == [["A", "C"], ["B", "D"]]


def test_a_team_table_shows_each_teams_number_cards_together():
    # Team totals were shown nowhere (issue 30); a team wins when all its seats are at 0.
    owner = UserFactory()
    table = services.open_table(
        owner=owner,
        ruleset="official",
        names=["Ann", "Bo", "Cy", "Di"],
        variants=["team"],
        teams=[["A", "C"], ["B", "D"]],
    )
    services.append_event(
        table_id=table.pk,
        actor=owner,
        event={"type": "round", "cards": {"A": 9, "B": 1, "C": 2, "D": 3}},
        expected_revision=0,
    )
    view = selectors.console(CasualTable.objects.get(pk=table.pk))
    counts = {seat.letter: seat.number_cards for seat in view.seats}
    assert counts["A"] != counts["B"]  # the round moved cards: the totals are not the deal's
    console = client_for(owner).get(urls(table)["console"]).text
    assert f"Team 1 (Ann and Cy): {counts['A'] + counts['C']} number cards" in console
    assert f"Team 2 (Bo and Di): {counts['B'] + counts['D']} number cards" in console
    # Without teams, no such line.
    solo = services.open_table(owner=owner, ruleset="official", names=["Ann", "Bo", "Cy"])
    assert "team-totals" not in client_for(owner).get(urls(solo)["console"]).text
