"""The words of tournaments/presentation.py and duels/words.py in the reader's language (issue
29): the engine's and the format's keys stay, the words around them are translated, and
English reads exactly as before."""

import pytest
from django.urls import reverse
from django.utils import translation

from duels import words
from tests.tournaments.test_checkin import client_for
from tests.tournaments.test_checkin import cup as cup_fixture
from tournaments import format as fmt
from tournaments import presentation as p


def test_titles_and_stages_in_each_language():
    with translation.override("en-gb"):
        assert p.title_of("group", "", 9) == "Group round 9"
        assert p.title_of("playoff", "Q1", None, replay=True) == "Qualifier 1 (replay)"
        assert p.title_of("tie_break", "K1-r1-m2", None) == "Tie-break round 1, match 2"
    with translation.override("es"):
        assert p.title_of("group", "", 9) == "Ronda de grupos 9"
        assert p.title_of("playoff", "GF", None) == "Gran Final"
        assert p.stage_name("E1") == "Eliminatoria"
    with translation.override("fr"):
        assert p.title_of("playoff", "Q1", None, replay=True) == "Qualification 1 (match rejoué)"
    with translation.override("ms"):
        assert p.title_of("playoff", "Q2", None) == "Kelayakan 2"
        assert p.table_label("3") == "Meja 3"
    # The format keeps its own English names and its keys.
    assert fmt.STAGE_NAMES["GF"] == "Grand Final"


def test_plurals_follow_each_language():
    with translation.override("en-gb"):
        assert p.minutes_text(1) == "1 minute" and p.minutes_text(15) == "15 minutes"
        assert p.minutes_text(-10, signed=True) == "−10 minutes"
    with translation.override("fr"):
        assert p.players_text(1) == "1 joueur" and p.players_text(3) == "3 joueurs"
    with translation.override("ms"):
        assert p.players_text(1) == "1 pemain" and p.players_text(3) == "3 pemain"


def test_the_engine_words_are_translated_at_the_edge_and_the_card_names_stay():
    with translation.override("es"):
        assert words.finish_label("shed_all") == "se quedó sin cartas"
        assert words.choice_label("counter", "draw_four", "Ada", "Bao") == "Contrarrestar con +4"
        assert "BLOCK" in words.decision_text("block_counter", "Ada", "Bao")
        assert words.duel_round(3) == "Ronda del duelo 3"
    with translation.override("en-gb"):
        assert words.decision_text("counter", "Ada", "Bao") == "Ada may counter Bao's card"


def test_the_format_rules_verdicts_in_words_with_names():
    problem = fmt.check_split({1: 10, 2: 10, 3: 11}, [10, 11])[0]
    assert problem.code == "group_too_small" and problem.params["size"] == 2
    with translation.override("en-gb"):
        assert p.rule_text(problem.code, problem.params, groups={10: "Reds"}) == (
            "Reds has 2 members; it needs at least 5."
        )
    with translation.override("es"):
        assert p.rule_text(problem.code, problem.params, groups={10: "Reds"}) == (
            "Reds tiene 2 miembros; necesita al menos 5."
        )
    verdict = fmt.check_change({1: 10}, {1: 10, 5: 11}, [10, 11])
    with translation.override("fr"):
        text = p.rule_text(verdict.code, verdict.params, names={5: "Ada"}, fallback="?")
    assert text == "Ada n’est pas dans la phase de groupes et ne peut pas rejoindre un groupe."


def test_the_audit_log_names_its_details_in_the_readers_language():
    detail = {"entrant": 1, "mode": "full", "replay": True, "placings": {"1": 1, "2": 2}}
    names = {"entrants": {1: "Ada", 2: "Bao"}, "groups": {}, "duels": {}, "users": {}}
    with translation.override("en-gb"):
        assert p.audit_text(detail, **names) == (
            "player: Ada; mode: full; replayed: yes; placings: champion: Ada; 2nd: Bao"
        )
    with translation.override("es"):
        assert p.audit_text(detail, **names) == (
            "jugador: Ada; modo: completo; repetido: sí; clasificación final: campeón: Ada; 2º: Bao"
        )


cup = cup_fixture  # the check-in tests' tournament, a player in it


@pytest.mark.django_db
def test_my_pages_live_part_is_tagged_by_its_language(cup):  # noqa: F811
    """/me/'s live fragment: a 304 is only for the language the caller holds (issue 29)."""
    tournament, users = cup
    client = client_for(users["player"])
    me = reverse("player:tournaments")
    english = client.get(me, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    spanish = client.get(me, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="es")
    assert english["ETag"] != spanish["ETag"]
    again = client.get(
        me, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="es", HTTP_IF_NONE_MATCH=english["ETag"]
    )
    assert again.status_code == 200
    same = client.get(
        me, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="es", HTTP_IF_NONE_MATCH=spanish["ETag"]
    )
    assert same.status_code == 304
