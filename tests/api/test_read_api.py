"""The public read API: every endpoint, published and unpublished, ETags, fixed query counts,
and an OpenAPI schema that validates."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.tournaments.test_group_services import make, play_round
from tournaments import services

pytestmark = pytest.mark.django_db

ENDPOINTS = [
    "",
    "/standings",
    "/groups",
    "/rounds",
    "/tiebreaks",
    "/bracket",
    "/standings.csv",
    "/results.csv",
]


@pytest.fixture
def running():
    tournament, organiser, referee, entrants = make()
    services.start_group_phase(tournament, organiser)
    duel = play_round(tournament, referee, 1, entrants[0], entrants[15])
    tournament.refresh_from_db()
    return tournament, organiser, referee, entrants, duel


def urls(tournament, duel):
    base = f"/api/tournaments/{tournament.slug}"
    return [base + e for e in ENDPOINTS] + [
        f"{base}/duels/{duel.pk}",
        f"{base}/duels/{duel.pk}/record",
    ]


def test_every_endpoint_is_404_to_the_public_while_unpublished(running):
    tournament, organiser, referee, entrants, duel = running
    for url in urls(tournament, duel):
        assert Client().get(url).status_code == 404, url


def test_a_miss_says_so_in_the_readers_language(running):
    """Issue 29: the 404's words are the catalogue's, whatever raised it."""
    from django.utils import translation

    tournament, *_ = running
    for code in ("en-gb", "es", "ms"):
        answer = Client().get("/api/tournaments/no-such-cup/standings", HTTP_ACCEPT_LANGUAGE=code)
        with translation.override(code):
            expected = translation.gettext("Not found.")
        assert answer.status_code == 404 and answer.json() == {"detail": expected}
    assert expected != "Not found."


def test_every_endpoint_answers_its_own_people_while_unpublished(running):
    tournament, organiser, referee, entrants, duel = running
    client = Client()
    client.force_login(referee)
    for url in urls(tournament, duel):
        assert client.get(url).status_code == 200, url


def test_every_endpoint_is_public_once_published(running):
    tournament, organiser, *_, duel = running
    services.set_published(tournament, True, organiser)
    for url in urls(tournament, duel):
        response = Client().get(url)
        assert response.status_code == 200, url


def test_summary_standings_and_groups(running):
    tournament, organiser, referee, entrants, duel = running
    services.set_published(tournament, True, organiser)
    base = f"/api/tournaments/{tournament.slug}"
    summary = Client().get(base).json()
    assert summary["phase"] == "group_phase" and summary["current_round"] == 2
    assert [g["total"] for g in summary["groups"]] == [3, -2]
    standings = Client().get(base + "/standings").json()
    assert standings[0]["name"] == entrants[0].name and standings[0]["points"] == 3
    assert standings[0]["rank"] == 1 and standings[1]["rank"] == 2 and standings[1]["shared"]
    assert standings[-1]["points"] == -2
    groups = Client().get(base + "/groups").json()
    assert groups[0]["by_round"][:2] == [3, 3]
    assert len(groups[0]["members"]) == 15


def test_the_summary_says_whether_duels_are_played_online_and_their_seat_clock():
    tournament, organiser, _referee, _entrants = make()
    base = f"/api/tournaments/{tournament.slug}"
    services.set_published(tournament, True, organiser)
    settings = Client().get(base).json()["settings"]
    assert (settings["online_duels"], settings["seat_clock_seconds"]) == (False, 30)
    services.configure(tournament, organiser, online_duels=True, seat_clock=45)
    settings = Client().get(base).json()["settings"]  # a changed setting is a new answer
    assert (settings["online_duels"], settings["seat_clock_seconds"]) == (True, 45)


def test_rounds_show_membership_as_it_was(running):
    tournament, organiser, referee, entrants, duel = running
    services.set_published(tournament, True, organiser)
    services.change_groups(tournament, organiser, {entrants[1].pk: 2})
    rounds = Client().get(f"/api/tournaments/{tournament.slug}/rounds").json()
    first, second = (str(g.pk) for g in tournament.groups.order_by("order"))
    assert entrants[1].name in rounds[0]["members"][first]
    assert entrants[1].name in rounds[1]["members"][second]
    assert rounds[0]["duels"][0]["winner"] == entrants[0].name


def test_duel_record_replays_to_the_cached_state(running):
    from games.split_uno import replay

    tournament, organiser, referee, entrants, duel = running
    services.set_published(tournament, True, organiser)
    record = Client().get(f"/api/tournaments/{tournament.slug}/duels/{duel.pk}/record").json()
    assert record["format"] == "split-uno-duel" and record["version"] == 1
    duel.refresh_from_db()
    assert replay(record) == duel.state


def test_tiebreaks_show_what_would_be_played_if_it_ended_now(running):
    tournament, organiser, *_, duel = running
    services.set_published(tournament, True, organiser)
    body = Client().get(f"/api/tournaments/{tournament.slug}/tiebreaks").json()
    knockouts = body["if_it_ended_now"]["knockouts"]
    assert len(knockouts) == 1 and len(knockouts[0]["players"]) == 19  # all level at 0
    assert knockouts[0]["positions"] == [2, 20]
    assert body["planned"] is None


def test_an_unchanged_poll_is_a_304_and_a_change_makes_it_200(running):
    tournament, organiser, referee, entrants, duel = running
    services.set_published(tournament, True, organiser)
    url = f"/api/tournaments/{tournament.slug}/standings"
    first = Client().get(url)
    etag = first["ETag"]
    again = Client().get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again["ETag"] == etag
    play_round(tournament, referee, 2, entrants[2], entrants[16])
    after = Client().get(url, headers={"If-None-Match": etag})
    assert after.status_code == 200 and after["ETag"] != etag


def test_csv_exports(running):
    tournament, organiser, *_, duel = running
    services.set_published(tournament, True, organiser)
    text = Client().get(f"/api/tournaments/{tournament.slug}/standings.csv").content.decode()
    lines = text.splitlines()
    assert lines[0] == "placing,rank,name,status,points,played,won,lost"
    assert lines[1].startswith(",1,") and lines[2].startswith(",T2,")  # no placings yet
    results = Client().get(f"/api/tournaments/{tournament.slug}/results.csv").content.decode()
    assert "forfeit" in results.splitlines()[1]


def test_query_counts_are_fixed_and_at_most_ten():
    counts = {}
    for n, sizes in ((10, (5, 5)), (30, (15, 15))):
        tournament, organiser, referee, entrants = make(n, sizes)
        services.start_group_phase(tournament, organiser)
        for number in range(1, 4):
            play_round(tournament, referee, number, entrants[number], entrants[sizes[0]])
        services.set_published(tournament, True, organiser)
        duel = tournament.duels.first()
        for url in urls(tournament, duel):
            with CaptureQueriesContext(connection) as queries:
                assert Client().get(url).status_code == 200
            counts.setdefault(url.split(tournament.slug)[1].replace(str(duel.pk), "ID"), []).append(
                len(queries)
            )
    for endpoint, (small, large) in counts.items():
        assert small == large, endpoint
        assert large <= 10, (endpoint, large)


def test_the_openapi_schema_validates():
    from openapi_spec_validator import validate

    schema = Client().get("/api/openapi.json").json()
    validate(schema)
    paths = schema["paths"]
    assert "/api/tournaments/{slug}/standings" in paths
    assert "/api/tournaments/{slug}/duels/{duel_id}/record" in paths


def test_the_labels_follow_the_request_language_and_the_keys_stay(running):
    """Issue 29: `title`, `status_label`, `finish_label` and every other `…_label` are in the
    request's language (`Accept-Language`); the keys are the same in every language, and an
    answer in one language is never served (from the shared cache, or as a 304) for another."""
    tournament, organiser, referee, entrants, duel = running
    services.set_published(tournament, True, organiser)
    url = f"/api/tournaments/{tournament.slug}/rounds"
    english = Client().get(url, headers={"Accept-Language": "en"})
    spanish = Client().get(url, headers={"Accept-Language": "es"})
    assert english.status_code == spanish.status_code == 200
    assert "Accept-Language" in spanish["Vary"]
    en_round, es_round = english.json()[0], spanish.json()[0]
    en_duel, es_duel = en_round["duels"][0], es_round["duels"][0]

    def keys(row: dict) -> dict:
        return {
            k: [keys(d) for d in v] if k == "duels" else v
            for k, v in row.items()
            if not (k == "title" or k.endswith("_label"))
        }

    assert keys(es_duel) == keys(en_duel) and keys(es_round) == keys(en_round)
    assert set(es_duel) == set(en_duel)
    assert (en_duel["title"], en_duel["status_label"]) == ("Group round 1", "Finished")
    assert es_duel["title"] == "Ronda de grupos 1"
    assert es_duel["status_label"] == "Terminado"
    assert es_duel["finish_label"] and es_duel["finish_label"] != en_duel["finish_label"]
    assert es_round["state_label"] != en_round["state_label"]
    # A 304 holds for one language only: the English tag is no Spanish answer.
    again = Client().get(url, headers={"Accept-Language": "es", "If-None-Match": english["ETag"]})
    assert again.status_code == 200 and again.json()[0]["duels"][0]["title"] == es_duel["title"]
    # The duel on its own, and the results sheet: the same labels, the same keys.
    detail = (
        Client()
        .get(
            f"/api/tournaments/{tournament.slug}/duels/{duel.pk}", headers={"Accept-Language": "es"}
        )
        .json()
    )
    assert detail["title"] == es_duel["title"] and detail["status"] == en_duel["status"]
    sheet = (
        Client()
        .get(f"/api/tournaments/{tournament.slug}/results.csv", headers={"Accept-Language": "es"})
        .content.decode()
    )
    assert (
        sheet.splitlines()[0]
        == Client()
        .get(f"/api/tournaments/{tournament.slug}/results.csv")
        .content.decode()
        .splitlines()[0]
    )
    assert "Ronda de grupos 1" in sheet
