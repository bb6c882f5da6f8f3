"""Every write names what it is for, and a repeat is harmless (DESIGN.md; issue "Trust on the
night"): each form that records a result — the round's paper form, a duel's paper form, the
console's moves and endings, corrections and voids — sent twice, from one device or from a
second one loaded earlier, records one result, and the answer says it was already recorded
and that nothing changed. Also: an organiser's move never takes a duel; taking one is an
explicit, confirmed, audit-logged choice, shown to the referee it was taken from.

The same posts at the same instant, two threads on PostgreSQL:
tests/integration/test_intent_races.py.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from duels.models import Duel, DuelStatus, Result
from tests.duels.moves import moves
from tests.factories import RoleFactory, group_phase_duel
from tournaments.models import AuditEntry, RoundStatus
from tournaments.services import refereeing

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
ALREADY = "was already recorded by"
NOTHING = "Nothing changed"


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def hidden(page: str, action: str) -> dict[str, str]:
    """The hidden fields of the form posting to `action` on `page` (what the page was drawn
    for: round, duel, revision, version, key)."""
    start = page.index(f'action="{action}"')
    form = page[start : page.index("</form>", start)]
    values = {}
    for tag in re.findall(r"<input[^>]*>", form):
        if 'type="hidden"' in tag:
            name = re.search(r'name="([^"]+)"', tag)[1]
            value = re.search(r'value="([^"]*)"', tag)
            values[name] = value[1] if value else ""
    return values


def rounds_url(tournament):
    return reverse("organiser:rounds", args=[tournament.slug])


def paper_url(tournament):
    return reverse("organiser:paper_result", args=[tournament.slug])


def duel_paper_url(duel):
    return reverse("organiser:paper_duel", args=[duel.tournament.slug, duel.pk])


def console_url(duel, name="console"):
    return reverse(f"duels:{name}", kwargs={"slug": duel.tournament.slug, "duel_id": duel.pk})


def finished(tournament):
    return list(
        Duel.objects.filter(tournament=tournament, status=DuelStatus.FINISHED).values_list(
            "round__number", "seat_a", "seat_b"
        )
    )


def text(response) -> str:
    # Curly quotes and apostrophes are escaped in HTML: compare words, not entities.
    return response.content.decode().replace("&#x27;", "'").replace("&quot;", '"')


# -- the round's paper form ------------------------------------------------------------------


@pytest.fixture
def round1():
    duel, referee = group_phase_duel()
    Duel.objects.filter(pk=duel.pk).update(referee=None)  # open to any referee
    second = RoleFactory(tournament=duel.tournament, role=Role.REFEREE).user
    return duel.tournament, duel, referee, second


def sheet(tournament, user, duel):
    """The round's paper form as `user`'s page draws it, filled for Bob (seat B) winning."""
    page = client_for(user).get(rounds_url(tournament)).content.decode()
    data = hidden(page, paper_url(tournament))
    data.update(first=duel.seat_a_id, second=duel.seat_b_id, winner="second", note="")
    return data


def test_the_round_form_names_its_round_and_duel(round1):
    tournament, duel, referee, _ = round1
    data = sheet(tournament, referee, duel)
    assert data["round"] == "1" and data["duel"] == str(duel.pk) and len(data["intent"]) >= 16


def test_the_same_round_sheet_sent_twice_from_one_device_records_one_round(round1):
    tournament, duel, referee, _ = round1
    client, data = client_for(referee), sheet(tournament, referee, duel)
    assert client.post(paper_url(tournament), data).status_code == 302
    # The same device again (its key): the first send's answer, the redirect, with words.
    again = client.post(paper_url(tournament), data)
    assert again.status_code == 302 and again["Location"] == rounds_url(tournament)
    words = text(client.get(rounds_url(tournament)))
    assert (
        f"Group round 1 {ALREADY} {referee} at " in words and ": Bob won. Nothing changed." in words
    )
    # Round 2 is open and untouched: nobody recorded a round nobody played.
    assert finished(tournament) == [(1, duel.seat_a_id, duel.seat_b_id)]
    assert tournament.rounds.get(number=2).status == RoundStatus.OPEN
    assert not Duel.objects.filter(tournament=tournament, round__number=2).exists()
    assert Result.objects.filter(duel__tournament=tournament).count() == 1


def test_a_second_referee_with_the_sheet_loaded_earlier_records_nothing(round1):
    tournament, duel, referee, second = round1
    theirs = sheet(tournament, second, duel)  # loaded first, sent a second later
    assert (
        client_for(referee)
        .post(paper_url(tournament), sheet(tournament, referee, duel))
        .status_code
        == 302
    )
    late = client_for(second).post(paper_url(tournament), theirs)
    assert late.status_code == 409
    assert ALREADY in text(late) and NOTHING in text(late)
    assert finished(tournament) == [(1, duel.seat_a_id, duel.seat_b_id)]
    assert not Duel.objects.filter(tournament=tournament, round__number=2).exists()


def test_a_sheet_drawn_before_the_duel_existed_is_anchored_on_its_round():
    """Representatives not named yet: the page has no duel; the round number is the anchor."""
    duel, referee = group_phase_duel()
    tournament = duel.tournament
    seats = (duel.seat_a_id, duel.seat_b_id)
    Duel.objects.filter(pk=duel.pk).delete()
    second = RoleFactory(tournament=tournament, role=Role.REFEREE).user
    drawn = []
    for user in (referee, second):
        page = client_for(user).get(rounds_url(tournament)).content.decode()
        data = hidden(page, paper_url(tournament))
        assert data["round"] == "1" and data["duel"] == ""
        drawn.append({**data, "first": seats[0], "second": seats[1], "winner": "first"})
    assert client_for(referee).post(paper_url(tournament), drawn[0]).status_code == 302
    late = client_for(second).post(paper_url(tournament), drawn[1])
    assert late.status_code == 409 and ALREADY in text(late) and "Alice won" in text(late)
    assert Result.objects.filter(duel__tournament=tournament).count() == 1
    assert not Duel.objects.filter(tournament=tournament, round__number=2).exists()


def test_a_round_sheet_that_does_not_name_its_round_is_refused(round1):
    tournament, duel, referee, _ = round1
    data = sheet(tournament, referee, duel)
    del data["round"]
    response = client_for(referee).post(paper_url(tournament), data)
    assert response.status_code == 422
    assert "does not say which round it is for" in text(response)
    assert finished(tournament) == []


# -- a duel's own paper form -----------------------------------------------------------------


def duel_sheet(duel, user):
    page = client_for(user).get(rounds_url(duel.tournament)).content.decode()
    data = hidden(page, duel_paper_url(duel))
    return {**data, "winner": "A", "note": ""}


def test_a_duel_sheet_sent_twice_or_from_a_page_loaded_earlier_records_one_result(round1):
    tournament, duel, referee, second = round1
    mine, theirs = duel_sheet(duel, referee), duel_sheet(duel, second)
    assert mine["rev"] == "0" and mine["intent"] != theirs["intent"]
    client = client_for(referee)
    assert client.post(duel_paper_url(duel), mine).status_code == 302
    # The same device: its stored outcome (the redirect, with words); htmx is sent there.
    for headers in ({}, HTMX):
        again = client.post(duel_paper_url(duel), mine, headers=headers)
        assert again.status_code == (204 if headers else 302)
        assert (again["HX-Redirect"] if headers else again["Location"]) == rounds_url(tournament)
        words = text(client.get(rounds_url(tournament)))
        assert f"Group round 1 {ALREADY}" in words and "Alice won. Nothing changed" in words
    # A second referee's copy: refused, in the same words.
    late = client_for(second).post(duel_paper_url(duel), theirs)
    assert late.status_code == 409
    assert f"Group round 1 {ALREADY}" in text(late) and "Alice won. Nothing changed" in text(late)
    assert Result.objects.filter(duel__tournament=tournament).count() == 1
    assert len(moves(duel)) == 1


def test_an_unrelated_change_never_refuses_a_result(round1):
    """A call to the table elsewhere moves the tournament's version: a result drawn for the
    duel's revision still goes through."""
    tournament, duel, referee, _ = round1
    data = duel_sheet(duel, referee)
    version = tournament.standings_version
    refereeing.call_duel(duel, tournament.created_by, "Table 9")
    tournament.refresh_from_db()
    assert tournament.standings_version > version
    assert client_for(referee).post(duel_paper_url(duel), data).status_code == 302
    assert Result.objects.filter(duel=duel).count() == 1


