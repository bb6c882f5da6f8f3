"""The referee console's views: who may see and post, CSRF, conflicts, refusals, undo, endings,
corrections, polling, the record, the replay and the duels list."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role, TournamentRole
from duels import services as duel_rows
from duels.models import DuelStatus, Result
from tests.duels.moves import moves
from tests.factories import EntrantFactory, RoleFactory, UserFactory, group_phase_duel
from tournaments.models import Tournament
from tournaments.services import refereeing

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
WHO = ["organiser", "co_organiser", "referee", "player", "stranger", "anonymous"]


def url(duel, name="console"):
    return reverse(f"duels:{name}", kwargs={"slug": duel.tournament.slug, "duel_id": duel.pk})


def client_for(user, **kwargs) -> Client:
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


def people(duel, referee):
    tournament = duel.tournament
    return {
        "organiser": tournament.created_by,
        "co_organiser": RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user,
        "referee": referee,
        "player": EntrantFactory(tournament=tournament, user=UserFactory()).user,
        "stranger": UserFactory(),
        "anonymous": None,
    }


def round_(a, b=None, seq=0, rev=None):
    data = {"type": "round", "seq": seq, "rev": seq if rev is None else rev, "card_A": a}
    if b is not None:
        data["card_B"] = b
    return data


def version(duel):
    """The tournament's version now: what the console's correction form carries."""
    return str(Tournament.objects.get(pk=duel.tournament_id).standings_version)


def events(duel):
    return [(m.seq, m.payload, m.undone_at) for m in moves(duel)]


# -- who may do what ------------------------------------------------------------------------

CONSOLE_UNPUBLISHED = {
    "organiser": 200,
    "co_organiser": 200,
    "referee": 200,
    "player": 403,
    "stranger": 404,
    "anonymous": 404,
}
CONSOLE_PUBLISHED = {**CONSOLE_UNPUBLISHED, "stranger": 403, "anonymous": 302}


@pytest.mark.parametrize("published", [False, True])
@pytest.mark.parametrize("who", WHO)
def test_console_and_list_are_for_the_tournaments_referees_and_organisers(who, published):
    duel, referee = group_phase_duel(published=published)
    user = people(duel, referee)[who]
    expected = (CONSOLE_PUBLISHED if published else CONSOLE_UNPUBLISHED)[who]
    client = client_for(user)
    for page in (
        url(duel),
        url(duel, "poll") + "?rev=99",
        reverse("duels:list", args=[duel.tournament.slug]),
    ):
        response = client.get(page)
        assert response.status_code == expected, page
        if expected == 302:
            assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("published", [False, True])
@pytest.mark.parametrize("who", WHO)
def test_only_referees_and_organisers_post_moves(who, published):
    duel, referee = group_phase_duel(published=published)
    user = people(duel, referee)[who]
    response = client_for(user).post(url(duel, "move"), round_(7, 3), headers=HTMX)
    allowed = who in ("organiser", "co_organiser", "referee")
    if allowed:
        assert response.status_code == 200
        assert len(events(duel)) == 1
    else:
        expected = {
            "player": 403,
            "stranger": 403 if published else 404,
            "anonymous": 302 if published else 404,
        }[who]
        assert response.status_code == expected
        assert events(duel) == []


@pytest.mark.parametrize("name", ["move", "undo", "end"])
def test_a_player_never_referees_their_own_duel(name):
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    player = UserFactory()
    TournamentRole.objects.create(tournament=duel.tournament, user=player, role=Role.REFEREE)
    duel.seat_b.user = player
    duel.seat_b.save()
    client = client_for(player)
    assert client.get(url(duel)).status_code == 403
    data = {
        "move": round_(1, 2, seq=1),
        "undo": {"seq": 1, "rev": 1},
        "end": {"seq": 1, "rev": 1, "ending": "forfeit_A", "reason": "x", "confirm": "on"},
    }[name]
    before = events(duel)
    assert client.post(url(duel, name), data, headers=HTMX).status_code == 403
    assert events(duel) == before


def test_an_organiser_who_plays_cannot_correct_their_own_result():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, {"type": "forfeit", "seat": "B"}, 0)
    organiser = duel.tournament.created_by
    duel.seat_a.user = organiser
    duel.seat_a.save()
    response = client_for(organiser).post(
        url(duel, "correct"), {"winner": "B", "reason": "mine"}, headers=HTMX
    )
    assert response.status_code == 403
    assert "You play in this duel" in response.content.decode()
    assert not Result.objects.get(duel=duel).corrected


def test_a_duel_assigned_to_another_referee_is_shown_but_not_theirs_to_play():
    duel, referee = group_phase_duel()
    other = RoleFactory(tournament=duel.tournament, role=Role.REFEREE).user
    refereeing.assign_referee(duel, duel.tournament.created_by, referee)
    client = client_for(other)
    page = client.get(url(duel)).content.decode()
    assert "only they or an organiser enter its moves" in page
    assert 'id="round-form"' not in page
    response = client.post(url(duel, "move"), round_(7, 3), headers=HTMX)
    assert response.status_code == 403
    assert "assigned to" in response.content.decode()
    assert events(duel) == []


@pytest.mark.parametrize(
    "name,data",
    [
        ("move", round_(7, 3)),
        ("undo", {"seq": 1, "rev": 1}),
        ("end", {"seq": 0, "rev": 0, "ending": "forfeit_B", "reason": "no show", "confirm": "on"}),
        ("correct", {"winner": "B", "reason": "wrong card count"}),
    ],
)
def test_every_post_checks_csrf(name, data):
    duel, referee = group_phase_duel()
    organiser = duel.tournament.created_by
    if name == "undo":
        refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    if name == "correct":
        refereeing.append_event(duel, referee, {"type": "forfeit", "seat": "B"}, 0)
    if name == "correct":
        data = {**data, "version": version(duel)}
    before = (events(duel), list(Result.objects.filter(duel=duel).values_list("corrected")))
    client = client_for(organiser, enforce_csrf_checks=True)
    assert client.post(url(duel, name), data).status_code == 403
    assert (events(duel), list(Result.objects.filter(duel=duel).values_list("corrected"))) == before
    # With the page's token the same post goes through.
    client.get(url(duel))
    token = client.cookies["csrftoken"].value
    response = client.post(url(duel, name), {**data, "csrfmiddlewaretoken": token})
    assert response.status_code == 302


# -- playing -------------------------------------------------------------------------------


def test_the_console_shows_the_state_and_offers_only_legal_moves():
    duel, referee = group_phase_duel()
    client = client_for(referee)
    page = client.get(url(duel)).content.decode()
    assert "Duel round 1: both reveal a number card" in page
    # The duel's own round, never to be taken for the tournament's (issue 16).
    assert "Group round 1" in page
    assert 'name="card_A"' in page and 'name="card_B"' in page
    assert "plays an action card" not in page  # nobody holds an action card yet
    response = client.post(url(duel, "move"), round_(7, 3), headers=HTMX)
    page = response.content.decode()
    assert "HX-Request" in response["Vary"]
    assert 'id="console"' in page and "<html" not in page  # the partial, not the page
    assert 'hx-swap-oob="innerHTML"' in page  # the announcement for screen readers
    assert "Bob draws 2 number cards and 1 action card (Alice&#x27;s 7)" in page
    assert "<legend>Bob plays an action card</legend>" in page and 'value="B:block"' in page
    assert "Alice plays an action card" not in page and 'value="A:' not in page
    assert "COLOR CHANGE…" in page and 'value="B:green"' in page
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING and duel.referee == referee


def test_a_decision_offers_its_choices_and_nothing_else():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 3, "B": 7}}, 0)
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 1)
    refereeing.append_event(duel, referee, {"type": "action", "seat": "B", "card": "draw_four"}, 2)
    page = client_for(referee).get(url(duel)).content.decode()
    assert "Alice may counter Bob&#x27;s +4" in page
    assert 'id="round-form"' not in page and "plays an action card" not in page
    for choice, label in (
        ("draw_two", "Counter with +2"),
        ("draw_four", "Counter with +4"),
        ("pass", "No counter"),
    ):
        assert f'value="{choice}" id="choice-{choice}"' in page and label in page
    assert 'name="seat" value="A"' in page


def test_a_target_without_an_action_card_is_not_asked_to_counter():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    refereeing.append_event(duel, referee, {"type": "action", "seat": "B", "card": "draw_four"}, 1)
    page = client_for(referee).get(url(duel)).content.decode()
    assert 'id="choice-' not in page
    assert "Alice draws 4 number cards (Bob&#x27;s +4)" in page


def test_a_blocked_seats_pad_is_off():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    refereeing.append_event(duel, referee, {"type": "action", "seat": "B", "card": "block"}, 1)
    page = client_for(referee).get(url(duel)).content.decode()
    assert "Alice is blocked" in page
    assert '<fieldset class="pad" data-seat="A" disabled>' in page
    assert '<fieldset class="pad" data-seat="B">' in page
    response = client_for(referee).post(
        url(duel, "move"), round_(None, 5, seq=2) | {"card_A": ""}, headers=HTMX
    )
    assert response.status_code == 200
    assert [m.payload for m in moves(duel) if m.seq == 3] == [{"type": "round", "cards": {"B": 5}}]


def pads_of(html: str) -> str:
    """The pads' opening tag in a console."""
    found = re.search(r'<div class="pads" id="pads"[^>]*>', html)
    assert found, "no pads"
    return found.group(0)


