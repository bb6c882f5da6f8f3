"""Odd input answered in words, never with a 500 (issue 14's first findings): superscript
digits where a number is read, a NUL in an API path or a name, an unknown referee id."""

import pytest

from core.errors import ServiceError
from core.numbers import read_int
from core.text import clean_line
from duels.models import Duel
from tests.factories import UserFactory
from tournaments import services
from tournaments.services import refereeing

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("value", ["²", "٣", "1²", "-1", " 1", "1e3", "", "9999999999", None])
def test_only_ascii_digits_in_bounds_are_a_number(value):
    assert read_int(value, hi=10**9) is None


def test_a_plain_number_reads():
    assert (read_int("0"), read_int("42"), read_int("42", hi=40)) == (0, 42, None)


def test_names_lose_invisible_characters_and_refuse_control_ones():
    assert clean_line("A\u200bda \u202eX") == "Ada X"
    assert clean_line("\u200b\u200b") == ""
    with pytest.raises(ServiceError, match="control characters"):
        clean_line("Ada\x00")


def test_odd_input_on_public_and_staff_addresses_is_not_a_server_error(client):
    organiser = UserFactory()
    tournament = services.create_tournament(name="Odd Cup", created_by=organiser)
    services.set_published(tournament, True, organiser)
    assert client.get("/api/tournaments/a%00b/standings").status_code == 404
    assert client.get(f"/api/tournaments/{tournament.slug}%00/standings").status_code == 404
    listed = services.register_list(tournament, "Ada\x00Lovelace\nEve", organiser)
    uploaded = services.register_csv(tournament, b"name\nBob\x00\nCy\n", organiser)
    assert sorted(e.name for e in tournament.entrants.all()) == ["Cy", "Eve"]
    refused = [r for r in [*listed, *uploaded] if "control characters" in str(r)]
    assert len(refused) == 2  # each refused line reported in words, the good ones saved


def test_an_unknown_referee_id_is_refused_and_keeps_the_referee(client):
    from tests.factories import group_phase_duel

    duel, referee = group_phase_duel()
    refereeing.assign_referee(duel, duel.tournament.created_by, referee)
    client.force_login(duel.tournament.created_by)
    address = f"/t/{duel.tournament.slug}/manage/duels/{duel.pk}/referee/"
    for odd in ("999999", "²", "x"):
        response = client.post(address, {"referee": odd})
        assert response.status_code == 422
        assert "not one of this tournament" in response.content.decode()
    assert Duel.objects.get(pk=duel.pk).referee == referee


def test_a_replay_step_in_superscript_digits_shows_the_end_not_a_500(client):
    from tests.factories import group_phase_duel

    duel, referee = group_phase_duel()
    services.set_published(duel.tournament, True, duel.tournament.created_by)
    refereeing.append_event(duel, referee, {"type": "forfeit", "seat": "B"}, 0)
    address = f"/t/{duel.tournament.slug}/duels/{duel.pk}/replay/"
    for odd in ("²", "٣", "-1", "99999999999"):
        assert client.get(address, {"step": odd}).status_code == 200


def test_csv_exports_write_formulas_as_text_and_numbers_as_numbers(client):
    import csv
    import io

    organiser = UserFactory()
    tournament = services.create_tournament(name="Sheet Cup", created_by=organiser)
    services.set_published(tournament, True, organiser)
    services.register_list(tournament, '=HYPERLINK("http://x","y")\n+1\n@cmd\nAda', organiser)
    from tournaments.services.standings import recompute_standings

    recompute_standings(tournament)
    body = client.get(f"/api/tournaments/{tournament.slug}/standings.csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(body)))  # by column name: placings come first
    names = {row["name"] for row in rows}
    assert {'\'=HYPERLINK("http://x","y")', "'+1", "'@cmd", "Ada"} <= names
    assert all(row["points"].lstrip("-").isdigit() for row in rows)  # points stay numbers


def test_a_large_upload_is_refused_before_anything_is_saved_and_reports_are_summarised(client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    organiser = UserFactory()
    tournament = services.create_tournament(name="Big Cup", created_by=organiser)
    client.force_login(organiser)
    address = f"/t/{tournament.slug}/manage/players/csv/"
    huge = ("name\n" + "".join(f"P{i}\n" for i in range(600_000))).encode()
    response = client.post(address, {"file": SimpleUploadedFile("p.csv", huge)})
    assert response.status_code == 422
    assert "too large" in response.content.decode()
    assert tournament.entrants.count() == 0
    rows = client.post(
        address,
        {"file": SimpleUploadedFile("p.csv", ("".join(f"P{i}\n" for i in range(501))).encode())},
    )
    assert rows.status_code == 422 and "at most 500" in rows.content.decode()
    assert tournament.entrants.count() == 0
    # 100 refused lines (the same name again and again) and 3 good ones: the good ones are
    # registered; the report shows them, the first 20 refused lines and a count of the rest.
    mixed = "Ada\nBob\nCy\n" + "Ada\n" * 100
    page = client.post(address, {"file": SimpleUploadedFile("p.csv", mixed.encode())})
    html = page.content.decode()
    assert sorted(e.name for e in tournament.entrants.all()) == ["Ada", "Bob", "Cy"]
    assert "3 registered, 100 refused" in html
    assert html.count("<strong>Refused:</strong>") == 20
    assert "and 80 more refused lines, not shown" in html


def test_a_sign_in_with_a_huge_username_is_refused_and_recorded_bounded(client):
    # On PostgreSQL the unbounded username overflowed django-axes' column: a 500 (the fuzz).
    from axes.models import AccessAttempt

    response = client.post("/accounts/login/", {"username": "x" * 300, "password": "wrong"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()
    assert [len(a.username) for a in AccessAttempt.objects.all()] == [150]