# -- the console: moves and endings ----------------------------------------------------------


def console_keys(duel, user):
    page = client_for(user).get(console_url(duel)).content.decode()
    return hidden(page, console_url(duel, "move"))


def test_a_move_sent_again_gets_its_stored_outcome_not_a_conflict(round1):
    tournament, duel, referee, _ = round1
    keys = console_keys(duel, referee)
    move = {**keys, "type": "round", "card_A": 7, "card_B": 3}
    client = client_for(referee)
    assert client.post(console_url(duel, "move"), move, headers=HTMX).status_code == 200
    # The answer was lost on the venue's Wi-Fi; the device sends the same move again.
    again = client.post(console_url(duel, "move"), move, headers=HTMX)
    assert again.status_code == 200
    assert "Already entered: move 1" in text(again) and "Someone else" not in text(again)
    assert len(moves(duel)) == 1
    # Without JavaScript, a double tap of the same page's button: the first send's answer
    # (back to the console), with the same words.
    plain = client.post(console_url(duel, "move"), move)
    assert plain.status_code == 302 and plain["Location"] == console_url(duel)
    assert "Already entered: move 1" in text(client.get(console_url(duel)))
    assert len(moves(duel)) == 1


def test_a_move_that_lost_a_race_is_told_which_move_counted(round1):
    tournament, duel, referee, second = round1
    mine, theirs = console_keys(duel, referee), console_keys(duel, second)
    assert mine["intent"] != theirs["intent"]
    first = client_for(referee).post(
        console_url(duel, "move"), {**mine, "type": "round", "card_A": 7, "card_B": 3}, headers=HTMX
    )
    assert first.status_code == 200
    lost = client_for(second).post(
        console_url(duel, "move"),
        {**theirs, "type": "round", "card_A": 2, "card_B": 5},
        headers=HTMX,
    )
    assert lost.status_code == 409
    words = text(lost)
    line = moves(duel)[0].summary[0].rstrip(".")
    assert f"{referee} entered “{line}" in words and "your move was not entered" in words
    assert len(moves(duel)) == 1