def test_an_answer_keeps_the_pages_pads_while_they_would_come_back_the_same():
    """Issue 26, a quicker tap: a page names the key of the pads it shows (console.js sends
    it with every request of the console); an answer whose pads are the same leaves the
    page's own in place (hx-preserve), any change of a pad brings them new."""
    duel, referee = group_phase_duel()
    client = client_for(referee)
    key = re.search(r'data-pads="(\w+)"', pads_of(client.get(url(duel)).content.decode()))[1]
    # A round: both pads open before and after; the page's key is the answer's.
    answer = client.post(url(duel, "move"), round_(7, 3) | {"pads": key}, headers=HTMX)
    # An empty placeholder, which htmx fills with the page's own pads.
    assert f'<div class="pads" id="pads" data-pads="{key}" hx-preserve="true"></div>' in (
        answer.content.decode()
    )
    # A seat blocked: its pad closes, the key changes and the pads come new.
    playing = {"type": "action", "seq": 1, "rev": 1, "play": "B:block", "pads": key}
    blocked = client.post(url(duel, "move"), playing, headers=HTMX).content.decode()
    assert "Alice is blocked" in blocked
    assert "hx-preserve" not in pads_of(blocked) and f'data-pads="{key}"' not in blocked
    assert '<fieldset class="pad" data-seat="A" disabled>' in blocked
    # A poll from a page that shows other pads (or names none: a script) gets them new.
    for asked in (f"?rev=1&pads={key}", "?rev=1"):
        polled = client.get(url(duel, "poll") + asked, headers=HTMX).content.decode()
        assert "hx-preserve" not in pads_of(polled)
    # The whole page never preserves: it has nothing to keep (and no JavaScript to ask).
    page = client.get(url(duel) + f"?pads={key}").content.decode()
    assert "hx-preserve" not in page


