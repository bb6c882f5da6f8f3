"""The big screen speaks the tournament's language (issue 29), whatever the projector's browser
says: the page, its `<html lang>` (base.html reads the active language) and every panel a poll
brings are rendered under `translation.override` of the tournament's language; a tournament
with none follows the viewer, as every other page does."""

import pytest
from django.test import Client
from django.utils import translation

from tests.factories import TournamentFactory
from tournaments.models import Tournament
from tournaments.selectors_public.screen import screen_language
from tournaments.views import public

pytestmark = pytest.mark.django_db

HAS_LANGUAGE = hasattr(Tournament, "language")
needs_field = pytest.mark.skipif(
    not HAS_LANGUAGE, reason="Tournament.language comes with the organiser's setting (i18n-org)"
)


def words(language: str, *msgids: str) -> list[str]:
    with translation.override(language):
        return [translation.gettext(m) for m in msgids]


def screen(tournament, accept: str, panel: str = ""):
    client = Client()
    url = f"/t/{tournament.slug}/screen/" + (f"?panel={panel}" if panel else "")
    headers = {"Accept-Language": accept}
    if panel:
        headers["HX-Request"] = "true"
    return client.get(url, headers=headers)


def test_the_catalogue_has_the_screen_words():
    """Without a translation the tests below would pass in English: make sure they cannot."""
    (leave,) = words("es", "Leave the big screen")
    (rank,) = words("fr", "Rank")
    assert leave != "Leave the big screen" and rank != "Rank"


def test_screen_language_is_the_tournaments_else_the_viewers():
    class Plain:
        language = ""

    chosen = Plain()
    chosen.language = "ms"
    assert screen_language(chosen) == "ms"
    assert screen_language(Plain()) == ""  # each viewer's own
    assert screen_language(object()) == ""  # before the field exists


def test_the_screen_renders_under_the_screen_language(monkeypatch):
    """The override covers the whole answer: the frame, the panels and their polls."""
    tournament = TournamentFactory(published=True)
    monkeypatch.setattr(public, "screen_language", lambda t: "es")
    (leave, pause, now) = words("es", "Leave the big screen", "Pause", "Now playing")
    response = screen(tournament, accept="en-GB,en;q=0.9")
    html = response.content.decode()
    assert response.status_code == 200 and response["Content-Language"] == "es"
    assert leave in html and pause in html and now in html
    assert "Leave the big screen" not in html
    (rank, player) = words("es", "Rank", "Player")
    panel = screen(tournament, accept="en-GB", panel="standings").content.decode()
    assert f">{rank}<" in panel and f">{player}<" in panel


@needs_field
def test_the_screen_follows_the_tournaments_language_not_the_browser():
    tournament = TournamentFactory(published=True, language="es")
    response = screen(tournament, accept="fr-FR,fr;q=0.9,en;q=0.5")
    html = response.content.decode()
    (leave,) = words("es", "Leave the big screen")
    (leave_fr,) = words("fr", "Leave the big screen")
    assert response["Content-Language"] == "es" and '<html lang="es"' in html
    assert leave in html and leave_fr not in html
    (rank,) = words("es", "Rank")
    panel = screen(tournament, accept="fr-FR", panel="standings").content.decode()
    assert f">{rank}<" in panel
    # The rest of the site still follows the visitor.
    live = Client().get(f"/t/{tournament.slug}/standings/", headers={"Accept-Language": "fr"})
    assert live["Content-Language"] == "fr"


@needs_field
def test_a_screen_without_a_language_follows_the_viewer():
    tournament = TournamentFactory(published=True, language="")
    response = screen(tournament, accept="fr-FR,fr;q=0.9")
    (leave,) = words("fr", "Leave the big screen")
    assert response["Content-Language"] == "fr" and leave in response.content.decode()