def ending(keys, seat="A"):
    return {
        **keys,
        "ending": f"adjudicate_{seat}",
        "reason": "played on paper: Alice won",
        "confirm": "on",
    }


def test_an_ending_sent_twice_or_from_a_second_device_records_one_result(round1):
    tournament, duel, referee, second = round1
    mine, theirs = console_keys(duel, referee), console_keys(duel, second)
    client = client_for(referee)
    assert client.post(console_url(duel, "end"), ending(mine), headers=HTMX).status_code == 200
    for who, keys, status in ((client, mine, 200), (client_for(second), theirs, 409)):
        again = who.post(console_url(duel, "end"), ending(keys), headers=HTMX)
        assert again.status_code == status  # its stored outcome; another device: refused
        assert f"Group round 1 {ALREADY} {referee}" in text(again)
        assert "Alice won. Nothing changed" in text(again)
    assert Result.objects.filter(duel=duel).count() == 1
    assert tournament.rounds.get(number=2).status == RoundStatus.OPEN


@pytest.mark.parametrize(
    ("how", "outcome"),
    [
        ("forfeit_B", "Alice won"),
        ("adjudicate_B", "Bob won"),
        ("time_limit", "no winner (a replay is due)"),  # equal counts before any round
    ],
)
def test_a_console_ending_sent_twice_without_javascript_records_one_result(round1, how, outcome):
    tournament, duel, referee, _ = round1
    keys = console_keys(duel, referee)
    data = {**keys, "ending": how, "reason": "no show", "confirm": "on"}
    client = client_for(referee)
    assert client.post(console_url(duel, "end"), data).status_code == 302
    again = client.post(console_url(duel, "end"), data)
    assert again.status_code == 302 and again["Location"] == console_url(duel)
    words = text(client.get(console_url(duel)))
    assert f"{ALREADY} {referee} at " in words and f"{outcome}. {NOTHING}" in words
    assert Result.objects.filter(duel=duel).count() == 1
    assert len(moves(duel)) == 1