def test_an_answer_keeps_the_pages_action_cards_while_they_would_come_back_the_same():
    duel, referee = group_phase_duel()
    client = client_for(referee)
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    page = client.get(url(duel)).content.decode()
    key = re.search(r'class="seat-actions" data-actions="(\w+)"', page)[1]
    assert '<div id="actions"><fieldset><legend>Bob' in page and "hx-preserve" not in page
    # The page's own (named by their key) stay: an empty placeholder that htmx fills with
    # them; another page's come new.
    kept = client.get(url(duel, "poll") + f"?rev=0&actions={key}", headers=HTMX)
    assert '<div id="actions" hx-preserve="true"></div>' in kept.content.decode()
    new = client.get(url(duel, "poll") + "?rev=0&actions=0badc0de", headers=HTMX)
    assert '<div id="actions"><fieldset><legend>Bob' in new.content.decode()
    # Bob plays his BLOCK: his cards change, and so does the key.
    playing = {"type": "action", "seq": 1, "rev": 1, "play": "B:block", "actions": key}
    answer = client.post(url(duel, "move"), playing, headers=HTMX).content.decode()
    assert f'data-actions="{key}"' not in answer and "hx-preserve" not in answer


def test_a_colour_change_needs_its_colour():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    client = client_for(referee)
    move = {"seq": 1, "rev": 1, "type": "action", "seat": "B", "card": "color_change"}
    response = client.post(url(duel, "move"), move, headers=HTMX)
    assert response.status_code == 422
    assert "Name the colour" in response.content.decode()
    response = client.post(url(duel, "move"), {**move, "color": "green"}, headers=HTMX)
    assert response.status_code == 200
    assert "Bob plays COLOR CHANGE and names green" in response.content.decode()