def test_the_service_refuses_a_repeat_by_its_key_before_the_revision():
    duel, referee = group_phase_duel()
    move = {"type": "round", "cards": {"A": 7, "B": 3}}
    refereeing.append_event(duel, referee, move, 0, 0, intent="k1")
    with pytest.raises(refereeing.AlreadyRecorded) as err:
        refereeing.append_event(duel, referee, move, 0, 0, intent="k1")
    assert err.value.message.startswith("Already entered: move 1")
    # Another person's key never matches: theirs is a stale page, a conflict.
    other = RoleFactory(tournament=duel.tournament, role=Role.CO_ORGANISER).user
    with pytest.raises(refereeing.duels.Conflict):
        refereeing.append_event(duel, other, move, 0, 0, intent="k1")
    assert len(moves(duel)) == 1


def test_an_undo_sent_again_undoes_nothing_more(round1):
    tournament, duel, referee, _ = round1
    client = client_for(referee)
    for a, b in ((7, 3), (2, 5)):
        keys = console_keys(duel, referee)
        move = {**keys, "type": "round", "card_A": a, "card_B": b}
        assert client.post(console_url(duel, "move"), move, headers=HTMX).status_code == 200
    keys = console_keys(duel, referee)
    assert keys["seq"] == "2"
    assert client.post(console_url(duel, "undo"), keys, headers=HTMX).status_code == 200
    again = client.post(console_url(duel, "undo"), keys, headers=HTMX)
    assert again.status_code == 200 and "Already undone: move 2" in text(again)
    duel.refresh_from_db()
    assert duel.seq == 1
    assert len(moves(duel, undone=True)) == 1


# -- corrections and voids -------------------------------------------------------------------


@pytest.fixture
def played():
    duel, referee = group_phase_duel()
    refereeing.append_event(duel, referee, {"type": "forfeit", "seat": "B"}, 0)
    tournament = duel.tournament
    co = RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user
    return tournament, duel, tournament.created_by, co


def ruling_url(duel):
    return reverse("organiser:result", args=[duel.tournament.slug, duel.pk])


def previewed(duel, user, ruling):
    """The ruling form after "Show what will be recomputed": ready to record."""
    client = client_for(user)
    page = client.get(ruling_url(duel)).content.decode()
    data = _ruling_hidden(page)
    data.update(ruling=ruling, reason="Scoresheet misread", preview="1")
    shown = client.post(ruling_url(duel), data)
    assert shown.status_code == 200 and "What this will change" in text(shown)
    data = _ruling_hidden(shown.content.decode())
    data.update(ruling=ruling, reason="Scoresheet misread", apply="1")
    return client, data


def _ruling_hidden(page):
    values = {}
    for tag in re.findall(r'<input type="hidden"[^>]*>', page):
        name = re.search(r'name="([^"]+)"', tag)[1]
        if name in ("version", "intent"):
            values[name] = re.search(r'value="([^"]*)"', tag)[1]
    return values


def test_a_correction_recorded_twice_or_by_a_second_organiser_changes_nothing(played):
    tournament, duel, organiser, co = played
    client, data = previewed(duel, organiser, "B")
    other, theirs = previewed(duel, co, "B")
    assert data["intent"] != theirs["intent"]
    assert client.post(ruling_url(duel), data).status_code == 302
    results = reverse("organiser:results", args=[tournament.slug])
    again = client.post(ruling_url(duel), data)  # this ruling's own form again
    assert again.status_code == 302 and again["Location"] == results
    words = text(client.get(results))
    assert f"this ruling {ALREADY} {organiser}" in words and NOTHING in words
    late = other.post(ruling_url(duel), theirs)  # a second organiser's: refused
    assert late.status_code == 409
    assert f"this ruling {ALREADY} {organiser}" in text(late) and NOTHING in text(late)
    assert AuditEntry.objects.filter(tournament=tournament, action="result_corrected").count() == 1
    duel.result.refresh_from_db()
    assert duel.result.winner_id == duel.seat_b_id


def test_a_ruling_whose_preview_is_no_longer_true_is_refused(played):
    tournament, duel, organiser, co = played
    client, data = previewed(duel, organiser, "none")
    # Another organiser rules first, differently: the preview drawn above is not true now.
    other, theirs = previewed(duel, co, "B")
    assert other.post(ruling_url(duel), theirs).status_code == 302
    stale = client.post(ruling_url(duel), data)
    assert stale.status_code == 409 and "changed since this preview was drawn" in text(stale)
    duel.result.refresh_from_db()
    assert duel.result.winner_id == duel.seat_b_id
    assert AuditEntry.objects.filter(tournament=tournament, action="result_corrected").count() == 1


def test_a_void_sent_twice_makes_one_replay(played):
    tournament, duel, organiser, co = played
    client, data = previewed(duel, organiser, "void_replay")
    other, theirs = previewed(duel, co, "void_replay")
    assert client.post(ruling_url(duel), data).status_code == 302
    again = client.post(ruling_url(duel), data, follow=True)
    assert again.redirect_chain[0][1] == 302 and "void, replayed" in text(again)
    late = other.post(ruling_url(duel), theirs)
    assert late.status_code == 409 and "void, replayed" in text(late)
    assert Duel.objects.filter(tournament=tournament, replay_of=duel).count() == 1
    assert AuditEntry.objects.filter(tournament=tournament, action="result_voided").count() == 1


def test_a_console_correction_sent_twice_is_recorded_once(played):
    tournament, duel, organiser, _ = played
    client = client_for(organiser)
    page = client.get(console_url(duel)).content.decode()
    keys = hidden(page, console_url(duel, "correct"))
    data = {**keys, "winner": "none", "reason": "Wrong forfeit"}
    assert client.post(console_url(duel, "correct"), data).status_code == 302
    again = client.post(console_url(duel, "correct"), data)
    assert again.status_code == 302 and again["Location"] == console_url(duel)
    assert ALREADY in text(client.get(console_url(duel)))
    # With htmx: the console as it is, with the words (what the first send was answered).
    htmx = client.post(console_url(duel, "correct"), data, headers=HTMX)
    assert htmx.status_code == 200 and ALREADY in text(htmx)
    assert Duel.objects.filter(tournament=tournament, replay_of=duel).count() == 1


def test_a_correction_from_a_stale_console_never_overwrites_another_ruling(played):
    """The console's correction carries the tournament's version, as the Results page's
    ruling does: another organiser's ruling since the console was drawn refuses it, in the
    same words, and that ruling stands."""
    tournament, duel, organiser, co = played
    client = client_for(organiser)
    page = client.get(console_url(duel)).content.decode()
    keys = hidden(page, console_url(duel, "correct"))
    assert keys["version"] == str(Duel.objects.get(pk=duel.pk).tournament.standings_version)
    other, theirs = previewed(duel, co, "B")
    assert other.post(ruling_url(duel), theirs).status_code == 302
    for headers in ({}, HTMX):
        stale = client.post(
            console_url(duel, "correct"),
            {**keys, "winner": "none", "reason": "Wrong forfeit"},
            headers=headers,
        )
        assert stale.status_code == 409 and "changed since this preview was drawn" in text(stale)
    duel.result.refresh_from_db()
    assert duel.result.winner_id == duel.seat_b_id
    assert not Duel.objects.filter(tournament=tournament, replay_of=duel).exists()
    assert AuditEntry.objects.filter(tournament=tournament, action="result_corrected").count() == 1
    # Drawn again, the console carries the version now and the correction goes through.
    fresh = hidden(client.get(console_url(duel)).content.decode(), console_url(duel, "correct"))
    data = {**fresh, "winner": "none", "reason": "Wrong forfeit"}
    assert client.post(console_url(duel, "correct"), data).status_code == 302
    duel.result.refresh_from_db()
    assert duel.result.winner_id is None