def test_the_consoles_action_buttons_name_seat_and_card_or_colour_in_one_value():
    """Both seats' cards in one form (issue 15: a small answer): "B:block", "B:green"."""
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    client = client_for(referee)
    page = client.get(url(duel), headers=HTMX).content.decode()
    assert 'name="play" value="B:green"' in page
    for bad in ("C:block", "B:purple", "B", ":block"):
        response = client.post(
            url(duel, "move"), {"seq": 1, "rev": 1, "type": "action", "play": bad}, headers=HTMX
        )
        assert response.status_code == 422, bad
    response = client.post(
        url(duel, "move"), {"seq": 1, "rev": 1, "type": "action", "play": "B:green"}, headers=HTMX
    )
    assert response.status_code == 200
    assert "Bob plays COLOR CHANGE and names green" in response.content.decode()
    assert len(moves(duel)) == 2


def test_an_illegal_move_is_refused_with_the_engines_reason():
    duel, referee = group_phase_duel()
    response = client_for(referee).post(
        url(duel, "move"),
        {"seq": 0, "rev": 0, "type": "action", "seat": "A", "card": "block"},
        headers=HTMX,
    )
    assert response.status_code == 422
    assert "holds no action card" in response.content.decode()
    assert 'role="alert"' in response.content.decode()
    assert events(duel) == []


def test_an_out_of_range_card_is_refused():
    duel, referee = group_phase_duel()
    response = client_for(referee).post(url(duel, "move"), round_(12, 3), headers=HTMX)
    assert response.status_code == 422
    assert events(duel) == []


def test_without_javascript_a_move_posts_and_redirects_to_the_console():
    duel, referee = group_phase_duel()
    client = client_for(referee)
    response = client.post(url(duel, "move"), round_(7, 3))
    assert response.status_code == 302 and response["Location"] == url(duel)
    page = client.get(response["Location"]).content.decode()
    assert "Move entered." in page
    assert "Duel round 2: both reveal a number card" in page


# -- two referees, one duel ---------------------------------------------------------------


def test_a_stale_page_is_told_and_nothing_is_applied_twice():
    duel, referee = group_phase_duel()
    second = RoleFactory(tournament=duel.tournament, role=Role.CO_ORGANISER).user
    first = client_for(referee).post(url(duel, "move"), round_(7, 3), headers=HTMX)
    assert first.status_code == 200
    stale = client_for(second).post(url(duel, "move"), round_(7, 3), headers=HTMX)
    assert stale.status_code == 409
    page = stale.content.decode()
    assert "Someone else entered a move — here is the current state." in page
    assert 'data-seq="1"' in page  # the current state, ready for the next move
    assert len(events(duel)) == 1
    # Without JavaScript the conflict is a full page with the same message.
    plain = client_for(second).post(url(duel, "move"), round_(7, 3))
    assert plain.status_code == 409 and "<html" in plain.content.decode()
    assert len(events(duel)) == 1