# -- what a form was drawn for is required ------------------------------------------------------

OUT_OF_DATE = "This page is out of date: reload it."


@pytest.mark.parametrize("missing", ["rev", "seq", "both"])
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_console_form_without_its_seq_or_rev_is_refused_in_words(round1, missing, headers):
    tournament, duel, referee, _ = round1
    keys = console_keys(duel, referee)
    for name in ("rev", "seq") if missing == "both" else (missing,):
        del keys[name]
    client = client_for(referee)
    for action, data in (
        ("move", {**keys, "type": "round", "card_A": 7, "card_B": 3}),
        ("end", ending(keys)),
    ):
        response = client.post(console_url(duel, action), data, headers=headers)
        assert response.status_code == 422, action
        assert text(response).count(OUT_OF_DATE) == 1, action
    assert not moves(duel)
    duel.refresh_from_db()
    assert duel.status == DuelStatus.READY and duel.seq == 0


def test_a_console_undo_without_its_rev_undoes_nothing(round1):
    tournament, duel, referee, _ = running(round1)
    keys = console_keys(duel, referee)
    del keys["rev"]
    response = client_for(referee).post(console_url(duel, "undo"), keys, headers=HTMX)
    assert response.status_code == 422 and OUT_OF_DATE in text(response)
    assert not moves(duel, undone=True)


def test_a_console_correction_without_its_version_is_refused(played):
    tournament, duel, organiser, _ = played
    client = client_for(organiser)
    keys = hidden(client.get(console_url(duel)).content.decode(), console_url(duel, "correct"))
    del keys["version"]
    response = client.post(
        console_url(duel, "correct"), {**keys, "winner": "none", "reason": "Wrong forfeit"}
    )
    assert response.status_code == 422 and OUT_OF_DATE in text(response)
    assert not AuditEntry.objects.filter(tournament=tournament, action="result_corrected").exists()
    duel.result.refresh_from_db()
    assert duel.result.winner_id == duel.seat_a_id


def test_a_ruling_recorded_without_its_version_is_refused(played):
    tournament, duel, organiser, _ = played
    client, data = previewed(duel, organiser, "void_replay")
    del data["version"]
    response = client.post(ruling_url(duel), data)
    assert response.status_code == 422 and OUT_OF_DATE in text(response)
    assert not AuditEntry.objects.filter(tournament=tournament, action="result_voided").exists()
    assert Duel.objects.get(pk=duel.pk).status == DuelStatus.FINISHED
    # A preview needs none: it is drawn afresh.
    data.pop("apply")
    assert client.post(ruling_url(duel), {**data, "preview": "1"}).status_code == 200


def test_a_duel_sheet_without_its_revision_is_refused(round1):
    tournament, duel, referee, _ = round1
    data = duel_sheet(duel, referee)
    del data["rev"]
    response = client_for(referee).post(duel_paper_url(duel), data)
    assert response.status_code == 422 and OUT_OF_DATE in text(response)
    assert not Result.objects.filter(duel__tournament=tournament).exists()
    assert not moves(duel)


# -- giving running duels back -----------------------------------------------------------------


def test_an_organisers_move_never_takes_a_duel(round1):
    tournament, duel, referee, _ = round1
    refereeing.append_event(
        duel, tournament.created_by, {"type": "round", "cards": {"A": 7, "B": 3}}, 0
    )
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING and duel.referee_id is None
    # The referee at the table goes on from their console: it is not read-only.
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 1, "B": 2}}, 1)
    duel.refresh_from_db()
    assert duel.seq == 2
    page = client_for(referee).get(console_url(duel)).content.decode()
    assert "only they or an organiser enter its moves" not in page and 'id="round-form"' in page


def running(round1):
    tournament, duel, referee, second = round1
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    duel.refresh_from_db()
    assert duel.referee_id == referee.pk
    return tournament, duel, referee, second


def assign(tournament, duel, user, referee, confirm):
    data = {"referee": referee.pk if referee else ""}
    if confirm:
        data["confirm"] = "1"
    return client_for(user).post(
        reverse("organiser:assign_referee", args=[tournament.slug, duel.pk]), data
    )