def test_an_undo_and_a_new_move_still_make_the_old_page_stale():
    """seq comes back to 1 after an undo and a move: the revision tells the pages apart."""
    duel, referee = group_phase_duel()
    client = client_for(referee)
    client.post(url(duel, "move"), round_(7, 3), headers=HTMX)  # seq 1, rev 1
    client.post(url(duel, "undo"), {"seq": 1, "rev": 1}, headers=HTMX)  # seq 0, rev 2
    client.post(url(duel, "move"), round_(2, 8, seq=0, rev=2), headers=HTMX)  # seq 1, rev 3
    stale = client.post(url(duel, "move"), round_(5, 5, seq=1, rev=1), headers=HTMX)
    assert stale.status_code == 409
    assert [e[0] for e in events(duel) if e[2] is None] == [1]


def test_the_poll_answers_204_until_the_duel_changes():
    duel, referee = group_phase_duel()
    client = client_for(referee)
    unchanged = client.get(url(duel, "poll") + "?rev=0", headers=HTMX)
    assert unchanged.status_code == 204 and unchanged.content == b""
    assert "no-store" in unchanged["Cache-Control"]
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    changed = client.get(url(duel, "poll") + "?rev=0", headers=HTMX)
    assert changed.status_code == 200
    assert 'data-rev="1"' in changed.content.decode()
    assert client.get(url(duel, "poll") + "?rev=1", headers=HTMX).status_code == 204


# -- undo, endings, results, corrections ----------------------------------------------------


def test_undo_strikes_the_move_through_and_keeps_it():
    duel, referee = group_phase_duel()
    client = client_for(referee)
    client.post(url(duel, "move"), round_(7, 3), headers=HTMX)
    client.post(url(duel, "move"), round_(4, 4, seq=1), headers=HTMX)
    response = client.post(url(duel, "undo"), {"seq": 2, "rev": 2}, headers=HTMX)
    assert response.status_code == 200
    page = response.content.decode()
    assert "<del>Alice reveals 4. Bob reveals 4." in page
    assert "undone" in page
    duel.refresh_from_db()
    assert duel.seq == 1
    assert [(seq, undone is not None) for seq, _, undone in events(duel)] == [(1, False), (2, True)]


def test_there_is_nothing_to_undo_before_the_first_move():
    duel, referee = group_phase_duel()
    client = client_for(referee)
    client.post(url(duel, "move"), round_(7, 3), headers=HTMX)
    client.post(url(duel, "undo"), {"seq": 1, "rev": 1}, headers=HTMX)
    response = client.post(url(duel, "undo"), {"seq": 0, "rev": 2}, headers=HTMX)
    assert response.status_code == 422
    assert "no move to undo" in response.content.decode()


def test_an_ending_needs_a_reason_and_a_confirmation():
    duel, referee = group_phase_duel()
    client = client_for(referee)
    response = client.post(
        url(duel, "end"), {"seq": 0, "rev": 0, "ending": "forfeit_B"}, headers=HTMX
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert "Give a reason" in page and "to confirm" in page
    assert '<details class="ending" open>' in page
    assert events(duel) == []


def test_a_duel_played_on_paper_is_an_adjudication_with_a_note_and_the_page_shows_the_result():
    duel, referee = group_phase_duel()
    client = client_for(referee)
    response = client.post(
        url(duel, "end"),
        {
            "seq": 0,
            "rev": 0,
            "ending": "adjudicate_B",
            "reason": "played on paper: Bob won",
            "confirm": "on",
        },
    )
    assert response.status_code == 302
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED
    assert events(duel)[0][1] == {
        "type": "adjudicate",
        "winner": "B",
        "reason": "played on paper: Bob won",
    }
    page = client.get(url(duel)).content.decode()
    assert "Bob wins — adjudicated" in page
    assert "The referee adjudicates the duel to Bob (played on paper: Bob won)" in page
    assert 'id="round-form"' not in page and 'id="undo"' not in page
    assert "Correct the result" not in page  # a referee does not correct results
    # The next round opened by itself.
    assert duel.round.tournament.rounds.get(number=2).status == "open"
    # A finished duel takes no more moves and no undo.
    late = client.post(url(duel, "undo"), {"seq": 1, "rev": 1}, headers=HTMX)
    assert late.status_code == 409
    assert "correction" in late.content.decode()


def test_an_organiser_corrects_a_finished_result_with_a_reason():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, {"type": "forfeit", "seat": "B", "reason": "late"}, 0)
    organiser = duel.tournament.created_by
    client = client_for(organiser)
    page = client.get(url(duel)).content.decode()
    assert "Correct the result (organisers)" in page
    refused = client.post(url(duel, "correct"), {"winner": "B"}, headers=HTMX)
    assert refused.status_code == 422 and "needs a reason" in refused.content.decode()
    response = client.post(
        url(duel, "correct"),
        {"winner": "B", "reason": "Bob was on time", "version": version(duel)},
        headers=HTMX,
    )
    assert response.status_code == 200
    assert "Bob wins — adjudicated" in response.content.decode()
    assert "Result corrected by an organiser: Bob was on time" in response.content.decode()
    result = Result.objects.get(duel=duel)
    assert result.corrected and result.winner == duel.seat_b
    # A referee may not correct.
    assert (
        client_for(referee).post(url(duel, "correct"), {"winner": "A", "reason": "x"}).status_code
        == 403
    )


# -- records, replay, list, cost ------------------------------------------------------------


def test_the_record_downloads_in_the_rules_format_without_undone_moves():
    duel, referee = group_phase_duel(published=True)
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 1, "B": 2}}, 1)
    refereeing.undo_last_event(duel, referee, 2)
    response = Client().get(url(duel, "record"))
    assert response.status_code == 200
    assert (
        response["Content-Disposition"]
        == f'attachment; filename="{duel.tournament.slug}-duel-{duel.pk}.json"'
    )
    record = json.loads(response.content)
    duel.refresh_from_db()
    assert record == duel_rows.record_of(duel)
    assert record["format"] == "split-uno-duel" and len(record["events"]) == 1


@pytest.mark.parametrize("published,expected", [(True, 200), (False, 404)])
def test_the_replay_is_public_once_published(published, expected):
    duel, referee = group_phase_duel(published=published)
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 9, "B": 0}}, 1)
    response = Client().get(url(duel, "replay") + "?step=1")
    assert response.status_code == expected
    assert Client().get(url(duel, "record")).status_code == expected
    if published:
        page = response.content.decode()
        assert "After move 1 of 2" in page
        assert "Round 2 is next" in page
        assert "Referee console" not in page
        partial = Client().get(url(duel, "replay") + "?step=2", headers=HTMX)
        assert "<html" not in partial.content.decode()
        assert "Waiting for Alice: bonus" in partial.content.decode()


def test_the_duels_list_links_each_console_open_ones_first():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, {"type": "forfeit", "seat": "B"}, 0)
    replay = duel_rows.create_replay(duel)
    page = client_for(referee).get(reverse("duels:list", args=[duel.tournament.slug]))
    html = page.content.decode()
    assert html.index(url(replay)) < html.index(url(duel))
    assert "Group round 1 (replay)" in html and "Alice won" in html
    # The status comes right after the duel: on a phone the table scrolls, and the status is
    # what a referee looks for (browser pass).
    headings = re.findall(r'<th scope="col">([^<]+)</th>', html)
    assert headings[:2] == ["Duel", "Status"], headings