def test_a_running_duel_is_given_to_another_referee_and_back_from_the_rounds_page(round1):
    tournament, duel, referee, second = running(round1)
    organiser = tournament.created_by
    page = client_for(organiser).get(rounds_url(tournament)).content.decode()
    assert f"Yes, move this running duel away from {referee.staff_label}" in page
    refused = assign(tournament, duel, organiser, second, confirm=False)
    assert refused.status_code == 422 and "tick the confirmation" in text(refused)
    duel.refresh_from_db()
    assert duel.referee_id == referee.pk
    assert assign(tournament, duel, organiser, second, confirm=True).status_code == 302
    duel.refresh_from_db()
    assert duel.referee_id == second.pk
    entry = AuditEntry.objects.get(tournament=tournament, action="duel_taken")
    assert entry.actor == organiser and entry.detail["previous"] == referee.pk
    # The referee it was taken from is told who took it, on their console.
    console = client_for(referee).get(console_url(duel)).content.decode()
    assert f"{organiser} took this duel from you at " in console
    # The audit log says it in words: who took it, from whom.
    log = client_for(organiser).get(reverse("organiser:audit", args=[tournament.slug]))
    assert "Duel taken from its referee" in text(log)
    assert f"taken from: {referee.staff_label}" in text(log)
    assert f"referee: {second.staff_label}" in text(log)
    # And it is given back the same way.
    assert assign(tournament, duel, organiser, referee, confirm=True).status_code == 302
    duel.refresh_from_db()
    assert duel.referee_id == referee.pk


def test_taking_a_duel_from_the_console_is_confirmed_and_logged(round1):
    tournament, duel, referee, _ = running(round1)
    organiser = tournament.created_by
    client = client_for(organiser)
    page = client.get(console_url(duel)).content.decode()
    assert "Take this duel" in page and f"Yes, take this duel from {referee}" in page
    unconfirmed = client.post(console_url(duel, "take"), {})
    assert unconfirmed.status_code == 422 and "tick the confirmation" in text(unconfirmed)
    duel.refresh_from_db()
    assert duel.referee_id == referee.pk
    # The page's own box sends what every confirmation sends.
    assert 'name="confirm" id="take-confirm" value="1"' in page
    assert client.post(console_url(duel, "take"), {"confirm": "1"}).status_code == 302
    duel.refresh_from_db()
    assert duel.referee_id == organiser.pk
    assert AuditEntry.objects.filter(tournament=tournament, action="duel_taken").count() == 1
    assert "took this duel from you" in client_for(referee).get(console_url(duel)).content.decode()


def test_an_organiser_who_took_a_duel_and_gave_it_back_is_not_told_it_was_taken(round1):
    """Walk of the night: the organiser took a running duel, then handed it back to its
    referee; their own console said "… took this duel from you", which nobody did."""
    tournament, duel, referee, _ = running(round1)
    organiser = tournament.created_by
    assert assign(tournament, duel, organiser, organiser, confirm=True).status_code == 302
    assert assign(tournament, duel, organiser, referee, confirm=True).status_code == 302
    duel.refresh_from_db()
    assert duel.referee_id == referee.pk
    assert (
        "took this duel from you"
        not in client_for(organiser).get(console_url(duel)).content.decode()
    )
    assert (
        "took this duel from you" not in client_for(referee).get(console_url(duel)).content.decode()
    )


FORM_TAG = re.compile(r"<form\b[^>]*>")


def test_every_form_that_records_a_result_is_never_refilled_by_the_browser(round1):
    """Back after a paper sheet (or a move without JavaScript) showed the next round's form
    refilled with the same choices by the browser's form restoration; one tap recorded a round
    nobody played. `autocomplete="off"` on the form keeps Chromium and Firefox from restoring
    it, so a second result needs the choices made again."""
    tournament, duel, referee, _ = running(round1)
    organiser = tournament.created_by
    for page in (
        client_for(organiser).get(rounds_url(tournament)).content.decode(),
        client_for(referee).get(console_url(duel)).content.decode(),
    ):
        # The tournament's own forms (the site's sign-out button is not one).
        posting = [
            tag for tag in FORM_TAG.findall(page) if 'method="post"' in tag and 'action="/t/' in tag
        ]
        assert posting
        assert all('autocomplete="off"' in tag for tag in posting), posting