def test_a_move_costs_a_fixed_number_of_queries():
    """Whatever the length of the duel (bench/console.py measures it on PostgreSQL)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    duel, referee = group_phase_duel()
    client = client_for(referee)
    client.post(url(duel, "move"), round_(7, 3), headers=HTMX)
    counts = []
    for seq in range(1, 12):  # Alice wins with 9 v 1 and claims each streak bonus
        duel.refresh_from_db()
        data = (
            {"type": "respond", "seat": "A", "choice": "action_card", "seq": seq, "rev": seq}
            if duel.state["awaiting"]
            else round_(9, 1, seq=seq)
        )
        path = url(duel, "move")  # outside: refresh_from_db() forgot the duel's tournament
        with CaptureQueriesContext(connection) as queries:
            assert client.post(path, data, headers=HTMX).status_code == 200
        # The test's own transaction turns the service's atomic() into a savepoint.
        counts.append(sum(1 for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]))
    assert len(set(counts)) == 1, counts
    # Pinned (issue 15; issue 27 added the game's update): the session, the user, the
    # tournament, its roles (one query); the duel, read once, locked (with its seats, referee
    # and game), the game's log, the insert, the game's update, the duel's update. The answer
    # is drawn from the locked row and the log already read: nothing more.
    # SQLite takes no row lock (its transactions serialise writers): PostgreSQL adds the
    # tournament's (here, inside the test's transaction, without BEGIN and COMMIT; with them
    # in tests/integration/test_console_budget.py).
    assert counts[0] == (10 if connection.vendor == "postgresql" else 9), counts


def test_the_clock_shows_when_the_duel_has_a_time_limit():
    duel, referee = group_phase_duel(duel_time_limit_minutes=25)
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    duel.refresh_from_db()
    page = client_for(referee).get(url(duel)).content.decode()
    assert f'data-deadline="{duel.deadline.isoformat()}"' in page
    assert '<p class="clock">' in page
    untimed, other = group_phase_duel()
    assert '<p class="clock">' not in client_for(other).get(url(untimed)).content.decode()


def test_a_first_move_offers_the_shared_card_a_player_starts_with():
    from tournaments.models import SharedCard

    duel, referee = group_phase_duel()
    mate = EntrantFactory(tournament=duel.tournament, group=duel.group_a)
    earlier, _ = group_phase_duel()
    SharedCard.objects.create(
        tournament=duel.tournament, giver=mate, receiver=duel.seat_a, from_duel=earlier
    )
    page = client_for(referee).get(url(duel)).content.decode()
    assert "Starts with a group-mate’s action card" in page
    assert 'value="A:block"' in page
    response = client_for(referee).post(
        url(duel, "move"),
        {"seq": 0, "rev": 0, "type": "action", "seat": "A", "card": "block"},
        headers=HTMX,
    )
    assert response.status_code == 200
    assert "Alice plays BLOCK on Bob" in response.content.decode()


def test_the_second_referee_of_a_lost_race_hears_of_the_conflict_not_of_the_assignment():
    """The first move makes an unassigned duel its referee's; the service then refuses the
    other referee's stale move as "assigned" before comparing sequence numbers."""
    duel, referee = group_phase_duel()
    second = RoleFactory(tournament=duel.tournament, role=Role.REFEREE).user
    client_for(referee).post(url(duel, "move"), round_(7, 3), headers=HTMX)
    stale = client_for(second).post(url(duel, "move"), round_(7, 3), headers=HTMX)
    assert stale.status_code == 409
    page = stale.content.decode()
    assert "Someone else entered a move — here is the current state." in page
    assert "only they or an organiser enter its moves" in page
    assert len(events(duel)) == 1


def test_an_overdue_deadline_is_recorded_when_the_console_is_opened():
    """On the embedded default there is no worker or beat: the console itself keeps time."""
    from datetime import timedelta

    from django.test import Client
    from django.utils import timezone

    from play.models import Game
    from tests.factories import group_phase_duel
    from tournaments.services import refereeing as duel_services

    duel, referee = group_phase_duel()
    duel.tournament.duel_time_limit_minutes = 10
    duel.tournament.save()
    duel_services.append_event(duel, referee, {"type": "round", "cards": {"A": 9, "B": 1}}, 0)
    # The deadline is the game's (the one clock's): it passed a second ago.
    past = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(duel=duel).update(deadline=past, next_deadline=past)
    client = Client()
    client.force_login(referee)
    response = client.get(f"/t/{duel.tournament.slug}/duels/{duel.pk}/")
    assert response.status_code == 200
    duel.refresh_from_db()
    assert duel.status == "finished" and duel.result.finish == "time_limit"
    assert duel.round.status == "decided"  # the result applied, as after a move
    html = response.content.decode()
    assert "Time is up." in html and '<p class="clock">' not in html
    # The warning went out first (the console's own load keeps it too), once.
    assert duel.warned_at is not None
    assert client.get(f"/t/{duel.tournament.slug}/duels/{duel.pk}/").status_code == 200
    assert len(moves(duel)) == 2


def test_a_poll_brings_the_time_limit_once_the_deadline_passes():
    """A console left open past the deadline hears of it at its next poll (eager mode)."""
    from datetime import timedelta

    from django.utils import timezone

    from play.models import Game

    duel, referee = group_phase_duel(duel_time_limit_minutes=10)
    client = client_for(referee)
    client.post(url(duel, "move"), round_(9, 1), headers=HTMX)
    duel.refresh_from_db()
    poll = url(duel, "poll") + f"?rev={duel.revision}"
    assert client.get(poll, headers=HTMX).status_code == 204
    past = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(duel=duel).update(deadline=past, next_deadline=past)
    answer = client.get(poll, headers=HTMX)
    assert answer.status_code == 200 and "Time is up." in answer.content.decode()
    duel.refresh_from_db()
    assert duel.result.finish == "time_limit"


def news(html: str) -> str:
    """The screen-reader line an htmx answer brings out of band."""
    import re

    found = re.search(r'<div id="console-news" hx-swap-oob="innerHTML">(.*?)</div>', html, re.S)
    assert found, "every answer brings the live line"
    return found.group(1).strip()


def test_an_undo_offers_redo_which_enters_the_move_again_only_while_nothing_else_happened():
    """Issue 16: "Undone — Redo". Redo goes through the normal checked path (the page's seq
    and revision), and only while the undo is the duel's latest change."""
    duel, referee = group_phase_duel()
    client = client_for(referee)
    client.post(url(duel, "move"), round_(7, 3), headers=HTMX)
    answer = client.post(url(duel, "undo"), {"seq": 1, "rev": 1}, headers=HTMX)
    html = answer.content.decode()
    assert "Undone: move 1, Alice reveals 7" in html and 'id="redo"' in html
    assert 'id="redo"' not in client.get(url(duel), headers=HTMX).content.decode()  # short-lived
    # A screen reader hears the undo and the offer (the live line outside the console).
    assert "Undone: move 1, Alice reveals 7. Redo enters it again." in news(html)
    redone = client.post(url(duel, "redo"), {"seq": 0, "rev": 2}, headers=HTMX)
    assert redone.status_code == 200
    assert news(redone.content.decode()).startswith("Redone. Move 1: Alice reveals 7")
    assert [(seq, p["cards"], u is None) for seq, p, u in events(duel)] == [
        (1, {"A": 7, "B": 3}, False),
        (1, {"A": 7, "B": 3}, True),
    ]
    # Undo again, then another move: Redo is refused, and nothing is applied.
    client.post(url(duel, "undo"), {"seq": 1, "rev": 3}, headers=HTMX)
    client.post(url(duel, "move"), round_(5, 2, rev=4), headers=HTMX)
    stale = client.post(url(duel, "redo"), {"seq": 0, "rev": 4}, headers=HTMX)
    assert stale.status_code == 409
    current = client.post(url(duel, "redo"), {"seq": 1, "rev": 5}, headers=HTMX)
    assert current.status_code == 409
    assert "Nothing to redo" in current.content.decode()
    assert len(events(duel)) == 3


@pytest.mark.parametrize("who", ["player", "stranger", "anonymous"])
def test_only_referees_and_organisers_redo(who):
    duel, referee = group_phase_duel(published=True)
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    refereeing.undo_last_event(duel, referee, 1)
    response = client_for(people(duel, referee)[who]).post(url(duel, "redo"), {"seq": 0, "rev": 2})
    assert response.status_code in (302, 403)
    assert [u is None for _, _, u in events(duel)] == [False]