def test_a_referee_cannot_take_a_duel_from_the_console(round1):
    tournament, duel, referee, second = running(round1)
    response = client_for(second).post(console_url(duel, "take"), {"confirm": "1"})
    assert response.status_code == 403
    duel.refresh_from_db()
    assert duel.referee_id == referee.pk


@pytest.mark.parametrize("value", ["0", "", "on", "yes"])
def test_a_confirmation_is_read_one_way_everywhere(round1, value):
    """`confirm=0` (or anything but the boxes' own "1") takes no duel, from the console or
    from the Rounds page: one reading of a confirmation (`_common.confirmed`)."""
    tournament, duel, referee, second = running(round1)
    organiser = tournament.created_by
    taken = client_for(organiser).post(console_url(duel, "take"), {"confirm": value})
    assert taken.status_code == 422 and "tick the confirmation" in text(taken)
    moved = client_for(organiser).post(
        reverse("organiser:assign_referee", args=[tournament.slug, duel.pk]),
        {"referee": second.pk, "confirm": value},
    )
    assert moved.status_code == 422 and "tick the confirmation" in text(moved)
    duel.refresh_from_db()
    assert duel.referee_id == referee.pk
    assert not AuditEntry.objects.filter(tournament=tournament, action="duel_taken").exists()


def test_a_console_open_on_a_taken_duel_redraws_read_only_at_its_next_poll(round1):
    """The console left open on the old referee's phone is redrawn at its next poll after
    the duel is taken (not 204: the poll names the referee it shows), read-only, saying who
    took it, its move pad and ending form gone; a move it still sends is refused."""
    tournament, duel, referee, second = running(round1)
    organiser = tournament.created_by
    keys = console_keys(duel, referee)
    client = client_for(referee)
    page = client.get(console_url(duel)).content.decode()
    poll = re.search(r'class="poller" hx-get="([^"]+)"', page)[1].replace("&amp;", "&")
    assert client.get(poll, headers=HTMX).status_code == 204
    assert assign(tournament, duel, organiser, second, confirm=True).status_code == 302
    redrawn = client.get(poll, headers=HTMX)
    assert redrawn.status_code == 200
    words = text(redrawn)
    assert f"{organiser} took this duel from you at " in words
    assert 'id="round-form"' not in words and 'id="console-ending"' in words
    assert 'name="ending"' not in words
    late = client.post(
        console_url(duel, "move"), {**keys, "type": "round", "card_A": 1, "card_B": 2}, headers=HTMX
    )
    assert late.status_code in (403, 409)
    assert len(moves(duel)) == 1


def test_a_duel_sheet_drawn_before_a_referee_was_given_still_records(round1):
    """A referee or a table given since redraws the consoles (their poll names both), not
    what the sheet records: it goes through."""
    tournament, duel, referee, second = round1
    data = duel_sheet(duel, second)
    refereeing.assign_referee(duel, tournament.created_by, second, "Table 4")
    assert client_for(second).post(duel_paper_url(duel), data).status_code == 302
    assert Result.objects.filter(duel=duel).count() == 1


def test_a_console_open_on_a_duel_moved_to_another_table_redraws(round1):
    """The poll names the table the console shows (any text, "Tëble 5 & co"): a new table
    redraws it; unchanged, it stays 204."""
    tournament, duel, referee, _ = running(round1)
    client = client_for(referee)

    def poll_address():
        page = client.get(console_url(duel)).content.decode()
        return re.search(r'class="poller" hx-get="([^"]+)"', page)[1].replace("&amp;", "&")

    refereeing.assign_referee(duel, tournament.created_by, referee, "Tëble 5 & co")
    poll = poll_address()
    assert client.get(poll, headers=HTMX).status_code == 204
    refereeing.assign_referee(duel, tournament.created_by, referee, "Table 6")
    moved = client.get(poll, headers=HTMX)
    assert moved.status_code == 200 and "At Table 6" in text(moved)
